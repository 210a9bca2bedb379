package compiler_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/tiling"
	"github.com/tilefuse/tilefuse/tiling/tune"
)

// TestAuto checks what strategy auto picks: post with the cost model's
// first choice of sizes where post-tiling fusion fuses stages (the
// model's pick recomputed here from the same fusion, at the model's
// reference sizes), the default strategy where it fuses none, the given
// sizes when there are some;
// and that harris under auto executes bit for bit.
func TestAuto(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // no calibration: DefaultCosts
	t.Setenv("OMP_NUM_THREADS", "2")
	e, _ := polymage.Lookup("harris")
	harris, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := compiler.Compile(ctx, harris, compiler.Options{Strategy: compiler.Auto, Parallel: true, Estimate: e.Small})
	if err != nil {
		t.Fatal(err)
	}
	if r.Options.Strategy != compiler.Post || !strings.Contains(r.Auto, "the cost model's pick") {
		t.Fatalf("harris: auto picked %v (%q), want post with the model's sizes", r.Options.Strategy, r.Auto)
	}
	ref, err := compiler.Compile(ctx, harris, compiler.Options{Strategy: compiler.Post, Parallel: true, Estimate: e.Small, Stop: compiler.StageFuse,
		InnerTile: fusion.DefaultBandSizes})
	if err != nil {
		t.Fatal(err)
	}
	shape, err := tune.ShapeOf(ref.Fusion, ref.Program, e.Small)
	if err != nil {
		t.Fatal(err)
	}
	pick := tune.Rank(tune.DefaultCosts, shape, tune.ReadMachine("/sys", 2), tune.Candidates(2, tune.Values))[0]
	if !slices.Equal(r.Options.InnerTile, pick.Sizes) {
		t.Errorf("harris: auto's sizes %v, the model's pick %v", r.Options.InnerTile, pick.Sizes)
	}
	if tc, err := runner.FindToolchain(); err == nil {
		inputs, err := e.Inputs(harris, e.Small, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tc.Run(harris, runner.Kernel{IR: r.Module.IR, Func: r.Module.Func}, runner.Options{
			Params: e.Small, Inputs: inputs, Threads: 2, Repeat: 1, Warmup: -1, Reference: runner.RefExec,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Check.OK() {
			t.Errorf("harris under auto: %s", res.Check)
		}
	}

	// Where post fuses nothing: min, its bands of two or more members
	// tiled 32 where tiles pay (gemm's product but not its streaming
	// C[i][j] *= beta, trisolv's band under a wavefront; not gesummv's two
	// products, reductions along j that read x[j] alike, fused into one
	// untiled band, nor its three one-member bands), no
	// wavefront below a sequential loop (Floyd-Warshall's (i, j) under
	// k); the GPU keeps smart.
	for _, tc := range []struct {
		kernel string
		target emit.Target
		want   compiler.Strategy
		tiled  int
	}{
		{"gemm", emit.CPU, compiler.Min, 1},
		{"trisolv", emit.CPU, compiler.Min, 1},
		{"gesummv", emit.CPU, compiler.Min, 0},
		{"floyd-warshall", emit.CPU, compiler.Min, 0},
		{"gemm", emit.CUDAEmulate, compiler.DefaultStrategy, 0},
		// heat-3d's time-skewed band of four members: the original order.
		{"heat-3d", emit.CPU, compiler.None, 0},
	} {
		r, err = compiler.Compile(ctx, kernel(t, tc.kernel), compiler.Options{Strategy: compiler.Auto, Target: tc.target, Stop: compiler.StageTile})
		if err != nil {
			t.Fatal(err)
		}
		if r.Options.Strategy != tc.want || !strings.Contains(r.Auto, "fuses no stage") || len(r.TiledBands) != tc.tiled {
			t.Errorf("%s on %v: auto picked %v (%q), %d bands tiled; want %v, %d tiled", tc.kernel, tc.target, r.Options.Strategy, r.Auto, len(r.TiledBands), tc.want, tc.tiled)
		}
	}

	r, err = compiler.Compile(ctx, harris, compiler.Options{Strategy: compiler.Auto, Tile: tiling.Policy{Sizes: []int64{16, 16}}, Stop: compiler.StageFuse})
	if err != nil {
		t.Fatal(err)
	}
	if r.Options.Strategy != compiler.Post || r.Options.InnerTile != nil || !strings.Contains(r.Auto, "tile sizes given") {
		t.Errorf("harris with --tile 16: auto picked %v, inner %v (%q)", r.Options.Strategy, r.Options.InnerTile, r.Auto)
	}
}

// TestAutoSerialLeaves: under auto, a parallel loop with no loop inside
// it, inside a sequential loop, runs serially (durbin's two loops inside
// k); outermost parallel loops stay (gemm's tiles), and so do other
// strategies' leaves.
func TestAutoSerialLeaves(t *testing.T) {
	for _, tc := range []struct {
		kernel   string
		strategy compiler.Strategy
		parallel bool
	}{
		{"durbin", compiler.Auto, false},
		{"durbin", compiler.Min, true},
		{"gemm", compiler.Auto, true},
	} {
		r, err := compiler.Compile(context.Background(), kernel(t, tc.kernel), compiler.Options{Strategy: tc.strategy, Parallel: true, Stop: compiler.StageAST})
		if err != nil {
			t.Fatal(err)
		}
		par := false
		ast.Walk(r.AST, func(n ast.Node) bool {
			if f, ok := n.(*ast.For); ok && f.Parallel {
				par = true
			}
			return true
		})
		if par != tc.parallel {
			t.Errorf("%s under %v: a parallel loop: %v, want %v", tc.kernel, tc.strategy, par, tc.parallel)
		}
	}
}

// TestAutoCheckBudget: where the post tree's exact check runs out of the
// operation budget, an explicit --fuse post fails with the limit's
// message, and auto falls back to the default strategy, says so, and
// computes the reference's arrays.
func TestAutoCheckBudget(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "checkbudget.c"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := cparse.ParseFunc("checkbudget.c", src, "rp101042")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// A smaller budget than the default keeps the test short; the check
	// needs more than 80 million steps, the default strategy far fewer.
	const ops = 1_000_000
	_, err = compiler.Compile(ctx, p, compiler.Options{Strategy: compiler.Post, MaxOps: ops})
	var limit *compiler.LimitError
	if !errors.As(err, &limit) || !strings.Contains(err.Error(), "checking the post-tiling fusion tree") {
		t.Fatalf("post: error %v, want the check's limit", err)
	}
	r, err := compiler.Compile(ctx, p, compiler.Options{Strategy: compiler.Auto, MaxOps: ops})
	if err != nil {
		t.Fatal(err)
	}
	if r.Options.Strategy != compiler.DefaultStrategy || !strings.Contains(r.Auto, "could not be checked within the operation budget") {
		t.Fatalf("auto picked %v (%q), want %v for the budget", r.Options.Strategy, r.Auto, compiler.DefaultStrategy)
	}
	runAST(t, r, map[string]int64{"n": 6})
}

// TestAutoPolyBench: every PolyBench kernel compiles under auto, for the
// CPU and the emulated GPU mapping, with the sizes auto picks for it, and
// its AST computes the reference executor's arrays at MINI (issue 16's
// first acceptance item; the native builds of post and smart are in
// TestPostPolyBench and package emit).
func TestAutoPolyBench(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // no calibration: DefaultCosts
	t.Setenv("OMP_NUM_THREADS", "2")
	kernels := polybench.Kernels()
	if testing.Short() {
		kernels = polybench.Every(3)
	}
	for _, k := range kernels {
		t.Run(k.Name, func(t *testing.T) {
			p := kernel(t, k.Name)
			params := k.Sizes(polybench.Mini)
			for _, target := range []emit.Target{emit.CPU, emit.CUDAEmulate} {
				r, err := compiler.Compile(context.Background(), p, compiler.Options{
					Strategy: compiler.Auto, Target: target, Parallel: true, Func: k.Func, Estimate: params,
				})
				if err != nil {
					t.Fatalf("%v: %v", target, err)
				}
				if r.Auto == "" || r.Options.Strategy == compiler.Auto {
					t.Fatalf("%v: auto did not say what it picked (%v, %q)", target, r.Options.Strategy, r.Auto)
				}
				runAST(t, r, params)
			}
		})
	}
}

// TestAutoTilesSmall runs a few kernels under auto at PolyBench's SMALL
// sizes, where auto's 32-point tiles are several per band (at MINI most
// bands fit one tile): full and partial tiles, trisolv's, lu's and
// jacobi-2d's wavefronts, bicg's, doitgen's and trmm's point loops
// reordered for locality.
func TestAutoTilesSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("SMALL sizes")
	}
	for _, name := range []string{"gemm", "trisolv", "lu", "jacobi-2d", "bicg", "doitgen", "trmm"} {
		t.Run(name, func(t *testing.T) {
			k, _ := polybench.Lookup(name)
			params := k.Sizes(polybench.Small)
			r, err := compiler.Compile(context.Background(), kernel(t, name), compiler.Options{
				Strategy: compiler.Auto, Parallel: true, Func: k.Func, Estimate: params,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.TiledBands) == 0 {
				t.Fatalf("auto tiled no band (%q)", r.Auto)
			}
			runAST(t, r, params)
		})
	}
}
