package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/runner"
)

// needToolchain skips a test that builds code when opt, llc or cc are
// missing, saying what to install.
func needToolchain(t *testing.T) *runner.Toolchain {
	t.Helper()
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	return tc
}

func TestCompileErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "k")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no output", []string{"compile", "polybench/gemm"}, "-o OUT is required"},
		{"no source", []string{"compile", "-o", out}, "want one SOURCE"},
		{"bad tile", []string{"compile", "--tile", "8,x", "-o", out, "polybench/gemm"}, `"x" is not a positive tile size`},
		{"zero tile", []string{"compile", "--tile", "0", "-o", out, "polybench/gemm"}, `"0" is not a positive tile size`},
		{"bad target", []string{"compile", "--target", "fpga", "-o", out, "polybench/gemm"}, `unknown target "fpga"`},
		{"bad fuse", []string{"compile", "--fuse", "most", "-o", out, "polybench/gemm"}, `unknown fusion strategy "most" (none, min, smart, max, post, schedule or auto)`},
		{"bad source", []string{"compile", "-o", out, "testdata/scop/bad_subscript.c"}, "bad_subscript.c:4:7: non-affine subscript"},
		{"several functions", []string{"compile", "-o", out, "testdata/scop/two.c"}, "pick one with --func"},
		{"unknown kernel", []string{"compile", "-o", out, "polybench/nope"}, `unknown PolyBench kernel "nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want status 2 and one line with %q", status, stdout, stderr, tc.stderr)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed compilations left %d files", len(entries))
	}
}

func TestCompileIR(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "gemm.ll") // .ll is dropped: gemm.ll and gemm.h
	if stdout, stderr, status := runCmd("", "compile", "--tile", "8,8,4", "--parallel", "-o", out, "polybench/gemm"); status != exitOK || stdout != "" || stderr != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	ir, h := readText(t, filepath.Join(dir, "gemm.ll")), readText(t, filepath.Join(dir, "gemm.h"))
	if !strings.Contains(ir, "@kernel_gemm(") || !strings.Contains(h, "kernel_gemm(") {
		t.Errorf("the IR or header does not define kernel_gemm:\n%s\n%s", ir, h)
	}
	// No flags means --fuse auto --parallel: the same IR.
	for _, args := range [][]string{{"-o", filepath.Join(dir, "def")}, {"--fuse", "auto", "--parallel", "-o", filepath.Join(dir, "auto")}} {
		if _, stderr, status := runCmd("", append(append([]string{"compile"}, args...), "polybench/gemm")...); status != exitOK {
			t.Fatalf("compile %v: status %d: %s", args, status, stderr)
		}
	}
	if def := readText(t, filepath.Join(dir, "def.ll")); def != readText(t, filepath.Join(dir, "auto.ll")) || !strings.Contains(def, "@GOMP_parallel") {
		t.Errorf("compile with no flags differs from --fuse auto --parallel, or is not parallel")
	}
	if tc, err := runner.FindToolchain(); err == nil {
		if err := tc.VerifyIR(ir); err != nil {
			t.Error(err)
		}
	}
	obj := filepath.Join(dir, "gemm.o")
	needToolchain(t)
	if _, stderr, status := runCmd("", "compile", "-c", "-o", obj, "polybench/gemm"); status != exitOK {
		t.Fatalf("compile -c: status %d: %s", status, stderr)
	}
	if b := readText(t, obj); len(b) < 4 || b[1:4] != "ELF" {
		t.Errorf("%s is no ELF object", obj)
	}
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDropIn builds testdata/dropin/main.c with the kernel's C as
// written, and with the object of 'tilefuse compile -c' in its place, in
// several schedules; the programs must print the same (every result bit
// for bit).
func TestDropIn(t *testing.T) {
	tc := needToolchain(t)
	dir := t.TempDir()
	build := func(bin string, inputs ...string) string {
		t.Helper()
		args := append([]string{"-O2", "-ffp-contract=off", "-o", bin}, inputs...)
		if out, err := exec.Command(tc.CC, append(args, "-fopenmp", "-lm")...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", tc.CC, err, out)
		}
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "OMP_NUM_THREADS=2")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", bin, err)
		}
		return string(out)
	}
	want := build(filepath.Join(dir, "ref"), "testdata/dropin/main.c", "testdata/dropin/kernel.c")
	for i, flags := range [][]string{
		{}, // the defaults: --fuse auto, --parallel
		{"--fuse", "none", "--parallel=false"},
		{"--fuse", "smart", "--tile", "8,16", "--parallel"},
		{"--fuse", "max", "--tile", "4"},
	} {
		obj := filepath.Join(dir, "smooth.o")
		args := append(append([]string{"compile", "-c", "-o", obj}, flags...), "testdata/dropin/kernel.c")
		if _, stderr, status := runCmd("", args...); status != exitOK {
			t.Fatalf("%v: status %d: %s", flags, status, stderr)
		}
		got := build(filepath.Join(dir, "dropin"+string(rune('0'+i))), "testdata/dropin/main.c", obj)
		if got != want {
			t.Errorf("%v: the program prints differently with tilefuse's smooth", flags)
		}
	}
}

// TestTreeRoundTripRewrites: the tree of a program the strategies
// rewrite before scheduling (ludcmp's scalar w mapped onto A[i][j], S0
// gone; under auto, syrk's A[j][k] read from a transposed copy written
// by S2)
// schedules the rewritten program, and compile --tree takes it back.
func TestTreeRoundTripRewrites(t *testing.T) {
	for _, tc := range []struct {
		kernel, fuse string
		has, hasNot  string
	}{
		{"ludcmp", "smart", "S1[i", "S0[i"},
		{"syrk", "auto", "S2[", "no such statement"},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			dir := t.TempDir()
			tree, stderr, status := runCmd("", "tree", "--fuse", tc.fuse, "--format", "json", "polybench/"+tc.kernel)
			if status != exitOK {
				t.Fatalf("tree: status %d: %s", status, stderr)
			}
			if !strings.Contains(tree, tc.has) || strings.Contains(tree, tc.hasNot) {
				t.Fatalf("the tree does not schedule %s, or schedules %s:\n%s", tc.has, tc.hasNot, tree)
			}
			file := filepath.Join(dir, tc.kernel+".json")
			if err := os.WriteFile(file, []byte(tree), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, stderr, status := runCmd("", "compile", "--tree", file, "-o", filepath.Join(dir, "k"), "polybench/"+tc.kernel); status != exitOK {
				t.Fatalf("compile --tree: status %d: %s", status, stderr)
			}
		})
	}
}
