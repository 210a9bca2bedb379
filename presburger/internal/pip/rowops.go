package pip

import (
	"math/big"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// Rows are reduced fractions; the products formed before the gcd division
// are about the square of the reduced entries, so lincomb works in int64
// when it can and redoes a row with math/big when an intermediate
// overflows. Only a reduced row that does not fit panics with
// arith.Overflow.

// lincomb sets dst = [d1·d2, mx·x[1:] + my·y[1:]] and reduces it by the
// gcd of its entries. dst may alias x or y.
func lincomb(dst, x []int64, mx int64, y []int64, my int64, d1, d2 int64) {
	den, ok := arith.MulOK(d1, d2)
	if !ok {
		lincombBig(dst, x, mx, y, my, d1, d2)
		return
	}
	out := make([]int64, len(dst))
	out[0] = den
	for j := 1; j < len(dst); j++ {
		p, ok1 := arith.MulOK(mx, x[j])
		q, ok2 := arith.MulOK(my, y[j])
		s, ok3 := arith.AddOK(p, q)
		if !ok1 || !ok2 || !ok3 {
			lincombBig(dst, x, mx, y, my, d1, d2)
			return
		}
		out[j] = s
	}
	copy(dst, out)
	arith.DivGCD(dst)
}

func lincombBig(dst, x []int64, mx int64, y []int64, my int64, d1, d2 int64) {
	vals := make([]*big.Int, len(dst))
	vals[0] = new(big.Int).Mul(big.NewInt(d1), big.NewInt(d2))
	g := new(big.Int).Set(vals[0])
	var t big.Int
	for j := 1; j < len(dst); j++ {
		v := new(big.Int).Mul(big.NewInt(mx), big.NewInt(x[j]))
		v.Add(v, t.Mul(big.NewInt(my), big.NewInt(y[j])))
		vals[j] = v
		g.GCD(nil, nil, g, t.Abs(v))
	}
	for j, v := range vals {
		v.Quo(v, g)
		if !v.IsInt64() {
			panic(arith.Overflow{Op: "pip row"})
		}
		dst[j] = v.Int64()
	}
}

// cmpProd compares a·b with c·d exactly.
func cmpProd(a, b, c, d int64) int {
	p, ok1 := arith.MulOK(a, b)
	q, ok2 := arith.MulOK(c, d)
	if ok1 && ok2 {
		switch {
		case p < q:
			return -1
		case p > q:
			return 1
		}
		return 0
	}
	var x, y big.Int
	x.Mul(big.NewInt(a), big.NewInt(b))
	y.Mul(big.NewInt(c), big.NewInt(d))
	return x.Cmp(&y)
}

// eval returns aff[0] + Σ aff[1+i]·pt[i].
func eval(aff, pt []int64) int64 {
	s := aff[0]
	for i, a := range aff[1:] {
		if a != 0 {
			s = arith.Add(s, arith.Mul(a, pt[i]))
		}
	}
	return s
}

// normAff divides an affine constraint (>= 0) by the gcd of its non-constant
// coefficients, flooring the constant (exact over the integers).
func normAff(aff []int64) []int64 {
	out := append([]int64(nil), aff...)
	g := arith.GCDVec(out[1:])
	if g > 1 {
		out[0] = arith.FloorDiv(out[0], g)
		for i := 1; i < len(out); i++ {
			out[i] /= g
		}
	}
	return out
}

// negMinus1 returns -aff - 1: the integer complement of aff >= 0.
func negMinus1(aff []int64) []int64 {
	out := make([]int64, len(aff))
	for i, a := range aff {
		out[i] = arith.Neg(a)
	}
	out[0] = arith.Sub(out[0], 1)
	return out
}

// minus1 returns aff - 1: aff >= 1 over the integers.
func minus1(aff []int64) []int64 {
	out := clone(aff)
	out[0] = arith.Sub(out[0], 1)
	return out
}
