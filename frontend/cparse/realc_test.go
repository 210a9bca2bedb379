package cparse_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop"
)

// needCPP skips a test when no C preprocessor is installed.
func needCPP(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cpp"); err == nil {
		return
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("neither cpp nor gcc on PATH")
	}
}

// TestRealPolyBench reads PolyBench-shaped sources as distributed
// (system headers, polybench.h from -I utilities, the kernel's header,
// init_array, print_array with fprintf, main with malloc'd arrays) and
// requires the same program as the preprocessed port of the kernel.
func TestRealPolyBench(t *testing.T) {
	needCPP(t)
	for _, name := range []string{"gemm", "jacobi-2d", "correlation"} {
		t.Run(name, func(t *testing.T) {
			k, ok := polybench.Lookup(name)
			if !ok {
				t.Fatalf("no kernel %s", name)
			}
			want, err := cparse.ParseFunc(name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", "pb", name+".c")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			progs, err := cparse.ParseFile(file, src, cparse.Options{
				Func:     k.Func,
				Includes: []string{filepath.Join("testdata", "pb", "utilities")},
				Defines:  []string{"LARGE_DATASET"},
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(progs) != 1 {
				t.Fatalf("%d programs", len(progs))
			}
			if diff := cmp.Diff(want.String(), progs[0].String()); diff != "" {
				t.Errorf("program (-port +source):\n%s", diff)
			}
			// Without --func, the function with #pragma scop.
			progs, err = cparse.ParseFile(file, src, cparse.Options{Includes: []string{filepath.Join("testdata", "pb", "utilities")}})
			if err != nil {
				t.Fatal(err)
			}
			if len(progs) != 1 || progs[0].Name != k.Func {
				t.Errorf("without Func: %d programs", len(progs))
			}
		})
	}
}

// TestRealPolyBenchIsC checks that the PolyBench-shaped sources are C
// that gcc takes, at every dataset.
func TestRealPolyBenchIsC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	for _, name := range []string{"gemm", "jacobi-2d", "correlation"} {
		for _, ds := range []string{"MINI", "LARGE", "EXTRALARGE"} {
			out, err := exec.Command(gcc, "-std=c99", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-fsyntax-only",
				"-D"+ds+"_DATASET", "-I", filepath.Join("testdata", "pb", "utilities"), filepath.Join("testdata", "pb", name+".c")).CombinedOutput()
			if err != nil {
				t.Errorf("gcc %s %s: %v\n%s", name, ds, err, out)
			}
		}
	}
}

func TestRealPolyBenchErrorPositions(t *testing.T) {
	needCPP(t)
	file := filepath.Join("testdata", "pb", "gemm.c")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, err = cparse.ParseFile(file, src, cparse.Options{Func: "nope", Includes: []string{filepath.Join("testdata", "pb", "utilities")}})
	if err == nil || !strings.Contains(err.Error(), "functions: init_array, print_array, kernel_gemm, main") {
		t.Errorf("err = %v", err)
	}
}

// parseTemp writes src to dir/name and parses it with ParseFile.
func parseTemp(t *testing.T, name, src string, opt cparse.Options) ([]*scop.Program, string, error) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	progs, err := cparse.ParseFile(file, []byte(src), opt)
	return progs, file, err
}

// TestRealC covers what real C files bring: macros, restrict pointers,
// a final return, and code outside the function that the subset does
// not read.
func TestRealC(t *testing.T) {
	needCPP(t)
	tests := []struct {
		name, src string
		opt       cparse.Options
		want      []string // substrings of the printed program
		err       string   // the error, with "FILE" for the file's path
	}{
		{"define", "#define N 100\nvoid k(double A[N]) {\n  int i;\n  for (i = 0; i < N; i++)\n    A[i] = i;\n}\n",
			cparse.Options{Func: "k"}, []string{"array    A f64[100]", "0 <= i <= 99"}, ""},
		{"missing -D", "void k(double A[100]) {\n  int i;\n  for (i = 0; i < N; i++)\n    A[i] = i;\n}\n",
			cparse.Options{Func: "k", Defines: []string{"M=3"}}, nil, "FILE:3:19: unknown identifier N (if it is a macro, define it: -D N=VALUE)"},
		{"-D given", "void k(double A[100]) {\n  int i;\n  for (i = 0; i < N; i++)\n    A[i] = i;\n}\n",
			cparse.Options{Func: "k", Defines: []string{"N=50"}}, []string{"0 <= i <= 49"}, ""},
		{"column after a macro", "#define ZERO 0\nvoid k(int n, double A[100]) {\n  int i;\n  for (i = ZERO; i < n; i++)\n    A[i] = A[i * i];\n}\n",
			cparse.Options{Func: "k"}, nil, "FILE:5:14: non-affine subscript (i * i) of A"},
		{"missing include", "#include <stdio.h>\n#include \"no_such_header.h\"\nvoid k(void) {}\n",
			cparse.Options{Func: "k"}, nil, "FILE:2:10: cpp: fatal error: no_such_header.h: No such file or directory"},
		{"unknown function", "#include <stdlib.h>\nstatic int helper(int *p) { return *p; }\nvoid k(int n, double A[10]) {\n  A[0] = 1;\n}\nint main(void) { return helper(NULL); }\n",
			cparse.Options{Func: "nope"}, nil, `FILE has no function "nope" (functions: helper, k, main)`},
		{"restrict pointer with pragma", "#include <stddef.h>\nvoid k(int n, double *restrict A, const double *__restrict__ B) {\n#pragma tilefuse array A[n], B[n + 1]\n  for (int i = 0; i < n; i++)\n    A[i] = B[i + 1];\n}\n",
			cparse.Options{Func: "k"}, []string{"array    A f64[n] live-in live-out", "array    B f64[(n + 1)] live-in"}, ""},
		{"restrict pointer without extent", "#include <stddef.h>\nvoid k(int n, double *restrict A) {\n  for (int i = 0; i < n; i++)\n    A[i] = 0;\n}\n",
			cparse.Options{Func: "k"}, nil, "FILE:2:32: array parameter A needs an extent in every dimension: declare them (double A[restrict N]) or give them in the function body with #pragma tilefuse array A[N], in constants and size parameters"},
		{"pointer to rows", "#define M 64\nvoid k(int n, double (*restrict A)[M]) {\n  #pragma tilefuse array A[n][M]\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < 64; j++)\n      A[i][j] = 0;\n}\n",
			cparse.Options{Func: "k"}, []string{"array    A f64[n][64] live-in live-out"}, ""},
		{"restrict array", "#define N 10\nvoid k(int n, int m, double A[restrict n][m], double B[restrict static N]) {\n  for (int i = 0; i < n; i++)\n    A[i][0] = B[0];\n}\n",
			cparse.Options{Func: "k"}, []string{"array    A f64[n][m]", "array    B f64[10]"}, ""},
		{"pointer without restrict", "#include <stdio.h>\nvoid k(int n, double *A) {\n}\n",
			cparse.Options{Func: "k"}, nil, "FILE:2:22: pointer parameter A must be restrict-qualified (double *restrict A) or declared as an array (double A[N]): tilefuse assumes that parameters do not overlap"},
		{"final return", "#include <math.h>\nvoid k(int n, double A[10]) {\n  for (int i = 0; i < 10; i++)\n    A[i] = sqrt(A[i]);\n  return;\n}\n",
			cparse.Options{Func: "k"}, []string{"statement S0"}, ""},
		{"return inside", "#include <math.h>\nvoid k(int n, double A[10]) {\n  for (int i = 0; i < 10; i++) {\n    A[i] = sqrt(A[i]);\n    return;\n  }\n}\n",
			cparse.Options{Func: "k"}, nil, "FILE:5:5: return statement in the scop region is not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			progs, file, err := parseTemp(t, "k.c", tc.src, tc.opt)
			if tc.err != "" {
				want := strings.ReplaceAll(tc.err, "FILE", file)
				if err == nil || err.Error() != want {
					t.Fatalf("err = %v\nwant %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(progs) != 1 {
				t.Fatalf("%d programs", len(progs))
			}
			text := progs[0].String()
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("program lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

// headerSoup is a kernel among the things C files hold outside it.
const headerSoup = `#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <assert.h>
#include <time.h>

struct point { double x, y; };
typedef struct point point_t;
typedef double real;
static int counter = 0;
static double *global_ptr;

static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

static inline __attribute__((always_inline)) double norm(const point_t *p) { return sqrt(p->x * p->x + p->y * p->y); }

__attribute__((noinline)) static void k(int n, real A[restrict 100], int64_t H[100])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    A[i] = A[i] * 2.0 + sqrt(A[i]);
    H[i] += 1;
  }
#pragma endscop
  say("%d\n", counter);
  return;
}

int main(int argc, char **argv) {
  double *a = malloc(100 * sizeof *a);
  int64_t h[100] = {0};
  point_t p = {1, 2};
  k(argc, a, h);
  printf("%f\n", norm(&p));
  free(a);
  return 0;
}
`

// TestOutsideSkipped parses the kernel of headerSoup through the
// preprocessor, and from gcc -E output (line markers, __builtin_va_list,
// glibc's attributes and asm labels) without it.
func TestOutsideSkipped(t *testing.T) {
	needCPP(t)
	progs, file, err := parseTemp(t, "soup.c", headerSoup, cparse.Options{Func: "k"})
	if err != nil {
		t.Fatal(err)
	}
	want := progs[0].String()
	for _, w := range []string{"array    A f64[100]", "array    H i64[100]", "statement S1"} {
		if !strings.Contains(want, w) {
			t.Errorf("program lacks %q:\n%s", w, want)
		}
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	out, err := exec.Command(gcc, "-E", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	p, err := cparse.ParseFunc("soup.i", out, "k")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, p.String()); diff != "" {
		t.Errorf("from gcc -E (-cpp +gcc -E):\n%s", diff)
	}
	// Errors name the original file and line.
	bad := strings.Replace(string(out), "A[i] * 2.0", "A[i * i] * 2.0", 1)
	_, err = cparse.ParseFunc("soup.i", []byte(bad), "k")
	if err == nil || !strings.HasPrefix(err.Error(), file+":31:") || !strings.Contains(err.Error(), "non-affine subscript (i * i) of A") {
		t.Errorf("err = %v, want it at %s:31", err, file)
	}
}

// TestOtherFunctionsNoCPP: without directives, the preprocessor is not
// run, and other functions may hold anything.
func TestOtherFunctionsNoCPP(t *testing.T) {
	src := "double *alloc(int n);\nstatic void fill(double *p, int n) { while (n--) *p++ = 0; }\n" +
		"void k(int n, double A[10]) {\n  A[0] = 1;\n  return;\n}\nint main(void) { fill(alloc(3), 3); return 0; }\n"
	if _, err := cparse.ParseFunc("f.c", []byte(src), "k"); err != nil {
		t.Fatal(err)
	}
	progs, err := cparse.ParseFile("f.c", []byte(src), cparse.Options{Func: "k", CPP: []string{"/nonexistent/cpp"}})
	if err != nil || len(progs) != 1 {
		t.Fatalf("ParseFile = %d programs, %v", len(progs), err)
	}
	// Without Func, the whole file is read as before.
	if _, err := cparse.ParseFile("f.c", []byte(src), cparse.Options{CPP: []string{"/nonexistent/cpp"}}); err == nil || !strings.Contains(err.Error(), "pointer") {
		t.Errorf("ParseFile without Func = %v", err)
	}
	// A file with directives needs the preprocessor.
	_, err = cparse.ParseFile("f.c", []byte("#define N 3\n"+src), cparse.Options{Func: "k", CPP: []string{"/nonexistent/cpp"}})
	if err == nil || !strings.Contains(err.Error(), "cannot run the C preprocessor") {
		t.Errorf("missing cpp: %v", err)
	}
}
