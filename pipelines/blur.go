package pipelines

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// The default size of Blur's output.
const (
	BlurRows = 2048
	BlurCols = 2048
)

// Blur is the Halide tutorial's two-stage blur on an f32 image:
//
//	blurx(x, y) = (in(x-1, y) + in(x, y) + in(x+1, y)) / 3
//	out(x, y)   = (blurx(x, y-1) + blurx(x, y) + blurx(x, y+1)) / 3
//
// The border is handled by the domains, not by clamping: in has a
// one-pixel frame, (R+2) x (C+2); blurx covers rows 1..R and all C+2
// columns; out covers rows 1..R and columns 1..C, stored as an R x C
// array (out[x-1][y-1]). Parameters R and C (at least 1) default to
// BlurRows and BlurCols.
func Blur() (*scop.Program, error) {
	p := dsl.NewPipeline("blur")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	x, y := p.Var("x"), p.Var("y")
	in := p.Input("in", dsl.F32, R.Add(2), C.Add(2))

	blurx := p.Func("blurx", dsl.F32, x.In(1, R.Add(1)), y.In(0, C.Add(2)))
	blurx.Define(dsl.Add(in.At(x.Sub(1), y), in.At(x, y), in.At(x.Add(1), y)).Div(3))

	out := p.Func("out", dsl.F32, x.In(1, R.Add(1)), y.In(1, C.Add(1)))
	out.Define(dsl.Add(blurx.At(x, y.Sub(1)), blurx.At(x, y), blurx.At(x, y.Add(1))).Div(3))

	p.Output(out)
	return p.Build()
}
