package polymage

import (
	"fmt"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's benchmark size and depth for pyramid blending.
const (
	PyramidRows   = 2048
	PyramidCols   = 2048
	PyramidLevels = 4
)

func init() {
	register(Entry{
		Name:     "pyramid_blending",
		Stages:   44,
		Build:    func() (*scop.Program, error) { return PyramidBlending(PyramidLevels) },
		Defaults: map[string]int64{"R": PyramidRows, "C": PyramidCols},
		Small:    map[string]int64{"R": 32, "C": 32},
		Fill:     fillPyramidBlending,
	})
}

// PyramidBlending blends two colour images img1 and img2 (f32, 3 x
// (R+4) x (C+4), channel outermost, a 2-pixel ghost ring around R x C)
// under a mask (f32, (R+4) x (C+4), values in [0, 1]) with Burt and
// Adelson's multiresolution spline, over levels pyramid levels (4 in
// PolyMage). The levels follow the geometry of type pyramid with g = 2.
//
//	Dx_l_f, Dy_l_f     Gaussian pyramid, l = 1..levels-1, f = img1, img2, mask:
//	                   the 5-tap [1 4 6 4 1]/16 filter over rows, then columns,
//	                   each keeping every other line (reads 2x-2+{-2..2})
//	Ux_l_f, Uy_l_f     up-sampling of level l+1 of f = img1, img2 to level l,
//	                   l = 0..levels-2: [1 6 1]/8 at even, [4 4]/8 at odd lines
//	                   (reads x/2, x/2+1, x/2+2 and (x-1)/2+1, (x+1)/2+1)
//	Res_l              blend of the Laplacian pyramids under the mask's:
//	                   (G1_l - Uy_l_img1) mask_l + (G2_l - Uy_l_img2) (1 - mask_l),
//	                   l = 0..levels-1, with G1 and G2 alone at the last level
//	Ux_l_coll, Uy_l_coll, coll_l
//	                   collapse, l = levels-2..0: up(coll_l+1) + Res_l, where
//	                   coll_levels-1 is Res_levels-1; coll_0 is the output, "blend"
//
// That is 6(levels-1) Gaussian, 4(levels-1) up-sampling, levels blending
// and 3(levels-1) collapsing stages, 14 levels - 13 in all: 43 at
// PolyMage's 4 levels, against the 44 PolyMage reports. PolyMage's
// specification (polymage_blending.py) has 49 functions, the Laplacian
// differences lapl1_l and lapl2_l among them; as in PolyMage's own graph
// of the benchmark, they are computed within the blend (each is read
// once, at the same point), while the collapse keeps its column
// up-sampling as a stage, as the Laplacian pyramids do.
//
// The output blend is 3 x (R+4) x (C+4), the ghost ring included, as
// PolyMage's. PolyMage leaves the ring of a filtered level undefined;
// here it is 0, so that every read is of a defined point. Parameters R
// and C (at least 1) default to PyramidRows and PyramidCols.
func PyramidBlending(levels int) (*scop.Program, error) {
	if levels < 1 {
		return nil, fmt.Errorf("pyramid blending needs at least 1 level, not %d", levels)
	}
	p := dsl.NewPipeline("pyramid_blending")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	c, x, y := p.Var("c"), p.Var("x"), p.Var("y")
	q := &pyramid{R: R, C: C, g: 2, x: x, y: y}
	img1 := p.Input("img1", dsl.F32, 3, R.Add(4), C.Add(4))
	img2 := p.Input("img2", dsl.F32, 3, R.Add(4), C.Add(4))
	mask := p.Input("mask", dsl.F32, R.Add(4), C.Add(4))
	rgb := []dsl.Dim{c.In(0, 3)}

	down := downFilter{off: []int{-2, -1, 0, 1, 2}, w: []float64{1, 4, 6, 4, 1}, scale: 0.0625}
	up := func(v dsl.Var, at func(i dsl.Expr) dsl.Expr) (dsl.Expr, dsl.Expr, bool) {
		even := dsl.Add(at(v.Div(2)), at(v.Div(2).Add(1)).Mul(6.0), at(v.Div(2).Add(2))).Mul(0.125)
		odd := dsl.Add(at(v.Sub(1).Div(2).Add(1)).Mul(4.0), at(v.Add(1).Div(2).Add(1)).Mul(4.0)).Mul(0.125)
		return even, odd, true
	}

	// 1. Gaussian pyramids.
	g1, g2, gm := []reader{imageReader(img1, c)}, []reader{imageReader(img2, c)}, []reader{imageReader(mask)}
	gauss := func(src reader, l int, name string, lead []dsl.Dim, at ...any) reader {
		dx := q.downX(p, fmt.Sprintf("Dx_%d_%s", l, name), lead, l, src, down)
		dy := q.downY(p, fmt.Sprintf("Dy_%d_%s", l, name), lead, l, funcReader(dx, at...), down)
		return funcReader(dy, at...)
	}
	for l := 1; l < levels; l++ {
		g1 = append(g1, gauss(g1[l-1], l, "img1", rgb, c))
		g2 = append(g2, gauss(g2[l-1], l, "img2", rgb, c))
		gm = append(gm, gauss(gm[l-1], l, "mask", nil))
	}

	// expand up-samples level l+1 (read through src) to level l.
	expand := func(src reader, l int, name string) reader {
		ux := q.upX(p, fmt.Sprintf("Ux_%d_%s", l, name), rgb, l, src, up)
		uy := q.upY(p, fmt.Sprintf("Uy_%d_%s", l, name), rgb, l, funcReader(ux, c), up)
		return funcReader(uy, c)
	}

	// 2. Up-sampled Gaussian levels, for the Laplacian pyramids.
	ups := func(g []reader, img string) []reader {
		u := make([]reader, levels-1)
		for l := range levels - 1 {
			u[l] = expand(g[l+1], l, img)
		}
		return u
	}
	u1, u2 := ups(g1, "img1"), ups(g2, "img2")

	// 3. Blend the Laplacian pyramids, level by level, under the mask's
	// Gaussian pyramid; the coarsest Laplacian level is the Gaussian one.
	res := make([]reader, levels)
	resF := make([]*dsl.Func, levels)
	for l := range levels {
		lap1, lap2 := g1[l](x, y), g2[l](x, y)
		if l < levels-1 {
			lap1, lap2 = dsl.Sub(lap1, u1[l](x, y)), dsl.Sub(lap2, u2[l](x, y))
		}
		f := q.box(p, fmt.Sprintf("Res_%d", l), rgb, l)
		m := gm[l](x, y)
		f.Define(dsl.Add(lap1.Mul(m), lap2.Mul(dsl.Sub(1.0, m))))
		res[l], resF[l] = funcReader(f, c), f
	}

	// 4. Collapse: up-sample and add, coarsest first.
	out, outF := res[levels-1], resF[levels-1]
	for l := levels - 2; l >= 0; l-- {
		u := expand(out, l, "coll")
		name := fmt.Sprintf("coll_%d", l)
		if l == 0 {
			name = "blend"
		}
		f := q.box(p, name, rgb, l)
		f.Define(dsl.Add(u(x, y), res[l](x, y)))
		out, outF = funcReader(f, c), f
	}
	p.Output(outF)
	return p.Build()
}

// fillPyramidBlending gives img1, img2 and the mask pictures of their
// own (samples in [0, 1]) with a zero ghost ring.
func fillPyramidBlending(name string, b *scop.Buffer, seed uint64) {
	off := map[string]uint64{"img1": 0, "img2": 1, "mask": 2}[name]
	fillRing(b, 3*seed+off, 255, 2)
}
