package polymage

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's unsharp-mask size (rows x columns, 3 channels) and the
// threshold and weight its benchmark runs with.
const (
	UnsharpRows      = 2048
	UnsharpCols      = 2048
	UnsharpThreshold = 0.001
	UnsharpWeight    = 3
)

func init() {
	register(Entry{
		Name:     "unsharp_mask",
		Stages:   4,
		Build:    UnsharpMask,
		Defaults: map[string]int64{"R": UnsharpRows, "C": UnsharpCols},
		Small:    map[string]int64{"R": 24, "C": 20},
	})
}

// UnsharpMask sharpens a 3-channel f32 image img of (R+4) x (C+4) pixels
// per channel (a 2-pixel ghost zone around the R x C picture), in 4
// stages:
//
//	blurx(c, x, y)   = (img(c, x-2, y) + 4 img(c, x-1, y) + 6 img(c, x, y) + 4 img(c, x+1, y) + img(c, x+2, y)) * 0.0625
//	blury(c, x, y)   = the same 5-tap filter on blurx in y
//	sharpen(c, x, y) = img(c, x, y) * (1 + weight) - blury(c, x, y) * weight
//	mask(c, x, y)    = |img(c, x, y) - blury(c, x, y)| < threshold ? img(c, x, y) : sharpen(c, x, y)
//
// blurx covers rows 2..R+1 and every column, the others rows 2..R+1 and
// columns 2..C+1; mask, the output, is stored as 3 x R x C. PolyMage's
// weight and threshold are float parameters; here they are the constants
// UnsharpWeight and UnsharpThreshold, its benchmark's values. Parameters
// R and C (at least 1) default to UnsharpRows and UnsharpCols.
func UnsharpMask() (*scop.Program, error) {
	p := dsl.NewPipeline("unsharp_mask")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	c, x, y := p.Var("c"), p.Var("x"), p.Var("y")
	img := p.Input("img", dsl.F32, 3, R.Add(4), C.Add(4))

	ch, rows := c.In(0, 3), x.In(2, R.Add(2))
	blurx := p.Func("blurx", dsl.F32, ch, rows, y.In(0, C.Add(4)))
	blurx.Define(dsl.Add(
		img.At(c, x.Sub(2), y), img.At(c, x.Sub(1), y).Mul(4), img.At(c, x, y).Mul(6),
		img.At(c, x.Add(1), y).Mul(4), img.At(c, x.Add(2), y),
	).Mul(0.0625))

	cols := y.In(2, C.Add(2))
	blury := p.Func("blury", dsl.F32, ch, rows, cols)
	blury.Define(dsl.Add(
		blurx.At(c, x, y.Sub(2)), blurx.At(c, x, y.Sub(1)).Mul(4), blurx.At(c, x, y).Mul(6),
		blurx.At(c, x, y.Add(1)).Mul(4), blurx.At(c, x, y.Add(2)),
	).Mul(0.0625))

	sharpen := p.Func("sharpen", dsl.F32, ch, rows, cols)
	sharpen.Define(dsl.Sub(img.At(c, x, y).Mul(1+UnsharpWeight), blury.At(c, x, y).Mul(UnsharpWeight)))

	mask := p.Func("mask", dsl.F32, ch, rows, cols)
	mask.Define(dsl.Select(
		dsl.Abs(dsl.Sub(img.At(c, x, y), blury.At(c, x, y))).Lt(UnsharpThreshold),
		img.At(c, x, y), sharpen.At(c, x, y)))

	p.Output(mask)

	// In the style of Halide's apps/unsharp CPU schedule
	// (bench/halide/src/unsharp_mask.cpp), for --fuse schedule: strips of
	// 32 rows in parallel, each row's channels in turn, the blur across
	// rows computed one row at a time just before the row of output that
	// needs it (the rest inlined), all vectorized along the row by 16.
	xo, xi := p.Var("xo"), p.Var("xi")
	mask.Reorder(x, c, y).Split(x, xo, xi, 32).Parallel(xo).Vectorize(y, 16)
	blurx.ComputeAt(mask, c).Vectorize(y, 16)
	return p.Build()
}
