package pip

import (
	"errors"
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// TestPartial runs problems where only the first nOpt variables are
// optimised (the projections of dimension bounds, on which the search once
// failed where isl answers: found by internal/islref's
// TestDimBoundsVsISL), under a modest budget, against known optima.
func TestPartial(t *testing.T) {
	tests := []struct {
		name             string
		max              bool
		nParam, nVar     int
		nOpt             int
		eqs, ineqs       [][]int64
		want             oracle
		unbounded, fully bool // ErrUnbounded expected; fully: only when all variables are optimised
	}{
		{
			// min x : x >= 1, 16e0 + 6e1 = N - 3: the existentials run
			// along a line, unbounded both ways; x is not (seed 9459).
			name: "unbounded existentials", nParam: 1, nVar: 3, nOpt: 1,
			eqs:   [][]int64{{-3, 1, 0, -16, -6}},
			ineqs: [][]int64{{-1, 0, 1, 0, 0}},
			want: func(p []int64) []int64 {
				if p[0]%2 == 0 {
					return nil
				}
				return []int64{1}
			},
			fully: true,
		},
		{
			// max x1 with floor((-4 - 3x1)/2) = 8e + 4: unbounded, found
			// at the rational optimum rather than after cuts that
			// overflow (seed 5539).
			name: "unbounded output", max: true, nParam: 1, nVar: 3, nOpt: 1,
			eqs:       [][]int64{{-4, 0, 0, 1, -8}},
			ineqs:     [][]int64{{-4, 0, -3, -2, 0}, {5, 0, 3, 2, 0}, {-4, 0, 0, 1, -8}, {11, 0, 0, -1, 8}},
			unbounded: true,
		},
		{
			// min x >= -6 with 2e0 + 5e1 = 6, 0 <= e0 <= 1: no integer
			// point at all (seed 99); cutting x = -6, -5, ... off one at
			// a time would never end.
			name: "empty under an unbounded output", nParam: 0, nVar: 3, nOpt: 1,
			eqs:   [][]int64{{-6, 0, 2, 5}},
			ineqs: [][]int64{{6, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, -1, 0}},
			want:  func([]int64) []int64 { return nil },
		},
		{
			// max x0 <= 5 with 2x0 + 3e0 <= 6e1 <= 2x0 + 3e0 + 1 and
			// -3 - 10N <= e0 <= 1: x0 = 5 has no integer point, and
			// Gomory cuts from e1 walked the strip e0 in [-3 - 10N, 1]
			// one value of N at a time (seed 12764).
			name: "thin strip", max: true, nParam: 1, nVar: 3, nOpt: 1,
			ineqs: [][]int64{{-1, 0, 1, 0, 0}, {1, 0, 2, 3, -6}, {1, 0, 0, -1, 0}, {3, 10, 0, 1, 0}, {5, 0, -1, 0, 0}, {0, 0, -2, -3, 6}},
			want: func(p []int64) []int64 {
				if p[0] < 0 {
					return nil
				}
				return []int64{4}
			},
		},
		{
			// The same strip one existential further: x1 <= 2e0 + 9,
			// 0 < e0 <= 5; (x1, e0) = (17, 5) has no integer point.
			name: "thin strip behind an existential", max: true, nParam: 1, nVar: 4, nOpt: 1,
			ineqs: [][]int64{{9, 0, -1, 2, 0, 0}, {-1, 0, 0, 1, 0, 0}, {1, 0, 0, 2, 3, -6}, {1, 0, 0, 0, -1, 0},
				{0, 0, 1, 0, 0, 0}, {3, 10, 0, 0, 1, 0}, {5, 0, 0, -1, 0, 0}, {0, 0, 0, -2, -3, 6}},
			want: func(p []int64) []int64 {
				if p[0] < 0 {
					return nil
				}
				return []int64{17}
			},
		},
		{
			// max x with e = floor((5 - 3M - x)/6), 6e >= -M: the cut
			// of 5·e (s >= M mod 6) is exact, that of e needed a chain
			// of cuts that overflowed (seed 14549).
			name: "parametric cut", max: true, nParam: 1, nVar: 2, nOpt: 1,
			ineqs: [][]int64{{0, 1, 0, 6}, {5, -3, -1, -6}, {0, 3, 1, 6}},
			want: func(p []int64) []int64 {
				return []int64{5 - 3*p[0] + 6*floorDivT(p[0], 6)}
			},
		},
		{
			// min x1 <= 6 with 3x1 + 3e >= 1 + 3N + M, x1 + 12e >= 5,
			// 1 <= e, 9e <= 20 - N, the existential maximised (seed
			// 4744; minimised, its cuts breed divs without end).
			name: "existential maximised", nParam: 2, nVar: 2, nOpt: 1,
			ineqs: [][]int64{{6, 0, 0, -1, 0}, {-1, -3, -1, 3, -3}, {-5, 0, 0, 1, -12}, {-1, 0, 0, 0, -1}, {20, -1, 0, 0, 9}},
			want: func(p []int64) []int64 {
				n, m := p[0], p[1]
				for x1 := int64(-400); x1 <= 6; x1++ {
					for e := int64(1); 9*e <= 20-n; e++ {
						if 3*x1+3*e >= 1+3*n+m && x1+12*e >= 5 {
							return []int64{x1}
						}
					}
				}
				return nil
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := PartialLexMin
			if tc.max {
				f = PartialLexMax
			}
			sol, empty, err := f(tc.nParam, tc.nVar, tc.nOpt, tc.eqs, tc.ineqs, nil, nil, &simplex.Budget{Ops: 200_000})
			if tc.unbounded {
				if !errors.Is(err, ErrUnbounded) {
					t.Fatalf("got %v %v %v, want ErrUnbounded", sol, empty, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, pc := range sol {
				if len(pc.Sol) != tc.nOpt {
					t.Fatalf("piece %v: %d values, want %d", pc, len(pc.Sol), tc.nOpt)
				}
			}
			checkOracle(t, tc.nParam, nil, nil, sol, empty, 30, tc.want)
			if tc.fully {
				full := LexMin
				if tc.max {
					full = LexMax
				}
				if _, _, err := full(tc.nParam, tc.nVar, tc.eqs, tc.ineqs, nil, nil, nil); !errors.Is(err, ErrUnbounded) {
					t.Errorf("optimising every variable: %v, want ErrUnbounded", err)
				}
			}
		})
	}
}
