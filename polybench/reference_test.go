package polybench_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"tilefuse/frontend/cparse"
	"tilefuse/polybench"
	"tilefuse/scop"
	"tilefuse/scop/charness"
	"tilefuse/scop/refexec"
)

// inexact lists kernels whose results may differ from gcc's in the last
// bits, with the relative tolerance allowed: their transcendental calls
// (expf, powf) go through different libraries. Everything else must match
// bit for bit, the order of floating-point operations being the same.
var inexact = map[string]float64{"deriche": 1e-5}

// TestReferenceMatchesGCC runs every kernel on the MINI dataset twice: on
// the reference executor and compiled by gcc -O0 in a generated harness,
// from the same inputs, and compares every array argument afterwards.
func TestReferenceMatchesGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	for _, k := range polybench.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
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
			got := runGCC(t, gcc, k, p, params, input, bufs)
			if err := refexec.Run(p, params, bufs); err != nil {
				t.Fatal(err)
			}
			for _, a := range charness.ArrayArgs(p) {
				m, err := scop.Compare(bufs[a.Name], got[a.Name], inexact[k.Name])
				if err != nil {
					t.Fatal(err)
				}
				if m != nil {
					t.Errorf("array %s: reference differs from gcc at %s", a.Name, m)
				}
			}
		})
	}
}

// runGCC builds the kernel with a harness, runs it on input and returns
// the arrays it wrote back.
func runGCC(t *testing.T, gcc string, k polybench.Kernel, p *scop.Program, params map[string]int64, input []byte, like map[string]*scop.Buffer) map[string]*scop.Buffer {
	t.Helper()
	dir := t.TempDir()
	main, err := charness.Main(p, params, k.Func, "")
	if err != nil {
		t.Fatal(err)
	}
	src := "#include <math.h>\n" + k.Source + "\n" + main
	cfile, bin := filepath.Join(dir, "h.c"), filepath.Join(dir, "h")
	in, out := filepath.Join(dir, "in.bin"), filepath.Join(dir, "out.bin")
	if err := os.WriteFile(cfile, []byte(src), 0o644); err != nil {
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
