package transpose

import (
	"math/big"
	"math/rand"
	"testing"
)

// TestRank: Bareiss's rank against Gaussian elimination over the
// rationals, on small matrices with many dependent rows.
func TestRank(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for n := 0; n < 2000; n++ {
		rows, cols := rnd.Intn(5), 1+rnd.Intn(5)
		m := make([][]int64, rows)
		for i := range m {
			m[i] = make([]int64, cols)
			if i > 0 && rnd.Intn(3) == 0 {
				// A combination of earlier rows.
				a, b := rnd.Intn(i), rnd.Intn(i)
				for k := range m[i] {
					m[i][k] = 2*m[a][k] - 3*m[b][k]
				}
				continue
			}
			for k := range m[i] {
				if rnd.Intn(2) == 0 {
					m[i][k] = int64(rnd.Intn(7) - 3)
				}
			}
		}
		if got, want := rank(m), ratRank(m); got != want {
			t.Fatalf("rank(%v) = %d, want %d", m, got, want)
		}
	}
}

// ratRank is the rank by Gaussian elimination over big.Rat.
func ratRank(rows [][]int64) int {
	m := make([][]*big.Rat, len(rows))
	for i, r := range rows {
		m[i] = make([]*big.Rat, len(r))
		for k, v := range r {
			m[i][k] = new(big.Rat).SetInt64(v)
		}
	}
	r := 0
	for c := 0; len(m) > 0 && c < len(m[0]) && r < len(m); c++ {
		p := -1
		for i := r; i < len(m); i++ {
			if m[i][c].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		m[r], m[p] = m[p], m[r]
		for i := r + 1; i < len(m); i++ {
			f := new(big.Rat).Quo(m[i][c], m[r][c])
			for k := c; k < len(m[i]); k++ {
				m[i][k].Sub(m[i][k], new(big.Rat).Mul(f, m[r][k]))
			}
		}
		r++
	}
	return r
}
