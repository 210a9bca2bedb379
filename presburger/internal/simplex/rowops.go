package simplex

import (
	"math/big"

	"tilefuse/presburger/internal/arith"
)

// Tableau rows hold fractions over a common denominator, reduced by their
// gcd. Reduced entries are bounded by subdeterminants of the constraint
// matrix, but the products formed on the way (before the gcd division) are
// about their square. lincomb therefore computes in int64 when it can and
// redoes a row with math/big when an intermediate overflows; only a reduced
// result that does not fit in int64 panics with arith.Overflow.

// lincomb sets dst[j] = mx·x[j] + my·y[j] for every j, omitting the x term
// at index skipX and the y term at index skipY (-1 for none), and divides
// the result by the gcd of its entries. dst may alias x or y; scratch has
// the length of dst.
func lincomb(dst, x []int64, mx int64, skipX int, y []int64, my int64, skipY int, scratch []int64) {
	for j := range dst {
		var p, q int64
		ok := true
		if j != skipX {
			p, ok = arith.MulOK(mx, x[j])
		}
		if ok && j != skipY {
			q, ok = arith.MulOK(my, y[j])
		}
		if ok {
			p, ok = arith.AddOK(p, q)
		}
		if !ok {
			lincombBig(dst, x, mx, skipX, y, my, skipY)
			return
		}
		scratch[j] = p
	}
	copy(dst, scratch)
	normalize(dst)
}

// lincombBig is lincomb in exact big-integer arithmetic.
func lincombBig(dst, x []int64, mx int64, skipX int, y []int64, my int64, skipY int) {
	vals := make([]*big.Int, len(dst))
	g := new(big.Int)
	var t big.Int
	for j := range dst {
		v := new(big.Int)
		if j != skipX {
			v.Mul(big.NewInt(mx), big.NewInt(x[j]))
		}
		if j != skipY {
			v.Add(v, t.Mul(big.NewInt(my), big.NewInt(y[j])))
		}
		vals[j] = v
		g.GCD(nil, nil, g, t.Abs(v))
	}
	for j, v := range vals {
		if g.Sign() != 0 {
			v.Quo(v, g)
		}
		if !v.IsInt64() {
			panic(arith.Overflow{Op: "simplex row"})
		}
		dst[j] = v.Int64()
	}
}

// normalize divides a row by the gcd of its entries (the denominator
// included) to keep numbers small.
func normalize(r []int64) {
	g := r[0]
	for _, x := range r[1:] {
		if g == 1 {
			return
		}
		if x != 0 {
			g = arith.GCD(g, x)
		}
	}
	if g > 1 {
		for j := range r {
			r[j] /= g
		}
	}
}
