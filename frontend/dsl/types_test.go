package dsl_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// TestTyping checks the promotion rules and the printed notation of
// expressions: type, text, or the error message.
func TestTyping(t *testing.T) {
	p := dsl.NewPipeline("types")
	N := p.Param("N")
	x, y := p.Var("x"), p.Var("y")
	u8 := p.Input("a", dsl.U8, 16).At(x)
	u16 := p.Input("b", dsl.U16, 16).At(x)
	f32 := p.Input("c", dsl.F32, 16).At(x)
	f64 := p.Input("d", dsl.F64, 16).At(x)
	tests := []struct {
		name string
		e    dsl.Expr
		t    dsl.Type
		text string
		err  string
	}{
		{"constant takes u8", u8.Add(1), dsl.U8, "a(x) + 1", ""},
		{"constant 255 fits u8", u8.Mul(255), dsl.U8, "a(x) * 255", ""},
		{"constant overflows", u8.Add(256), 0, "", "constant 256 overflows u8"},
		{"negative into unsigned", u16.Sub(-1), 0, "", "constant -1 overflows u16"},
		{"float constant into integer", u8.Mul(0.5), 0, "", "constant 0.5 is not a whole number; it cannot be u8 (cast the other operand to a float type)"},
		{"whole float constant into integer", u8.Add(2.0), dsl.U8, "a(x) + 2", ""},
		{"integer constant into float", f32.Div(3), dsl.F32, "c(x) / 3", ""},
		{"two types", u8.Add(u16), 0, "", "type mismatch: u8 + u16 (convert one operand with dsl.Cast)"},
		{"float widths", f32.Mul(f64), 0, "", "type mismatch: f32 * f64 (convert one operand with dsl.Cast)"},
		{"cast resolves", dsl.Cast(dsl.F64, f32).Mul(f64), dsl.F64, "f64(c(x)) * d(x)", ""},
		{"variables are i32", x.Mul(y).Add(N), dsl.I32, "x * y + N", ""},
		{"constants fold", dsl.Add(1, 2, 3), 0, "6", ""},
		{"floor division folds", dsl.Div(-7, 2), 0, "-4", ""},
		{"mod folds like floor", dsl.Mod(-1, 4), 0, "3", ""},
		{"mixed constants fold to float", dsl.Add(1, 0.5), 0, "1.5", ""},
		{"folded constant meets u8", u8.Add(dsl.Mul(16, 16)), 0, "", "constant 256 overflows u8"},
		{"explicit cast wraps", dsl.Cast(dsl.U8, 300), dsl.U8, "44", ""},
		{"cast truncates", dsl.Cast(dsl.I32, -2.5), dsl.I32, "-2", ""},
		{"cast to bool", dsl.Cast(dsl.Bool, x), 0, "", "cannot cast to bool (compare with Ne(0) for a bool)"},
		{"comparison", u8.Lt(10), dsl.Bool, "a(x) < 10", ""},
		{"logic", dsl.And(x.Ge(0), dsl.Or(y.Eq(0), y.Eq(1))), dsl.Bool, "x >= 0 && (y == 0 || y == 1)", ""},
		{"not", dsl.Not(x.Eq(0)), dsl.Bool, "!(x == 0)", ""},
		{"not of a number", dsl.Not(x), 0, "", "type mismatch: ! needs a bool operand, has i32"},
		{"arithmetic on bool", x.Eq(0).Add(x.Eq(1)), 0, "", "type mismatch: + on bool operands"},
		{"select of constants takes the branch type", dsl.Select(x.Lt(2), f32, 0.5), dsl.F32, "select(x < 2, c(x), 0.5)", ""},
		{"untyped select", dsl.Select(x.Lt(2), 1, 2).Add(f32), dsl.F32, "select(x < 2, 1, 2) + c(x)", ""},
		{"select branch types", dsl.Select(x.Lt(2), f32, u8), 0, "", "type mismatch: f32 select u8 (convert one operand with dsl.Cast)"},
		{"sin of i32 is f32", dsl.Sin(x.Mul(y)), dsl.F32, "sin(f32(x * y))", ""},
		{"sin of f64", dsl.Sin(f64), dsl.F64, "sin(d(x))", ""},
		{"sqrt of a constant", dsl.Sqrt(2), dsl.F32, "sqrt(2)", ""},
		{"abs keeps integers", dsl.Abs(x.Sub(3)), dsl.I32, "abs(x - 3)", ""},
		{"pow constant exponent", dsl.Pow(f64, 2), dsl.F64, "pow(d(x), 2)", ""},
		{"atan2 types", dsl.Atan2(f32, f64), 0, "", "type mismatch: atan2 of f32 and f64 (convert one argument with dsl.Cast)"},
		{"min max clamp", dsl.Clamp(u8, 16, 235), dsl.U8, "min(max(a(x), 16), 235)", ""},
		{"float mod", f32.Mod(2), 0, "", "type mismatch: % needs integer operands, has f32"},
		{"shift", u16.Shr(2).BitAnd(0xff), dsl.U16, "b(x) >> 2 & 255", ""},
		{"negation", dsl.Neg(u8), dsl.U8, "-a(x)", ""},
		{"left association", dsl.Sub(x, dsl.Sub(y, 1)), dsl.I32, "x - (y - 1)", ""},
		{"precedence", dsl.Mul(x.Add(1), 2).Add(x.Div(2)), dsl.I32, "(x + 1) * 2 + x / 2", ""},
		{"not an expression", dsl.Add(x, "1"), 0, "", "cannot use string as an expression"},
		{"huge constant", dsl.Add(x, uint64(1)<<63), 0, "", "constant 9223372036854775808 overflows the constants the DSL holds (int64)"},
		{"constant overflow", dsl.Mul(1<<40, 1<<40), 0, "", "constant overflow in 1099511627776 * 1099511627776"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.e.Err()
			if tc.err != "" {
				e, ok := err.(*scop.Error)
				if !ok || e.Msg != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.e.Type(); got != tc.t {
				t.Errorf("type %s, want %s", got, tc.t)
			}
			if got := tc.e.String(); got != tc.text {
				t.Errorf("text %q, want %q", got, tc.text)
			}
		})
	}
}
