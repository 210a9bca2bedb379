package pip

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// oracle gives the expected optimum at a parameter point (nil: empty).
type oracle func(p []int64) []int64

// checkOracle compares the pieces with want at every point of
// [-box, box]^nParam inside the context.
func checkOracle(t *testing.T, nParam int, ctxEqs, ctxIneqs [][]int64, sol, empty []Piece, box int64, want oracle) {
	t.Helper()
	p := make([]int64, nParam)
	for i := range p {
		p[i] = -box
	}
	for {
		var got []int64
		found := 0
		for _, pc := range slices.Concat(sol, empty) {
			if x, in := evalPiece(pc, p); in {
				found++
				got = x
			}
		}
		if holds(ctxEqs, ctxIneqs, p) {
			if found != 1 {
				t.Fatalf("p=%v lies in %d pieces: sol=%v empty=%v", p, found, sol, empty)
			}
			if diff := cmp.Diff(want(p), got); diff != "" {
				t.Fatalf("p=%v: optimum mismatch (-want +got):\n%s\nsol=%v empty=%v", p, diff, sol, empty)
			}
		} else if found != 0 {
			t.Fatalf("p=%v outside the context lies in a piece", p)
		}
		i := 0
		for i < nParam && p[i] == box {
			p[i] = -box
			i++
		}
		if i == nParam {
			return
		}
		p[i]++
	}
}

func floorDivT(a, b int64) int64 { return arith.FloorDiv(a, b) }

func TestKnown(t *testing.T) {
	tests := []struct {
		name             string
		max              bool
		nParam, nVar     int
		eqs, ineqs       [][]int64
		ctxEqs, ctxIneqs [][]int64
		want             oracle
		nSol, nEmpty     int // expected piece counts (-1: don't care)
		divs             int // divs of the first solution piece (-1: don't care)
	}{
		{
			// lexmin {[i] : i >= N and i >= M} = max(N, M): two pieces.
			name: "max", nParam: 2, nVar: 1,
			ineqs: [][]int64{{0, -1, 0, 1}, {0, 0, -1, 1}},
			want:  func(p []int64) []int64 { return []int64{max(p[0], p[1])} },
			nSol:  2, nEmpty: 0, divs: 0,
		},
		{
			// lexmin {[i] : 2i >= N} = ceil(N/2): a div.
			name: "ceil", nParam: 1, nVar: 1,
			ineqs: [][]int64{{0, -1, 2}},
			want:  func(p []int64) []int64 { return []int64{-floorDivT(-p[0], 2)} },
			nSol:  1, nEmpty: 0, divs: 1,
		},
		{
			// Tiling: lexmin {[o] : 32o <= i <= 32o + 31} = floor(i/32).
			name: "tile", nParam: 1, nVar: 1,
			ineqs: [][]int64{{0, 1, -32}, {31, -1, 32}},
			want:  func(p []int64) []int64 { return []int64{floorDivT(p[0], 32)} },
			nSol:  1, nEmpty: 0, divs: 1,
		},
		{
			// lexmax {[i, j] : 0 <= j <= i <= N} = (N, N) for N >= 0.
			name: "triangle", max: true, nParam: 1, nVar: 2,
			ineqs: [][]int64{{0, 0, 0, 1}, {0, 0, 1, -1}, {0, 1, -1, 0}},
			want: func(p []int64) []int64 {
				if p[0] < 0 {
					return nil
				}
				return []int64{p[0], p[0]}
			},
			nSol: 1, nEmpty: 1, divs: 0,
		},
		{
			// lexmin {[i] : 0 <= i <= N and i >= M}: empty where M > N or N < 0.
			name: "empty regions", nParam: 2, nVar: 1,
			ineqs: [][]int64{{0, 0, 0, 1}, {0, 1, 0, -1}, {0, 0, -1, 1}},
			want: func(p []int64) []int64 {
				n, m := p[0], p[1]
				if lo := max(0, m); lo <= n {
					return []int64{lo}
				}
				return nil
			},
			nSol: -1, nEmpty: -1, divs: 0,
		},
		{
			// Parity: lexmin {[i] : 2i = N, 0 <= i}: only for even N >= 0.
			name: "parity", nParam: 1, nVar: 1,
			eqs:   [][]int64{{0, -1, 2}},
			ineqs: [][]int64{{0, 0, 1}},
			want: func(p []int64) []int64 {
				if p[0] < 0 || p[0]%2 != 0 {
					return nil
				}
				return []int64{p[0] / 2}
			},
			nSol: 1, nEmpty: -1, divs: 1,
		},
		{
			// Last writer: lexmax {[i', j'] : i' <= i, j' = j - 1, 0 <= i' < N}.
			name: "last writer", max: true, nParam: 3, nVar: 2,
			eqs:   [][]int64{{-1, 0, 1, 0, 0, -1}},
			ineqs: [][]int64{{0, 1, 0, 0, -1, 0}, {0, 0, 0, 0, 1, 0}, {-1, 0, 0, 1, -1, 0}},
			want: func(p []int64) []int64 {
				i, j, n := p[0], p[1], p[2]
				if hi := min(i, n-1); hi >= 0 {
					return []int64{hi, j - 1}
				}
				return nil
			},
			nSol: 2, nEmpty: -1, divs: 0,
		},
		{
			// Context restricts N to be even and positive: the equality
			// makes the lexmin integral without extra pieces.
			name: "context", nParam: 1, nVar: 1,
			eqs:      [][]int64{{0, -1, 2}},
			ctxIneqs: [][]int64{{-1, 1}},
			ctxEqs:   nil,
			want: func(p []int64) []int64 {
				if p[0]%2 != 0 {
					return nil
				}
				return []int64{p[0] / 2}
			},
			nSol: 1, nEmpty: 1, divs: 1,
		},
		{
			// Two nested divisions: lexmin {[x, y] : 3y >= N, 2x >= y}.
			name: "nested", nParam: 1, nVar: 2,
			ineqs: [][]int64{{0, -1, 0, 3}, {0, 0, 2, -1}},
			want: func(p []int64) []int64 {
				// The lexmin has the smallest x: x = ceil(ceil(N/3)/2) with
				// y then as small as possible: y = ceil(N/3).
				y := -floorDivT(-p[0], 3)
				return []int64{-floorDivT(-y, 2), y}
			},
			nSol: -1, nEmpty: 0, divs: -1,
		},
		{
			// No parameters: a plain integer lexmin needing two cuts.
			name: "two cuts", nParam: 0, nVar: 2,
			ineqs: [][]int64{{-2, 3, 0}, {-1, 0, 2}, {0, -1, 3}},
			want:  func([]int64) []int64 { return []int64{1, 1} },
			nSol:  1, nEmpty: 0, divs: 0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := LexMin
			if tc.max {
				f = LexMax
			}
			sol, empty, err := f(tc.nParam, tc.nVar, tc.eqs, tc.ineqs, tc.ctxEqs, tc.ctxIneqs, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkOracle(t, tc.nParam, tc.ctxEqs, tc.ctxIneqs, sol, empty, 40/int64(max(1, tc.nParam*tc.nParam)), tc.want)
			if tc.nSol >= 0 && len(sol) != tc.nSol || tc.nEmpty >= 0 && len(empty) != tc.nEmpty {
				t.Errorf("got %d solution and %d empty pieces, want %d and %d:\nsol=%v\nempty=%v", len(sol), len(empty), tc.nSol, tc.nEmpty, sol, empty)
			}
			if tc.divs >= 0 && len(sol) > 0 && len(sol[0].Divs) != tc.divs {
				t.Errorf("first piece has divs %v, want %d of them", sol[0].Divs, tc.divs)
			}
		})
	}
}

// TestRegressions runs problems that once went wrong or took too long,
// against brute force, under a modest budget.
func TestRegressions(t *testing.T) {
	tests := []struct {
		name         string
		max          bool
		nParam, nVar int
		eqs, ineqs   [][]int64
		box, lim     int64
	}{
		{
			// x2 is pinned to 0 (0 <= x2 <= 2/3), which makes the equality
			// a parity condition on p0: as inequalities, the cuts peeled
			// the unbounded context one value of p0 at a time.
			name: "pinch", nParam: 3, nVar: 3,
			eqs: [][]int64{{3, 7, 6, -2, -2, 4, 1}},
			ineqs: [][]int64{{3, 0, 0, 2, 1, 0, 0}, {4, 0, 0, 0, -1, 0, 0}, {1, 0, 0, 0, 0, 1, 0}, {0, -1, 0, 0, 0, -1, 0},
				{0, 0, 0, 0, 0, 0, 1}, {4, 0, 2, 0, 0, 0, -1}, {6, 0, -4, 0, 0, 0, -6}, {4, 0, 0, 0, 0, 0, -6}},
			box: 4, lim: 12,
		},
		{
			// A thin polytope where plain Gomory cuts need a long chain.
			name: "thin", nParam: 2, nVar: 3,
			ineqs: [][]int64{{2, 0, 0, 1, 0, 0}, {1, -3, 0, 0, 0, -6}, {0, 0, 0, 0, 0, -1}, {4, 1, 0, -1, 0, 0},
				{6, -6, 0, 4, 4, 6}, {2, 6, -3, -4, -6, 4}, {1, 0, 0, 0, 1, 0}, {2, 0, -1, 0, 0, 1}, {4, 0, 0, 0, -1, 0}},
			box: 6, lim: 12,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := LexMin
			if tc.max {
				f = LexMax
			}
			sol, empty, err := f(tc.nParam, tc.nVar, tc.eqs, tc.ineqs, nil, nil, &simplex.Budget{Ops: 200_000})
			if err != nil {
				t.Fatal(err)
			}
			pr := problem{nParam: tc.nParam, nVar: tc.nVar, eqs: tc.eqs, ineqs: tc.ineqs, max: tc.max}
			checkOracle(t, tc.nParam, nil, nil, sol, empty, tc.box, func(p []int64) []int64 {
				return pr.bruteRange(p, -tc.lim, tc.lim)
			})
		})
	}
}

func TestExactPieces(t *testing.T) {
	// The exact output for small cases, so that regressions in the form
	// of the result (not only its values) show up.
	tests := []struct {
		name              string
		nParam, nVar      int
		ineqs             [][]int64
		wantSol, wantEmpt []Piece
	}{
		{
			name: "tile", nParam: 1, nVar: 1,
			ineqs: [][]int64{{0, 1, -32}, {31, -1, 32}},
			wantSol: []Piece{{
				Divs: []Div{{Num: []int64{0, 1}, Den: 32}},
				Sol:  [][]int64{{0, 0, 1}},
			}},
		},
		{
			name: "ceil", nParam: 1, nVar: 1,
			ineqs: [][]int64{{0, -1, 2}},
			wantSol: []Piece{{
				Divs: []Div{{Num: []int64{1, 1}, Den: 2}},
				Sol:  [][]int64{{0, 0, 1}},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol, empty, err := LexMin(tc.nParam, tc.nVar, nil, tc.ineqs, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantSol, sol); diff != "" {
				t.Errorf("solution pieces (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantEmpt, empty); diff != "" {
				t.Errorf("empty pieces (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnbounded(t *testing.T) {
	tests := []struct {
		name         string
		max          bool
		nParam, nVar int
		ineqs        [][]int64
	}{
		{name: "below", nParam: 1, nVar: 1, ineqs: [][]int64{{0, 1, -1}}},        // i <= N
		{name: "above", max: true, nParam: 0, nVar: 1, ineqs: [][]int64{{0, 1}}}, // i >= 0
		{name: "second", nParam: 0, nVar: 2, ineqs: [][]int64{{0, 1, 0}, {5, -1, 0}}},
		{name: "free", nParam: 0, nVar: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := LexMin
			if tc.max {
				f = LexMax
			}
			_, _, err := f(tc.nParam, tc.nVar, nil, tc.ineqs, nil, nil, nil)
			if !errors.Is(err, ErrUnbounded) {
				t.Fatalf("got %v, want ErrUnbounded", err)
			}
		})
	}
	// Unbounded only where the set is empty: no error.
	sol, empty, err := LexMin(1, 1, nil, [][]int64{{0, 0, 1}, {-1, 0, 0}}, nil, nil, nil)
	if err != nil || len(sol) != 0 || len(empty) != 1 {
		t.Fatalf("got %v %v %v, want one empty piece", sol, empty, err)
	}
}

func TestEmptyContext(t *testing.T) {
	sol, empty, err := LexMin(1, 1, nil, [][]int64{{0, 0, 1}}, [][]int64{{1, 2}}, nil, nil) // 2N + 1 = 0
	if err != nil || sol != nil || empty != nil {
		t.Fatalf("got %v %v %v, want nothing", sol, empty, err)
	}
}

func TestBudget(t *testing.T) {
	// A thin parametric problem that needs many operations.
	ineqs := [][]int64{{2, 0, 0, 1, 0, 0}, {1, -3, 0, 0, 0, -6}, {0, 0, 0, 0, 0, -1}, {4, 1, 0, -1, 0, 0},
		{6, -6, 0, 4, 4, 6}, {2, 6, -3, -4, -6, 4}, {1, 0, 0, 0, 1, 0}, {2, 0, -1, 0, 0, 1}, {4, 0, 0, 0, -1, 0}}
	for _, ops := range []int64{1, 10, 100} {
		t.Run(fmt.Sprint(ops), func(t *testing.T) {
			defer func() {
				if _, ok := recover().(simplex.BudgetExceeded); !ok {
					t.Fatal("want a BudgetExceeded panic")
				}
			}()
			LexMin(2, 3, nil, ineqs, nil, nil, &simplex.Budget{Ops: ops})
		})
	}
}

func TestInputsUnchanged(t *testing.T) {
	eqs := [][]int64{{0, -1, 2, 0}}
	ineqs := [][]int64{{0, 0, 1, 0}, {3, 1, 0, -1}, {0, 0, 0, 1}}
	ctx := [][]int64{{5, 1}}
	e0, i0, c0 := clone2(eqs), clone2(ineqs), clone2(ctx)
	if _, _, err := LexMax(1, 2, eqs, ineqs, nil, ctx, nil); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(eqs, e0) || !cmp.Equal(ineqs, i0) || !cmp.Equal(ctx, c0) {
		t.Fatal("inputs modified")
	}
}

func clone2(rows [][]int64) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}
