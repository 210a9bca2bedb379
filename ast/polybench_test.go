package ast_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"tilefuse/ast"
	"tilefuse/frontend/cparse"
	"tilefuse/polybench"
	"tilefuse/scheduler"
	"tilefuse/scheduletree"
	"tilefuse/scop"
	"tilefuse/scop/charness"
	"tilefuse/scop/refexec"
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
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	for _, k := range polybench.Kernels() {
		for _, tiled := range []bool{false, true} {
			name := k.Name
			if tiled {
				name += "/tiled"
			}
			t.Run(name, func(t *testing.T) { checkKernel(t, gcc, k, tiled) })
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
func checkKernel(t *testing.T, gcc string, k polybench.Kernel, tiled bool) {
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
			params := k.Sizes(polybench.Mini)
			bufs, err := refexec.Alloc(p, params)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range charness.ArrayArgs(p) {
				if a.LiveIn {
					bufs[a.Name].Fill(uint64(i + 1))
				}
			}
			input, err := charness.Encode(p, bufs)
			if err != nil {
				t.Fatal(err)
			}
			got := runC(t, gcc, p, src, params, input, bufs)
			if err := refexec.Run(p, params, bufs); err != nil {
				t.Fatal(err)
			}
			for _, a := range charness.ArrayArgs(p) {
				m, err := scop.Compare(bufs[a.Name], got[a.Name], inexact[k.Name])
				if err != nil {
					t.Fatal(err)
				}
				if m != nil {
					t.Errorf("array %s: generated code differs from the reference at %s\n%s", a.Name, m, src)
				}
			}
		}
	}
}

// runC compiles the function src named "kernel" with a harness, runs it
// on input and returns the arrays it wrote back.
func runC(t *testing.T, gcc string, p *scop.Program, src string, params map[string]int64, input []byte, like map[string]*scop.Buffer) map[string]*scop.Buffer {
	t.Helper()
	dir := t.TempDir()
	main, err := charness.Main(p, params, "kernel", "")
	if err != nil {
		t.Fatal(err)
	}
	cfile, bin := filepath.Join(dir, "h.c"), filepath.Join(dir, "h")
	in, out := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	if err := os.WriteFile(cfile, []byte(src+"\n"+main), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, input, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(gcc, "-O0", "-Wall", "-Wno-unused-function", "-Werror", "-o", bin, cfile, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, b, src)
	}
	if b, err := exec.Command(bin, in, out).CombinedOutput(); err != nil {
		t.Fatalf("harness: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := charness.Decode(p, like, data)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
