package presburger

import (
	"errors"
	"testing"
)

// TestConvexHullWithin checks that the work bound of ConvexHullWithin
// covers the Fourier-Motzkin reductions: the footprint of a tile of 4x4
// found by the random-program campaign (seed 50019), whose hull's
// eliminations reach thousands of constraints, fails with ErrBudget
// under the bound post-tiling fusion gives it (the reductions used to
// run on the solver's own budget, for minutes), and a tile footprint of
// the usual kind gets its hull within it.
func TestConvexHullWithin(t *testing.T) {
	const bound = 1 << 20
	blowUp := mustParseMap(t, "[n] -> { [i0, i1] -> tmp0[o0, o1] : exists (e0: 2i1 < o1 <= 3 + 2i1 and e0 >= -1 + 2i0 and e0 >= -2 + 2i1 and e0 >= -3 + o1 and 0 <= e0 <= -2 + o1 and e0 <= 2i1 and e0 <= 2i0 and -3 + 3o0 <= 2e0 < 3o0 and 2e0 <= n - 4i1 and 2e0 <= 3 + n - 2o1 and 2e0 <= -4 + n and 4e0 <= -2 + n) or ((-5 + o1) mod 2 = 0 and -1 + 4i1 <= o0 <= 2 + 4i1 and o1 >= 3 + 4i0 and o1 >= 2 + o0 and 5 <= o1 <= 4 + o0 and o1 <= 5 + 4i0 and o1 <= 4 + n - o0 and o1 <= 1 + n) or ((-1 + o0) mod 2 = 0 and o0 >= -1 + 4i0 and 0 < o0 <= 1 + 4i0 and o0 <= -3 + n and o1 >= -2 + 4i1 and -1 + o0 <= o1 <= 1 + o0 and o1 <= 1 + 4i1 and o1 < n - o0) or ((-5 + o1) mod 2 = 0 and -1 + 4i1 <= o0 <= 2 + 4i1 and o0 <= n and o1 >= 2 + n and o1 >= 3 + 4i0 and 5 <= o1 <= 4 + o0 and o1 <= 5 + 4i0 and o1 <= 4 + n - o0 and o1 <= 3 + n) or ((-1 + o0) mod 2 = 0 and o0 >= -2 + n and o0 >= -1 + 4i0 and 0 < o0 <= 1 + 4i0 and o0 < n and o1 >= -2 + 4i1 and -1 + o0 <= o1 <= 1 + 4i1 and o1 < n - o0 and o1 < n) }")
	if _, err := blowUp.ConvexHullWithin(bound); !errors.Is(err, ErrBudget) {
		t.Errorf("hull of the campaign's footprint: error %v, want ErrBudget", err)
	}
	ring := mustParseMap(t, "[C] -> { [o] -> A[x] : 32o <= x <= 32o + 33 and 0 <= x < C; [o] -> A[x] : x = 0 and o >= 0 and 32o < C }")
	got, err := ring.ConvexHullWithin(bound)
	if err != nil {
		t.Fatalf("hull of a tile footprint: %v", err)
	}
	want, err := ring.ConvexHull()
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(want); err != nil || !eq {
		t.Errorf("bounded hull %s, unbounded %s", got, want)
	}
}

func mustParseMap(t *testing.T, src string) Map {
	t.Helper()
	m, err := ParseMap(src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
