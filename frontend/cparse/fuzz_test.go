package cparse

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop"
)

// FuzzParse checks that no input makes the parser panic (it calls the
// parser without its last-resort recover) and that every error is a
// *scop.Error.
func FuzzParse(f *testing.F) {
	for _, k := range polybench.Kernels() {
		f.Add([]byte(k.Source))
	}
	for _, tc := range errorCases {
		f.Add([]byte(tc.src))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.c"))
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		progs, err := parseAll("f.c", src)
		if err != nil {
			var se *scop.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *scop.Error: %v", err, err)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		for _, p := range progs {
			_ = p.String()
		}
	})
}

// TestNoPanic runs hostile inputs through the public API.
func TestNoPanic(t *testing.T) {
	deep := strings.Repeat("(", 100000)
	inputs := []string{
		"",
		"\x00\xff",
		"void k(int n) { int i; for (i = 0; i < n; i++) A[i] = " + deep,
		"void k(int n) {" + strings.Repeat("{", 100000),
		"void k(int n, double A[10]) { int i; for (i = 0; i < " + strings.Repeat("n / 2 + ", 200) + "1; i++) A[i] = 0; }",
		"void k(int n, double A[10]) { int i; for (i = 0; i < " + strings.Repeat("(n > 1 ? ", 40) + "1" + strings.Repeat(" : 2)", 40) + "; i++) A[i] = 0; }",
		"void k(int n, double A[10]) { int i; for (i = 0; i < 9223372036854775807 * 2; i++) A[i] = 0; }",
		"void k(int n, double A[10]) { int i; for (i = -9223372036854775807 - 1; i < n; i += 9223372036854775807) A[i] = 0; }",
		"typedef", "void", "void k(", "void k(int", "#pragma scop", "/*", "'", "\"",
	}
	for _, src := range inputs {
		if _, err := Parse("f.c", []byte(src)); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Errorf("%.60q: %v", src, err)
		}
		if _, err := ParseFunc("f.c", []byte(src), "k"); err != nil && strings.Contains(err.Error(), "internal error") {
			t.Errorf("%.60q: %v", src, err)
		}
	}
}

// FuzzParseFunc checks the top-level scanner and ParseFunc's path the
// same way.
func FuzzParseFunc(f *testing.F) {
	for _, k := range polybench.Kernels() {
		f.Add([]byte(k.Source))
	}
	for _, tc := range errorCases {
		f.Add([]byte(tc.src))
	}
	f.Add([]byte("# 1 \"k.c\"\nstruct s { int (*f)(int); } x = { 0 };\n__attribute__((x)) static void k(int n, double *restrict A) {\n#pragma tilefuse array A[n]\n  A[0] = 1;\n  return;\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		toks, end, err := lexAll("f.c", src, nil)
		if err != nil {
			return
		}
		sc := &scanned{file: "f.c", items: scanTop(toks), end: end}
		progs, err := sc.parseFuncs(func(it topItem) bool { return it.fn == "k" })
		if err != nil {
			var se *scop.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *scop.Error: %v", err, err)
			}
			return
		}
		for _, p := range progs {
			_ = p.String()
		}
	})
}
