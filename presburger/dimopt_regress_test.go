package presburger

import (
	"errors"
	"slices"
	"testing"
)

// hasPointWith reports whether r has a point with parameters p whose output
// dimension pos is = w (cmp 0), > w (cmp 1) or < w (cmp -1); with cmp 2,
// any point with parameters p. Integer emptiness only: no parametric
// search, so it checks DimMin and DimMax independently.
func hasPointWith(r rel, p []int64, pos int, w int64, cmp int) bool {
	np := r.space.NParam()
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		c := b.clone()
		for j, v := range p {
			row := make([]int64, c.nCol())
			row[0], row[1+j] = -v, 1
			c.eqs = append(c.eqs, row)
		}
		row := make([]int64, c.nCol())
		x := 1 + np + r.space.NIn() + pos
		switch cmp {
		case 0: // x - w = 0
			row[0], row[x] = -w, 1
			c.eqs = append(c.eqs, row)
		case 1: // x - w - 1 >= 0
			row[0], row[x] = -w-1, 1
			c.ineqs = append(c.ineqs, row)
		case -1: // w - 1 - x >= 0
			row[0], row[x] = w-1, -1
			c.ineqs = append(c.ineqs, row)
		}
		if !c.simplify().isEmpty() {
			return true
		}
	}
	return false
}

// TestDimOptRegressions runs the sets on which DimMin or DimMax once
// failed where isl answers (an unbounded existential taken for an
// unbounded optimum, an int64 overflow or a search without end on an
// unbounded or a thin set; found by TestDimBoundsVsISL in package
// islref), and checks every answer by integer emptiness tests at each
// parameter value: the optimum w is attained and nothing lies beyond it,
// and where there is no piece, there is no point. Unbounded optima are
// checked to reach far.
func TestDimOptRegressions(t *testing.T) {
	tests := []struct {
		name      string
		set       string
		pos       int
		max       bool
		unbounded bool
		lo, hi    int64 // parameter values checked, for each parameter
	}{
		{name: "seed 9459: unbounded existentials", pos: 2,
			set: "[N] -> { [x0, x1, x2] : x2 >= 1 and (N - 16x1 + 2) mod 6 >= 5 }", lo: -12, hi: 12},
		{name: "seed 13449: unbounded existentials", pos: 0, max: true,
			set: "{ [x0, x1, x2] : exists (e0 : x2 = 6e0 + 1) and (-3x1 - x2 - 4) mod 4 <= 1 and x0 <= 11 }"},
		{name: "seed 15689 max: unbounded existentials", pos: 0, max: true,
			set: "[N] -> { S[x0, x1, x2] : x1 >= -N - 5 and (-3x2 + 2N - 5) mod 4 = 3 and x1 <= -x0 + 6 }", lo: -12, hi: 12},
		{name: "seed 15689 min: unbounded existentials", pos: 1,
			set: "[N] -> { S[x0, x1, x2] : x1 >= -N - 5 and (-3x2 + 2N - 5) mod 4 = 3 }", lo: -12, hi: 12},
		{name: "seed 5539: overflow on an unbounded set", pos: 1, max: true, unbounded: true,
			set: "[N] -> { [x0, x1] : floor((-3x1 - 4)/2) = 2x0 + 4 and (exists (e0 : x0 = 4e0 + 0) or 15x0 - 2x1 + 4 < -14x0 + 3) }"},
		{name: "seed 11759: overflow beside an unbounded piece", pos: 0, max: true, unbounded: true,
			set: "[M] -> { S[x0, x1] : (floor((-x0 - M + 4)/4) = -17x1 + 2 or exists (e0 = floor((-3x0 + 1)/2) : -2x1 + 4 <= 2e0 + 0)) and x0 <= 0; S[x0, x1] }"},
		{name: "seed 14549: overflow beside an unbounded piece", pos: 0, max: true, unbounded: true,
			set: "[M] -> { S[x0] : exists (e0 = floor((-3M - x0 + 5)/6) : -M <= 6e0 + 0); S[x0] }"},
		{name: "seed 14549: parametric cut", pos: 0, max: true,
			set: "[M] -> { S[x0] : exists (e0 = floor((-3M - x0 + 5)/6) : -M <= 6e0 + 0) }", lo: -30, hi: 30},
		{name: "seed 11759, the bounded piece: thin pair", pos: 0, max: true, lo: -150, hi: 150,
			set: "[M] -> { S[x0, x1] : floor((-x0 - M + 4)/4) = -17x1 + 2 and x0 <= 0 }"},
		{name: "seed 12764 max 0: thin strip", pos: 0, max: true, lo: -6, hi: 6,
			set: "[N] -> { S[x0, x1, x2] : x1 <= 2x0 + 9 and x0 >= 1 and (2x0 + 3x2 + 5) mod 6 >= 4 and x2 <= 1 and x1 >= 0 and x2 >= -10N - 3 and 3x0 <= 16; S[x0, x1, x2] : x0 <= N + 2 and x2 <= 10 and x1 <= -2x0 + 8 and x1 >= -2 and x2 >= 6 and exists (e0 : x0 = 4e0 + 3) and x0 >= 2 }"},
		{name: "seed 12764 max 1: thin strip", pos: 1, max: true, lo: -6, hi: 6,
			set: "[N] -> { S[x0, x1, x2] : x1 <= 2x0 + 9 and x0 >= 1 and (2x0 + 3x2 + 5) mod 6 >= 4 and x2 <= 1 and x1 >= 0 and x2 >= -10N - 3 and 3x0 <= 16; S[x0, x1, x2] : x0 <= N + 2 and x2 <= 10 and x1 <= -2x0 + 8 and x1 >= -2 and x2 >= 6 and exists (e0 : x0 = 4e0 + 3) and x0 >= 2 }"},
		{name: "seed 4744: a chain of cuts, ended by optimising the existential the other way", pos: 1, lo: -12, hi: 12,
			set: "[N, M] -> { [x0, x1] : x0 <= 7 and x0 >= -4 and x1 <= 2 and x1 >= -3M - 4; [x0, x1] : 20x1 <= 129 and 3x1 - 3N + 3x0 + 2 >= M + 3 and x1 >= -12x0 + 5 and x0 >= 1 and 18x0 <= -2N + 40; [x0, x1] : x0 >= 0 and x0 <= 4 and 3x1 >= 3N - 9 and x1 <= 2N + M - 2 and N - 11 <= -2x1 - 3 }"},
		{name: "seed 2799: a chain of cuts", pos: 0, max: true, lo: -90, hi: 15,
			set: "[N] -> { [x0, x1] : x0 <= 0; [x0, x1] : x0 <= 1 and x1 >= 0 and exists (e0, e1 : x0 = 2e0 + 2e1 and 0 <= e0 <= 1 and 0 <= e1 <= 1); [x0, x1] : floor((x0 + 3x1 - 2)/3) = -2x1 + 3 and 3x1 >= -14 and 2N - 2x1 - 12 < -3x0 + 3 }"},
		{name: "seed 520: cuts nesting divs on a small region", pos: 0, lo: 0, hi: 40,
			set: "[M] -> { S[x0, x1] : floor((-x0 - 5)/6) = 3x1 + 1 and x0 >= -10M and x0 <= 0 and 2x1 >= 11 and -2x1 - 7 < 17x1 and x1 <= 15 }"},
		{name: "seed 99: empty, the output unbounded above", pos: 1,
			set: "{ [x0, x1] : (exists (e0, e1 : x0 = 2e0 + 5e1 and 0 <= e0 <= 1 and 0 <= e1 <= 2) or -2x0 = -2x0 - 4) and x1 >= -6 and 17x0 <= 103 and x0 >= 6 }"},
		{name: "seed 387: empty, the output unbounded above", pos: 0, lo: -5, hi: 5,
			set: "[N] -> { S[x0, x1] : x1 >= 2 and x1 <= 14 and x0 >= -6 and exists (e0, e1 : x1 = 3e0 + 3e1 and 0 <= e0 <= 3 and 0 <= e1 <= 3) and exists (e0 : x1 = 5e0 + 0) }"},
		{name: "seed 16179 min 0", pos: 0, lo: -100, hi: 10,
			set: "[M] -> { [x0, x1] : 3x1 = 3x0 + 2 and x0 >= 0 and exists (e0 = floor((-2x0 - 4)/5) : -8x0 - x1 - 2 <= 5e0 + 6) and x0 <= 1 and x1 >= 6; [x0, x1] : floor((-2x0 + 3M + 2)/5) = 2x1 - 4 and 2x0 >= -2 and -3x1 - 17x0 - 2M - 11 > -3x1 and x0 <= 9; [x0, x1] : exists (e0, e1 : x0 = 4e0 + 1e1 and 0 <= e0 <= 1 and 0 <= e1 <= 0) and x0 <= 16 and x0 >= 6 and x1 >= x0 + 5 and x1 <= 3x0 + 7 }"},
		{name: "seed 16179 max 0", pos: 0, max: true, lo: -100, hi: 10,
			set: "[M] -> { [x0, x1] : 3x1 = 3x0 + 2 and x0 >= 0 and exists (e0 = floor((-2x0 - 4)/5) : -8x0 - x1 - 2 <= 5e0 + 6) and x0 <= 1 and x1 >= 6; [x0, x1] : floor((-2x0 + 3M + 2)/5) = 2x1 - 4 and 2x0 >= -2 and -3x1 - 17x0 - 2M - 11 > -3x1 and x0 <= 9; [x0, x1] : exists (e0, e1 : x0 = 4e0 + 1e1 and 0 <= e0 <= 1 and 0 <= e1 <= 0) and x0 <= 16 and x0 >= 6 and x1 >= x0 + 5 and x1 <= 3x0 + 7 }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSet(t, tc.set)
			// Bounded by work, not time: a tenth of the default
			// budget, so that a regression to the seconds of cuts
			// these once took fails with ErrBudget.
			old := CurrentLimits()
			SetLimits(Limits{MaxOps: regressOps, MaxPieces: old.MaxPieces})
			pw, err := s.DimMin(tc.pos)
			if tc.max {
				pw, err = s.DimMax(tc.pos)
			}
			SetLimits(old)
			if tc.unbounded {
				if !errors.Is(err, ErrUnbounded) {
					t.Fatalf("got %s, %v; want ErrUnbounded", pw, err)
				}
				// Somewhere the dimension reaches 10^6.
				r := s.r
				far := false
				points(r.space.NParam(), 3, func(p []int64) {
					far = far || hasPointWith(r, p, tc.pos, map[bool]int64{false: -1e6, true: 1e6}[tc.max], map[bool]int{false: -1, true: 1}[tc.max])
				})
				if !far {
					t.Errorf("no point beyond 10^6: not unbounded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := s.r
			beyond := -1
			if tc.max {
				beyond = 1
			}
			np := r.space.NParam()
			p := make([]int64, np)
			var rec func(int)
			rec = func(i int) {
				if i < np {
					for v := tc.lo; v <= tc.hi; v++ {
						p[i] = v
						rec(i + 1)
					}
					return
				}
				w, ok, err := pw.Eval(p)
				if err != nil {
					t.Fatalf("Eval(%v): %v", p, err)
				}
				if !ok {
					if hasPointWith(r, p, tc.pos, 0, 2) {
						t.Fatalf("at %v: no value, but the set has points\nresult: %s", p, pw)
					}
					return
				}
				if !hasPointWith(r, p, tc.pos, w[0], 0) || hasPointWith(r, p, tc.pos, w[0], beyond) {
					t.Fatalf("at %v: %d is not the optimum\nresult: %s", p, w[0], pw)
				}
			}
			rec(0)
		})
	}
}

// regressOps is the budget of the regression cases that once ran for
// seconds: a tenth of the default, so that a regression fails with
// ErrBudget rather than by a wall-clock limit.
const regressOps = 2_000_000

// TestLexMinRegressions: the lexmin of a map on which PIP once overflowed
// int64 after seconds of cuts (calc's TestISLDifferential, lexmin seed
// 22892), checked by integer emptiness tests at each parameter and input
// value: the image is a point of the map, nothing lexicographically
// smaller is, and inputs without image have none.
func TestLexMinRegressions(t *testing.T) {
	m, err := ParseMap("[N, M] -> { C[i0] -> B[o0, -3M - 1, i0 - 1, o3] : -4 <= i0 < 3 and -2 <= o0 < 4 and -3 <= o3 <= N + 1 and floor((-2i0 + 3o3 + 2)/5) = 19N and floor((11o3 - 2o0)/5) = -3N - 4; C[i0] -> B[o0, -M, o2, o3] : 0 <= i0 < 10 and -5 <= o0 < 3 and 2 <= o2 < 7 and -2 <= o3 < M - 2 and (exists (e0 = floor((-7o0 - 1)/5) : N + 3o3 + 1 <= 5e0 + 0) or M + 3o3 - 2o2 - 1 > -4o0 + 4) and exists (e0, e1 : o3 = 5e0 + 4e1 and 0 <= e0 <= 1 and 0 <= e1 <= 2) }")
	if err != nil {
		t.Fatal(err)
	}
	// Bounded by work, not time (see regressOps).
	old := CurrentLimits()
	SetLimits(Limits{MaxOps: regressOps, MaxPieces: old.MaxPieces})
	got, err := m.LexMin()
	if err != nil {
		SetLimits(old)
		t.Fatal(err)
	}
	pw, err := m.LexMinPw()
	SetLimits(old)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := got.IsSubset(m); err != nil || !ok {
		t.Fatalf("LexMin %s is not a subset of the map (%v)", got, err)
	}
	r := m.r
	// someBefore reports whether the map has an image of pt = [N, M, i0]
	// that agrees with w on the first k outputs and is smaller (cmp -1)
	// or equal (cmp 0) on output k; with k = 4, w itself.
	someBefore := func(pt, w []int64, k, cmp int) bool {
		for _, b := range r.parts {
			c := b.clone()
			fix := func(col int, v int64) {
				row := make([]int64, c.nCol())
				row[0], row[col] = -v, 1
				c.eqs = append(c.eqs, row)
			}
			for j, v := range pt {
				fix(1+j, v)
			}
			for j := range min(k, 4) {
				fix(1+len(pt)+j, w[j])
			}
			if k < 4 && cmp < 0 { // w_k - 1 - o_k >= 0
				row := make([]int64, c.nCol())
				row[0], row[1+len(pt)+k] = w[k]-1, -1
				c.ineqs = append(c.ineqs, row)
			}
			if !c.simplify().isEmpty() {
				return true
			}
		}
		return false
	}
	checked := 0
	points(3, 6, func(pt []int64) {
		w, ok, err := pw.Eval(pt)
		if err != nil {
			t.Fatalf("Eval(%v): %v", pt, err)
		}
		if !ok {
			if someBefore(pt, nil, 0, 0) {
				t.Fatalf("at %v: no image, but the map has one", pt)
			}
			return
		}
		checked++
		if in, err := got.Contains(append(slices.Clone(pt), w...)); err != nil || !in {
			t.Fatalf("at %v: LexMinPw gives %v, not in LexMin (%v)", pt, w, err)
		}
		if !someBefore(pt, w, 4, 0) {
			t.Fatalf("at %v: %v is not an image", pt, w)
		}
		for k := range 4 {
			if someBefore(pt, w, k, -1) {
				t.Fatalf("at %v: an image smaller than %v at output %d", pt, w, k)
			}
		}
	})
	if checked == 0 {
		t.Fatal("no input with an image checked")
	}
}
