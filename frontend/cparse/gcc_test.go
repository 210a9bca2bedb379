package cparse_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// TestAgainstGCC runs the kernels of testdata on the reference executor
// and compiled by gcc, from the same inputs, and requires bit-identical
// arrays: the parsed program must mean what the C code means.
func TestAgainstGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	tests := []struct {
		file, fn string
		params   []map[string]int64
	}{
		// n = 5 makes (n - 12) / 4 negative, where C truncates.
		{"loops.c", "loops", []map[string]int64{{"n": 20, "m": 15}, {"n": 5, "m": 7}}},
		{"cond.c", "cond", []map[string]int64{{"n": 30}, {"n": 4}}},
		{"types.c", "types", []map[string]int64{{"n": 32}}},
		// Data-dependent conditions and subscripts (guard.go), shared
		// with the campaign's compilation test.
		{"../../../internal/randprog/testdata/datadep/threshold.c", "threshold", []map[string]int64{{"n": 12}, {"n": 1}}},
		{"../../../internal/randprog/testdata/datadep/indirect.c", "indirect", []map[string]int64{{"n": 12}}},
		{"../../../internal/randprog/testdata/datadep/sparse.c", "sparse", []map[string]int64{{"n": 12}}},
		// While loops with a data-dependent exit (while.go).
		{"../../../internal/randprog/testdata/datadep/whiles.c", "whiles", []map[string]int64{{"n": 12}, {"n": 1}, {"n": 0}}},
	}
	for _, tc := range tests {
		src, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		p, err := cparse.ParseFunc(tc.file, src, tc.fn)
		if err != nil {
			t.Fatal(err)
		}
		for _, params := range tc.params {
			bufs, err := refexec.Alloc(p, params)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range charness.ArrayArgs(p) {
				bufs[a.Name].Fill(uint64(i + 1))
			}
			input, err := charness.Encode(p, bufs)
			if err != nil {
				t.Fatal(err)
			}
			got := runGCC(t, gcc, string(src), tc.fn, p, params, input, bufs)
			if err := refexec.Run(p, params, bufs); err != nil {
				t.Fatalf("%s %v: %v", tc.file, params, err)
			}
			for _, a := range charness.ArrayArgs(p) {
				m, err := scop.Compare(bufs[a.Name], got[a.Name], 0)
				if err != nil {
					t.Fatal(err)
				}
				if m != nil {
					t.Errorf("%s %v: array %s: reference differs from gcc at %s", tc.file, params, a.Name, m)
				}
			}
		}
	}
}

// runGCC compiles src with a harness, runs it on input and returns the
// arrays it wrote back.
func runGCC(t *testing.T, gcc, src, fn string, p *scop.Program, params map[string]int64, input []byte, like map[string]*scop.Buffer) map[string]*scop.Buffer {
	t.Helper()
	dir := t.TempDir()
	main, err := charness.Main(p, params, fn, "")
	if err != nil {
		t.Fatal(err)
	}
	cfile, bin := filepath.Join(dir, "h.c"), filepath.Join(dir, "h")
	in, out := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	if err := os.WriteFile(cfile, []byte("#include <math.h>\n"+src+"\n"+main), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, input, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(gcc, "-O0", "-o", bin, cfile, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, b)
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
