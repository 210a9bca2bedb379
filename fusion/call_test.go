package fusion_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scop"
)

// scheduled compiles p's call schedule to its AST, runs it in the
// interpreter (counting forwarded loads) and compares every live-out
// array with the reference executor's, bit for bit.
func scheduled(t *testing.T, p *scop.Program, params map[string]int64) (*compiler.Result, *interp.Stats) {
	t.Helper()
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Schedule, Stop: compiler.StageAST})
	if err != nil {
		t.Fatal(err)
	}
	return r, runChecked(t, p, r, params, interp.Options{Forwarding: true})
}

// halideCounts are the Halide tutorial's figures for one schedule.
type halideCounts struct {
	TempFloats, Loads, Stores, Sin int64
}

// TestTutorialCounts reproduces the counts of the Halide tutorial's
// multi-stage lesson (seed 002) for each of its schedules, at its sizes.
// Loads are counted as Halide counts them: a load of the element that
// the last store to the same array wrote, with no loop iteration begun
// since (store_root + compute_at(x): the producer value computed last in
// the consumer's iteration), is a value still in a register and not a
// load; that is interp's Stats.Forwarded, subtracted from Stats.Loads.
// Temporary memory is the peak of the bytes temporaries hold: whole
// intermediate arrays at the root, tile-local buffers while allocated,
// folded storage at its ring's size.
func TestTutorialCounts(t *testing.T) {
	want := map[string]halideCounts{
		"inline": {0, 0, 16, 64},
		"root":   {25, 64, 41, 25},
		"y":      {10, 64, 56, 40},
		"root_y": {10, 64, 41, 25},
		"root_x": {10, 48, 41, 25},
		// The tutorial gives no counts for its last section: an 8 x 8
		// consumer in 4 x 4 tiles, each computing a 5 x 5 producer tile.
		"tile": {25, 256, 164, 100},
	}
	for _, e := range pipelines.ScheduledProducerConsumer() {
		name := strings.TrimPrefix(e.Name, "producer_consumer_")
		t.Run(name, func(t *testing.T) {
			p, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			_, st := scheduled(t, p, e.Defaults)
			got := halideCounts{TempFloats: st.TempPeakBytes / 4, Loads: st.Loads - st.Forwarded, Stores: st.Stores, Sin: st.Calls["sin"]}
			if diff := cmp.Diff(want[name], got); diff != "" {
				t.Errorf("counts (-tutorial +tilefuse):\n%s", diff)
			}
		})
	}
}

// blur3 is a three-stage pipeline (a horizontal then a vertical 3-tap
// blur, then a pointwise scale) for schedules to rearrange.
type blur3 struct {
	p                    *dsl.Pipeline
	bx, by, out          *dsl.Func
	y, x, yo, xo, yi, xi dsl.Var
}

func newBlur3() *blur3 {
	p := dsl.NewPipeline("blur3")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	b := &blur3{p: p, y: p.Var("y"), x: p.Var("x"), yo: p.Var("yo"), xo: p.Var("xo"), yi: p.Var("yi"), xi: p.Var("xi")}
	y, x := b.y, b.x
	in := p.Input("in", dsl.F32, R.Add(2), C.Add(2))
	b.bx = p.Func("bx", dsl.F32, y.In(0, R.Add(2)), x.In(0, C))
	b.bx.Define(dsl.Add(in.At(y, x), in.At(y, x.Add(1)), in.At(y, x.Add(2))).Div(3))
	b.by = p.Func("by", dsl.F32, y.In(0, R), x.In(0, C))
	b.by.Define(dsl.Add(b.bx.At(y, x), b.bx.At(y.Add(1), x), b.bx.At(y.Add(2), x)).Div(3))
	b.out = p.Func("out", dsl.F32, y.In(0, R), x.In(0, C))
	b.out.Define(b.by.At(y, x).Mul(2))
	p.Output(b.out)
	return b
}

// TestScheduleExecutes runs schedules of every kind on blur3 at sizes
// the splits do and do not divide, each compared bit for bit with the
// reference, and checks how many instances of each stage ran.
func TestScheduleExecutes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sched func(b *blur3)
		// runs of bx_s0 at R=C=10 (the original: 12 x 10 = 120).
		bx int64
	}{
		{"default", func(b *blur3) {}, 0}, // bx and by inlined into out
		{"root", func(b *blur3) { b.bx.ComputeRoot(); b.by.ComputeRoot() }, 120},
		{"at y", func(b *blur3) { b.bx.ComputeAt(b.out, b.y); b.by.ComputeAt(b.out, b.y) }, 300},
		{"sliding", func(b *blur3) { b.bx.StoreRoot().ComputeAt(b.out, b.y); b.by.ComputeAt(b.out, b.y) }, 120},
		{"store at yo", func(b *blur3) {
			b.out.Split(b.y, b.yo, b.yi, 4)
			b.bx.StoreAt(b.out, b.yo).ComputeAt(b.out, b.yi)
			b.by.ComputeAt(b.out, b.yi)
		}, 160}, // 3 blocks of rows, each 2 more rows than it has
		{"tiles", func(b *blur3) {
			b.out.Tile(b.y, b.x, b.yo, b.xo, b.yi, b.xi, 4, 8).Parallel(b.yo).Vectorize(b.xi)
			b.bx.ComputeAt(b.out, b.xo).Vectorize(b.x)
			b.by.ComputeAt(b.out, b.xo)
		}, 160},
		{"nested", func(b *blur3) {
			b.out.Split(b.y, b.yo, b.yi, 4).Parallel(b.yo)
			b.by.ComputeAt(b.out, b.yo).Split(b.x, b.xo, b.xi, 4).Reorder(b.xo, b.y, b.xi)
			b.bx.ComputeAt(b.by, b.xo).Unroll(b.y, 2)
		}, 160}, // per block of 4 rows (2 at the end), 2 more rows
		{"folded", func(b *blur3) {
			b.bx.StoreRoot().ComputeAt(b.by, b.y).FoldStorage(b.y, 4)
			b.by.ComputeRoot()
		}, 120},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range []int64{10, 13} {
				b := newBlur3()
				tc.sched(b)
				p, err := b.p.Build()
				if err != nil {
					t.Fatal(err)
				}
				_, st := scheduled(t, p, map[string]int64{"R": size, "C": size})
				if size == 10 && st.Stmts["bx_s0"].Instances != tc.bx {
					t.Errorf("bx ran %d times, want %d", st.Stmts["bx_s0"].Instances, tc.bx)
				}
			}
		})
	}
}

// TestScheduleErrors: each misuse is one error at the schedule call.
func TestScheduleErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sched func(b *blur3)
		want  string
	}{
		{"unknown loop", func(b *blur3) { b.bx.ComputeAt(b.out, b.xo) }, "out has no loop xo (its loops: y, x)"},
		{"consumer outside", func(b *blur3) { b.bx.ComputeAt(b.out, b.y); b.by.ComputeRoot() }, "its consumer by is not computed inside the loop out.y"},
		{"output", func(b *blur3) { b.out.ComputeAt(b.by, b.y) }, "an output is computed at the root"},
		{"cycle", func(b *blur3) { b.bx.ComputeAt(b.by, b.y); b.by.ComputeAt(b.bx, b.y) }, "in a cycle"},
		{"inlined host", func(b *blur3) { b.bx.ComputeAt(b.by, b.y) }, "by is inlined"},
		{"vector not innermost", func(b *blur3) { b.out.Vectorize(b.y) }, "the loop is not innermost"},
		{"vector around", func(b *blur3) { b.bx.ComputeAt(b.out, b.x); b.by.ComputeAt(b.out, b.x); b.out.Vectorize(b.x) }, "bx is computed inside the vectorized loop"},
		{"shared storage", func(b *blur3) {
			b.out.Parallel(b.y)
			b.bx.StoreRoot().ComputeAt(b.out, b.y)
			b.by.ComputeAt(b.out, b.y)
		}, "stored outside it"},
		{"fold too small", func(b *blur3) {
			b.bx.StoreRoot().ComputeAt(b.by, b.y).FoldStorage(b.y, 2)
			b.by.ComputeRoot()
		}, "touches 3 elements of y at once"},
		{"fold backwards", func(b *blur3) {
			b.bx.StoreRoot().ComputeAt(b.out, b.x).FoldStorage(b.x, 4)
			b.by.ComputeAt(b.out, b.x)
		}, "the window of x does not only move forward"},
		{"fold without window", func(b *blur3) {
			b.bx.ComputeRoot().FoldStorage(b.y, 4)
			b.by.ComputeRoot()
		}, "FoldStorage of bx.y to 4"},
		{"split twice", func(b *blur3) { b.out.Split(b.y, b.yo, b.yi, 4).Split(b.x, b.yo, b.xi, 4) }, "out already has a loop yo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBlur3()
			tc.sched(b)
			p, err := b.p.Build()
			if err != nil {
				t.Fatal(err)
			}
			_, err = compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Schedule, Stop: compiler.StageAST})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
			if !scop.IsError(err) || !strings.Contains(err.Error(), "call_test.go:") {
				t.Errorf("%v: not an input error at the schedule call", err)
			}
		})
	}
}
