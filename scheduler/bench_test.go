package scheduler

import (
	"fmt"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/scop"
)

// stencilChain builds a pipeline of stages functions, each the average of
// the previous one at x-1, x, x+1 (in every dimension when dims is 2)
// over a parametric domain that shrinks by one point per stage and side.
func stencilChain(stages, dims int) (*scop.Program, error) {
	p := dsl.NewPipeline(fmt.Sprintf("chain%dd%d", dims, stages))
	N := p.Param("N")
	p.Assume(N.Ge(1))
	x, y := p.Var("x"), p.Var("y")
	ext := N.Add(2 * stages)
	var in *dsl.Image
	if dims == 1 {
		in = p.Input("in", dsl.F32, ext)
	} else {
		in = p.Input("in", dsl.F32, ext, ext)
	}
	at := func(f *dsl.Func, dx, dy int) dsl.Expr {
		cx := x.Add(dx)
		if dims == 1 {
			if f == nil {
				return in.At(cx)
			}
			return f.At(cx).Expr
		}
		if f == nil {
			return in.At(cx, y.Add(dy))
		}
		return f.At(cx, y.Add(dy)).Expr
	}
	var prev *dsl.Func
	for k := 1; k <= stages; k++ {
		hi := N.Add(2*stages - k)
		var f *dsl.Func
		if dims == 1 {
			f = p.Func(fmt.Sprintf("f%d", k), dsl.F32, x.In(k, hi))
			f.Define(dsl.Add(at(prev, -1, 0), at(prev, 0, 0), at(prev, 1, 0)).Div(3))
		} else {
			f = p.Func(fmt.Sprintf("f%d", k), dsl.F32, x.In(k, hi), y.In(k, hi))
			f.Define(dsl.Add(at(prev, -1, 0), at(prev, 1, 0), at(prev, 0, -1), at(prev, 0, 1), at(prev, 0, 0)).Div(5))
		}
		prev = f
	}
	p.Output(prev)
	return p.Build()
}

func benchSchedule(b *testing.B, p *scop.Program, f Fuse) {
	g := memoryDeps(b, p)
	for b.Loop() {
		if _, err := Schedule(p, g, Options{Fuse: f}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPolyBench schedules every PolyBench kernel (dependences
// computed once, outside the timing).
func BenchmarkPolyBench(b *testing.B) {
	for _, k := range polybench.Kernels() {
		_, p := kernel(b, k.Name)
		for _, f := range []Fuse{FuseMin, FuseSmart, FuseMax} {
			b.Run(k.Name+"/"+f.String(), func(b *testing.B) { benchSchedule(b, p, f) })
		}
	}
}

// BenchmarkPolyMage schedules every PolyMage pipeline (at its benchmark
// depth) in the original order and under every fusion mode, the timings
// TestScheduleTimes logs (dependences computed once, outside the timing).
func BenchmarkPolyMage(b *testing.B) {
	for _, e := range polymage.All() {
		p, err := e.Build()
		if err != nil {
			b.Fatalf("%s: %v", e.Name, err)
		}
		b.Run(e.Name+"/none", func(b *testing.B) {
			for b.Loop() {
				if _, err := Original(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, f := range []Fuse{FuseMin, FuseSmart, FuseMax} {
			b.Run(e.Name+"/"+f.String(), func(b *testing.B) { benchSchedule(b, p, f) })
		}
	}
}

// BenchmarkChain schedules generated 100-stage stencil pipelines.
func BenchmarkChain(b *testing.B) {
	for _, dims := range []int{1, 2} {
		p, err := stencilChain(100, dims)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range []Fuse{FuseMin, FuseSmart, FuseMax} {
			b.Run(fmt.Sprintf("%dd/%s", dims, f), func(b *testing.B) { benchSchedule(b, p, f) })
		}
	}
}
