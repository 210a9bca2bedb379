package emit

import (
	"testing"

	"github.com/tilefuse/tilefuse/ast/asttest"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// TestFoldedBuffer emits the ring ASTs, builds and runs them on one and
// two threads: B must be the reference's. A ring of a power of two is
// indexed with an and, another with urem.
func TestFoldedBuffer(t *testing.T) {
	tc := needTools(t)
	p, err := asttest.RingProgram()
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 11}
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneBufs(in)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	inFile := writeInput(t, p, in)
	for _, c := range []struct {
		name       string
		fold, tile int64
		ir         string
	}{
		{"fold 2", 2, 0, "= and i64 "},
		{"fold 3", 3, 0, "= urem i64 "},
		{"fold 2, tiles of 4", 2, 4, "= and i64 "},
		{"fold 3, tiles of 5", 3, 5, "= urem i64 "},
	} {
		for _, m := range modes[:2] {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				mod := tc.emitVerified(t, p, asttest.Ring(c.fold, c.tile, true), m.opts)
				checkIR(t, mod.IR, c.ir)
				bin := tc.build(t, t.TempDir(), mod, p, params)
				for _, th := range []int{1, 2} {
					got := runHarness(t, bin, inFile, p, in, th)
					compareArgs(t, p, got, want, 0, "B")
				}
			})
		}
	}
}
