package emit

import (
	"os"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// gpuFuses are the schedules the GPU tests map: the original order and
// the scheduler's three fusion heuristics.
var gpuFuses = []string{"none", "min", "smart", "max"}

// gpuTestSizes are small blocks, so that the emulation's teams stay
// small on a loaded machine and loops longer than a block are common.
var gpuTestSizes = []int64{4, 2}

// scheduleKernel parses kernel k and returns its tree for fuse (none:
// the original order).
func scheduleKernel(t *testing.T, k polybench.Kernel, fuse string) (*scop.Program, scheduletree.Tree) {
	t.Helper()
	return scheduleKernelOf(t, parseKernel(t, k), fuse)
}

// parseKernel parses PolyBench kernel k.
func parseKernel(t *testing.T, k polybench.Kernel) *scop.Program {
	t.Helper()
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// scheduleKernelOf returns p's tree for fuse.
func scheduleKernelOf(t *testing.T, p *scop.Program, fuse string) (*scop.Program, scheduletree.Tree) {
	t.Helper()
	if fuse == "none" {
		tree, err := scheduler.Original(p)
		if err != nil {
			t.Fatalf("fuse none: %v", err)
		}
		return p, tree
	}
	f, err := scheduler.ParseFuse(fuse)
	if err != nil {
		t.Fatal(err)
	}
	return p, scheduleWith(t, p, scheduler.Options{Fuse: f})
}

// scheduleWith returns the scheduler's tree for p under opts.
func scheduleWith(t *testing.T, p *scop.Program, opts scheduler.Options) scheduletree.Tree {
	t.Helper()
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := scheduler.Schedule(p, g, opts)
	if err != nil {
		t.Fatalf("fuse %s: %v", opts.Fuse, err)
	}
	return tree
}

// gpuAST maps the tree with gpumap.Map and generates its AST.
func gpuAST(t *testing.T, tree scheduletree.Tree, opts Options) ast.Node {
	t.Helper()
	mapped, err := gpumap.Map(tree, gpumap.Sizes{Threads: opts.ThreadSizes, Blocks: opts.BlockSizes})
	if err != nil {
		t.Fatal(err)
	}
	n, err := ast.Generate(mapped, ast.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, mapped.Text())
	}
	return n
}

// gpuConfigs are the configurations TestCudaEmulatePolyBench runs: the
// datasets in TILEFUSE_GPU_DATASETS (default MINI; e.g. MINI,SMALL), and
// with TILEFUSE_GPU_TILED=1 each tree also with its permutable bands
// tiled by 4.
func gpuConfigs(t *testing.T) (datasets []polybench.Dataset, tiled []bool) {
	tiled = []bool{false}
	if os.Getenv("TILEFUSE_GPU_TILED") != "" {
		tiled = append(tiled, true)
	}
	datasets = envDatasets(t, "TILEFUSE_GPU_DATASETS")
	return datasets, tiled
}

// TestCudaEmulatePolyBench maps every PolyBench kernel under every
// fusion heuristic with gpumap.Map, emits it for CUDAEmulate with blocks of
// 4 x 2 threads, builds it with the harness, runs it on MINI and checks
// every array against the reference executor, bit for bit (deriche
// within 1e-5: expf and powf from libm). See gpuConfigs for more.
func TestCudaEmulatePolyBench(t *testing.T) {
	tc := needTools(t)
	datasets, tiles := gpuConfigs(t)
	for _, k := range sampleKernels() {
		for _, fuse := range gpuFuses {
			for _, tiled := range tiles {
				name := k.Name + "/" + fuse
				if tiled {
					name += "/tile4"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					p, tree := scheduleKernel(t, k, fuse)
					if tiled {
						var ok bool
						if tree, ok = tilePermutable(t, tree); !ok {
							t.Skip("no permutable band to tile")
						}
					}
					opts := Options{Target: CUDAEmulate, ThreadSizes: gpuTestSizes}
					n := gpuAST(t, tree, opts)
					mod, err := Emit(p, n, opts)
					if err != nil {
						t.Fatal(err)
					}
					if !strings.Contains(mod.IR, "@GOMP_parallel") {
						t.Errorf("no kernel launched")
					}
					for _, d := range datasets {
						params := k.Sizes(d)
						in, err := charness.Inputs(p, params)
						if err != nil {
							t.Fatal(err)
						}
						want := cloneBufs(in)
						if err := refexec.Run(p, params, want); err != nil {
							t.Fatal(err)
						}
						bin := tc.build(t, t.TempDir(), mod, p, params)
						got := runHarness(t, bin, writeInput(t, p, in), p, in, 1)
						compareArgs(t, p, got, want, inexact[k.Name])
						if t.Failed() {
							t.Fatalf("dataset %s", d)
						}
					}
				})
			}
		}
	}
}
