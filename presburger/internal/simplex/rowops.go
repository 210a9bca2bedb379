package simplex

import (
	"math/big"
	"math/bits"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
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
	lincombY(dst, x, mx, skipX, y, my, skipY, scratch, magBits(y))
}

// lincombY is lincomb given yBits = magBits(y), for a caller that combines
// many rows with the same y.
func lincombY(dst, x []int64, mx int64, skipX int, y []int64, my int64, skipY int, scratch []int64, yBits int) {
	if magBits(x)+bits.Len64(arith.Abs(mx)) <= 62 && yBits+bits.Len64(arith.Abs(my)) <= 62 {
		// Both products stay below 2^62 in magnitude and their sum below
		// 2^63: no entry can overflow, so no check is needed (the usual
		// case, and entry j only reads index j, so dst may alias).
		for j := range dst {
			var p int64
			if j != skipX {
				p = mx * x[j]
			}
			if j != skipY {
				p += my * y[j]
			}
			dst[j] = p
		}
		arith.DivGCD(dst)
		return
	}
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
	arith.DivGCD(dst)
}

// magBits returns the bit length of the largest magnitude in v (64 for
// MinInt64).
func magBits(v []int64) int {
	var o uint64
	for _, a := range v {
		m := a >> 63
		o |= uint64((a ^ m) - m) // |a|, without a branch
	}
	return bits.Len64(o)
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
