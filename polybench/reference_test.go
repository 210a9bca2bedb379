package polybench_test

import (
	"os/exec"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop/charness"
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
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	for _, k := range polybench.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			diffs, err := charness.Verify(t.TempDir(), p, k.Sizes(polybench.Mini), k.Source, k.Func, inexact[k.Name])
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diffs {
				t.Error(d)
			}
		})
	}
}
