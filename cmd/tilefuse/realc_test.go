package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pbDir holds PolyBench-shaped sources as distributed (system headers,
// polybench.h in utilities/, the kernel's header, init_array,
// print_array, main), shared with the C front end's tests.
var pbDir = filepath.Join("..", "..", "frontend", "cparse", "testdata", "pb")

func needPreprocessor(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cpp"); err == nil {
		return
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("neither cpp nor gcc on PATH")
	}
}

// TestRealPolyBenchSources: scop, tree and ast read a PolyBench source
// as distributed (-DLARGE_DATASET -I utilities, --func) and give what
// they give for the built-in port of the kernel.
func TestRealPolyBenchSources(t *testing.T) {
	needPreprocessor(t)
	utilities := filepath.Join(pbDir, "utilities")
	for _, tc := range []struct{ name, fn string }{
		{"gemm", "kernel_gemm"}, {"jacobi-2d", "kernel_jacobi_2d"}, {"correlation", "kernel_correlation"},
	} {
		file := filepath.Join(pbDir, tc.name+".c")
		for _, cmd := range []string{"scop", "tree", "ast"} {
			t.Run(tc.name+"/"+cmd, func(t *testing.T) {
				want, stderr, status := runCmd("", cmd, "polybench/"+tc.name)
				if status != exitOK {
					t.Fatalf("%s polybench/%s: status %d: %s", cmd, tc.name, status, stderr)
				}
				// Both spellings of -D and -I.
				args := []string{cmd, "-DLARGE_DATASET", "-I", utilities, "--func", tc.fn, file}
				if cmd == "tree" {
					args = []string{cmd, "-D", "LARGE_DATASET", "-I" + utilities, file}
				}
				got, stderr, status := runCmd("", args...)
				if status != exitOK {
					t.Fatalf("%v: status %d: %s", args, status, stderr)
				}
				if cmd == "scop" { // the built-in is named after the benchmark
					want = strings.Replace(want, "program "+tc.name+"\n", "program "+tc.fn+"\n", 1)
				}
				if got != want {
					t.Errorf("%v differs from %s polybench/%s:\n%s\nwant:\n%s", args, cmd, tc.name, got, want)
				}
			})
		}
	}
	t.Run("dataset", func(t *testing.T) {
		got, stderr, status := runCmd("", "scop", "-DMINI_DATASET", "-I", utilities, "--func", "kernel_gemm", filepath.Join(pbDir, "gemm.c"))
		if status != exitOK || !strings.Contains(got, "array    C f64[20][25] live-in live-out") {
			t.Errorf("status %d, stderr %s, stdout:\n%s", status, stderr, got)
		}
	})
	t.Run("compile", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "gemm")
		_, stderr, status := runCmd("", "compile", "-DLARGE_DATASET", "-I", utilities, "--func", "kernel_gemm", "-o", out, filepath.Join(pbDir, "gemm.c"))
		if status != exitOK {
			t.Fatalf("status %d: %s", status, stderr)
		}
		if _, err := os.Stat(out + ".ll"); err != nil {
			t.Error(err)
		}
	})
}

// TestRealCErrors: each mistake is one message at the user's file and
// line, with exit status 2.
func TestRealCErrors(t *testing.T) {
	needPreprocessor(t)
	utilities := filepath.Join(pbDir, "utilities")
	gemm := filepath.Join(pbDir, "gemm.c")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"missing -D", []string{"scop", "testdata/realc/needs_n.c"},
			"testdata/realc/needs_n.c:7:19: unknown identifier N (if it is a macro, define it: -D N=VALUE)\n"},
		{"missing include", []string{"compile", "-o", filepath.Join(os.TempDir(), "tilefuse-never-written"), "testdata/realc/missing_include.c"},
			"testdata/realc/missing_include.c:2:10: cpp: fatal error: not_here.h: No such file or directory\n"},
		{"missing -I", []string{"ast", "-DLARGE_DATASET", "--func", "kernel_gemm", gemm},
			gemm + ":14:10: cpp: fatal error: polybench.h: No such file or directory\n"},
		{"unknown function", []string{"tree", "-I", utilities, "--func", "kernel_gem", gemm},
			gemm + ` has no function "kernel_gem" (functions: init_array, print_array, kernel_gemm, main)` + "\n"},
		{"-D on a built-in", []string{"scop", "-DN=3", "polybench/gemm"},
			"-I and -D apply to C files, not to the built-in polybench/gemm\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != exitUsage {
				t.Errorf("status %d, want %d", status, exitUsage)
			}
			if stdout != "" || stderr != tc.stderr {
				t.Errorf("stdout %q\nstderr %q\nwant   %q", stdout, stderr, tc.stderr)
			}
		})
	}
	// With the -D, the same file reads.
	stdout, stderr, status := runCmd("", "scop", "-DN=100", "testdata/realc/needs_n.c")
	if status != exitOK || !strings.Contains(stdout, "0 <= i <= 99") {
		t.Errorf("-DN=100: status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
}

// TestRestrictPointers: restrict pointer parameters with extents from
// #pragma tilefuse array, and a final return, compile and run.
func TestRestrictPointers(t *testing.T) {
	needPreprocessor(t)
	stdout, stderr, status := runCmd("", "scop", "--func", "smooth", "testdata/realc/restrict.c")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, want := range []string{"array    out f64[n] live-in live-out", "array    in f64[(n + 2)][64] live-in"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}
