package ast_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/tiling"
)

// inexact lists kernels whose results may differ from the reference in
// the last bits (transcendental functions from another library), with
// the relative tolerance allowed, as in polybench's reference test.
var inexact = map[string]float64{"deriche": 1e-5}

// pbTree is one schedule tree of a PolyBench kernel: its original order
// or the scheduler's tree for one fusion heuristic, tiled or not.
type pbTree struct {
	name string // "original", "min", "smart", "max", with "/tile4" etc.
	tree scheduletree.Tree
}

// polyBenchTrees parses kernel k and returns its trees: the original
// order and scheduler.Schedule with Fuse min, smart and max, each as is
// and with its permutable bands tiled by every size in tiles (when it has
// any).
func polyBenchTrees(t *testing.T, k polybench.Kernel, tiles ...int64) (*scop.Program, []pbTree) {
	t.Helper()
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []pbTree
	add := func(name string, tree scheduletree.Tree) {
		out = append(out, pbTree{name, tree})
		for _, size := range tiles {
			if tiled, ok := tilePermutable(t, tree, size); ok {
				out = append(out, pbTree{fmt.Sprintf("%s/tile%d", name, size), tiled})
			}
		}
	}
	tree, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	add("original", tree)
	for _, fuse := range []scheduler.Fuse{scheduler.FuseMin, scheduler.FuseSmart, scheduler.FuseMax} {
		tree, err := scheduler.Schedule(p, g, scheduler.Options{Fuse: fuse})
		if err != nil {
			t.Fatalf("fuse %s: %v", fuse, err)
		}
		add(fuse.String(), tree)
	}
	return p, out
}

// tilePermutable tiles the outermost permutable bands by size (the
// tiling package's policy); it reports whether there was one.
func tilePermutable(t *testing.T, tree scheduletree.Tree, size int64) (scheduletree.Tree, bool) {
	t.Helper()
	tree, tiled, err := tiling.Apply(tree, tiling.Policy{Sizes: []int64{size}})
	if err != nil {
		t.Fatal(err)
	}
	return tree, len(tiled) > 0
}

// TestPolyBench generates the AST of every PolyBench kernel's trees (the
// original order and the min, smart and max fusion schedules, each also
// tiled by 4), prints it as a C function, compiles it with gcc -O0 in the
// scop/charness harness and compares every array with the reference
// executor's, on the MINI dataset. Trees that print to the same C (the
// fusion heuristics often agree) are compiled once.
func TestPolyBench(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	kernels := polybench.Kernels()
	if testing.Short() {
		kernels = polybench.Every(2) // the whole suite without -short
	}
	for _, k := range kernels {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p, trees := polyBenchTrees(t, k, 4)
			// The first tree that printed each C source, and whether it
			// failed.
			type run struct {
				tree   string
				failed bool
			}
			verified := map[string]*run{}
			for _, tr := range trees {
				t.Run(tr.name, func(t *testing.T) {
					n, err := ast.Generate(tr.tree, ast.Options{})
					if err != nil {
						t.Fatal(err)
					}
					src, err := ast.PrintProgram(p, n, "kernel")
					if err != nil {
						t.Fatal(err)
					}
					if k.Name == "jacobi-2d" && tr.name == "original" {
						checkGolden(t, "program_jacobi-2d.c", src)
					}
					if first, ok := verified[src]; ok {
						if first.failed {
							t.Errorf("same C as %s, which fails", first.tree)
						}
						t.Logf("same C as %s", first.tree)
						return
					}
					r := &run{tree: tr.name}
					verified[src] = r
					defer func() { r.failed = t.Failed() }()
					diffs, err := charness.Verify(t.TempDir(), p, k.Sizes(polybench.Mini), src, "kernel", inexact[k.Name], "-Wall", "-Wno-unused-function", "-Werror")
					if err != nil {
						t.Fatalf("%v\n%s", err, src)
					}
					if len(diffs) > 0 {
						t.Errorf("%s\n%s", strings.Join(diffs, "\n"), src)
					}
				})
			}
		})
	}
}
