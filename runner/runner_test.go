package runner

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop"
)

// toolchain returns the machine's toolchain, or skips the test saying
// what to install.
func toolchain(t *testing.T) *Toolchain {
	t.Helper()
	tc, err := FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	return tc
}

func kernel(t *testing.T, name string) (*scop.Program, polybench.Kernel) {
	t.Helper()
	k, ok := polybench.Lookup(name)
	if !ok {
		t.Fatalf("no PolyBench kernel %s", name)
	}
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	return p, k
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFindToolchainMissing(t *testing.T) {
	none := func(string) (string, error) { return "", errors.New("not found") }
	_, err := findToolchain(none, "/nonexistent")
	var miss *MissingToolsError
	if !errors.As(err, &miss) {
		t.Fatalf("error %v, want a *MissingToolsError", err)
	}
	for _, want := range []string{"opt and llc (LLVM 14)", "cc or gcc", "apt-get install llvm-14 gcc"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}

	// Only the C compiler is there: the message names llvm-14 alone.
	onlyCC := func(name string) (string, error) {
		if name == "gcc" {
			return "/usr/bin/gcc", nil
		}
		return "", errors.New("not found")
	}
	_, err = findToolchain(onlyCC, "/nonexistent")
	if err == nil || !strings.HasSuffix(err.Error(), "apt-get install llvm-14)") {
		t.Errorf("error %v, want it to end in 'apt-get install llvm-14)'", err)
	}
}

func TestFindToolchainOrder(t *testing.T) {
	have := map[string]bool{"opt-14": true, "llc-14": true, "llc": true, "/l/opt": true, "/l/llc": true, "gcc": true,
		"llvm-split-14": true, "/l/llvm-split": true, "objcopy": true}
	look := func(name string) (string, error) {
		if have[name] {
			return name, nil
		}
		return "", errors.New("not found")
	}
	tc, err := findToolchain(look, "/l")
	if err != nil {
		t.Fatal(err)
	}
	// A lone plain llc does not pair with opt-14.
	if tc.Opt != "opt-14" || tc.LLC != "llc-14" || tc.CC != "gcc" || tc.Split != "llvm-split-14" || tc.ObjCopy != "objcopy" {
		t.Errorf("found %+v, want opt-14, llc-14, llvm-split-14, gcc and objcopy", tc)
	}
	// llvm-split comes from where opt is, or not at all.
	delete(have, "opt-14")
	if tc, err = findToolchain(look, "/l"); err != nil || tc.Opt != "/l/opt" || tc.LLC != "/l/llc" || tc.Split != "/l/llvm-split" {
		t.Errorf("found %+v (%v), want the tools of /l", tc, err)
	}
	delete(have, "/l/llvm-split")
	if tc, err = findToolchain(look, "/l"); err != nil || tc.Split != "" {
		t.Errorf("found %+v (%v), want no llvm-split", tc, err)
	}
}

func TestHarnessSource(t *testing.T) {
	p, k := kernel(t, "gemm")
	src, err := Harness(p, k.Sizes(polybench.Mini), "kernel_gemm")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"void kernel_gemm(int, int, int, double, double, void *, void *, void *);",
		"kernel_gemm(20, 25, 30, *(double *)a0, *(double *)a1, a2, a3, a4);",
		"memcpy(a2, a2_in,", // C is updated in place
	} {
		if !strings.Contains(src, want) {
			t.Errorf("harness lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "memcpy(a3, a3_in") {
		t.Errorf("harness restores A, which the kernel only reads:\n%s", src)
	}
	if _, err := Harness(p, map[string]int64{"ni": 1}, "kernel_gemm"); err == nil || !strings.Contains(err.Error(), "no value for parameter nj") {
		t.Errorf("missing parameter: error %v", err)
	}
	if _, err := Harness(p, k.Sizes(polybench.Mini), "kernel-gemm"); err == nil {
		t.Error("a function name that is no C identifier was accepted")
	}
}

// TestHandWrittenIR builds hand-written IR with opt and llc and checks it
// against both references, bit for bit: gemm (double scalars by value,
// C updated in place) and saxpy (a float scalar by value).
func TestHandWrittenIR(t *testing.T) {
	tc := toolchain(t)
	gemm, k := kernel(t, "gemm")
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		p      *scop.Program
		ir, fn string
		params map[string]int64
	}{
		{gemm, "testdata/gemm.ll", "kernel_gemm", k.Sizes(polybench.Mini)},
		{saxpy, "testdata/saxpy.ll", "saxpy", map[string]int64{"n": 4000}},
	} {
		ir := readFile(t, tt.ir)
		if err := tc.VerifyIR(ir); err != nil {
			t.Fatalf("%s: %v", tt.ir, err)
		}
		for _, ref := range []Reference{RefExec, RefC} {
			start := time.Now()
			res, err := tc.Run(tt.p, Kernel{IR: ir, Func: tt.fn}, Options{Params: tt.params, Repeat: 3, Reference: ref, Threads: 1})
			if err != nil {
				t.Fatalf("%s: %v", tt.ir, err)
			}
			if res.Check == nil || !res.Check.Bitwise || res.Check.Reference != ref || res.Check.MaxRelErr != 0 {
				t.Errorf("%s against the %s: %v", tt.ir, ref, res.Check)
			}
			if len(res.Times) != 3 || res.Median <= 0 || res.Median > time.Second {
				t.Errorf("%s: times %v, median %v", tt.ir, res.Times, res.Median)
			}
			t.Logf("%s against the %s: median %v (%v in all)", tt.fn, ref, res.Median, time.Since(start).Round(time.Millisecond))
		}
	}
}

// TestHarnessRoundTrip runs PolyBench kernels' naive C (cc -O2) in the
// harness, twice each so that the in-place updates are undone between
// calls, and compares every array with the reference executor's, bit for
// bit; and one DSL pipeline (u8 images, default argument order).
func TestHarnessRoundTrip(t *testing.T) {
	tc := toolchain(t)
	type job struct {
		name   string
		p      *scop.Program
		fn     string
		params map[string]int64
	}
	var jobs []job
	for _, name := range []string{"gemm", "jacobi-2d", "atax", "doitgen", "durbin", "nussinov", "floyd-warshall"} {
		p, k := kernel(t, name)
		jobs = append(jobs, job{name, p, k.Func, k.Sizes(polybench.Mini)})
	}
	blur, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	jobs = append(jobs, job{"blur", blur, "blur", map[string]int64{"R": 40, "C": 50}})
	for _, j := range jobs {
		t.Run(j.name, func(t *testing.T) {
			src, err := NaiveC(j.p, j.fn)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tc.Run(j.p, Kernel{C: src, Func: j.fn}, Options{Params: j.params, Repeat: 2, Reference: RefExec})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Check.Bitwise {
				t.Errorf("%v", res.Check)
			}
		})
	}
}

// TestWrongResults checks that differences are caught and measured: a
// saxpy that adds one is wrong; one that is off by a relative 1e-6 fails
// the bitwise check and passes a tolerance of 1e-5.
func TestWrongResults(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 100}
	const head = "void saxpy(int n, float a, float *x, float *y) { for (int i = 0; i < n; i++) "
	res, err := tc.Run(saxpy, Kernel{C: head + "y[i] = a * x[i] + y[i] + 1; }", Func: "saxpy"}, Options{Params: params, Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Check
	if c.OK() || c.Bitwise || len(c.Diffs) != 1 || !strings.Contains(c.Diffs[0], "array y at element [0]") || !strings.HasPrefix(c.String(), "WRONG") {
		t.Errorf("off by one: %v", c)
	}
	if c.MaxRelErr <= 0.1 {
		t.Errorf("off by one: max relative error %g", c.MaxRelErr)
	}

	near := head + "y[i] = (a * x[i] + y[i]) * (1.0f + 1e-6f); }"
	for _, tol := range []float64{0, 1e-5} {
		res, err := tc.Run(saxpy, Kernel{C: near, Func: "saxpy"}, Options{Params: params, Repeat: 1, Tolerance: tol})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Check
		if c.OK() != (tol > 0) || c.Bitwise || c.MaxRelErr < 5e-7 || c.MaxRelErr > 2e-6 {
			t.Errorf("tolerance %g: %v", tol, c)
		}
	}
}

// TestCrash: a kernel that dies is a *KernelError (a wrong result), not
// a build failure.
func TestCrash(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := "#include <stdlib.h>\nvoid saxpy(int n, float a, float *x, float *y) { abort(); }\n"
	_, err = tc.Run(saxpy, Kernel{C: src, Func: "saxpy"}, Options{Params: map[string]int64{"n": 10}, Repeat: 1, Dir: dir})
	var ke *KernelError
	if !errors.As(err, &ke) || !strings.Contains(err.Error(), "signal: aborted") {
		t.Errorf("error %v, want a *KernelError for the abort", err)
	}
	// Options.Dir keeps the files for a look.
	for _, f := range []string{"in.bin", "kernel.c", "kernel_main.c", "kernel"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("Options.Dir: %v", err)
		}
	}
	_, err = tc.Run(saxpy, Kernel{C: "void saxpy(int n) { syntax error }", Func: "saxpy"}, Options{Params: map[string]int64{"n": 10}, Repeat: 1})
	if err == nil || errors.As(err, &ke) {
		t.Errorf("a build failure gave %v", err)
	}
}

func TestObject(t *testing.T) {
	tc := toolchain(t)
	dir := t.TempDir()
	obj := filepath.Join(dir, "gemm.o")
	if err := tc.Object(readFile(t, "testdata/gemm.ll"), obj); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(obj); err != nil || len(b) < 4 || string(b[1:4]) != "ELF" {
		t.Errorf("%s is no ELF object (%v)", obj, err)
	}
	bad := filepath.Join(dir, "bad.o")
	err := tc.Object("define void @f() {\n  ret i32 0\n}\n", bad)
	var te *ToolError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "opt") {
		t.Errorf("bad IR: error %v, want opt's complaint", err)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s behind", bad)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the build left %d files in %s, want only gemm.o", len(entries), dir)
	}
}

func TestBoundsAndReference(t *testing.T) {
	gemm, k := kernel(t, "gemm")
	err := CheckBounds(gemm, k.Sizes(polybench.ExtraLarge))
	if err == nil || !strings.Contains(err.Error(), "statement S0 accesses C[1000][0], outside the array's extents [1000][1100]") {
		t.Errorf("EXTRALARGE gemm: %v", err)
	}
	if err := CheckBounds(gemm, k.Sizes(polybench.Large)); err != nil {
		t.Errorf("LARGE gemm: %v", err)
	}
	deriche, dk := kernel(t, "deriche")
	for _, tt := range []struct {
		p      *scop.Program
		params map[string]int64
		want   Reference
	}{
		{gemm, k.Sizes(polybench.Mini), RefExec},
		{gemm, k.Sizes(polybench.Large), RefC},
		{deriche, dk.Sizes(polybench.Mini), RefC}, // expf and powf
	} {
		if got := chooseReference(tt.p, tt.params, 0); got != tt.want {
			t.Errorf("%s at %v: reference %v, want %v", tt.p.Name, tt.params, got, tt.want)
		}
	}
	if n, ok := Instances(gemm, k.Sizes(polybench.Mini), DefaultExecLimit); !ok || n != 20*25+20*25*30 {
		t.Errorf("gemm MINI has %d instances (%v), want %d", n, ok, 20*25+20*25*30)
	}
}

func TestMedianAndRelErr(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		var out []time.Duration
		for _, x := range xs {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	if m := median(ms(5, 1, 3)); m != 3*time.Millisecond {
		t.Errorf("median of 5, 1, 3 = %v", m)
	}
	if m := median(ms(4, 1, 3, 2)); m != 2500*time.Microsecond {
		t.Errorf("median of 4, 1, 3, 2 = %v", m)
	}
	buf := func(vs ...float64) *scop.Buffer {
		b, _ := scop.NewBuffer(scop.F64, []int64{int64(len(vs))})
		for i, v := range vs {
			b.Store(int64(i), scop.Value{F: v})
		}
		return b
	}
	if e := maxRelErr(buf(100, 0.5, 7), buf(101, 0.25, 7)); math.Abs(e-0.25) > 1e-12 {
		t.Errorf("max relative error %g, want 0.25 (absolute below 1)", e)
	}
	if e := maxRelErr(buf(math.NaN()), buf(1)); !math.IsInf(e, 1) {
		t.Errorf("NaN against 1: %g, want +Inf", e)
	}
}
