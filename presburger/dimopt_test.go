package presburger

import (
	"math/rand"
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// evalAff evaluates a's first row at the parameter point p.
func evalAff(a MultiAff, p []int64) int64 {
	vals := append([]int64{1}, p...)
	for _, d := range a.Divs {
		vals = append(vals, arith.FloorDiv(dot(d.Num, vals), d.Den))
	}
	return dot(a.Rows[0], vals)
}

// TestDimOptAgainstBruteForce compares DimMin and DimMax of every dimension
// of random boxed sets, through the shortcuts of dimopt.go or the
// parametric search, with the extremes found by enumeration at every
// parameter value.
func TestDimOptAgainstBruteForce(t *testing.T) {
	const B = 3
	n := int64(100)
	if testing.Short() {
		n = 30
	}
	for seed := int64(0); seed < n; seed++ {
		rng := rand.New(rand.NewSource(seed))
		params := []string{"N"}[:rng.Intn(2)]
		dims := []string{"x", "y", "z"}[:1+rng.Intn(3)]
		s := Set{randRel(rng, SetSpace(params, NewTuple("S", dims...)), B)}
		np, nd := len(params), len(dims)
		for pos := range nd {
			for _, max := range []bool{false, true} {
				pw, err := s.DimMin(pos)
				if max {
					pw, err = s.DimMax(pos)
				}
				if err != nil {
					t.Logf("seed %d pos %d max %v: %v (acceptable)", seed, pos, max, err)
					continue
				}
				points(np, B, func(p []int64) {
					var best int64
					found := false
					points(nd, B, func(x []int64) {
						if bruteIn(s.r, append(append([]int64(nil), p...), x...)) {
							if v := x[pos]; !found || (v > best) == max && v != best {
								best, found = v, true
							}
						}
					})
					var got []int64
					for _, pc := range pw.Pieces {
						if pc.Domain.r.contains(p) {
							got = append(got, evalAff(pc.Aff, p))
						}
					}
					if (len(got) == 1) != found || found && got[0] != best {
						t.Fatalf("seed %d pos %d max %v at %v: got %v, want %v (found %v)\nset = %s\nresult = %s",
							seed, pos, max, p, got, best, found, s, pw)
					}
				})
			}
		}
	}
}
