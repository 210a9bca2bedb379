package main

import (
	"strings"
	"testing"
)

// TestRunGemm is the end-to-end test: compile, build, run and check
// PolyBench gemm.
func TestRunGemm(t *testing.T) {
	needToolchain(t)
	stdout, stderr, status := runCmd("", "run", "polybench/gemm", "--dataset", "MINI")
	if status != exitOK || stderr != "" {
		t.Fatalf("status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
	}
	for _, want := range []string{"polybench/gemm MINI ni=20 nj=25 nk=30 (fuse auto, parallel)\nauto: min, tiled 32 where tiles bring reuse or a wavefront", "median ", " over 5 runs", "check ok: equal bit for bit to the reference executor",
		"the system allocator (as users run it)\n", "the same build under the caching allocator", "over gcc as is, ", "over gcc with its page faults taken out\n",
		"best peer: Polly, serial with its matrix-product pattern or parallel"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

// TestRunSchedules runs tiled and fused schedules, an in-place stencil
// and a pipeline, against both references.
func TestRunSchedules(t *testing.T) {
	needToolchain(t)
	for _, args := range [][]string{
		{"polybench/jacobi-2d", "--tile", "8", "--threads", "2", "--ref", "c"},
		{"polybench/2mm", "--fuse", "max", "--tile", "4,8", "--repeat", "3"},
		{"polybench/atax", "--fuse", "none", "--parallel=false", "--ref", "exec"},
		{"pipelines/blur", "--size", "R=64,C=48", "--tile", "16"},
		{"testdata/dropin/kernel.c", "--size", "n=60,m=75", "--warmup", "0"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			stdout, stderr, status := runCmd("", append([]string{"run"}, args...)...)
			if status != exitOK || !strings.Contains(stdout, "check ok: equal bit for bit") {
				t.Errorf("status %d, stderr %q\nstdout:\n%s", status, stderr, stdout)
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"bad dataset", []string{"run", "--dataset", "HUGE", "polybench/gemm"}, `unknown dataset "HUGE"`},
		{"dataset of a C file", []string{"run", "--dataset", "MINI", "testdata/dropin/kernel.c"}, "--dataset applies to PolyBench kernels"},
		{"no sizes", []string{"run", "testdata/dropin/kernel.c"}, "no value for parameter n of testdata/dropin/kernel.c; give it with --size n=V"},
		{"unknown size", []string{"run", "--size", "nx=3", "polybench/gemm"}, `polybench/gemm has no parameter "nx" (parameters: ni, nj, nk)`},
		{"bad size", []string{"run", "--size", "ni", "polybench/gemm"}, `"ni" is not NAME=INTEGER`},
		{"bad repeat", []string{"run", "--repeat", "0", "polybench/gemm"}, "--repeat must be at least 1"},
		{"bad reference", []string{"run", "--ref", "isl", "polybench/gemm"}, `unknown reference "isl"`},
		{"no source", []string{"run"}, "want one SOURCE"},
		{"bad source", []string{"run", "testdata/scop/bad_subscript.c"}, "bad_subscript.c:4:7: non-affine subscript"},
		// PolyBench's arrays have the LARGE extents.
		{"out of bounds", []string{"run", "--dataset", "EXTRALARGE", "polybench/gemm"}, "gemm.c:13:7: statement S0 accesses C[1000][0], outside the array's extents [1000][1100] at these sizes"},
		{"outside the context", []string{"run", "--size", "ni=-1", "polybench/gemm"}, "lie outside the context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want status 2 and one line with %q", status, stdout, stderr, tc.stderr)
			}
		})
	}
}

// TestRunDefaults runs issue 16's two user cases (testdata/defaults)
// with run's defaults, auto and parallel, at sizes of several tiles, bit
// for bit against the reference executor.
func TestRunDefaults(t *testing.T) {
	needToolchain(t)
	for _, tc := range []struct{ file, size string }{
		{"testdata/defaults/blur2pass.c", "n=70,m=90"},
		{"testdata/defaults/mm2.c", "ni=40,nj=50,nk=70,nl=60"},
	} {
		stdout, stderr, status := runCmd("", "run", "--size", tc.size, "--gcc=false", "--ref", "exec", "--repeat", "1", tc.file)
		if status != exitOK || !strings.Contains(stdout, "(fuse auto, parallel)") || !strings.Contains(stdout, "tiled 32") || !strings.Contains(stdout, "check ok: equal bit for bit") {
			t.Errorf("%s: status %d, stderr %q\n%s", tc.file, status, stderr, stdout)
		}
	}
}
