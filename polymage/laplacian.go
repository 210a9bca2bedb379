package polymage

import (
	"fmt"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's benchmark size (rows x columns, 3 channels), pyramid depth,
// intensity levels and filter settings for the local Laplacian filter.
// LaplacianAlpha is the detail gain the benchmark runs with (1; the LUT
// scales it by 1/(intensity levels - 1), as PolyMage's driver does) and
// LaplacianBeta its tone gain.
const (
	LaplacianRows      = 2560
	LaplacianCols      = 1536
	LaplacianPyramid   = 8
	LaplacianIntensity = 8
	LaplacianAlpha     = 1.0
	LaplacianBeta      = 1.0
)

func init() {
	register(Entry{
		Name:   "local_laplacian",
		Stages: 99,
		Build: func() (*scop.Program, error) {
			return LocalLaplacian(LaplacianPyramid, LaplacianIntensity, LaplacianAlpha, LaplacianBeta)
		},
		Defaults: map[string]int64{"R": LaplacianRows, "C": LaplacianCols},
		Small:    map[string]int64{"R": 24, "C": 20},
		Fill:     fillLaplacian,
	})
}

// LocalLaplacian is the local Laplacian filter of Paris, Hasinoff and
// Kautz (SIGGRAPH 2011) in the fast form of Aubry et al., as in Halide's
// local_laplacian app and PolyMage's port of it: J pyramid levels (8 in
// PolyMage), K intensity levels (8), detail gain alpha and tone gain
// beta. The input img_colour is u16, 3 x (R+4) x (C+4), channel outermost
// (PolyMage's drivers load BGR: channel 2 is red), with a 2-pixel ghost
// ring; the levels follow the geometry of type pyramid with g = 2. The
// output laplacian is u16, 3 x R x C.
//
//	img                 grey: (0.299 red + 0.587 green + 0.114 blue) / 65535
//	Dx_inGPyramid_Ll, D_inGPyramid_Ll
//	                    l = 1..J-1: Gaussian pyramid of img, the [1 3 3 1]/8 filter
//	                    over rows, then columns, keeping every other line
//	                    (reads 2x-3 .. 2x, centred between 2x-2 and 2x-1)
//	remapLUT            r in [-256(K-1), 256(K-1)]: a fx exp(-fx^2/2), fx = r/256,
//	                    a = alpha/(K-1)
//	gPyramid_L0         k in [0, K): beta (img - k/(K-1)) + k/(K-1) + remapLUT(idx - 256k),
//	                    idx = clamp(i32(img 256(K-1)), 0, 256(K-1)): each intensity
//	                    level's remapped image (a data-dependent read)
//	Dx_gPyramid_Ll, D_gPyramid_Ll
//	                    l = 1..J-1: their Gaussian pyramids (per k)
//	Ux_lPyramid_Ll, U_lPyramid_Ll, lPyramid_Ll
//	                    l = J-2..0: their Laplacian pyramids, level minus the
//	                    next one up-sampled (0.25/0.75 weights by parity of the
//	                    line); the last level is the Gaussian one
//	outLIndex_Ll, outLWeight_Ll
//	                    l = 0..J-1: the input pyramid's value split into an
//	                    intensity level li = clamp(i32(lev), 0, K-2) (i32) and a
//	                    weight lev - li, where lev = inG_l (K-1)
//	outLPyramid_Ll      l = 0..J-1: the output's Laplacian pyramid, interpolated
//	                    between intensity levels li and li+1 of lPyramid_Ll:
//	                    lPyramid_Ll(li) (1 - weight) + lPyramid_Ll(li+1) weight
//	                    (data-dependent reads of k)
//	Ux_outGPyramid_Ll, U_outGPyramid_Ll, outGPyramid_Ll
//	                    l = J-2..0: collapse, up-sampling and adding, coarsest
//	                    first; outGPyramid_L0 is named result_ref_gray
//	laplacian           colour back: u16(65535 clamp(result_ref_gray (colour/65535
//	                    + 0.01) / (img + 0.01), 0, 1)) over the interior
//
// That is 13 J - 6 stages: 98 at PolyMage's 8 levels, against the 99
// PolyMage reports. PolyMage's specification (polymage_laplacian.py) has
// 82 functions: it computes the index and the weight in each of their
// uses, where here they are stages of their own, since the DSL has no
// let-binding and the index has three uses (two subscripts and the
// weight), the weight two. PolyMage's 99 follows Halide's app, which also
// has conversion and clamping stages and wraps each pyramid level's last
// filter pass in a copy (gPyramid[j] = downsample(gPyramid[j-1])): the
// ghost ring makes the clamping unnecessary, and the copies are left out.
//
// Departures from PolyMage: alpha and beta are Go arguments (constants
// in the program; the DSL's parameters are integer sizes); the remapping
// LUT ends at 256(K-1) inclusive, where PolyMage's stops one short of
// the index a white pixel reads at k = 0. Filtered stages are 0 on the
// ghost ring, as in PolyMage. Parameters R and C (at least 1) default to
// LaplacianRows and LaplacianCols; levels whose interior is empty are all
// ring.
func LocalLaplacian(J, K int, alpha, beta float64) (*scop.Program, error) {
	if J < 1 || K < 2 {
		return nil, fmt.Errorf("local Laplacian needs at least 1 pyramid level and 2 intensity levels, not %d and %d", J, K)
	}
	p := dsl.NewPipeline("local_laplacian")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	c, k, r, x, y := p.Var("c"), p.Var("k"), p.Var("r"), p.Var("x"), p.Var("y")
	q := &pyramid{R: R, C: C, g: 2, x: x, y: y}
	colour := p.Input("img_colour", dsl.U16, 3, R.Add(4), C.Add(4))
	levels := []dsl.Dim{k.In(0, K)}
	top := (K - 1) * 256 // the LUT index of intensity 1

	down := downFilter{off: []int{-1, 0, 1, 2}, w: []float64{1, 3, 3, 1}, scale: 0.125}
	up := func(v dsl.Var, at func(i dsl.Expr) dsl.Expr) (dsl.Expr, dsl.Expr, bool) {
		h := v.Div(2)
		even := dsl.Add(at(h).Mul(0.25), at(h.Add(1)).Mul(0.75))
		odd := dsl.Add(at(h.Add(2)).Mul(0.25), at(h.Add(1)).Mul(0.75))
		return even, odd, true
	}

	// 0. Grey.
	grey := q.box(p, "img", nil, 0)
	channel := func(ch int) dsl.Expr { return dsl.Cast(dsl.F32, colour.At(ch, x, y)) }
	grey.Define(dsl.Add(channel(2).Mul(0.299), channel(1).Mul(0.587), channel(0).Mul(0.114)).Div(65535.0))

	// 1. Gaussian pyramid of the input.
	inG := []*dsl.Func{grey}
	for l := 1; l < J; l++ {
		dx := q.downX(p, fmt.Sprintf("Dx_inGPyramid_L%d", l), nil, l, funcReader(inG[l-1]), down)
		inG = append(inG, q.downY(p, fmt.Sprintf("D_inGPyramid_L%d", l), nil, l, funcReader(dx), down))
	}

	// 2. The remapping function, as a LUT.
	remap := p.Func("remapLUT", dsl.F32, r.In(-top, top+1))
	fx := dsl.Cast(dsl.F32, r).Div(256.0)
	remap.Define(dsl.Mul(alpha/float64(K-1), fx, dsl.Exp(fx.Neg().Mul(fx).Div(2.0))))

	// 3. The processed images, one per intensity level, and their
	// Gaussian pyramids.
	g0 := q.box(p, "gPyramid_L0", levels, 0)
	iLevel := dsl.Cast(dsl.F32, k).Mul(1.0 / float64(K-1))
	idx := dsl.Clamp(dsl.Cast(dsl.I32, grey.At(x, y).Mul(float64(top))), 0, top)
	g0.Define(dsl.Add(dsl.Sub(grey.At(x, y), iLevel).Mul(beta), iLevel, remap.At(idx.Sub(k.Mul(256)))))
	gP := []*dsl.Func{g0}
	for l := 1; l < J; l++ {
		dx := q.downX(p, fmt.Sprintf("Dx_gPyramid_L%d", l), levels, l, funcReader(gP[l-1], k), down)
		gP = append(gP, q.downY(p, fmt.Sprintf("D_gPyramid_L%d", l), levels, l, funcReader(dx, k), down))
	}

	// 4. Their Laplacian pyramids.
	lP := make([]*dsl.Func, J)
	lP[J-1] = gP[J-1]
	for l := J - 2; l >= 0; l-- {
		ux := q.upX(p, fmt.Sprintf("Ux_lPyramid_L%d", l), levels, l, funcReader(gP[l+1], k), up)
		u := q.upY(p, fmt.Sprintf("U_lPyramid_L%d", l), levels, l, funcReader(ux, k), up)
		lP[l] = q.box(p, fmt.Sprintf("lPyramid_L%d", l), levels, l)
		lP[l].Define(dsl.Sub(gP[l].At(k, x, y), u.At(k, x, y)))
	}

	// 5. The output's Laplacian pyramid: at each pixel, interpolate
	// between the two intensity levels around the input's value.
	outL := make([]*dsl.Func, J)
	for l := range J {
		lev := inG[l].At(x, y).Mul(float64(K - 1))
		li := q.boxOf(p, fmt.Sprintf("outLIndex_L%d", l), dsl.I32, nil, l)
		li.Define(dsl.Clamp(dsl.Cast(dsl.I32, lev), 0, K-2))
		lf := q.box(p, fmt.Sprintf("outLWeight_L%d", l), nil, l)
		lf.Define(dsl.Sub(lev, dsl.Cast(dsl.F32, li.At(x, y))))
		i, w := li.At(x, y), lf.At(x, y)
		outL[l] = q.box(p, fmt.Sprintf("outLPyramid_L%d", l), nil, l)
		outL[l].Define(dsl.Add(lP[l].At(i, x, y).Mul(dsl.Sub(1.0, w)), lP[l].At(i.Add(1), x, y).Mul(w)))
	}

	// 6. Collapse it.
	outG := outL[J-1]
	for l := J - 2; l >= 0; l-- {
		ux := q.upX(p, fmt.Sprintf("Ux_outGPyramid_L%d", l), nil, l, funcReader(outG), up)
		u := q.upY(p, fmt.Sprintf("U_outGPyramid_L%d", l), nil, l, funcReader(ux), up)
		name := fmt.Sprintf("outGPyramid_L%d", l)
		if l == 0 {
			name = "result_ref_gray"
		}
		outG = q.box(p, name, nil, l)
		outG.Define(dsl.Add(u.At(x, y), outL[l].At(x, y)))
	}

	// 7. Reintroduce colour (Halide's comment: eps avoids scaling up
	// noise in dark regions).
	const eps = 0.01
	out := p.Func("laplacian", dsl.U16, c.In(0, 3), x.In(0, R), y.In(0, C))
	ratio := dsl.Div(
		outG.At(x.Add(2), y.Add(2)).Mul(dsl.Cast(dsl.F32, colour.At(c, x.Add(2), y.Add(2))).Div(65535.0).Add(eps)),
		grey.At(x.Add(2), y.Add(2)).Add(eps))
	out.Define(dsl.Cast(dsl.U16, dsl.Clamp(ratio, 0.0, 1.0).Mul(65535.0)))
	p.Output(out)
	return p.Build()
}

// fillLaplacian fills img_colour with a 16-bit picture and a zero ghost
// ring.
func fillLaplacian(_ string, b *scop.Buffer, seed uint64) { fillRing(b, seed, 65535, 2) }
