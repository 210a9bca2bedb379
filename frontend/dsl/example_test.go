package dsl_test

import (
	"fmt"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// The two-stage blur of the Halide tutorial: a horizontal then a vertical
// three-point average. The input has a one-pixel border on every side, so
// both stages have every point they read.
func Example() {
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

	prog, err := p.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(blurx)
	fmt.Println(out)
	for _, s := range prog.Stmts {
		fmt.Println(s.Body())
	}
	// Output:
	// blurx(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3
	// out(x, y) = (blurx(x, y - 1) + blurx(x, y) + blurx(x, y + 1)) / 3
	// blurx[(x - 1)][y] = (((in[(x - 1)][y] + in[x][y]) + in[(x + 1)][y]) / 3.0f)
	// out[(x - 1)][(y - 1)] = (((blurx[(x - 1)][(y - 1)] + blurx[(x - 1)][y]) + blurx[(x - 1)][(y + 1)]) / 3.0f)
}

// A piecewise definition: the border copies the input, the interior
// averages four neighbours. Cases are tried in order; the last argument
// is the default.
func ExampleFunc_Define() {
	p := dsl.NewPipeline("smooth")
	N := p.Param("N")
	p.Assume(N.Ge(3))
	x, y := p.Var("x"), p.Var("y")
	in := p.Input("in", dsl.U16, N, N)
	out := p.Func("out", dsl.U16, x.In(0, N), y.In(0, N))
	border := dsl.Or(x.Eq(0), y.Eq(0), x.Eq(N.Sub(1)), y.Eq(N.Sub(1)))
	out.Define(
		dsl.When(border, in.At(x, y)),
		dsl.Add(in.At(x.Sub(1), y), in.At(x.Add(1), y), in.At(x, y.Sub(1)), in.At(x, y.Add(1))).Div(4),
	)
	p.Output(out)
	prog, err := p.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	for _, s := range prog.Stmts {
		fmt.Println(s.Name, s.Body())
	}
	// Output:
	// out(x, y) = in(x, y) if x == 0 || y == 0 || x == N - 1 || y == N - 1
	// out(x, y) = (in(x - 1, y) + in(x + 1, y) + in(x, y - 1) + in(x, y + 1)) / 4 otherwise
	// out_s0_c0 out[x][y] = in[x][y]
	// out_s0_c1 out[x][y] = floordiv((((in[(x - 1)][y] + in[(x + 1)][y]) + in[x][(y - 1)]) + in[x][(y + 1)]), 4)
}

// A histogram and its cumulative sum: a reduction with a data-dependent
// write, then a recurrence over a reduction domain.
func ExampleRef_Incr() {
	p := dsl.NewPipeline("hist")
	R, C := p.Param("R"), p.Param("C")
	i := p.Var("i")
	in := p.Input("in", dsl.U8, R, C)
	r := p.RDom("r", dsl.Range(0, R), dsl.Range(0, C))
	hist := p.Func("hist", dsl.I32, i.In(0, 256))
	hist.Define(0)
	hist.At(in.At(r.X, r.Y)).Incr(1) // hist(in(r.x, r.y)) += 1

	k := p.RDom("k", dsl.Range(1, 256))
	cdf := p.Func("cdf", dsl.I32, i.In(0, 256))
	cdf.Define(hist.At(i))
	cdf.At(k.X).Set(cdf.At(k.X.Sub(1)).Add(hist.At(k.X)))
	p.Output(cdf)

	prog, err := p.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(hist)
	fmt.Println(cdf)
	for _, s := range prog.Stmts {
		fmt.Println(s.Name, s.Iters, s.MayWrite, s.Body())
	}
	// Output:
	// hist(i) = 0
	// hist(in(r.x, r.y)) = hist(in(r.x, r.y)) + 1
	// cdf(i) = hist(i)
	// cdf(k.x) = cdf(k.x - 1) + hist(k.x)
	// hist_s0 [i] false hist[i] = 0
	// hist_s1 [r_x r_y] true hist[(i32)(in[r_x][r_y])] = (hist[(i32)(in[r_x][r_y])] + 1)
	// cdf_s0 [i] false cdf[i] = hist[i]
	// cdf_s1 [k_x] false cdf[k_x] = (cdf[(k_x - 1)] + hist[k_x])
}

// Down- and up-sampling: coordinates 2x+1 and floor(x/2).
func ExampleFunc_At() {
	p := dsl.NewPipeline("resample")
	N := p.Param("N")
	x := p.Var("x")
	in := p.Input("in", dsl.F32, N.Mul(2))
	down := p.Func("down", dsl.F32, x.In(0, N))
	down.Define(dsl.Add(in.At(x.Mul(2)), in.At(x.Mul(2).Add(1))).Div(2))
	up := p.Func("up", dsl.F32, x.In(0, N.Mul(2)))
	up.Define(down.At(x.Div(2)))
	p.Output(up)
	prog, err := p.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(down)
	fmt.Println(up)
	fmt.Println(prog.Stmts[1].Body())
	// Output:
	// down(x) = (in(x * 2) + in(x * 2 + 1)) / 2
	// up(x) = down(x / 2)
	// up[x] = down[floordiv(x, 2)]
}

// Typing: a Go constant takes the type of the expression it meets;
// different types must be converted explicitly.
func ExampleCast() {
	p := dsl.NewPipeline("types")
	x := p.Var("x")
	in := p.Input("in", dsl.U8, 16)
	v := in.At(x)
	fmt.Println(v.Add(1).Type(), v.Mul(0.5).Err().(*scop.Error).Msg)
	fmt.Println(dsl.Cast(dsl.F32, v).Mul(0.5).Type())
	fmt.Println(dsl.Sin(x).Type(), dsl.Sin(x))
	fmt.Println(dsl.Add(v, x).Err().(*scop.Error).Msg)
	// Output:
	// u8 constant 0.5 is not a whole number; it cannot be u8 (cast the other operand to a float type)
	// f32
	// f32 sin(f32(x))
	// type mismatch: u8 + i32 (convert one operand with dsl.Cast)
}
