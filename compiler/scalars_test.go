package compiler_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// TestScalars: the scheduling strategies map ludcmp's w onto the elements
// it is stored to, so that auto tiles its LU part as lu's; KeepScalars
// and the original order keep w. The code computes the source program's
// live-out values bit for bit.
func TestScalars(t *testing.T) {
	p := kernel(t, "ludcmp")
	k, _ := polybench.Lookup("ludcmp")
	params := k.Sizes(polybench.Mini)
	for _, tc := range []struct {
		strategy compiler.Strategy
		keep     bool
		mapped   int
		tiled    bool
	}{
		{compiler.Auto, false, 4, true},
		{compiler.Smart, false, 4, false},
		{compiler.Auto, true, 0, false},
		{compiler.None, false, 0, false},
	} {
		r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: tc.strategy, KeepScalars: tc.keep, Stop: compiler.StageAST})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Scalars) != tc.mapped || (len(r.TiledBands) > 0) != tc.tiled {
			t.Errorf("%v, KeepScalars %v: %d scalars mapped (%v), %d bands tiled; want %d mapped, tiled %v",
				tc.strategy, tc.keep, len(r.Scalars), r.Scalars, len(r.TiledBands), tc.mapped, tc.tiled)
		}
		if (r.Program.Array("w") == nil) != (tc.mapped > 0) {
			t.Errorf("%v, KeepScalars %v: w is an array of the program compiled: %v", tc.strategy, tc.keep, r.Program.Array("w") != nil)
		}
		sourceResults(t, r, params)
	}
}

// sourceResults runs r's AST on r.Program and the reference executor on
// the source program, from the same inputs, and compares the live-out
// arrays.
func sourceResults(t *testing.T, r *compiler.Result, params map[string]int64) {
	t.Helper()
	in, err := charness.Inputs(r.Source, params)
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[string]*scop.Buffer{}, map[string]*scop.Buffer{}
	for _, a := range r.Source.Arrays {
		if a.LiveIn || a.LiveOut {
			want[a.Name], got[a.Name] = in[a.Name].Clone(), in[a.Name].Clone()
		}
	}
	if err := refexec.Run(r.Source, params, want); err != nil {
		t.Fatal(err)
	}
	if _, err := interp.Run(r.Program, r.AST, params, got); err != nil {
		t.Fatal(err)
	}
	for _, a := range r.Source.Arrays {
		if a.LiveOut && !bytes.Equal(want[a.Name].Data, got[a.Name].Data) {
			t.Errorf("live-out %s differs from the source program's", a.Name)
		}
	}
}
