//go:build isl && cgo

package presburger_test

import (
	"fmt"
	"testing"

	"github.com/tilefuse/tilefuse/internal/islref"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/presburger/calc"
	"github.com/tilefuse/tilefuse/presburger/internal/gen"
)

// printSources are typical compiler objects, in the shapes the printer
// rewrites: accesses, 2d+1 and tiled schedules, strides, triangles, unions.
var printSources = []string{
	"[ni, nj, nk] -> { S0[i, j] -> C[i0, i1] : i = i0 and j = i1 and i >= 0 and ni >= i + 1 and j >= 0 and nj >= j + 1 }",
	"[n] -> { S[i, j] -> A[i + 1, j - 1] : 0 < i < n and 0 < j < n }",
	"[N] -> { A[a] -> S[i, j] : a = i + j and 0 <= i < N and 0 <= j <= i }",
	"{ S0[i, j] -> [0, i, 0, j, 0]; S1[i, k, j] -> [0, i, 1, k, 0, j, 0] }",
	"{ S[i, j] -> [floor(i/32), floor(j/32), i mod 32, j mod 32] }",
	"[N] -> { S[i, j] -> [t, p] : 32t <= i + N <= 32t + 31 and p = i and t < 10 and 2p >= t }",
	"{ S[i, j] -> [floor((i + j)/4), 32*floor(i/32), i] }",
	"{ [i] -> [(-i) mod 3, 2 * (i mod 3) - 1] }",
	"[N] -> { S[i] : exists (k : i = 3k + 1 and 0 <= k < N) }",
	"{ S[i, j] : exists (a : 0 <= i - 3a <= 1) and 0 <= j <= 10 }",
	"{ [i, j] : exists (e : 3e <= i + j <= 4e + 1 and e >= j) }",
	"[N] -> { S[i, j, k] : 0 <= i < N and i < j < N and i < k < j }",
	"[N] -> { S[i, j] : N = i + 1 and N = j + 1 and N >= 1 }",
	"[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N and (i < 5 or j > 7) }",
	"[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N and (i = 0 or j = 0) }",
	"{ S[i, j] -> S[i', j'] : i' > i or (i' = i and j' > j) }",
	"{ A[[i] -> [j]] -> B[i] : 0 <= j < i }",
	"{ S[i] -> A[j] : 1 = 0 }",
	"[N, M] -> { : 0 <= M <= N }",
	"[N] -> { : true }",
}

// TestPrintReadByISL checks that isl reads what package presburger prints
// as the object that was printed: typical objects and random literals.
func TestPrintReadByISL(t *testing.T) {
	srcs := append([]string(nil), printSources...)
	seeds := 60
	if testing.Short() {
		seeds = 10
	}
	for seed := 0; seed < seeds; seed++ {
		for _, op := range gen.Ops {
			for _, d := range gen.New(op, uint64(seed)).Defs {
				srcs = append(srcs, d.Lit.String())
			}
		}
	}
	checked := 0
	for _, src := range srcs {
		v, err := presburger.Parse(src)
		if err != nil {
			continue // a literal beyond the library's limits
		}
		printed := fmt.Sprint(v)
		kind := calc.Kind(0) // a parameter set
		switch v.(type) {
		case presburger.UnionSet:
			kind = calc.SetKind
		case presburger.UnionMap:
			kind = calc.MapKind // an empty one prints as "{  }" too
		}
		eq, err := islref.Equal(kind, src, printed)
		if err != nil {
			t.Errorf("%s\nprinted as %s: %v", src, printed, err)
			continue
		}
		if !eq {
			t.Errorf("%s\nprinted as %s, which isl reads as another object", src, printed)
		}
		checked++
	}
	if checked < len(srcs)*9/10 {
		t.Errorf("only %d of %d literals checked", checked, len(srcs))
	}
}
