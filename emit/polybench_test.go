package emit

import (
	"os"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
	"github.com/tilefuse/tilefuse/tiling"
)

// inexact lists kernels whose results may differ from the reference in
// the last bits (libm's exp and pow against Go's), with the relative
// tolerance allowed.
var inexact = map[string]float64{"deriche": 1e-5}

// modes are the ways a kernel is emitted in the tests. The static mode
// also keeps updated elements in registers where the program's
// Accumulators allow (as package compiler has it emitted); the others
// keep them in memory.
var modes = []struct {
	name string
	opts Options
}{
	{"serial", Options{}},
	{"static", Options{Parallel: true}},
	{"dynamic", Options{Parallel: true, Dynamic: true}},
}

// runThreads says with how many threads each mode runs a kernel (none:
// not run). The harness moves all of a kernel's arrays (PolyBench's
// extents are the LARGE ones, tens of MiB) on every run, so the serial
// mode is left to the smaller tests, the dynamic schedule to the original
// trees, and -short runs the static schedule on two threads only.
func runThreads(mode string, tiled bool) []int {
	switch {
	case mode == "static" && testing.Short():
		return []int{2}
	case mode == "static":
		return []int{1, 2}
	case mode == "dynamic" && !tiled && !testing.Short():
		return []int{2}
	}
	return nil
}

// kernelAST parses kernel k and generates the AST of its original
// schedule, with parallel loops marked, its permutable bands tiled by 4
// when tiled is set. It reports false when there is nothing to tile.
func kernelAST(t *testing.T, k polybench.Kernel, tiled bool) (*scop.Program, ast.Node, bool) {
	t.Helper()
	p := parseKernel(t, k)
	tree, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	if tiled {
		var ok bool
		if tree, ok = tilePermutable(t, tree); !ok {
			return nil, nil, false
		}
	}
	n, err := ast.Generate(tree, ast.Options{Parallel: true})
	if err != nil {
		t.Fatal(err)
	}
	return p, n, true
}

// tilePermutable tiles the outermost permutable bands by 4 (the tiling
// package's policy); it reports whether there was one.
func tilePermutable(t *testing.T, tree scheduletree.Tree) (scheduletree.Tree, bool) {
	t.Helper()
	tree, tiled, err := tiling.Apply(tree, tiling.Policy{Sizes: []int64{4}})
	if err != nil {
		t.Fatal(err)
	}
	return tree, len(tiled) > 0
}

// forKernels runs fn as a parallel subtest for every PolyBench kernel,
// original and tiled.
func forKernels(t *testing.T, fn func(t *testing.T, k polybench.Kernel, p *scop.Program, n ast.Node, tiled bool)) {
	for _, k := range polybench.Kernels() {
		for _, tiled := range []bool{false, true} {
			name := k.Name
			if tiled {
				name += "/tiled"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				p, n, ok := kernelAST(t, k, tiled)
				if !ok {
					t.Skip("no permutable band to tile")
				}
				fn(t, k, p, n, tiled)
			})
		}
	}
}

// TestVerifyPolyBench emits every PolyBench kernel, original and tiled,
// serial and parallel, and checks each module with opt -verify.
func TestVerifyPolyBench(t *testing.T) {
	opt := needOpt(t)
	forKernels(t, func(t *testing.T, k polybench.Kernel, p *scop.Program, n ast.Node, tiled bool) {
		for _, m := range modes {
			mod, err := Emit(p, n, m.opts)
			if err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			verify(t, opt, mod.IR)
		}
	})
}

// cpuDatasets are the datasets TestPolyBench and TestPolyBenchFusion run:
// TILEFUSE_CPU_DATASETS (default MINI; e.g. MINI,SMALL).
func cpuDatasets(t *testing.T) []polybench.Dataset {
	return envDatasets(t, "TILEFUSE_CPU_DATASETS")
}

// envDatasets parses the comma-separated datasets in the environment
// variable name (default MINI).
func envDatasets(t *testing.T, name string) []polybench.Dataset {
	list := os.Getenv(name)
	if list == "" {
		list = "MINI"
	}
	var out []polybench.Dataset
	for _, name := range strings.Split(list, ",") {
		d, err := polybench.ParseDataset(strings.TrimSpace(name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// checkRuns builds kernel k's module for every mode runThreads(mode)
// selects, runs it on each dataset and thread count and compares every
// array with the reference executor's, bit for bit (deriche: inexact).
func checkRuns(t *testing.T, tc toolchain, k polybench.Kernel, p *scop.Program, n ast.Node, runThreads func(mode string) []int) {
	t.Helper()
	for _, d := range cpuDatasets(t) {
		params := k.Sizes(d)
		in, err := charness.Inputs(p, params)
		if err != nil {
			t.Fatal(err)
		}
		want := cloneBufs(in)
		if err := refexec.Run(p, params, want); err != nil {
			t.Fatal(err)
		}
		inFile := writeInput(t, p, in)
		for _, m := range modes {
			threads := runThreads(m.name)
			if len(threads) == 0 {
				continue
			}
			m.opts.Func = "kernel_" + m.name
			if m.name == "static" {
				if m.opts.Accumulators, err = p.Accumulators(); err != nil {
					t.Fatal(err)
				}
			}
			mod, err := Emit(p, n, m.opts)
			if err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
			bin := tc.build(t, t.TempDir(), mod, p, params)
			for _, th := range threads {
				got := runHarness(t, bin, inFile, p, in, th)
				compareArgs(t, p, got, want, inexact[k.Name])
				if t.Failed() {
					t.Fatalf("%s: %s on %d threads", d, m.name, th)
				}
			}
		}
	}
}

// TestPolyBench builds every PolyBench kernel's emitted code (original
// schedule, and tiled) with opt -O3 and llc -O3, links it with the
// scop/charness harness, runs it on one and two threads and compares
// every array with the reference executor's, bit for bit, on MINI (see
// cpuDatasets for more).
func TestPolyBench(t *testing.T) {
	tc := needTools(t)
	forKernels(t, func(t *testing.T, k polybench.Kernel, p *scop.Program, n ast.Node, tiled bool) {
		checkRuns(t, tc, k, p, n, func(mode string) []int { return runThreads(mode, tiled) })
	})
}

// TestPolyBenchFusion does the same for the scheduler's three fusion
// heuristics (min, smart, max), parallel loops on one and two threads.
func TestPolyBenchFusion(t *testing.T) {
	tc := needTools(t)
	for _, k := range sampleKernels() {
		for _, fuse := range gpuFuses[1:] {
			t.Run(k.Name+"/"+fuse, func(t *testing.T) {
				t.Parallel()
				p, tree := scheduleKernel(t, k, fuse)
				n, err := ast.Generate(tree, ast.Options{Parallel: true})
				if err != nil {
					t.Fatal(err)
				}
				checkRuns(t, tc, k, p, n, func(mode string) []int {
					if mode == "static" {
						return []int{1, 2}
					}
					return nil
				})
			})
		}
	}
}

// sampleKernels is every PolyBench kernel, or under -short every third
// (by name: every category keeps some): the whole suite runs without
// -short, as in CI.
func sampleKernels() []polybench.Kernel {
	if testing.Short() {
		return polybench.Every(3)
	}
	return polybench.Kernels()
}

// TestAccumulatorSlot: nussinov's update of table[i][j] over k is kept in
// a stack slot where the Accumulators allow it, and in memory without
// them.
func TestAccumulatorSlot(t *testing.T) {
	k, _ := polybench.Lookup("nussinov")
	p, n, _ := kernelAST(t, k, false)
	acc, err := p.Accumulators()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		acc  map[string][]bool
		want bool
	}{{acc, true}, {nil, false}} {
		mod, err := Emit(p, n, Options{Accumulators: tc.acc})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(mod.IR, "%table.acc = alloca i32"); got != tc.want {
			t.Errorf("Accumulators %v: a slot for table's element: %v, want %v", tc.acc, got, tc.want)
		}
	}
}
