package ast_test

import (
	"os/exec"
	"testing"

	"tilefuse/ast"
	"tilefuse/frontend/cparse"
	"tilefuse/polybench"
	"tilefuse/scheduler"
	"tilefuse/scheduletree"
	"tilefuse/scop/charness"
)

// inexact lists kernels whose results may differ from the reference in
// the last bits (transcendental functions from another library), with
// the relative tolerance allowed, as in polybench's reference test.
var inexact = map[string]float64{"deriche": 1e-5}

// TestPolyBenchOriginal generates the AST of every PolyBench kernel's
// original-order schedule tree, prints it as a C function, compiles it
// with gcc -O0 in the scop/charness harness and compares every array
// with the reference executor's, on the MINI dataset.
func TestPolyBenchOriginal(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	for _, k := range polybench.Kernels() {
		for _, tiled := range []bool{false, true} {
			name := k.Name
			if tiled {
				name += "/tiled"
			}
			t.Run(name, func(t *testing.T) { checkKernel(t, k, tiled) })
		}
	}
}

// tilePermutable tiles every permutable band of two or more members by
// 4 (legal: the scheduler sets the flag from the dependences), deepest
// first so that the other paths stay valid. It reports whether it tiled.
func tilePermutable(t *testing.T, tree scheduletree.Tree) (scheduletree.Tree, bool) {
	t.Helper()
	var paths []scheduletree.Path
	tree.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && n.Band().Permutable && n.Band().Members() > 1 {
			paths = append(paths, append(scheduletree.Path{}, p...))
		}
		return true
	})
	for i := len(paths) - 1; i >= 0; i-- {
		n, err := tree.At(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		sizes := make([]int64, n.Band().Members())
		for k := range sizes {
			sizes[k] = 4
		}
		if tree, err = tree.TileBand(paths[i], sizes); err != nil {
			t.Fatal(err)
		}
	}
	return tree, len(paths) > 0
}

// checkKernel runs kernel k (with its permutable bands tiled, or not)
// through AST generation, PrintProgram and gcc, and compares the arrays
// with the reference executor's.
func checkKernel(t *testing.T, k polybench.Kernel, tiled bool) {
	{
		{
			t.Parallel()
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			tree, err := scheduler.Original(p)
			if err != nil {
				t.Fatal(err)
			}
			if tiled {
				var ok bool
				if tree, ok = tilePermutable(t, tree); !ok {
					t.Skip("no permutable band to tile")
				}
			}
			n, err := ast.Generate(tree, ast.Options{})
			if err != nil {
				t.Fatal(err)
			}
			src, err := ast.PrintProgram(p, n, "kernel")
			if err != nil {
				t.Fatal(err)
			}
			if k.Name == "jacobi-2d" && !tiled {
				checkGolden(t, "program_jacobi-2d.c", src)
			}
			diffs, err := charness.Verify(t.TempDir(), p, k.Sizes(polybench.Mini), src, "kernel", inexact[k.Name], "-Wall", "-Wno-unused-function", "-Werror")
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			for _, d := range diffs {
				t.Errorf("%s\n%s", d, src)
			}
		}
	}
}
