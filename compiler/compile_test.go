package compiler_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
	"github.com/tilefuse/tilefuse/tiling"
)

func kernel(t *testing.T, name string) *scop.Program {
	t.Helper()
	k, ok := polybench.Lookup(name)
	if !ok {
		t.Fatalf("no kernel %s", name)
	}
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runAST executes r's AST in the interpreter on deterministic inputs and
// compares every array with the reference executor's.
func runAST(t *testing.T, r *compiler.Result, params map[string]int64) {
	t.Helper()
	in, err := charness.Inputs(r.Program, params)
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[string]*scop.Buffer{}, map[string]*scop.Buffer{}
	for name, b := range in {
		want[name], got[name] = b.Clone(), b.Clone()
	}
	if err := refexec.Run(r.Program, params, want); err != nil {
		t.Fatal(err)
	}
	if _, err := interp.Run(r.Program, r.AST, params, got); err != nil {
		t.Fatal(err)
	}
	for name := range want {
		if !bytes.Equal(want[name].Data, got[name].Data) {
			t.Errorf("array %s differs from the reference executor's", name)
		}
	}
}

// TestCompile runs the whole spine for every strategy and target: every
// stage's value is kept, the code computes what the program does, and
// the IR defines the function.
func TestCompile(t *testing.T) {
	p := kernel(t, "jacobi-2d")
	params := map[string]int64{"tsteps": 3, "n": 13}
	for _, s := range compiler.Strategies() {
		if s == compiler.Schedule {
			continue // C has no call schedule: TestSchedulePipelines
		}
		for _, target := range emit.Targets {
			for _, tile := range [][]int64{nil, {4, 5}} {
				opts := compiler.Options{Strategy: s, Target: target, Tile: tiling.Policy{Sizes: tile}, Parallel: true, Func: "kernel_jacobi_2d"}
				r, err := compiler.Compile(context.Background(), p, opts)
				if err != nil {
					t.Fatalf("%v %v %v: %v", s, target, tile, err)
				}
				if r.Done != compiler.StageEmit || r.Module == nil || r.AST == nil {
					t.Fatalf("%v %v: stopped after %v", s, target, r.Done)
				}
				if !strings.Contains(r.Module.IR, "@kernel_jacobi_2d(") {
					t.Errorf("%v %v: the IR does not define the function", s, target)
				}
				// Post-tiling fusion tiles by its default sizes, auto
				// on the CPU by its own (jacobi-2d's band under min).
				if (len(r.TiledBands) > 0) != (tile != nil || s == compiler.Post || s == compiler.Auto && !target.GPU()) {
					t.Errorf("%v %v %v: %d tiled bands", s, target, tile, len(r.TiledBands))
				}
				if target.GPU() && !strings.Contains(r.Mapped.Text(), "mark kernel") {
					t.Errorf("%v %v: no kernel mark in\n%s", s, target, r.Mapped.Text())
				}
				if eq, _ := r.Tree().Equal(r.Mapped); !eq {
					t.Errorf("%v %v: Tree() is not the last tree", s, target)
				}
				runAST(t, r, params)
			}
		}
	}
}

// TestStop: a compilation stopped after a stage has that stage's value
// and none of the later ones.
func TestStop(t *testing.T) {
	p := kernel(t, "gemm")
	for stop := compiler.StageSchedule; stop <= compiler.StageEmit; stop++ {
		r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Smart, Stop: stop})
		if err != nil {
			t.Fatal(err)
		}
		if r.Done != stop {
			t.Errorf("stop %v: done %v", stop, r.Done)
		}
		if (r.AST != nil) != (stop >= compiler.StageAST) || (r.Module != nil) != (stop >= compiler.StageEmit) {
			t.Errorf("stop %v: AST %v, module %v", stop, r.AST != nil, r.Module != nil)
		}
		if r.Times[stop] <= 0 && stop == compiler.StageSchedule {
			t.Errorf("stop %v: no time for the schedule", stop)
		}
		if _, err := r.C("f"); (err == nil) != (stop >= compiler.StageAST) {
			t.Errorf("stop %v: C() error %v", stop, err)
		}
	}
}

// TestTree: a given tree replaces the scheduler's; one that schedules
// other instances is refused.
func TestTree(t *testing.T) {
	gemm, mvt := kernel(t, "gemm"), kernel(t, "mvt")
	r, err := compiler.Compile(context.Background(), gemm, compiler.Options{Strategy: compiler.Max, Stop: compiler.StageSchedule})
	if err != nil {
		t.Fatal(err)
	}
	tree := r.Scheduled
	r, err = compiler.Compile(context.Background(), gemm, compiler.Options{Tree: &tree, Tile: tiling.Policy{Sizes: []int64{3}}, Stop: compiler.StageAST})
	if err != nil {
		t.Fatal(err)
	}
	if eq, _ := r.Scheduled.Equal(tree); !eq {
		t.Error("the given tree was not used")
	}
	runAST(t, r, map[string]int64{"ni": 7, "nj": 5, "nk": 6})
	if _, err := compiler.Compile(context.Background(), mvt, compiler.Options{Tree: &tree}); err == nil || !strings.Contains(err.Error(), "is not the program's") {
		t.Errorf("gemm's tree for mvt: %v", err)
	}
	// Without a program, a tree still gives its AST.
	r, err = compiler.Compile(context.Background(), nil, compiler.Options{Tree: &tree, Stop: compiler.StageAST})
	if err != nil || r.AST == nil {
		t.Errorf("no program: %v", err)
	}
	if _, err := compiler.Compile(context.Background(), nil, compiler.Options{Tree: &tree}); err == nil {
		t.Error("no program: emission did not fail")
	}
}

// TestContext: a cancelled or expired context stops the compilation with
// the context's error; an exhausted operation budget is an error too.
func TestContext(t *testing.T) {
	p := kernel(t, "3mm")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := compiler.Compile(ctx, p, compiler.Options{Strategy: compiler.Max}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	r, err := compiler.Compile(ctx, p, compiler.Options{Strategy: compiler.Max})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}
	if r.Done == compiler.StageEmit {
		t.Error("deadline: every stage completed")
	}
	if _, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Max, MaxOps: 10}); err == nil {
		t.Error("MaxOps 10: no error")
	}
	// The limits are restored and the process is not left interrupted.
	if presburger.CurrentLimits() != presburger.DefaultLimits {
		t.Errorf("limits left at %+v", presburger.CurrentLimits())
	}
	if _, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Max}); err != nil {
		t.Errorf("after the cancellations: %v", err)
	}
}

func TestParseStrategy(t *testing.T) {
	for _, s := range compiler.Strategies() {
		got, err := compiler.ParseStrategy(s.String())
		if err != nil || got != s {
			t.Errorf("%v: %v, %v", s, got, err)
		}
	}
	_, err := compiler.ParseStrategy("maximal")
	if err == nil || !strings.Contains(err.Error(), `"maximal" (none, min, smart, max, post, schedule or auto)`) {
		t.Errorf("unknown: %v", err)
	}
}
