package simplex

import (
	"math/big"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// useGBR enables basis reduction in the bounded search (tests turn it off
// to cross-check the plain coordinate branching).
var useGBR = true

// tryReducedBasis is reducedBasis that gives up (ok=false) on int64
// overflow: the doubled LP has larger numbers than the set itself, and the
// search stays exact, only slower, without a reduced basis.
func tryReducedBasis(sys [][]int64, n int, b *Budget) (bas, inv [][]int64, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isOverflow := r.(arith.Overflow); !isOverflow {
				panic(r)
			}
			bas, inv, ok = nil, nil, false
		}
	}()
	bas, inv = reducedBasis(sys, n, b)
	return bas, inv, true
}

// reducedBasis computes a reduced basis of Z^n for the bounded, non-empty
// set sys with generalized basis reduction (Lovász–Scarf, as implemented by
// Cook, Rutherford, Scarf and Shallcross, "An implementation of the
// generalized basis reduction algorithm for integer programming", 1993, and
// by isl), with ε = 1/4.
//
// The width of a direction c with respect to the first i basis vectors is
//
//	F_i(c) = max { c·(x-y) : x, y in the set, b_j·(x-y) = 0 for j < i },
//
// an LP over two copies of the set. The basis b_0..b_{n-1} (rows of bas) is
// reduced when F_i(b_{i+1} + μ·b_i) >= F_i(b_i)·(1-ε) for the best integer μ
// and every i; b_0 is then a thin direction of the set, so branching on it
// enumerates few values. inv is the inverse of bas (x = inv·z for z = bas·x),
// kept exactly in step with the unimodular row operations.
//
// The quality of the basis only affects speed, never correctness: any
// unimodular basis gives an exact search.
func reducedBasis(sys [][]int64, n int, b *Budget) (bas, inv [][]int64) {
	lp := NewTableau(2*n, b)
	for _, r := range sys {
		x := make([]int64, 1+2*n)
		y := make([]int64, 1+2*n)
		x[0], y[0] = r[0], r[0]
		copy(x[1:], r[1:])
		copy(y[1+n:], r[1:])
		lp.AddIneq(x)
		lp.AddIneq(y)
	}
	diff := func(c []int64) []int64 {
		d := make([]int64, 1+2*n)
		for j, a := range c {
			d[1+j], d[1+n+j] = a, arith.Neg(a)
		}
		return d
	}
	width := func(c []int64) [2]int64 {
		num, den, st := lp.Max(diff(c))
		if st != Optimal {
			panic("simplex: internal error: basis reduction of an unbounded or empty set")
		}
		return [2]int64{num, den}
	}
	bas, inv = identity(n), identity(n)
	f := make([][2]int64, n)
	f[0] = width(bas[0])
	snaps := make([]Snapshot, n)
	for i := 0; i < n-1; {
		b.spend(1)
		// F_{i+1}(b_{i+1}) and the dual value λ of b_i·(x-y) = 0: the best
		// real μ minimising F_i(b_{i+1} + μ·b_i) is -λ.
		s := lp.Snapshot()
		con := lp.AddEq(diff(bas[i]))
		fn, fd, st, dual := lp.maxDual(diff(bas[i+1]), con)
		lp.Rollback(s)
		if st != Optimal {
			panic("simplex: internal error: basis reduction of an unbounded or empty set")
		}
		fNext := [2]int64{fn, fd}
		alpha := [2]int64{arith.Neg(dual[0]), dual[1]}
		mu := arith.FloorDiv(alpha[0], alpha[1])
		cand := addMul(bas[i+1], mu, bas[i])
		fMu := width(cand)
		if muC := arith.CeilDiv(alpha[0], alpha[1]); muC != mu {
			candC := addMul(bas[i+1], muC, bas[i])
			if fC := width(candC); cmpScaled(1, fC, 1, fMu) < 0 {
				mu, cand, fMu = muC, candC, fC
			}
		}
		if mu != 0 {
			bas[i+1] = cand
			// bas' = E·bas with E adding μ·row i to row i+1, so
			// inv' = inv·E⁻¹: column i loses μ·column i+1.
			for _, row := range inv {
				row[i] = arith.Sub(row[i], arith.Mul(mu, row[i+1]))
			}
		}
		// Swap when F_i(b_{i+1}) < (3/4)·F_i(b_i).
		if cmpScaled(4, fMu, 3, f[i]) < 0 {
			bas[i], bas[i+1] = bas[i+1], bas[i]
			for _, row := range inv {
				row[i], row[i+1] = row[i+1], row[i]
			}
			f[i] = fMu
			if i > 0 {
				i--
				lp.Rollback(snaps[i])
			}
			continue
		}
		f[i+1] = fNext
		snaps[i] = lp.Snapshot()
		lp.AddEq(diff(bas[i]))
		i++
	}
	return bas, inv
}

// addMul returns a + m·c.
func addMul(a []int64, m int64, c []int64) []int64 {
	out := make([]int64, len(a))
	for j := range a {
		out[j] = arith.Add(a[j], arith.Mul(m, c[j]))
	}
	return out
}

// cmpScaled compares kx·x[0]/x[1] with ky·y[0]/y[1] (positive
// denominators) exactly; big integers keep a heuristic comparison from
// overflowing.
func cmpScaled(kx int64, x [2]int64, ky int64, y [2]int64) int {
	l := new(big.Int).Mul(big.NewInt(kx), big.NewInt(x[0]))
	l.Mul(l, big.NewInt(y[1]))
	r := new(big.Int).Mul(big.NewInt(ky), big.NewInt(y[0]))
	r.Mul(r, big.NewInt(x[1]))
	return l.Cmp(r)
}
