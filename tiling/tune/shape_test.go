package tune_test

import (
	"context"
	"math"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/tiling/tune"
)

// fuse compiles a PolyMage pipeline under post-tiling fusion (to the
// fusion stage) with innermost tile sizes inner (nil: the defaults),
// estimating at its default sizes.
func fuse(t *testing.T, name string, inner []int64) (*compiler.Result, map[string]int64) {
	t.Helper()
	e, ok := polymage.Lookup(name)
	if !ok {
		t.Fatalf("no pipeline %s", name)
	}
	p, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Post, Parallel: true,
		Stop: compiler.StageFuse, Estimate: e.Defaults, InnerTile: inner})
	if err != nil {
		t.Fatal(err)
	}
	return r, e.Defaults
}

// TestModelRecomputation checks the model's interval arithmetic against
// post-tiling fusion's own estimate of each fused space's recomputation
// (from the exact extension at those tile sizes): the model derives the
// ratio at any size from one compilation at the default sizes.
func TestModelRecomputation(t *testing.T) {
	sizes := [][]int64{{16, 64}, {64, 128}, {8, 512}, {128, 16}}
	pipelines := []string{"harris", "unsharp_mask", "camera_pipe"}
	if testing.Short() {
		pipelines = pipelines[:1]
	}
	for _, name := range pipelines {
		t.Run(name, func(t *testing.T) {
			r, params := fuse(t, name, nil)
			shape, err := tune.ShapeOf(r.Fusion, r.Program, params)
			if err != nil {
				t.Fatal(err)
			}
			for _, inner := range sizes {
				at, _ := fuse(t, name, inner)
				want := map[string]float64{}
				for _, sp := range at.Fusion.Spaces {
					if sp.Fused() && sp.Recompute > 0 {
						want[stmtsName(sp.Stmts)] = sp.Recompute
					}
				}
				checked := 0
				for _, g := range shape.Groups {
					for si, st := range g.Stages {
						w, ok := want[st.Name]
						if !ok || st.Buffer < 0 {
							continue
						}
						checked++
						if got := g.Ratio(si, inner); math.Abs(got-w)/w > 0.03 {
							t.Errorf("%v: stage %s: model's recomputation %.4f, fusion's estimate %.4f", inner, st.Name, got, w)
						}
					}
				}
				if checked == 0 {
					t.Errorf("%v: no fused stage to compare", inner)
				}
			}
		})
	}
}

// TestModelShape checks invariants of the model on harris: the tiled
// group's extents cover the image, bigger tiles recompute less and hold
// more, and the model's pick is among the candidates.
func TestModelShape(t *testing.T) {
	r, params := fuse(t, "harris", nil)
	shape, err := tune.ShapeOf(r.Fusion, r.Program, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(shape.Groups) != 1 {
		t.Fatalf("%d groups, want 1 (harris's output with Ix and Iy fused)", len(shape.Groups))
	}
	g := shape.Groups[0]
	if len(g.Extent) != 2 || g.Extent[0] < params["R"]-2 || g.Extent[1] < params["C"]-2 {
		t.Errorf("extents %v do not cover the %dx%d image", g.Extent, params["R"], params["C"])
	}
	if n := shape.Tuned(); n != 2 {
		t.Errorf("harris: %d members tuned, want 2 (rows and columns)", n)
	}
	m := tune.Machine{L1: 32 << 10, L2: 512 << 10, L3: 8 << 20, Threads: 2}
	small, big := tune.DefaultCosts.Cost(shape, m, []int64{8, 8}), tune.DefaultCosts.Cost(shape, m, []int64{128, 512})
	if small.Recompute <= big.Recompute {
		t.Errorf("8x8 tiles recompute %.3f, 128x512 %.3f: want more for the smaller", small.Recompute, big.Recompute)
	}
	if small.WorkingSet >= big.WorkingSet {
		t.Errorf("8x8 tiles hold %.0f bytes, 128x512 %.0f: want fewer for the smaller", small.WorkingSet, big.WorkingSet)
	}
	if small.Tiles <= big.Tiles {
		t.Errorf("8x8: %d tiles, 128x512: %d", small.Tiles, big.Tiles)
	}
	trials := tune.Rank(tune.DefaultCosts, shape, m, tune.Candidates(2, tune.Values))
	for i := 1; i < len(trials); i++ {
		if trials[i].Cost < trials[i-1].Cost || trials[i].Rank != i+1 {
			t.Fatalf("trials out of order at %d: %+v after %+v", i, trials[i], trials[i-1])
		}
	}
}

func stmtsName(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}
