//go:build isl && cgo

package deps_test

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/internal/randprog"
)

// TestRandomDataDependentAgreeWithISL: the campaign's programs with
// data-dependent parts (guards on values, scatters and gathers through an
// index array, while loops) have isl's dataflow and memory dependences.
func TestRandomDataDependentAgreeWithISL(t *testing.T) {
	n := int64(100)
	if testing.Short() {
		n = 20
	}
	quota := int64(0)
	for seed := int64(1); seed <= n; seed++ {
		p, err := randprog.GenerateShape(seed, randprog.Shape{DataDep: true}).Parse()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		err = deps.AgreeProgram(p)
		switch {
		case err != nil && strings.Contains(err.Error(), "isl: operation quota exceeded"):
			// isl's own budget, not a disagreement.
			t.Logf("seed %d: %v", seed, err)
			quota++
		case err != nil:
			t.Errorf("seed %d: %v", seed, err)
		}
	}
	if quota*20 > n {
		t.Errorf("isl ran out of its quota on %d of %d programs (more than 5%%)", quota, n)
	}
}
