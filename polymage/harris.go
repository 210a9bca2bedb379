package polymage

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's Harris corner size.
const (
	HarrisRows = 6400
	HarrisCols = 6400
)

func init() {
	register(Entry{
		Name:     "harris",
		Stages:   11,
		Build:    Harris,
		Defaults: map[string]int64{"R": HarrisRows, "C": HarrisCols},
		Small:    map[string]int64{"R": 24, "C": 20},
	})
}

// Harris is Harris corner detection on an f32 image img of (R+2) x (C+2)
// pixels (a 1-pixel ghost zone around R x C), in 11 stages:
//
//	Iy(x, y)  = Sobel in y: (-img(x-1, y-1) + img(x-1, y+1) - 2 img(x, y-1) + 2 img(x, y+1) - img(x+1, y-1) + img(x+1, y+1)) / 12
//	Ix(x, y)  = Sobel in x, the same with the roles of x and y exchanged
//	Ixx = Ix*Ix, Iyy = Iy*Iy, Ixy = Ix*Iy
//	Sxx(x, y) = the sum of Ixx over the 3x3 box around (x, y); Syy, Sxy alike
//	det   = Sxx*Syy - Sxy*Sxy
//	trace = Sxx + Syy
//	harris = det - 0.04*trace*trace
//
// The gradients and products cover 1..R x 1..C, the box sums and what
// follows 2..R-1 x 2..C-1: PolyMage's case conditions, made the
// functions' domains. The Sobel taps are written as PolyMage writes them,
// multiplications by -1, 1 and 2 included. harris, the output, is stored
// as x (C-2). Parameters R and C (at least 3) default to
// HarrisRows and HarrisCols.
func Harris() (*scop.Program, error) {
	p := dsl.NewPipeline("harris")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(3), C.Ge(3))
	x, y := p.Var("x"), p.Var("y")
	img := p.Input("img", dsl.F32, R.Add(2), C.Add(2))

	full := []dsl.Dim{x.In(1, R.Add(1)), y.In(1, C.Add(1))}
	inner := []dsl.Dim{x.In(2, R), y.In(2, C)}
	at := func(dx, dy int) dsl.Expr { return img.At(x.Add(dx), y.Add(dy)) }

	Iy := p.Func("Iy", dsl.F32, full...)
	Iy.Define(dsl.Add(
		at(-1, -1).Mul(-1), at(-1, 1).Mul(1),
		at(0, -1).Mul(-2), at(0, 1).Mul(2),
		at(1, -1).Mul(-1), at(1, 1).Mul(1),
	).Div(12.0))

	Ix := p.Func("Ix", dsl.F32, full...)
	Ix.Define(dsl.Add(
		at(-1, -1).Mul(-1), at(-1, 0).Mul(-2), at(-1, 1).Mul(-1),
		at(1, -1).Mul(1), at(1, 0).Mul(2), at(1, 1).Mul(1),
	).Div(12.0))

	product := func(name string, a, b *dsl.Func) *dsl.Func {
		f := p.Func(name, dsl.F32, full...)
		f.Define(dsl.Mul(a.At(x, y), b.At(x, y)))
		return f
	}
	Ixx := product("Ixx", Ix, Ix)
	Iyy := product("Iyy", Iy, Iy)
	Ixy := product("Ixy", Ix, Iy)

	box := func(name string, f *dsl.Func) *dsl.Func {
		s := p.Func(name, dsl.F32, inner...)
		var taps []any
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				taps = append(taps, f.At(x.Add(dx), y.Add(dy)))
			}
		}
		s.Define(dsl.Add(taps[0], taps[1], taps[2:]...))
		return s
	}
	Sxx := box("Sxx", Ixx)
	Syy := box("Syy", Iyy)
	Sxy := box("Sxy", Ixy)

	det := p.Func("det", dsl.F32, inner...)
	det.Define(dsl.Sub(dsl.Mul(Sxx.At(x, y), Syy.At(x, y)), dsl.Mul(Sxy.At(x, y), Sxy.At(x, y))))

	trace := p.Func("trace", dsl.F32, inner...)
	trace.Define(dsl.Add(Sxx.At(x, y), Syy.At(x, y)))

	harris := p.Func("harris", dsl.F32, inner...)
	harris.Define(dsl.Sub(det.At(x, y), dsl.Mul(0.04, trace.At(x, y), trace.At(x, y))))

	p.Output(harris)

	// Halide's apps/harris CPU schedule (bench/halide/src/harris.cpp),
	// for --fuse schedule: strips of 32 rows in parallel, the gradients
	// computed row by row into a sliding window stored per strip (folded
	// to a ring of rows), everything else inlined into the output, all
	// vectorized along the row by 16 (AVX-512's f32 lanes).
	xo, xi := p.Var("xo"), p.Var("xi")
	harris.Split(x, xo, xi, 32).Parallel(xo).Vectorize(y, 16)
	Iy.StoreAt(harris, xo).ComputeAt(harris, xi).Vectorize(y, 16)
	Ix.StoreAt(harris, xo).ComputeAt(harris, xi).Vectorize(y, 16)
	return p.Build()
}
