// Package arith provides checked int64 arithmetic for the Presburger library.
//
// Every operation that can overflow panics with an Overflow value instead of
// wrapping silently. The exported entry points of package presburger recover
// that panic and turn it into an error, so a too-large coefficient yields an
// error and never a wrong set.
package arith

import (
	"math"
	"math/bits"
)

// Overflow is the panic value raised when an int64 operation overflows.
type Overflow struct{ Op string }

func (o Overflow) Error() string { return "presburger: int64 overflow in " + o.Op }

// Add returns a+b or panics with Overflow.
func Add(a, b int64) int64 {
	c, ok := AddOK(a, b)
	if !ok {
		panic(Overflow{"add"})
	}
	return c
}

// AddOK returns a+b and whether it fits in int64, for callers that retry
// with math/big instead of failing.
func AddOK(a, b int64) (int64, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}

// Sub returns a-b or panics with Overflow.
func Sub(a, b int64) int64 {
	c := a - b
	if (c < a) != (b > 0) {
		panic(Overflow{"sub"})
	}
	return c
}

// Neg returns -a or panics with Overflow.
func Neg(a int64) int64 {
	if a == math.MinInt64 {
		panic(Overflow{"neg"})
	}
	return -a
}

// Mul returns a*b or panics with Overflow.
func Mul(a, b int64) int64 {
	c, ok := MulOK(a, b)
	if !ok {
		panic(Overflow{"mul"})
	}
	return c
}

// MulOK returns a*b and whether it fits in int64.
func MulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(Abs(a), Abs(b))
	if hi != 0 || (!neg && lo > math.MaxInt64) || (neg && lo > 1<<63) {
		return 0, false
	}
	if neg {
		return int64(-lo), true
	}
	return int64(lo), true
}

// AddMul returns a + b*c or panics with Overflow.
func AddMul(a, b, c int64) int64 { return Add(a, Mul(b, c)) }

// Abs returns |a| as a uint64 (exact even for MinInt64).
func Abs(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// AbsInt returns |a| or panics with Overflow.
func AbsInt(a int64) int64 {
	if a < 0 {
		return Neg(a)
	}
	return a
}

// GCD returns the non-negative greatest common divisor of a and b.
func GCD(a, b int64) int64 {
	x, y := Abs(a), Abs(b)
	for y != 0 {
		x, y = y, x%y
	}
	if x > math.MaxInt64 {
		panic(Overflow{"gcd"})
	}
	return int64(x)
}

// LCM returns the non-negative least common multiple of a and b.
func LCM(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	return AbsInt(Mul(a/GCD(a, b), b))
}

// FloorDiv returns floor(a/b) for b != 0.
func FloorDiv(a, b int64) int64 {
	if b == -1 {
		return Neg(a)
	}
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// CeilDiv returns ceil(a/b) for b != 0.
func CeilDiv(a, b int64) int64 {
	if b == -1 {
		return Neg(a)
	}
	q := a / b
	if (a%b != 0) && ((a < 0) == (b < 0)) {
		q++
	}
	return q
}

// Mod returns a - b*floor(a/b), which is in [0, |b|) for b > 0.
func Mod(a, b int64) int64 {
	m := a % b
	if m != 0 && ((m < 0) != (b < 0)) {
		m += b
	}
	return m
}

// GCDVec returns the gcd of all entries of v (0 for an all-zero vector).
func GCDVec(v []int64) int64 {
	var g int64
	for _, x := range v {
		if x != 0 {
			g = GCD(g, x)
			if g == 1 {
				return 1
			}
		}
	}
	return g
}

// DivGCD divides every entry of v by the gcd of them all (GCDVec), when
// that exceeds 1: the normal form of a tableau row (denominator and
// numerators together) or of an equality, keeping numbers small.
func DivGCD(v []int64) {
	if g := GCDVec(v); g > 1 {
		for j := range v {
			v[j] /= g
		}
	}
}

// Catch recovers an Overflow panic into *err. Use as `defer arith.Catch(&err)`.
func Catch(err *error) {
	if r := recover(); r != nil {
		if o, ok := r.(Overflow); ok {
			*err = o
			return
		}
		panic(r)
	}
}
