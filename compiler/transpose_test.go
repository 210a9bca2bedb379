package compiler_test

import (
	"context"
	"testing"

	"tilefuse/compiler"
	"tilefuse/polybench"
)

// TestTranspose: the scheduling strategies read syrk's A[j][k] from a
// transposed copy unless told to keep the layout, and the code computes
// the source program's values.
func TestTranspose(t *testing.T) {
	p := kernel(t, "syrk")
	k, _ := polybench.Lookup("syrk")
	params := k.Sizes(polybench.Mini)
	for _, tc := range []struct {
		strategy compiler.Strategy
		keep     bool
		copies   int
	}{
		{compiler.Auto, false, 1},
		{compiler.Post, false, 1},
		{compiler.Max, false, 1},
		{compiler.Auto, true, 0},
		{compiler.None, false, 0},
	} {
		r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: tc.strategy, KeepLayout: tc.keep, Stop: compiler.StageAST})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Transposed) != tc.copies || (r.Program.Array("A_t") != nil) != (tc.copies > 0) {
			t.Errorf("%v, KeepLayout %v: copies %v, A_t in the program compiled %v; want %d copies",
				tc.strategy, tc.keep, r.Transposed, r.Program.Array("A_t") != nil, tc.copies)
		}
		sourceResults(t, r, params)
	}
}
