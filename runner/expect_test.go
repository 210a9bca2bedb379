package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
)

// TestPeerBuild covers what the benchmark command needs of Run: a C
// kernel built by another driver with other flags (a driver that leaves
// a mark proves it ran), the kernel's build time, inputs given by the
// caller, and one reference shared by several runs.
func TestPeerBuild(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 100}
	src, err := NaiveC(saxpy, "saxpy")
	if err != nil {
		t.Fatal(err)
	}

	// Inputs: x = 1, 2, 3, ...
	x, err := scop.NewBuffer(scop.F32, []int64{4096})
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.Len() {
		x.Store(i, scop.Value{F: float64(i + 1)})
	}
	exp, err := tc.Expect(saxpy, Options{Params: params, Inputs: map[string]*scop.Buffer{"x": x}, Reference: RefExec})
	if err != nil {
		t.Fatal(err)
	}
	if exp.Reference != RefExec || exp.Arrays["x"].Load(9).F != 10 {
		t.Fatalf("Expect: reference %v, x[9] = %v", exp.Reference, exp.Arrays["x"].Load(9))
	}

	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	driver := filepath.Join(dir, "fakecc")
	script := "#!/bin/sh\ntouch " + mark + "\nexec " + tc.CC + ` "$@"` + "\n"
	if err := os.WriteFile(driver, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	k := Kernel{C: src, Func: "saxpy", CC: driver, CFlags: []string{"-O3", "-fopenmp"}}
	res, err := tc.Run(saxpy, k, Options{Params: params, Inputs: map[string]*scop.Buffer{"x": x}, Expected: exp, Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Check.Bitwise || res.Check.Reference != RefExec || res.Build <= 0 || res.Outputs["x"].Load(9).F != 10 {
		t.Errorf("check %v, build %v, x[9] = %v", res.Check, res.Build, res.Outputs["x"].Load(9))
	}
	if _, err := os.Stat(mark); err != nil {
		t.Errorf("Kernel.CC did not run: %v", err)
	}

	// The shared reference is what the check uses: other inputs differ
	// from it.
	res, err = tc.Run(saxpy, Kernel{C: src, Func: "saxpy"}, Options{Params: params, Expected: exp, Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Check.OK() {
		t.Errorf("generated inputs checked against the reference of given ones: %v", res.Check)
	}

	// Bad flags fail the build with the driver's diagnostics.
	_, err = tc.Run(saxpy, Kernel{C: src, Func: "saxpy", CFlags: []string{"-fno-such-flag"}}, Options{Params: params, Repeat: 1})
	var te *ToolError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "no-such-flag") {
		t.Errorf("bad flag: %v", err)
	}
	// Inputs must be live-in arrays of the right shape.
	short, _ := scop.NewBuffer(scop.F32, []int64{10})
	for _, in := range []map[string]*scop.Buffer{{"x": short}, {"z": x}} {
		if _, err := tc.Expect(saxpy, Options{Params: params, Inputs: in}); err == nil {
			t.Errorf("inputs %v accepted", in)
		}
	}
	if _, err := tc.Expect(saxpy, Options{Params: params, Reference: RefNone}); err == nil {
		t.Error("Expect with RefNone accepted")
	}
}

// TestKernelObjects links a kernel whose C only forwards to code in a
// static library (as a Halide pipeline's wrapper does), given as
// Kernel.Objects with its flags in LDFlags; without them the link fails.
func TestKernelObjects(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	src, err := NaiveC(saxpy, "saxpy_impl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	obj, lib := filepath.Join(dir, "impl.o"), filepath.Join(dir, "libimpl.a")
	if err := os.WriteFile(filepath.Join(dir, "impl.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tc.CC, "-c", "-O2", "-o", obj, filepath.Join(dir, "impl.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	if out, err := exec.Command("ar", "rcs", lib, obj).CombinedOutput(); err != nil {
		t.Skipf("skipping: ar: %v\n%s", err, out)
	}
	wrapper := "void saxpy_impl(int, float, float *, float *);\n" +
		"void saxpy(int n, float a, float *x, float *y) { saxpy_impl(n, a, x, y); }\n"
	params := map[string]int64{"n": 100}
	k := Kernel{C: wrapper, Func: "saxpy", Objects: []string{lib}, LDFlags: []string{"-lpthread"}}
	res, err := tc.Run(saxpy, k, Options{Params: params, Repeat: 1, Reference: RefExec})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Check.Bitwise {
		t.Errorf("check %v", res.Check)
	}
	k.Objects = nil
	var te *ToolError
	if _, err := tc.Run(saxpy, k, Options{Params: params, Repeat: 1}); !errors.As(err, &te) || !strings.Contains(err.Error(), "saxpy_impl") {
		t.Errorf("without the library: %v, want a link error naming saxpy_impl", err)
	}
}

// TestTimeRound: a timing round (Prepared.Time) runs the kernel and
// reports its times without reading the arrays back; Execute after it
// still gives them, checked against the reference.
func TestTimeRound(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	src, err := NaiveC(saxpy, "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	pr, err := tc.Prepare(context.Background(), saxpy, Kernel{C: src, Func: "saxpy"}, Options{Params: map[string]int64{"n": 100}, Reference: RefExec})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	times, err := pr.Time(context.Background(), 1, 2)
	if err != nil || len(times) != 2 {
		t.Fatalf("Time: %v, %v", times, err)
	}
	_, got, err := pr.Execute(context.Background(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pr.Check(context.Background(), got)
	if err != nil || !c.OK() {
		t.Errorf("check after a timing round: %v, %v", c, err)
	}
}

// TestSessionKeepsArguments checks that a prepared kernel holds the
// arrays passed to its function and no intermediate (a pipeline's
// whole-image intermediates, kept by every Prepared of a tuning, ran a
// 6400 x 6400 harris tuning out of memory), and that the reference
// executor still allocates those intermediates for itself.
func TestSessionKeepsArguments(t *testing.T) {
	tc := toolchain(t)
	blur, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	src, err := NaiveC(blur, "blur")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{}
	for _, n := range blur.Params {
		params[n] = 40
	}
	pr, err := tc.Prepare(context.Background(), blur, Kernel{C: src, Func: "blur"}, Options{Params: params, Reference: RefExec})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	var want, got []string
	for _, a := range charness.ArrayArgs(blur) {
		want = append(want, a.Name)
	}
	for n := range pr.ses.in {
		got = append(got, n)
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == len(blur.Arrays) {
		t.Fatalf("blur passes all its %d arrays: no intermediate to leave out", len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the session holds arrays %v, want the arguments %v", got, want)
	}
	_, out, err := pr.Execute(context.Background(), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pr.Check(context.Background(), out)
	if err != nil || !c.OK() || c.Reference != RefExec {
		t.Errorf("check against the reference executor: %v, %v", c, err)
	}
}

// TestWarmupBudget counts the calls a harness makes (the kernel writes
// its call count into y, which the harness restores before each call):
// every warm-up call asked for when they are quick, and fewer once the
// untimed calls have taken WarmupBudget.
func TestWarmupBudget(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	const sleep = 400 * time.Millisecond
	quick := "static int calls;\nvoid saxpy(int n, float a, float *x, float *y) { y[0] = ++calls; }\n"
	slow := fmt.Sprintf("#include <time.h>\nstatic int calls;\nvoid saxpy(int n, float a, float *x, float *y) {\n"+
		"\ty[0] = ++calls;\n\tstruct timespec ts = {0, %d};\n\tnanosleep(&ts, 0);\n}\n", sleep.Nanoseconds())
	// A slow call sleeps at least 400 ms, so the warm-up stops after at
	// most 3 of them; 2 would need both to oversleep by 100 ms.
	slowMax := int(WarmupBudget/sleep) + 1
	for _, c := range []struct {
		name             string
		src              string
		warmup, min, max int
	}{
		{"quick", quick, 6, 6, 6},
		{"none", quick, 0, 0, 0},
		{"slow", slow, 10, slowMax - 1, slowMax},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr, err := tc.Prepare(context.Background(), saxpy, Kernel{C: c.src, Func: "saxpy"}, Options{Params: map[string]int64{"n": 4}, Reference: RefNone})
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			times, got, err := pr.Execute(context.Background(), c.warmup, 2)
			if err != nil || len(times) != 2 {
				t.Fatalf("Execute: %v, %v", times, err)
			}
			calls := int(got["y"].Load(0).F)
			if warm := calls - 2; warm < c.min || warm > c.max {
				t.Errorf("%d warm-up calls for %d asked, want %d..%d", warm, c.warmup, c.min, c.max)
			}
		})
	}
}
