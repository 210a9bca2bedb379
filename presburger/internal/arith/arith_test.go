package arith

import (
	"math"
	"math/big"
	"slices"
	"testing"
)

// overflows reports whether f panics with Overflow.
func overflows(f func() int64) (v int64, over bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(Overflow); !ok {
				panic(r)
			}
			over = true
		}
	}()
	return f(), false
}

// TestCheckedOpsAgainstBig compares every checked operation with math/big on
// values around the int64 limits: either the exact result, or an Overflow
// exactly when the exact result does not fit.
func TestCheckedOpsAgainstBig(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 3, 7, -7, 1 << 31, -(1 << 31), 3037000499, 3037000500, -3037000500,
		math.MaxInt64, math.MaxInt64 - 1, math.MinInt64, math.MinInt64 + 1, math.MaxInt64 / 2, math.MinInt64 / 2}
	fits := func(b *big.Int) bool { return b.IsInt64() }
	ops := []struct {
		name  string
		f     func(a, b int64) int64
		exact func(a, b *big.Int) *big.Int
	}{
		{"Add", Add, func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }},
		{"Sub", Sub, func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }},
		{"Mul", Mul, func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }},
	}
	for _, op := range ops {
		for _, a := range vals {
			for _, b := range vals {
				want := op.exact(big.NewInt(a), big.NewInt(b))
				got, over := overflows(func() int64 { return op.f(a, b) })
				switch {
				case over && fits(want):
					t.Errorf("%s(%d, %d): overflow, want %v", op.name, a, b, want)
				case !over && (!fits(want) || got != want.Int64()):
					t.Errorf("%s(%d, %d) = %d, want %v", op.name, a, b, got, want)
				}
			}
		}
	}
}

func TestDivisionAndGCD(t *testing.T) {
	tests := []struct {
		a, b                int64
		floor, ceil, mod, g int64
	}{
		{7, 2, 3, 4, 1, 1},
		{-7, 2, -4, -3, 1, 1},
		{7, -2, -4, -3, -1, 1},
		{-7, -2, 3, 4, -1, 1},
		{6, 3, 2, 2, 0, 3},
		{0, 5, 0, 0, 0, 5},
		{-12, 8, -2, -1, 4, 4},
	}
	for _, tc := range tests {
		if got := FloorDiv(tc.a, tc.b); got != tc.floor {
			t.Errorf("FloorDiv(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.floor)
		}
		if got := CeilDiv(tc.a, tc.b); got != tc.ceil {
			t.Errorf("CeilDiv(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.ceil)
		}
		if got := Mod(tc.a, tc.b); got != tc.mod {
			t.Errorf("Mod(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.mod)
		}
		if got := GCD(tc.a, tc.b); got != tc.g {
			t.Errorf("GCD(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.g)
		}
	}
	if _, over := overflows(func() int64 { return FloorDiv(math.MinInt64, -1) }); !over {
		t.Error("FloorDiv(MinInt64, -1) must overflow")
	}
	if _, over := overflows(func() int64 { return GCD(math.MinInt64, 0) }); !over {
		t.Error("GCD(MinInt64, 0) = 2^63 must overflow")
	}
	if got := LCM(4, -6); got != 12 {
		t.Errorf("LCM(4, -6) = %d, want 12", got)
	}
}

func TestDivGCD(t *testing.T) {
	for _, tc := range []struct{ in, want []int64 }{
		{[]int64{6, -4, 0, 10}, []int64{3, -2, 0, 5}},
		{[]int64{1, 8, 12}, []int64{1, 8, 12}},
		{[]int64{0, -3, 9}, []int64{0, -1, 3}},
		{[]int64{0, 0}, []int64{0, 0}},
		{nil, nil},
	} {
		got := slices.Clone(tc.in)
		DivGCD(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("DivGCD(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
