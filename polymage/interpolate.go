package polymage

import (
	"fmt"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's benchmark size (rows x columns, RGBA) and depth for
// multiscale interpolation.
const (
	InterpolateRows   = 2560
	InterpolateCols   = 1536
	InterpolateLevels = 10
)

func init() {
	register(Entry{
		Name:     "interpolate",
		Stages:   49,
		Build:    func() (*scop.Program, error) { return Interpolate(InterpolateLevels) },
		Defaults: map[string]int64{"R": InterpolateRows, "C": InterpolateCols},
		Small:    map[string]int64{"R": 32, "C": 24},
		Fill:     fillInterpolate,
	})
}

// Interpolate fills the transparent parts of an RGBA image by multiscale
// interpolation over levels pyramid levels (10 in PolyMage). The input
// img is f32, 4 x (R+2) x (C+2), channel outermost (alpha is channel 3),
// with a 1-pixel ghost ring; the levels follow the geometry of type
// pyramid with g = 1.
//
//	downsampled_L0    premultiplied colour: img(c) * img(3) for c < 3; alpha as it is
//	                  (one selection, as in Halide's app: package inline
//	                  substitutes it into its two consumers)
//	Dx_l, D_l         l = 1..levels-1: the [1 2 1]/4 filter over rows, then
//	                  columns, keeping every other line (reads 2x-2, 2x-1, 2x)
//	Ux_l, Uy_l        l = levels-2..0: linear up-sampling of interpolated_L(l+1)
//	                  over rows, then columns: (f((x+1)/2) + f((x+2)/2)) / 2
//	interpolated_Ll   D_l + (1 - D_l(3)) * Uy_l: the level's own (premultiplied)
//	                  value where it is opaque, the coarser estimate where it is
//	                  not; interpolated_L(levels-1) is D_(levels-1)
//	interpolate       the output, 3 x R x C: interpolated_L0(c) / interpolated_L0(3)
//
// That is 1 + 2(levels-1) + 3(levels-1) + 1 = 5 levels - 3 stages, 47 at
// PolyMage's 10 levels, against the 49 PolyMage reports. PolyMage's
// specification (polymage_interpolate.py) folds the column up-sampling
// into interpolated_Ll (38 functions); here it is a stage of its own, as
// in Halide's interpolate app, whose structure PolyMage's count follows
// (Halide's also has an input clamp and copies of the coarsest level and
// of the output, which the ghost ring and the output stage make
// unnecessary here).
//
// PolyMage multiplies every channel by alpha, alpha included (squaring
// it); here alpha stays alpha, as in Halide's first version (its later
// one squares it too, the same for an alpha of 0 or 1 only), so that the
// normalisation divides premultiplied colour by interpolated alpha.
// Filtered stages are 0 on the ghost ring, where PolyMage's are too.
// Parameters R and C (at least 1) default to InterpolateRows and
// InterpolateCols; levels whose interior is empty (R or C below
// 2^level) are all ring.
func Interpolate(levels int) (*scop.Program, error) {
	if levels < 1 {
		return nil, fmt.Errorf("interpolate needs at least 1 level, not %d", levels)
	}
	p := dsl.NewPipeline("interpolate")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	c, x, y := p.Var("c"), p.Var("x"), p.Var("y")
	q := &pyramid{R: R, C: C, g: 1, x: x, y: y}
	img := p.Input("img", dsl.F32, 4, R.Add(2), C.Add(2))
	rgba := []dsl.Dim{c.In(0, 4)}

	down := downFilter{off: []int{-1, 0, 1}, w: []float64{1, 2, 1}, scale: 0.25}
	up := func(v dsl.Var, at func(i dsl.Expr) dsl.Expr) (dsl.Expr, dsl.Expr, bool) {
		e := dsl.Add(at(v.Add(1).Div(2)), at(v.Add(2).Div(2))).Div(2.0)
		return e, e, false
	}

	// 1. Premultiply, then down-sample.
	d0 := q.box(p, "downsampled_L0", rgba, 0)
	d0.Define(dsl.Select(c.Lt(3), img.At(c, x, y).Mul(img.At(3, x, y)), img.At(3, x, y)))
	ds := []*dsl.Func{d0}
	for l := 1; l < levels; l++ {
		dx := q.downX(p, fmt.Sprintf("Dx_%d", l), rgba, l, funcReader(ds[l-1], c), down)
		ds = append(ds, q.downY(p, fmt.Sprintf("D_%d", l), rgba, l, funcReader(dx, c), down))
	}

	// 2. Up-sample and fill in, coarsest first.
	interp := ds[levels-1]
	for l := levels - 2; l >= 0; l-- {
		ux := q.upX(p, fmt.Sprintf("Ux_%d", l), rgba, l, funcReader(interp, c), up)
		uy := q.upY(p, fmt.Sprintf("Uy_%d", l), rgba, l, funcReader(ux, c), up)
		d := ds[l]
		v := dsl.Add(d.At(c, x, y), dsl.Sub(1.0, d.At(3, x, y)).Mul(uy.At(c, x, y)))
		interp = q.stage(p, fmt.Sprintf("interpolated_L%d", l), rgba, l, l, y, v, v, false)
	}

	// 3. Normalise by alpha.
	out := p.Func("interpolate", dsl.F32, c.In(0, 3), x.In(0, R), y.In(0, C))
	out.Define(dsl.Div(interp.At(c, x.Add(1), y.Add(1)), interp.At(3, x.Add(1), y.Add(1))))
	p.Output(out)
	return p.Build()
}

// fillInterpolate fills img with a picture whose alpha has holes: alpha
// below 3/8 is cut to 0, the pixels interpolation fills in. The ghost
// ring is 0.
func fillInterpolate(_ string, b *scop.Buffer, seed uint64) {
	fillRing(b, seed, 255, 1)
	rows, cols := planeShape(b.Shape)
	for i := 3 * rows * cols; i < b.Len(); i++ {
		if b.Load(i).F < 0.375 {
			b.Store(i, scop.Value{})
		}
	}
}
