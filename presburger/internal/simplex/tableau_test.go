package simplex

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type optResult struct {
	Num, Den int64
	St       Status
}

func TestMinMax(t *testing.T) {
	// x >= 0, y >= 0, x + y <= 4, x - y <= 2
	square := [][]int64{{0, 1, 0}, {0, 0, 1}, {4, -1, -1}, {2, -1, 1}}
	tests := []struct {
		name       string
		eqs, ineqs [][]int64
		n          int
		obj        []int64
		min, max   optResult
	}{
		{"polygon x+2y", nil, square, 2, []int64{0, 1, 2}, optResult{0, 1, Optimal}, optResult{8, 1, Optimal}},
		{"polygon x", nil, square, 2, []int64{0, 1, 0}, optResult{0, 1, Optimal}, optResult{3, 1, Optimal}},
		{"polygon const", nil, square, 2, []int64{5, 0, 0}, optResult{5, 1, Optimal}, optResult{5, 1, Optimal}},
		{"half line", nil, [][]int64{{0, 1}}, 1, []int64{0, 1}, optResult{0, 1, Optimal}, optResult{0, 0, Unbounded}},
		{"free", nil, nil, 2, []int64{1, 1, -1}, optResult{0, 0, Unbounded}, optResult{0, 0, Unbounded}},
		{"infeasible", nil, [][]int64{{-1, 1}, {0, -1}}, 1, []int64{0, 1}, optResult{0, 0, Infeasible}, optResult{0, 0, Infeasible}},
		{"fraction", nil, [][]int64{{3, -2}, {0, 1}}, 1, []int64{0, 1}, optResult{0, 1, Optimal}, optResult{3, 2, Optimal}},
		{"fraction 2d", nil, [][]int64{{0, 1, 0}, {0, 0, 1}, {7, -3, -5}}, 2, []int64{1, 1, 1}, optResult{1, 1, Optimal}, optResult{10, 3, Optimal}},
		{"equality", [][]int64{{-3, 1, 1}}, [][]int64{{0, 1, 0}, {0, 0, 1}}, 2, []int64{0, 1, -1}, optResult{-3, 1, Optimal}, optResult{3, 1, Optimal}},
		{"equality unbounded", [][]int64{{-1, 2, -3}}, nil, 2, []int64{0, 1, 0}, optResult{0, 0, Unbounded}, optResult{0, 0, Unbounded}},
		{"point by eqs", [][]int64{{-1, 2, 0}, {-1, 0, 3}}, nil, 2, []int64{0, 6, 6}, optResult{5, 1, Optimal}, optResult{5, 1, Optimal}},
		{"inconsistent eqs", [][]int64{{-1, 1, 1}, {-2, 1, 1}}, nil, 2, []int64{0, 1, 0}, optResult{0, 0, Infeasible}, optResult{0, 0, Infeasible}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, _ := newSystem(tc.eqs, tc.ineqs, tc.n, nil)
			var got optResult
			got.Num, got.Den, got.St = tab.Min(tc.obj)
			if diff := cmp.Diff(tc.min, got); diff != "" {
				t.Errorf("Min mismatch (-want +got):\n%s", diff)
			}
			got.Num, got.Den, got.St = tab.Max(tc.obj)
			if diff := cmp.Diff(tc.max, got); diff != "" {
				t.Errorf("Max mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMaxRandom checks Max and Empty against Fourier–Motzkin on random
// systems (a few unbounded, a few infeasible).
func TestMaxRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := map[Status]int{}
	for it := range 1500 {
		n := 1 + r.IntN(3)
		var eqs, ineqs [][]int64
		for range r.IntN(2) {
			eqs = append(eqs, randRow(r, n, 5, 10))
		}
		for range 1 + r.IntN(5) {
			ineqs = append(ineqs, randRow(r, n, 6, 15))
		}
		obj := randRow(r, n, 5, 5)
		want, wst := fmMax(eqs, ineqs, n, obj)
		tab, _ := newSystem(eqs, ineqs, n, nil)
		if got := tab.Empty(); got != (wst == Infeasible) {
			t.Fatalf("case %d: Empty=%v want %v\neqs=%v ineqs=%v", it, got, wst == Infeasible, eqs, ineqs)
		}
		num, den, st := tab.Max(obj)
		counts[st]++
		if st != wst || (st == Optimal && big.NewRat(num, den).Cmp(want) != 0) {
			t.Fatalf("case %d: Max=%d/%d %v want %v %v\neqs=%v ineqs=%v obj=%v", it, num, den, st, want, wst, eqs, ineqs, obj)
		}
		if s, d := tab.RationalSample(); s != nil {
			checkRationalPoint(t, eqs, ineqs, s, d)
		}
	}
	t.Logf("statuses: %v", counts)
}

// checkRationalPoint verifies num/den satisfies the system exactly.
func checkRationalPoint(t *testing.T, eqs, ineqs [][]int64, num []int64, den int64) {
	t.Helper()
	if den <= 0 {
		t.Fatalf("bad denominator %d", den)
	}
	// den·row(x) = den·row[0] + Σ row[j]·num[j]
	ev := func(row []int64) *big.Int {
		s := new(big.Int).Mul(big.NewInt(row[0]), big.NewInt(den))
		for j, a := range row[1:] {
			s.Add(s, new(big.Int).Mul(big.NewInt(a), big.NewInt(num[j])))
		}
		return s
	}
	for _, e := range eqs {
		if ev(e).Sign() != 0 {
			t.Fatalf("rational sample %v/%d violates equality %v", num, den, e)
		}
	}
	for _, r := range ineqs {
		if ev(r).Sign() < 0 {
			t.Fatalf("rational sample %v/%d violates inequality %v", num, den, r)
		}
	}
}

func TestSnapshotRollback(t *testing.T) {
	tab := NewTableau(2, nil)
	tab.AddIneq([]int64{0, 1, 0})    // x >= 0
	tab.AddIneq([]int64{0, 0, 1})    // y >= 0
	tab.AddIneq([]int64{10, -1, -1}) // x + y <= 10
	obj := []int64{0, 1, 2}
	n0, d0, s0 := tab.Max(obj)
	snap := tab.Snapshot()
	tab.AddEq([]int64{-3, 1, 0})   // x = 3
	tab.AddIneq([]int64{4, 0, -1}) // y <= 4
	if n, d, s := tab.Max(obj); n != 11 || d != 1 || s != Optimal {
		t.Fatalf("after adds: %d/%d %v, want 11", n, d, s)
	}
	inner := tab.Snapshot()
	tab.AddIneq([]int64{-5, 0, 1}) // y >= 5: empty
	if !tab.Empty() {
		t.Fatal("want empty")
	}
	tab.AddIneq([]int64{-1, 1, 0}) // added while empty
	tab.Rollback(inner)
	if tab.Empty() {
		t.Fatal("rollback did not clear emptiness")
	}
	if n, d, s := tab.Max(obj); n != 11 || d != 1 || s != Optimal {
		t.Fatalf("after inner rollback: %d/%d %v, want 11", n, d, s)
	}
	tab.Rollback(snap)
	if n, d, s := tab.Max(obj); n != n0 || d != d0 || s != s0 {
		t.Fatalf("after rollback: %d/%d %v, want %d/%d %v", n, d, s, n0, d0, s0)
	}
	if n, _, s := tab.Max([]int64{0, 1, 0}); n != 10 || s != Optimal {
		t.Fatalf("x max after rollback = %d %v, want 10", n, s)
	}
}

// TestRollbackRandom adds random constraints with nested snapshots and
// checks after every rollback that the tableau answers like a fresh one
// built from the surviving constraints.
func TestRollbackRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type con struct {
		row []int64
		eq  bool
	}
	for it := range 400 {
		n := 1 + r.IntN(3)
		tab := NewTableau(n, nil)
		var cons []con
		var snaps []Snapshot
		var lens []int
		for step := range 12 {
			switch {
			case r.IntN(4) == 0 && len(snaps) > 0:
				k := r.IntN(len(snaps))
				tab.Rollback(snaps[k])
				cons = cons[:lens[k]]
				snaps, lens = snaps[:k], lens[:k]
			case r.IntN(3) == 0:
				snaps = append(snaps, tab.Snapshot())
				lens = append(lens, len(cons))
			default:
				c := con{randRow(r, n, 4, 12), r.IntN(5) == 0}
				if c.eq {
					tab.AddEq(c.row)
				} else {
					tab.AddIneq(c.row)
				}
				cons = append(cons, c)
			}
			var eqs, ineqs [][]int64
			for _, c := range cons {
				if c.eq {
					eqs = append(eqs, c.row)
				} else {
					ineqs = append(ineqs, c.row)
				}
			}
			fresh, _ := newSystem(eqs, ineqs, n, nil)
			if tab.Empty() != fresh.Empty() {
				t.Fatalf("case %d step %d: Empty=%v, fresh %v", it, step, tab.Empty(), fresh.Empty())
			}
			obj := randRow(r, n, 5, 3)
			var a, b optResult
			a.Num, a.Den, a.St = tab.Max(obj)
			b.Num, b.Den, b.St = fresh.Max(obj)
			if diff := cmp.Diff(b, a); diff != "" {
				t.Fatalf("case %d step %d: Max mismatch (-fresh +rolled):\n%s", it, step, diff)
			}
			if s, d := tab.RationalSample(); s != nil {
				checkRationalPoint(t, eqs, ineqs, s, d)
			}
		}
	}
}

func TestRedundantImplicit(t *testing.T) {
	tests := []struct {
		name       string
		eqs, ineqs [][]int64
		n          int
		redundant  []bool // IsRedundant on the full system
		implicit   []bool
	}{
		{
			name:      "box with implied",
			ineqs:     [][]int64{{0, 1, 0}, {0, 0, 1}, {4, -1, -1}, {9, -1, 0}, {1, 1, 1}},
			n:         2,
			redundant: []bool{false, false, false, true, true},
			implicit:  []bool{false, false, false, false, false},
		},
		{
			name:      "pinned",
			ineqs:     [][]int64{{0, 1}, {0, -1}, {5, 1}},
			n:         1,
			redundant: []bool{false, false, true},
			implicit:  []bool{true, true, false},
		},
		{
			name:      "duplicates",
			ineqs:     [][]int64{{0, 1, 0}, {0, 1, 0}, {0, 2, 0}},
			n:         2,
			redundant: []bool{true, true, true},
			implicit:  []bool{false, false, false},
		},
		{
			name:      "implied by equality",
			eqs:       [][]int64{{-2, 1, -1}},
			ineqs:     [][]int64{{-2, 1, -1}, {0, 1, 0}, {5, -1, 1}, {-1, 1, -1}},
			n:         2,
			redundant: []bool{true, false, true, true},
			implicit:  []bool{true, false, false, false},
		},
		{
			name:      "degenerate vertex",
			ineqs:     [][]int64{{0, 1, 0}, {0, 0, 1}, {0, 1, 1}, {2, -1, -1}},
			n:         2,
			redundant: []bool{false, false, true, false},
			implicit:  []bool{false, false, false, false},
		},
		{
			name:      "segment",
			ineqs:     [][]int64{{0, 1, -1}, {0, -1, 1}, {0, 1, 0}, {3, -1, 0}},
			n:         2,
			redundant: []bool{false, false, false, false},
			implicit:  []bool{true, true, false, false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, idx := newSystem(tc.eqs, tc.ineqs, tc.n, nil)
			var red, imp []bool
			for _, c := range idx {
				red = append(red, tab.IsRedundant(c))
				imp = append(imp, tab.IsImplicitEquality(c))
			}
			if diff := cmp.Diff(tc.redundant, red); diff != "" {
				t.Errorf("IsRedundant mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.implicit, imp); diff != "" {
				t.Errorf("IsImplicitEquality mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReduce(t *testing.T) {
	tests := []struct {
		name                string
		eqs, ineqs          [][]int64
		n                   int
		redundant, implicit []bool
		empty               bool
	}{
		{
			name:      "duplicates: keep the last",
			ineqs:     [][]int64{{0, 1, 0}, {0, 1, 0}, {0, 2, 0}},
			n:         2,
			redundant: []bool{true, true, false},
			implicit:  []bool{false, false, false},
		},
		{
			name:      "pinned by a pair",
			ineqs:     [][]int64{{0, 1}, {0, -1}, {5, 1}, {0, 3}},
			n:         1,
			redundant: []bool{true, false, true, false},
			implicit:  []bool{true, true, false, true},
		},
		{
			name:      "empty",
			ineqs:     [][]int64{{-1, 1}, {0, -1}},
			n:         1,
			redundant: []bool{false, false},
			implicit:  []bool{false, false},
			empty:     true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			red, imp, empty := Reduce(tc.eqs, tc.ineqs, tc.n, nil)
			if diff := cmp.Diff(tc.redundant, red); diff != "" {
				t.Errorf("redundant mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.implicit, imp); diff != "" {
				t.Errorf("implicitEq mismatch (-want +got):\n%s", diff)
			}
			if empty != tc.empty {
				t.Errorf("empty = %v, want %v", empty, tc.empty)
			}
		})
	}
}

// TestReduceRandom checks Reduce against Fourier–Motzkin: greedy
// redundancy in order, and implicit equalities.
func TestReduceRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	nRed, nImp := 0, 0
	for it := range 600 {
		n := 1 + r.IntN(3)
		var eqs, ineqs [][]int64
		for range r.IntN(2) {
			eqs = append(eqs, randRow(r, n, 3, 6))
		}
		for range 2 + r.IntN(5) {
			row := randRow(r, n, 3, 6)
			ineqs = append(ineqs, row)
			if r.IntN(4) == 0 { // an opposite or scaled copy
				c := make([]int64, len(row))
				k := int64(1 + r.IntN(2))
				for i, x := range row {
					c[i] = -k * x
				}
				c[0] += int64(r.IntN(3))
				ineqs = append(ineqs, c)
			}
		}
		red, imp, empty := Reduce(eqs, ineqs, n, nil)
		if want := fmEmpty(toFM(eqs, ineqs), n); empty != want {
			t.Fatalf("case %d: empty=%v want %v", it, empty, want)
		}
		if empty {
			continue
		}
		kept := make([]bool, len(ineqs))
		for i := range kept {
			kept[i] = true
		}
		for i := range ineqs {
			// Implicit equality: the set with row_i > 0 is empty.
			cons := toFM(eqs, ineqs)
			c := toFM(nil, [][]int64{ineqs[i]})[0]
			c.kind = 2
			if want := fmEmpty(append(cons, c), n); imp[i] != want {
				t.Fatalf("case %d: implicit[%d]=%v want %v\neqs=%v ineqs=%v", it, i, imp[i], want, eqs, ineqs)
			}
			// Redundant: the other kept rows and row_i < 0 are empty.
			var others [][]int64
			for k := range ineqs {
				if k != i && kept[k] {
					others = append(others, ineqs[k])
				}
			}
			neg := toFM(nil, [][]int64{ineqs[i]})[0]
			for k := range neg.c {
				neg.c[k].Neg(neg.c[k])
			}
			neg.kind = 2
			want := fmEmpty(append(toFM(eqs, others), neg), n)
			if red[i] != want {
				t.Fatalf("case %d: redundant[%d]=%v want %v\neqs=%v ineqs=%v red=%v", it, i, red[i], want, eqs, ineqs, red)
			}
			if want {
				kept[i] = false
				nRed++
			}
			if imp[i] {
				nImp++
			}
		}
	}
	t.Logf("redundant %d, implicit %d", nRed, nImp)
}

func TestRationalEmpty(t *testing.T) {
	tests := []struct {
		name       string
		eqs, ineqs [][]int64
		n          int
		want       bool
	}{
		{"no constraints", nil, nil, 3, false},
		{"x>=1,x<=0", nil, [][]int64{{-1, 1}, {0, -1}}, 1, true},
		{"2x=1", [][]int64{{-1, 2}}, nil, 1, false},
		{"0=1", [][]int64{{1, 0}}, nil, 1, true},
		{"-1>=0", nil, [][]int64{{-1, 0, 0}}, 2, true},
		{"3x+5y=7 in quadrant", [][]int64{{-7, 3, 5}}, [][]int64{{0, 1, 0}, {0, 0, 1}}, 2, false},
		{"x+y=1,x+y=2", [][]int64{{-1, 1, 1}, {-2, 1, 1}}, nil, 2, true},
	}
	for _, tc := range tests {
		if got := RationalEmpty(tc.eqs, tc.ineqs, tc.n, nil); got != tc.want {
			t.Errorf("%s: RationalEmpty = %v, want %v", tc.name, got, tc.want)
		}
	}
}
