package pip

import "testing"

// Problems shaped like those a polyhedral compiler asks: tile origins,
// last writers of dependences, loop bounds of tiled loops.
var benchProblems = []struct {
	name             string
	max              bool
	nParam, nVar     int
	eqs, ineqs       [][]int64
	ctxEqs, ctxIneqs [][]int64
}{
	{
		// lexmin {[o0, o1] : 32o0 <= i <= 32o0 + 31, 32o1 <= j <= 32o1 + 31}
		name: "tile2d", nParam: 2, nVar: 2,
		ineqs: [][]int64{{0, 1, 0, -32, 0}, {31, -1, 0, 32, 0}, {0, 0, 1, 0, -32}, {31, 0, -1, 0, 32}},
	},
	{
		// lexmax {[i', j'] : i' <= i, j' = j - 1, 0 <= i' < N}
		name: "lastwriter", max: true, nParam: 3, nVar: 2,
		eqs:   [][]int64{{-1, 0, 1, 0, 0, -1}},
		ineqs: [][]int64{{0, 1, 0, 0, -1, 0}, {0, 0, 0, 0, 1, 0}, {-1, 0, 0, 1, -1, 0}},
	},
	{
		// Jacobi-style stencil: the last write of A[i'] before (t, i)
		// reading A[i + 1]: lexmax {[t', i'] : t' < t, i' = i + 1,
		// 0 <= t' < T, 1 <= i' < N - 1}, params t, i, T, N.
		name: "stencil", max: true, nParam: 4, nVar: 2,
		eqs: [][]int64{{1, 0, 1, 0, 0, 0, -1}},
		ineqs: [][]int64{{-1, 1, 0, 0, 0, -1, 0}, {0, 0, 0, 0, 0, 1, 0}, {-1, 0, 0, 1, 0, -1, 0},
			{-1, 0, 0, 0, 0, 0, 1}, {-2, 0, 0, 0, 1, 0, -1}},
		ctxIneqs: [][]int64{{0, 1, 0, 0, 0}, {-1, -1, 0, 1, 0}, {-1, 0, 1, 0, 0}, {-2, 0, -1, 0, 1}},
	},
	{
		// First iteration of a tiled triangular loop nest inside tile
		// (ti, tj): lexmin {[i, j] : 32ti <= i < 32ti + 32,
		// 32tj <= j < 32tj + 32, 0 <= i <= j < N}.
		name: "tiledtriangle", nParam: 3, nVar: 2,
		ineqs: [][]int64{{0, -32, 0, 0, 1, 0}, {31, 32, 0, 0, -1, 0}, {0, 0, -32, 0, 0, 1}, {31, 0, 32, 0, 0, -1},
			{0, 0, 0, 0, 1, 0}, {0, 0, 0, 0, -1, 1}, {-1, 0, 0, 1, 0, -1}},
	},
	{
		// Skewed wavefront dependence: lexmin {[t', i'] : t' > t,
		// i' = i + t' - t, 0 <= t' < T, 0 <= i' < N}.
		name: "skewed", nParam: 4, nVar: 2,
		eqs: [][]int64{{0, 1, -1, 0, 0, 1, -1}},
		ineqs: [][]int64{{-1, -1, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 0, 1, 0}, {-1, 0, 0, 1, 0, -1, 0},
			{0, 0, 0, 0, 0, 0, 1}, {-1, 0, 0, 0, 1, 0, -1}},
	},
}

func BenchmarkLexMin(b *testing.B) {
	for _, bp := range benchProblems {
		b.Run(bp.name, func(b *testing.B) {
			f := LexMin
			if bp.max {
				f = LexMax
			}
			for b.Loop() {
				if _, _, err := f(bp.nParam, bp.nVar, bp.eqs, bp.ineqs, bp.ctxEqs, bp.ctxIneqs, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBenchProblems checks the benchmark problems against brute force, and
// logs the pieces in verbose mode.
func TestBenchProblems(t *testing.T) {
	for _, bp := range benchProblems {
		t.Run(bp.name, func(t *testing.T) {
			f := LexMin
			if bp.max {
				f = LexMax
			}
			sol, empty, err := f(bp.nParam, bp.nVar, bp.eqs, bp.ineqs, bp.ctxEqs, bp.ctxIneqs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, pc := range sol {
				t.Logf("sol: divs=%v eqs=%v ineqs=%v x=%v", pc.Divs, pc.Eqs, pc.Ineqs, pc.Sol)
			}
			for _, pc := range empty {
				t.Logf("empty: divs=%v eqs=%v ineqs=%v", pc.Divs, pc.Eqs, pc.Ineqs)
			}
			// Boxes small enough for brute force, where the optima stay
			// within [-lim, lim].
			box, lim := int64(4), int64(12)
			if bp.nParam <= 2 {
				box, lim = 60, 2
			}
			pr := problem{nParam: bp.nParam, nVar: bp.nVar, eqs: bp.eqs, ineqs: bp.ineqs, max: bp.max}
			checkOracle(t, bp.nParam, bp.ctxEqs, bp.ctxIneqs, sol, empty, box, func(p []int64) []int64 {
				return pr.bruteRange(p, -lim, lim)
			})
		})
	}
}
