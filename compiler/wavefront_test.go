package compiler_test

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/tiling"
)

// stencils are the time-iterated PolyBench stencils, run at SMALL (at
// MINI few tiles of 32 make a wavefront).
var stencils = []string{"adi", "fdtd-2d", "heat-3d", "jacobi-1d", "jacobi-2d", "seidel-2d"}

// TestWavefrontRun compiles every PolyBench kernel under the scheduler's
// strategies with tiles of 4, 13, 32 and 32,64 for the CPU (parallel, 2
// threads) and the emulated CUDA mapping; every configuration whose tiled
// tree the wavefront or the point loops' distribution changes (the plain
// tiled tree is what the other tests run) is built with opt/llc/cc and
// checked bit for bit against the reference executor (deriche within
// 1e-5). Configurations that give the same tree are built once.
func TestWavefrontRun(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	strategies := []compiler.Strategy{compiler.Min, compiler.Smart, compiler.Max}
	sizes := [][]int64{{4}, {13}, {32}, {32, 64}}
	kernels := polybench.Kernels()
	if testing.Short() {
		strategies, sizes = strategies[1:2], sizes[1:2]
		kernels = slices.DeleteFunc(kernels, func(k polybench.Kernel) bool { return !slices.Contains(stencils, k.Name) })
	}
	for _, k := range kernels {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p := kernel(t, k.Name)
			// heat-3d's SMALL (n = 20) runs thousands of wavefronts, each
			// a barrier: on a loaded machine a minute per configuration.
			ds := polybench.Mini
			if slices.Contains(stencils, k.Name) && k.Name != "heat-3d" {
				ds = polybench.Small
			}
			tol := 0.0
			if k.Name == "deriche" {
				tol = 1e-5
			}
			seen := map[string]bool{}
			for _, s := range strategies {
				for _, target := range []emit.Target{emit.CPU, emit.CUDAEmulate} {
					r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: s, Target: target, Stop: compiler.StageSchedule})
					if err != nil {
						t.Fatalf("%v %v: %v", s, target, err)
					}
					// The tree schedules the program as the strategy
					// rewrote it (scalars mapped onto elements).
					sched, prog := r.Scheduled, r.Program
					for _, sz := range sizes {
						name := fmt.Sprintf("%v %v --tile %s", s, target, tiling.FormatSizes(sz))
						opts := compiler.Options{
							Tree: &sched, Target: target, Tile: tiling.Policy{Sizes: sz}, Parallel: true, Func: k.Func,
							GPU: gpumap.Sizes{Threads: []int64{4, 2}}, Stop: compiler.StageTile,
						}
						r, err := compiler.Compile(context.Background(), prog, opts)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						plain, _, err := tiling.Apply(sched, tiling.Policy{Sizes: sz, NoWavefront: true})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						key := target.String() + r.Tiled.Text()
						if eq, err := r.Tiled.Equal(plain); err != nil || eq || seen[key] {
							continue
						}
						seen[key] = true
						opts.Stop = 0
						if r, err = compiler.Compile(context.Background(), prog, opts); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						res, err := tc.Run(p, runner.Kernel{IR: r.Module.IR, Func: k.Func}, runner.Options{
							Params: k.Sizes(ds), Threads: 2, Repeat: 1, Warmup: -1,
							Reference: runner.RefExec, Tolerance: tol,
						})
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if !res.Check.OK() {
							t.Errorf("%s: %s", name, res.Check)
						}
					}
				}
			}
			if len(seen) == 0 && slices.Contains(wavefronted, k.Name) {
				t.Errorf("no configuration has a wavefront")
			}
		})
	}
}

// wavefronted are kernels that have a wavefront under every strategy.
var wavefronted = []string{"fdtd-2d", "heat-3d", "jacobi-1d", "jacobi-2d", "seidel-2d"}

// TestWavefrontAST: jacobi-2d tiled by 32 runs its tiles in a sequential
// wavefront loop around a parallel tile loop, and each statement's
// innermost point loop is a vector loop; untiled, or without the
// wavefront, it has no parallel loop (and no vector loop).
func TestWavefrontAST(t *testing.T) {
	p := kernel(t, "jacobi-2d")
	for _, tc := range []struct {
		name string
		tile tiling.Policy
		want []string // the loops in pre-order: s sequential, p parallel, v vector
	}{
		{"wavefront", tiling.Policy{Sizes: []int64{32}}, []string{"s", "p", "s", "s", "s", "v", "v"}},
		{"no wavefront", tiling.Policy{Sizes: []int64{32}, NoWavefront: true}, []string{"s", "s", "s", "s", "s", "s"}},
		{"untiled", tiling.Policy{}, []string{"s", "s", "s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Smart, Tile: tc.tile, Parallel: true, Stop: compiler.StageAST})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			ast.Walk(r.AST, func(n ast.Node) bool {
				if f, ok := n.(*ast.For); ok {
					got = append(got, map[bool]string{false: "s", true: "p"}[f.Parallel])
					if f.Vector {
						got[len(got)-1] = "v"
					}
				}
				return true
			})
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("loops (-want +got):\n%s", d)
			}
		})
	}
}

// TestWavefrontVectorize: in the stencils tiled by 32 for the CPU, the
// AST marks each statement's innermost point loop Vector, and opt -O3
// -mcpu=native vectorizes every innermost loop, without runtime alias
// checks (before the point loops' distribution, jacobi-2d's fused point
// loop was "not vectorized: unsafe dependent memory operations").
func TestWavefrontVectorize(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	for _, name := range []string{"fdtd-2d", "heat-3d", "jacobi-1d", "jacobi-2d"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k, _ := polybench.Lookup(name)
			r, err := compiler.Compile(context.Background(), kernel(t, name), compiler.Options{
				Strategy: compiler.Smart, Tile: tiling.Policy{Sizes: []int64{32}}, Parallel: true, Func: k.Func,
			})
			if err != nil {
				t.Fatal(err)
			}
			vector := 0
			ast.Walk(r.AST, func(n ast.Node) bool {
				if f, ok := n.(*ast.For); ok && f.Vector {
					vector++
				}
				return true
			})
			if vector == 0 {
				t.Fatal("no vector loop in the AST")
			}
			cmd := exec.Command(tc.Opt, "-O3", "-mcpu=native", "-pass-remarks=loop-vectorize", "-pass-remarks-missed=loop-vectorize", "-S")
			cmd.Stdin = strings.NewReader(r.Module.IR)
			var remarks strings.Builder
			cmd.Stderr = &remarks
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("opt: %v\n%s", err, remarks.String())
			}
			if got := strings.Count(remarks.String(), "remark: <unknown>:0:0: vectorized loop"); got < vector {
				t.Errorf("%d vectorized loops, want at least %d (the AST's vector loops):\n%s", got, vector, remarks.String())
			}
			if strings.Contains(remarks.String(), "loop not vectorized") {
				t.Errorf("an innermost loop is not vectorized:\n%s", remarks.String())
			}
			if strings.Contains(string(out), "vector.memcheck") {
				t.Errorf("the vectorizer needed runtime alias checks")
			}
		})
	}
}
