package presburger

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// TestLexMinRows compares LexMinRows and IntegerSampleRows with
// Set.LexMin on random systems bounded below (half of them above too).
func TestLexMinRows(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const n = 3
	sp := SetSpace(nil, NewTuple("", "a", "b", "c"))
	for iter := 0; iter < 1000; iter++ {
		var eqs, ineqs [][]int64
		bounded := iter%2 == 0
		for v := 0; v < n; v++ { // x_v >= 0 keeps it bounded below
			lo, hi := make([]int64, 1+n), make([]int64, 1+n)
			lo[1+v], hi[0], hi[1+v] = 1, 6, -1
			ineqs = append(ineqs, lo)
			if bounded {
				ineqs = append(ineqs, hi)
			}
		}
		for k := 0; k < rng.Intn(5); k++ {
			r := make([]int64, 1+n)
			r[0] = int64(rng.Intn(11)) - 5
			for j := 1; j <= n; j++ {
				r[j] = int64(rng.Intn(7)) - 3
			}
			ineqs = append(ineqs, r)
		}
		if rng.Intn(4) == 0 {
			eqs = append(eqs, []int64{int64(rng.Intn(5)) - 2, int64(rng.Intn(3)) + 1, int64(rng.Intn(5)) - 2, 0})
		}
		s, err := SetFromConstraints(sp, eqs, ineqs)
		if err != nil {
			t.Fatal(err)
		}
		min, err := s.LexMin()
		if err != nil {
			t.Fatal(err)
		}
		want, wantOK, err := min.SamplePoint()
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := LexMinRows(n, eqs, ineqs)
		if err != nil {
			t.Fatal(err)
		}
		if ok != wantOK || !cmp.Equal(got, want) {
			t.Fatalf("%s: LexMinRows = %v %v, want %v %v", s, got, ok, want, wantOK)
		}
		pt, err := IntegerSampleRows(n, eqs, ineqs)
		if err != nil || (pt != nil) != wantOK {
			t.Fatalf("%s: IntegerSampleRows = %v (%v), want a point: %v", s, pt, err, wantOK)
		}
		if pt != nil {
			if in, err := s.Contains(pt); err != nil || !in {
				t.Fatalf("%s: IntegerSampleRows = %v, not in the set", s, pt)
			}
		}
	}
}

// TestQuickLexMinPaths compares quickLexMin with Set.LexMin on random
// systems, with branch and bound capped at 0 or a few branches, so that
// every variable whose rational minimum is fractional goes through
// searchMin, by dives (capped at 0, 1 or many branches, so that
// simplex.IntegerSample answers too) and bisection.
func TestQuickLexMinPaths(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const n = 4
	sp := SetSpace(nil, NewTuple("", "a", "b", "c", "d"))
	caps := [][2]int{{0, 0}, {0, 1}, {0, 1000}, {3, 2}, {searchNodes, diveNodes}}
	for iter := 0; iter < 300; iter++ {
		var ineqs [][]int64
		for v := 0; v < n; v++ { // x_v >= 0 keeps it bounded below
			lo := make([]int64, 1+n)
			lo[1+v] = 1
			ineqs = append(ineqs, lo)
		}
		for k := 0; k < 2+rng.Intn(5); k++ {
			r := make([]int64, 1+n)
			r[0] = int64(rng.Intn(21)) - 10
			for j := 1; j <= n; j++ {
				r[j] = int64(rng.Intn(9)) - 4
			}
			ineqs = append(ineqs, r)
		}
		s, err := SetFromConstraints(sp, nil, ineqs)
		if err != nil {
			t.Fatal(err)
		}
		min, err := s.LexMin()
		if err != nil {
			t.Fatal(err)
		}
		want, wantOK, err := min.SamplePoint()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range caps {
			bud := newBudget()
			got, ok, empty := quickLexMin(n, nil, ineqs, &bud.Budget, c[0], c[1])
			if !ok {
				continue // an unbounded rational minimum: left to pip
			}
			if empty == wantOK || !cmp.Equal(got, want) {
				t.Fatalf("%s: quickLexMin with caps %v = %v (empty %v), want %v %v", s, c, got, empty, want, wantOK)
			}
		}
		for _, c := range []int{0, 1, 1000} {
			tab := simplex.NewTableau(n, nil)
			for _, r := range ineqs {
				tab.AddIneq(r)
			}
			pt, empty := dive(tab, n, c)
			switch {
			case pt != nil:
				if in, err := s.Contains(pt); err != nil || !in {
					t.Fatalf("%s: dive = %v, not in the set", s, pt)
				}
			case empty && wantOK:
				t.Fatalf("%s: dive reports no integer point, but %v is one", s, want)
			}
		}
	}
}

// TestRowsWork checks that a RowsWork bounds and counts the work of the
// calls that share it.
func TestRowsWork(t *testing.T) {
	// x + y >= 3, x - y <= 1, y <= 5, x, y >= 0 over 2 variables.
	ineqs := [][]int64{{-3, 1, 1}, {1, -1, 1}, {5, 0, -1}, {0, 1, 0}, {0, 0, 1}}
	w := &RowsWork{Ops: 1 << 40}
	pt, ok, err := LexMinRowsWithin(w, 2, nil, ineqs)
	if err != nil || !ok || !cmp.Equal(pt, []int64{0, 3}) {
		t.Fatalf("LexMinRowsWithin = %v %v %v, want [0 3]", pt, ok, err)
	}
	spent := 1<<40 - w.Ops
	if spent <= 0 {
		t.Fatalf("LexMinRowsWithin spent %d operations", spent)
	}
	short := &RowsWork{Ops: spent - 1}
	if _, _, err := LexMinRowsWithin(short, 2, nil, ineqs); err != ErrBudget {
		t.Fatalf("LexMinRowsWithin with %d of %d operations: %v, want ErrBudget", spent-1, spent, err)
	}
	if _, err := IntegerSampleRowsWithin(&RowsWork{}, 2, nil, ineqs); err != ErrBudget {
		t.Fatalf("IntegerSampleRowsWithin without operations: %v, want ErrBudget", err)
	}
	if pt, err := IntegerSampleRowsWithin(nil, 2, nil, ineqs); err != nil || pt == nil {
		t.Fatalf("IntegerSampleRowsWithin = %v %v, want a point", pt, err)
	}
}
