package refexec_test

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// scalar runs r = e as the single instance S[1000] of a program with the
// parameter N = 300, and returns r. Bool values are returned as i32 0/1.
func scalar(t *testing.T, e scop.Expr) (scop.Value, error) {
	t.Helper()
	if e.Type() == scop.Bool {
		e = &scop.Select{Cond: e, Then: cI(1), Else: cI(0)}
	}
	r := arr("r", e.Type())
	r.LiveOut = true
	s := stmt(t, "S", []string{"i"}, "{ S[i] : i = 1000 }", "{ S[i] -> [0] }", ref(r), e)
	p := program(t, []string{"N"}, "[N] -> { : N >= 0 }", []*scop.Array{r}, s)
	bufs, err := refexec.Alloc(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = refexec.Run(p, map[string]int64{"N": 300}, bufs)
	return bufs["r"].Load(0), err
}

func un(op scop.UnOp, x scop.Expr) *scop.Unary { return &scop.Unary{Op: op, X: x} }

func cast(t scop.ElemType, x scop.Expr) *scop.Cast { return &scop.Cast{X: x, T: t} }

func call(fn string, args ...scop.Expr) *scop.Call {
	return &scop.Call{Fn: fn, Args: args, T: args[0].Type()}
}

func sel(c, a, b scop.Expr) *scop.Select { return &scop.Select{Cond: c, Then: a, Else: b} }

func iv(v int64) scop.Value { return scop.Value{I: v} }

func fv(v float64) scop.Value { return scop.Value{F: v} }

func f32v(v float64) scop.Value { return scop.Value{F: float64(float32(v))} }

func TestIntegerSemantics(t *testing.T) {
	u8 := func(v int64) *scop.Const { return cT(scop.U8, v) }
	i64 := func(v int64) *scop.Const { return cT(scop.I64, v) }
	u64 := func(v int64) *scop.Const { return cT(scop.U64, v) }
	div0 := bin(scop.Eq, bin(scop.Div, cI(1), cI(0)), cI(0))
	tests := []struct {
		name string
		e    scop.Expr
		want scop.Value
	}{
		{"u8 add wraps", bin(scop.Add, u8(200), u8(100)), iv(44)},
		{"u8 sub wraps", bin(scop.Sub, u8(0), u8(1)), iv(255)},
		{"u8 mul wraps", bin(scop.Mul, u8(16), u8(16)), iv(0)},
		{"u8 neg", un(scop.Neg, u8(1)), iv(255)},
		{"u8 bitnot", un(scop.BitNot, u8(0)), iv(255)},
		{"i8 add wraps", bin(scop.Add, cT(scop.I8, 127), cT(scop.I8, 1)), iv(-128)},
		{"i8 bitnot", un(scop.BitNot, cT(scop.I8, 0)), iv(-1)},
		{"i16 mul wraps", bin(scop.Mul, cT(scop.I16, 300), cT(scop.I16, 300)), iv(24464)},
		{"u16 sub wraps", bin(scop.Sub, cT(scop.U16, 0), cT(scop.U16, 1)), iv(65535)},
		{"i32 add wraps", bin(scop.Add, cI(math.MaxInt32), cI(1)), iv(math.MinInt32)},
		{"i32 neg wraps", un(scop.Neg, cI(math.MinInt32)), iv(math.MinInt32)},
		{"u32 sub wraps", bin(scop.Sub, cT(scop.U32, 0), cT(scop.U32, 1)), iv(math.MaxUint32)},
		{"i64 add wraps", bin(scop.Add, i64(math.MaxInt64), i64(1)), iv(math.MinInt64)},
		{"u64 sub wraps", bin(scop.Sub, u64(0), u64(1)), iv(-1)},
		{"C div of negative", bin(scop.Div, cI(-7), cI(2)), iv(-3)},
		{"C div by negative", bin(scop.Div, cI(7), cI(-2)), iv(-3)},
		{"C rem of negative", bin(scop.Rem, cI(-7), cI(2)), iv(-1)},
		{"C rem by negative", bin(scop.Rem, cI(7), cI(-2)), iv(1)},
		{"div overflow wraps", bin(scop.Div, cI(math.MinInt32), cI(-1)), iv(math.MinInt32)},
		{"i64 div overflow wraps", bin(scop.Div, i64(math.MinInt64), i64(-1)), iv(math.MinInt64)},
		{"floordiv of negative", bin(scop.FloorDiv, cI(-7), cI(2)), iv(-4)},
		{"floordiv exact negative", bin(scop.FloorDiv, cI(-8), cI(2)), iv(-4)},
		{"floordiv by negative", bin(scop.FloorDiv, cI(7), cI(-2)), iv(-4)},
		{"floordiv both negative", bin(scop.FloorDiv, cI(-7), cI(-2)), iv(3)},
		{"mod of negative", bin(scop.Mod, cI(-7), cI(2)), iv(1)},
		{"mod exact negative", bin(scop.Mod, cI(-8), cI(2)), iv(0)},
		{"mod by negative", bin(scop.Mod, cI(7), cI(-2)), iv(-1)},
		{"u8 floordiv", bin(scop.FloorDiv, u8(250), u8(7)), iv(35)},
		{"u64 div unsigned", bin(scop.Div, u64(-2), u64(3)), iv(6148914691236517204)},
		{"u64 rem unsigned", bin(scop.Rem, u64(-1), u64(10)), iv(5)},
		{"u64 mod unsigned", bin(scop.Mod, u64(-1), u64(10)), iv(5)},
		{"u64 compare unsigned", bin(scop.Gt, u64(-1), u64(1)), iv(1)},
		{"i64 compare signed", bin(scop.Gt, i64(-1), i64(1)), iv(0)},
		{"u64 max unsigned", bin(scop.Max, u64(-1), u64(1)), iv(-1)},
		{"u64 min unsigned", bin(scop.Min, u64(-1), u64(1)), iv(1)},
		{"i32 min", bin(scop.Min, cI(-3), cI(2)), iv(-3)},
		{"i32 max", bin(scop.Max, cI(-3), cI(2)), iv(2)},
		{"bit and", bin(scop.BitAnd, cI(-1), cI(0xff)), iv(0xff)},
		{"bit or", bin(scop.BitOr, u8(0xf0), u8(0x0f)), iv(0xff)},
		{"bit xor", bin(scop.BitXor, cI(-1), cI(5)), iv(-6)},
		{"shl into sign bit", bin(scop.Shl, cI(1), cI(31)), iv(math.MinInt32)},
		{"u8 shl wraps", bin(scop.Shl, u8(255), u8(1)), iv(254)},
		{"arithmetic shr", bin(scop.Shr, cI(-8), cI(1)), iv(-4)},
		{"i64 shr", bin(scop.Shr, i64(-1), i64(63)), iv(-1)},
		{"u32 logical shr", bin(scop.Shr, cT(scop.U32, 0x80000000), cT(scop.U32, 31)), iv(1)},
		{"u64 logical shr", bin(scop.Shr, u64(-1), u64(63)), iv(1)},
		{"abs", call("abs", cI(-5)), iv(5)},
		{"abs wraps", call("abs", cI(math.MinInt32)), iv(math.MinInt32)},
		{"u8 abs", call("abs", u8(200)), iv(200)},
		{"param as u8", &scop.Param{Name: "N", T: scop.U8}, iv(44)},
		{"param as i64", &scop.Param{Name: "N", T: scop.I64}, iv(300)},
		{"iter as i8", &scop.Iter{Name: "i", Index: 0, T: scop.I8}, iv(-24)},
		{"iter as i32", iterI("i", 0), iv(1000)},
		{"and short-circuits", bin(scop.And, bin(scop.Lt, cI(2), cI(1)), div0), iv(0)},
		{"or short-circuits", bin(scop.Or, bin(scop.Lt, cI(1), cI(2)), div0), iv(1)},
		{"and", bin(scop.And, bin(scop.Lt, cI(1), cI(2)), bin(scop.Ne, cI(1), cI(2))), iv(1)},
		{"not", un(scop.Not, bin(scop.Le, cI(1), cI(2))), iv(0)},
		{"bool equality", bin(scop.Eq, bin(scop.Ge, cI(1), cI(2)), bin(scop.Gt, cI(1), cI(2))), iv(1)},
		{"select skips else", sel(bin(scop.Lt, cI(1), cI(2)), cI(7), bin(scop.Div, cI(1), cI(0))), iv(7)},
		{"select skips then", sel(bin(scop.Gt, cI(1), cI(2)), bin(scop.Div, cI(1), cI(0)), cI(8)), iv(8)},
		{"cast f32 to i32 truncates", cast(scop.I32, cF32(-2.7)), iv(-2)},
		{"cast i32 to u8 wraps", cast(scop.U8, cI(300)), iv(44)},
		{"cast i32 to i8 wraps", cast(scop.I8, cI(200)), iv(-56)},
		{"cast u32 to i64 zero-extends", cast(scop.I64, cT(scop.U32, math.MaxUint32)), iv(math.MaxUint32)},
		{"cast i32 to u64 sign-extends", cast(scop.U64, cI(-1)), iv(-1)},
		{"cast f64 to bool", cast(scop.Bool, cF64(0.5)), iv(1)},
		{"cast i32 to bool", cast(scop.Bool, cI(-4)), iv(1)},
		{"cast bool to i32", cast(scop.I32, bin(scop.Lt, cI(1), cI(2))), iv(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scalar(t, tc.e)
			if err != nil {
				t.Fatalf("%s: %v", tc.e, err)
			}
			if got != tc.want {
				t.Errorf("%s = %d, want %d", tc.e, got.I, tc.want.I)
			}
		})
	}
}

func TestFloatSemantics(t *testing.T) {
	a32 := 1 + 1.0/(1<<12) // a*a = 1 + 2^-11 + 2^-24: a tie in f32
	a64 := 1 + 1.0/(1<<30) // a*a = 1 + 2^-29 + 2^-60: rounded in f64
	nan := bin(scop.Div, cF64(0), cF64(0))
	f32call := func(fn string, x float64) scop.Value {
		if f, ok := map[string]func(float64) float64{"exp": math.Exp, "log": math.Log, "sin": math.Sin, "cos": math.Cos,
			"tan": math.Tan, "tanh": math.Tanh, "atan": math.Atan, "sqrt": math.Sqrt}[fn]; ok {
			return f32v(f(float64(float32(x))))
		}
		panic(fn)
	}
	tests := []struct {
		name string
		e    scop.Expr
		want scop.Value
	}{
		{"f32 division rounds", bin(scop.Div, cF32(1), cF32(3)), scop.Value{F: float64(float32(1) / float32(3))}},
		{"f32 addition rounds", bin(scop.Add, cF32(0.1), cF32(0.2)), f32v(float64(float32(0.1)) + float64(float32(0.2)))},
		{"f32 multiply-add not fused", bin(scop.Sub, bin(scop.Mul, cF32(float32(a32)), cF32(float32(a32))), cF32(float32(1+1.0/(1<<11)))), fv(0)},
		{"f64 multiply exact here", bin(scop.Sub, bin(scop.Mul, cF64(a32), cF64(a32)), cF64(1+1.0/(1<<11))), fv(1.0 / (1 << 24))},
		{"f64 multiply-add not fused", bin(scop.Sub, bin(scop.Mul, cF64(a64), cF64(a64)), cF64(1+1.0/(1<<29))), fv(0)},
		{"f32 accumulation", bin(scop.Add, bin(scop.Add, cF32(1e8), cF32(1)), cF32(1)), f32v(1e8)},
		{"f64 accumulation", bin(scop.Add, bin(scop.Add, cF64(1e8), cF64(1)), cF64(1)), fv(1e8 + 2)},
		{"f32 divide by zero", bin(scop.Div, cF32(1), cF32(0)), fv(math.Inf(1))},
		{"fmin ignores NaN", bin(scop.Min, nan, cF64(1)), fv(1)},
		{"fmax ignores NaN", bin(scop.Max, cF64(1), nan), fv(1)},
		{"min", bin(scop.Min, cF32(-1.5), cF32(2)), fv(-1.5)},
		{"neg", un(scop.Neg, cF32(1.5)), fv(-1.5)},
		{"NaN compares false", sel(bin(scop.Lt, nan, cF64(1)), cF64(1), cF64(2)), fv(2)},
		{"NaN unequal", sel(bin(scop.Ne, nan, nan), cF64(1), cF64(2)), fv(1)},
		{"sqrt f32", call("sqrt", cF32(2)), f32call("sqrt", 2)},
		{"sqrt f64", call("sqrt", cF64(2)), fv(math.Sqrt2)},
		{"exp f32", call("exp", cF32(1)), f32call("exp", 1)},
		{"log f32", call("log", cF32(10)), f32call("log", 10)},
		{"sin f32", call("sin", cF32(1)), f32call("sin", 1)},
		{"cos f32", call("cos", cF32(1)), f32call("cos", 1)},
		{"tan f32", call("tan", cF32(1)), f32call("tan", 1)},
		{"tanh f32", call("tanh", cF32(0.5)), f32call("tanh", 0.5)},
		{"atan f32", call("atan", cF32(2)), f32call("atan", 2)},
		{"atan2", call("atan2", cF64(1), cF64(1)), fv(math.Pi / 4)},
		{"pow", call("pow", cF32(2), cF32(10)), fv(1024)},
		{"exp2", call("exp2", cF64(3)), fv(8)},
		{"log2", call("log2", cF64(8)), fv(3)},
		{"abs", call("abs", cF32(-2.5)), fv(2.5)},
		{"floor", call("floor", cF64(-0.5)), fv(-1)},
		{"ceil", call("ceil", cF64(-1.5)), fv(-1)},
		{"round half away from zero", call("round", cF64(-2.5)), fv(-3)},
		{"round half up", call("round", cF32(2.5)), fv(3)},
		{"round below half", call("round", cF64(0.49999999999999994)), fv(0)},
		{"cast i32 to f32 rounds", cast(scop.F32, cI(16777217)), fv(16777216)},
		{"cast f64 to f32 rounds", cast(scop.F32, cF64(0.1)), f32v(0.1)},
		{"cast u64 to f64", cast(scop.F64, cT(scop.U64, -1)), fv(18446744073709551615)},
		{"cast i64 to f64", cast(scop.F64, cT(scop.I64, -3)), fv(-3)},
		{"cast bool to f32", cast(scop.F32, bin(scop.Lt, cI(1), cI(2))), fv(1)},
		{"f32 of f64 of f32", cast(scop.F32, cast(scop.F64, cF32(0.1))), f32v(0.1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scalar(t, tc.e)
			if err != nil {
				t.Fatalf("%s: %v", tc.e, err)
			}
			if math.Float64bits(got.F) != math.Float64bits(tc.want.F) {
				t.Errorf("%s = %v (%#x), want %v (%#x)", tc.e, got.F, math.Float64bits(got.F), tc.want.F, math.Float64bits(tc.want.F))
			}
		})
	}
}

// TestSemanticErrors checks the errors of single operations.
func TestSemanticErrors(t *testing.T) {
	tests := []struct {
		name string
		e    scop.Expr
		want string
	}{
		{"div", bin(scop.Div, cI(1), cI(0)), "integer division by zero in (1 / 0)"},
		{"rem", bin(scop.Rem, cI(1), cI(0)), "integer division by zero in (1 % 0)"},
		{"floordiv", bin(scop.FloorDiv, cI(1), cI(0)), "integer division by zero in floordiv(1, 0)"},
		{"u64 div", bin(scop.Div, cT(scop.U64, 1), cT(scop.U64, 0)), "integer division by zero in (1u / 0u)"},
		{"negative shift", bin(scop.Shl, cI(1), cI(-1)), "shift count -1 out of range for i32 in (1 << -1)"},
		{"wide shift", bin(scop.Shr, cT(scop.U8, 1), cT(scop.U8, 8)), "shift count 8 out of range for u8 in (1 >> 8)"},
		{"u64 wide shift", bin(scop.Shr, cT(scop.U64, 1), cT(scop.U64, -1)), "shift count 18446744073709551615 out of range for u64"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scalar(t, tc.e)
			if err == nil || !strings.Contains(err.Error(), "statement S at S[1000]: "+tc.want) {
				t.Errorf("%s: error %v, want %q", tc.e, err, tc.want)
			}
		})
	}
}

// TestMatrixMultiply checks a three-statement kernel (init, accumulate,
// scale) against the same loops in Go with f32 rounding after every
// operation.
func TestMatrixMultiply(t *testing.T) {
	const ni, nj, nk = 5, 6, 7
	p := gemm(t)
	params := map[string]int64{"NI": ni, "NJ": nj, "NK": nk}
	bufs := run(t, p, params, func(b map[string]*scop.Buffer) {
		b["A"].Fill(1)
		b["B"].Fill(2)
		b["C"].Fill(3)
	})
	a, bm := f32s(bufs["A"]), f32s(bufs["B"])
	c0, _ := refexec.Alloc(p, params)
	c0["C"].Fill(3)
	c := f32s(c0["C"])
	const alpha, beta = float32(1.5), float32(1.2)
	for i := 0; i < ni; i++ {
		for j := 0; j < nj; j++ {
			c[i*nj+j] = float32(c[i*nj+j] * beta)
		}
		for k := 0; k < nk; k++ {
			for j := 0; j < nj; j++ {
				prod := float32(float32(alpha*a[i*nk+k]) * bm[k*nj+j])
				c[i*nj+j] = float32(c[i*nj+j] + prod)
			}
		}
	}
	if diff := cmp.Diff(c, f32s(bufs["C"]), bitwise); diff != "" {
		t.Errorf("C mismatch (-want +got):\n%s", diff)
	}
}
