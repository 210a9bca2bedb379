package emit

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// The inputs of the expression cases: one array per type, indexed by the
// loop iterator i, and two scalars. B is a _Bool array.
var exprInputs = []struct {
	name string
	t    scop.ElemType
}{
	{"D", scop.F64}, {"F", scop.F32}, {"I", scop.I32}, {"J", scop.I32},
	{"L", scop.I64}, {"S", scop.I16}, {"U", scop.U8}, {"W", scop.U32},
	{"Q", scop.U64}, {"C", scop.I8}, {"H", scop.U16}, {"B", scop.Bool},
}

// Builders of statement bodies.
func it(t scop.ElemType) scop.Expr { return &scop.Iter{Name: "i", Index: 0, T: t} }
func rd(a string) scop.Expr {
	for _, in := range exprInputs {
		if in.name == a {
			return &scop.Read{Ref: scop.Ref{Array: a, Index: []scop.Expr{it(scop.I32)}}, T: in.t}
		}
	}
	panic("no input " + a)
}
func scalar(a string, t scop.ElemType) scop.Expr { return &scop.Read{Ref: scop.Ref{Array: a}, T: t} }
func ki(t scop.ElemType, v int64) scop.Expr      { return &scop.Const{T: t, I: v} }
func kf(t scop.ElemType, v float64) scop.Expr    { return &scop.Const{T: t, F: v} }
func cast(x scop.Expr, t scop.ElemType) scop.Expr {
	return &scop.Cast{X: x, T: t}
}
func bin(op scop.BinOp, x, y scop.Expr) scop.Expr {
	t := x.Type()
	if op.IsCompare() || op.IsLogical() {
		t = scop.Bool
	}
	return &scop.Binary{Op: op, X: x, Y: y, T: t}
}
func un(op scop.UnOp, x scop.Expr) scop.Expr { return &scop.Unary{Op: op, X: x} }
func sel(c, a, b scop.Expr) scop.Expr        { return &scop.Select{Cond: c, Then: a, Else: b} }
func call(fn string, args ...scop.Expr) scop.Expr {
	return &scop.Call{Fn: fn, Args: args, T: args[0].Type()}
}

// sub8 is x - 8 at x's type: negative values from the inputs' 0..15.
// undefinedInC are the cases whose values C leaves undefined (float to
// integer out of range): only the reference defines them.
var undefinedInC = map[string]bool{
	"f32_to_i32_range": true, "f32_to_i32_pow2": true, "f32_to_i32_huge": true,
	"f32_to_i32_inf": true, "f32_to_i32_nan": true, "f32_to_u32": true, "f32_to_u16": true,
	"f32_to_i8": true, "f64_to_i64_huge": true,
}

// fi is the iterator as a float, minus c.
func fi(c float64) scop.Expr { return bin(scop.Sub, cast(it(scop.I32), scop.F32), kf(scop.F32, c)) }

func sub8(x scop.Expr) scop.Expr { return bin(scop.Sub, x, ki(x.Type(), 8)) }

// odd is 2x - 15 at x's type: an odd divisor in -15..15, never zero.
// minI8 is the i32 -128 at run time (I is never INT_MIN), 7 otherwise:
// INT8_MIN once cast to i8.
func minI8() scop.Expr {
	return sel(bin(scop.Gt, rd("I"), ki(scop.I32, math.MinInt32)), ki(scop.I32, -128), ki(scop.I32, 7))
}

// minusOne is -1 of type t at run time (J is far below 2^30), 3 otherwise.
func minusOne(t scop.ElemType) scop.Expr {
	return cast(sel(bin(scop.Lt, rd("J"), ki(scop.I32, 1<<30)), ki(scop.I32, -1), ki(scop.I32, 3)), t)
}

func odd(x scop.Expr) scop.Expr {
	return bin(scop.Sub, bin(scop.Mul, x, ki(x.Type(), 2)), ki(x.Type(), 15))
}

// exprCase is one statement body; libm marks results that only the C
// library computes bit for bit (not the reference executor's Go math).
type exprCase struct {
	name string
	e    scop.Expr
	libm bool
}

func exprCases() []exprCase {
	i32 := func(x scop.Expr) scop.Expr { return cast(x, scop.I32) }
	nan, inf := kf(scop.F64, math.NaN()), kf(scop.F32, math.Inf(1))
	cases := []exprCase{
		{"wrap_mul_i32", bin(scop.Mul, bin(scop.Mul, rd("I"), ki(scop.I32, 100000)), ki(scop.I32, 100000)), false},
		{"div_i32", bin(scop.Div, sub8(rd("I")), odd(rd("J"))), false},
		{"rem_i32", bin(scop.Rem, sub8(rd("I")), odd(rd("J"))), false},
		{"floordiv_i32", bin(scop.FloorDiv, sub8(rd("I")), odd(rd("J"))), false},
		{"mod_i32", bin(scop.Mod, sub8(rd("I")), odd(rd("J"))), false},
		{"floordiv_i64_const", bin(scop.FloorDiv, sub8(rd("L")), ki(scop.I64, -3)), false},
		{"floordiv_i64", bin(scop.FloorDiv, sub8(rd("L")), cast(odd(rd("J")), scop.I64)), false},
		{"mod_i64", bin(scop.Mod, sub8(rd("L")), cast(odd(rd("J")), scop.I64)), false},
		{"div_i64", bin(scop.Div, sub8(rd("L")), cast(odd(rd("J")), scop.I64)), false},
		{"rem_i64_const", bin(scop.Rem, sub8(rd("L")), ki(scop.I64, 5)), false},
		{"div_i8", bin(scop.Div, cast(sub8(rd("I")), scop.I8), cast(odd(rd("J")), scop.I8)), false},
		{"mod_i16", bin(scop.Mod, cast(sub8(rd("I")), scop.I16), ki(scop.I16, 3)), false},
		{"floordiv_i16", bin(scop.FloorDiv, sub8(rd("S")), ki(scop.I16, 3)), false},
		{"floordiv_i8_pow2", bin(scop.FloorDiv, cast(bin(scop.Mul, rd("I"), ki(scop.I32, 13)), scop.I8), ki(scop.I8, 4)), false},
		{"mod_i8_pow2", bin(scop.Mod, cast(bin(scop.Mul, rd("I"), ki(scop.I32, 13)), scop.I8), ki(scop.I8, 8)), false},
		{"floordiv_i8_min", bin(scop.FloorDiv, cast(bin(scop.Mul, rd("I"), ki(scop.I32, 16)), scop.I8), ki(scop.I8, 64)), false},
		{"floordiv_i32_pow2", bin(scop.FloorDiv, sub8(rd("I")), ki(scop.I32, 2)), false},
		{"mod_i64_pow2", bin(scop.Mod, sub8(rd("L")), ki(scop.I64, 4)), false},
		{"mod_i32_7", bin(scop.Mod, sub8(rd("I")), ki(scop.I32, 7)), false},
		{"floordiv_i16_7", bin(scop.FloorDiv, sub8(rd("S")), ki(scop.I16, 7)), false},
		// Divisions of the loop iterator: the loop is strip-mined by 4.
		{"floordiv_iter", bin(scop.FloorDiv, bin(scop.Sub, it(scop.I32), ki(scop.I32, 5)), ki(scop.I32, 2)), false},
		{"mod_iter", bin(scop.Mod, bin(scop.Add, bin(scop.Mul, it(scop.I32), ki(scop.I32, 3)), ki(scop.I32, 1)), ki(scop.I32, 4)), false},
		{"read_half_iter", &scop.Read{Ref: scop.Ref{Array: "I", Index: []scop.Expr{bin(scop.FloorDiv, cast(it(scop.I32), scop.I64), ki(scop.I64, 2))}}, T: scop.I32}, false},
		{"floordiv_u8", bin(scop.FloorDiv, rd("U"), bin(scop.BitOr, cast(rd("J"), scop.U8), ki(scop.U8, 1))), false},
		{"mod_u8", bin(scop.Mod, rd("U"), ki(scop.U8, 6)), false},
		{"div_u32", bin(scop.Div, bin(scop.Sub, rd("W"), ki(scop.U32, 8)), ki(scop.U32, 7)), false},
		{"rem_u64", bin(scop.Rem, bin(scop.Mul, rd("Q"), ki(scop.U64, -3)), ki(scop.U64, 1000003)), false},
		{"lt_u64", i32(bin(scop.Lt, cast(sub8(rd("I")), scop.U64), rd("Q"))), false},
		{"ge_u32", i32(bin(scop.Ge, bin(scop.Sub, rd("W"), ki(scop.U32, 8)), ki(scop.U32, 3))), false},
		{"shl_i32", bin(scop.Shl, rd("I"), bin(scop.BitAnd, rd("J"), ki(scop.I32, 7))), false},
		{"shr_i32", bin(scop.Shr, sub8(rd("I")), ki(scop.I32, 2)), false},
		{"shr_u32", bin(scop.Shr, bin(scop.Sub, rd("W"), ki(scop.U32, 8)), ki(scop.U32, 3)), false},
		{"shl_i8", bin(scop.Shl, cast(rd("I"), scop.I8), cast(bin(scop.BitAnd, rd("J"), ki(scop.I32, 7)), scop.I8)), false},
		{"shr_i8", bin(scop.Shr, sub8(rd("C")), ki(scop.I8, 1)), false},
		{"shr_u16", bin(scop.Shr, bin(scop.Sub, rd("H"), ki(scop.U16, 8)), ki(scop.U16, 2)), false},
		{"bitnot_i32", un(scop.BitNot, rd("I")), false},
		{"bitnot_u8", un(scop.BitNot, rd("U")), false},
		{"neg_u8", un(scop.Neg, rd("U")), false},
		{"xor_i64", bin(scop.BitXor, rd("L"), ki(scop.I64, -1<<40)), false},
		{"mul_i16", bin(scop.Mul, cast(bin(scop.Mul, rd("I"), ki(scop.I32, 3000)), scop.I16), ki(scop.I16, 7)), false},
		{"add_u16", bin(scop.Add, rd("H"), ki(scop.U16, 65530)), false},
		{"min_i32", bin(scop.Min, sub8(rd("I")), sub8(rd("J"))), false},
		{"max_u8", bin(scop.Max, rd("U"), cast(rd("J"), scop.U8)), false},
		{"min_i64", bin(scop.Min, sub8(rd("L")), ki(scop.I64, 2)), false},
		{"min_f64", bin(scop.Min, rd("D"), kf(scop.F64, 2)), false},
		{"max_f32", bin(scop.Max, rd("F"), kf(scop.F32, 1.5)), false},
		{"fmin_nan", bin(scop.Min, nan, rd("D")), false},
		{"min_inf_f32", bin(scop.Min, rd("F"), inf), false},
		{"ne_nan", i32(bin(scop.Ne, rd("D"), nan)), false},
		{"lt_nan", i32(bin(scop.Lt, rd("D"), nan)), false},
		// Non-constant divisors of at most 32 bits divide through double:
		// full-range operands, both signs, and -128 / -1 in i8 (the
		// divisor is -1 at run time: J is far below 2^30). INT_MIN / -1
		// in i32 traps in the C oracle.
		{"div_i32_wide", bin(scop.Div, bin(scop.Mul, rd("I"), ki(scop.I32, 1000003)), bin(scop.Sub, bin(scop.Mul, rd("J"), ki(scop.I32, 7919)), ki(scop.I32, 3))), false},
		{"rem_i32_wide", bin(scop.Rem, bin(scop.Mul, rd("I"), ki(scop.I32, 1000003)), bin(scop.Sub, bin(scop.Mul, rd("J"), ki(scop.I32, 7919)), ki(scop.I32, 3))), false},
		{"floordiv_i32_wide", bin(scop.FloorDiv, bin(scop.Mul, rd("I"), ki(scop.I32, 1000003)), bin(scop.Sub, bin(scop.Mul, rd("J"), ki(scop.I32, 7919)), ki(scop.I32, 3))), false},
		{"mod_i32_wide", bin(scop.Mod, bin(scop.Mul, rd("I"), ki(scop.I32, 1000003)), bin(scop.Sub, bin(scop.Mul, rd("J"), ki(scop.I32, 7919)), ki(scop.I32, 3))), false},
		{"floordiv_i8_min_m1", bin(scop.FloorDiv, cast(minI8(), scop.I8), minusOne(scop.I8)), false},
		{"mod_i16_var", bin(scop.Mod, bin(scop.Mul, rd("S"), ki(scop.I16, 77)), cast(odd(rd("J")), scop.I16)), false},
		{"floordiv_u32_var", bin(scop.FloorDiv, bin(scop.Mul, rd("W"), ki(scop.U32, 2654435761)), bin(scop.BitOr, cast(rd("J"), scop.U32), ki(scop.U32, 1))), false},
		{"div_i8_min_m1", bin(scop.Div, cast(minI8(), scop.I8), minusOne(scop.I8)), false},
		{"rem_i8_min_m1", bin(scop.Rem, cast(minI8(), scop.I8), minusOne(scop.I8)), false},
		{"div_i16_var", bin(scop.Div, bin(scop.Mul, rd("S"), ki(scop.I16, 77)), cast(odd(rd("J")), scop.I16)), false},
		{"div_u32_var", bin(scop.Div, bin(scop.Mul, rd("W"), ki(scop.U32, 2654435761)), bin(scop.BitOr, cast(rd("J"), scop.U32), ki(scop.U32, 1))), false},
		{"rem_u32_var", bin(scop.Rem, bin(scop.Mul, rd("W"), ki(scop.U32, 2654435761)), bin(scop.BitOr, cast(rd("J"), scop.U32), ki(scop.U32, 1))), false},
		{"select_div", sel(bin(scop.Ne, rd("J"), ki(scop.I32, 0)), bin(scop.Div, ki(scop.I32, 100), rd("J")), ki(scop.I32, -1)), false},
		{"and_div", i32(bin(scop.And, bin(scop.Ne, rd("J"), ki(scop.I32, 0)), bin(scop.Gt, bin(scop.Div, ki(scop.I32, 100), rd("J")), ki(scop.I32, 10)))), false},
		{"or_div", i32(bin(scop.Or, bin(scop.Eq, rd("J"), ki(scop.I32, 0)), bin(scop.Lt, bin(scop.Div, ki(scop.I32, 100), rd("J")), ki(scop.I32, 10)))), false},
		{"f64_to_i32", cast(bin(scop.Sub, bin(scop.Mul, rd("D"), kf(scop.F64, 3.7)), kf(scop.F64, 5)), scop.I32), false},
		{"f64_to_u8", cast(bin(scop.Mul, rd("D"), kf(scop.F64, 50)), scop.U8), false},
		{"f32_to_i64", cast(bin(scop.Mul, sub8(cast(rd("I"), scop.F32)), kf(scop.F32, 1e9)), scop.I64), false},
		{"f64_to_f32", cast(bin(scop.Div, rd("D"), kf(scop.F64, 3)), scop.F32), false},
		// float to 32 bits and narrower, in vectors: in and out of int32's
		// range (both signs, 2^31 and 2^32 exactly), beyond 2^63,
		// infinities and NaN (0/0 at i = 7).
		{"f32_to_i32_range", cast(bin(scop.Mul, fi(7.5), kf(scop.F32, 5e8)), scop.I32), false},
		{"f32_to_i32_pow2", cast(bin(scop.Mul, fi(8), kf(scop.F32, 1<<31)), scop.I32), false},
		{"f32_to_i32_huge", cast(bin(scop.Mul, fi(7.5), kf(scop.F32, 3e18)), scop.I32), false},
		{"f32_to_i32_inf", cast(bin(scop.Div, kf(scop.F32, -1), fi(7)), scop.I32), false},
		{"f32_to_i32_nan", cast(bin(scop.Div, fi(7), fi(7)), scop.I32), false},
		{"f32_to_u32", cast(bin(scop.Mul, fi(7.5), kf(scop.F32, 7e8)), scop.U32), false},
		{"f32_to_u16", cast(bin(scop.Mul, fi(7.5), kf(scop.F32, 1e4)), scop.U16), false},
		{"f32_to_i8", cast(bin(scop.Mul, fi(7.5), kf(scop.F32, 37.25)), scop.I8), false},
		{"f64_to_i64_huge", cast(bin(scop.Mul, cast(fi(7.5), scop.F64), kf(scop.F64, 3e18)), scop.I64), false},
		{"f32_to_f64", bin(scop.Add, cast(rd("F"), scop.F64), kf(scop.F64, 0.1)), false},
		{"i32_to_f32", cast(bin(scop.Add, rd("I"), ki(scop.I32, 16777216)), scop.F32), false},
		{"u64_to_f64", cast(bin(scop.Mul, rd("Q"), ki(scop.U64, -1)), scop.F64), false},
		{"f64_to_bool", cast(bin(scop.Sub, rd("D"), kf(scop.F64, 1)), scop.Bool), false},
		{"i32_to_bool", cast(sub8(rd("I")), scop.Bool), false},
		{"bool_to_f64", bin(scop.Add, cast(rd("B"), scop.F64), kf(scop.F64, 0.5)), false},
		{"bool_select", sel(rd("B"), rd("D"), un(scop.Neg, rd("D"))), false},
		{"not", un(scop.Not, bin(scop.Lt, rd("D"), kf(scop.F64, 2))), false},
		{"abs_i32", call("abs", sub8(rd("I"))), false},
		{"abs_i8", call("abs", cast(bin(scop.Mul, rd("I"), ki(scop.I32, 16)), scop.I8)), false},
		{"iter_f64", bin(scop.Mul, it(scop.F64), kf(scop.F64, 0.25)), false},
		{"iter_u64", bin(scop.Sub, it(scop.U64), ki(scop.U64, 20)), false},
		{"param_f32", bin(scop.Div, &scop.Param{Name: "n", T: scop.F32}, kf(scop.F32, 3)), false},
		{"f32_arith", bin(scop.Div, bin(scop.Add, bin(scop.Mul, rd("F"), kf(scop.F32, 1.1)), scalar("alpha", scop.F32)), kf(scop.F32, 3)), false},
		{"f64_arith", bin(scop.Sub, bin(scop.Mul, rd("D"), scalar("beta", scop.F64)), bin(scop.Div, kf(scop.F64, 1), kf(scop.F64, 3))), false},
		{"neg_f32", un(scop.Neg, rd("F")), false},
	}
	for _, fn := range []string{"sqrt", "abs", "floor", "ceil", "round"} {
		arg := bin(scop.Sub, rd("D"), kf(scop.F64, 1.5))
		if fn == "sqrt" {
			arg = rd("D")
		}
		cases = append(cases,
			exprCase{fn + "_f64", call(fn, arg), false},
			exprCase{fn + "_f32", call(fn, cast(arg, scop.F32)), false})
	}
	for _, fn := range []string{"exp", "log", "sin", "cos", "tan", "tanh", "atan", "exp2", "log2"} {
		arg := bin(scop.Add, rd("D"), kf(scop.F64, 0.5))
		cases = append(cases,
			exprCase{fn + "_f64", call(fn, arg), true},
			exprCase{fn + "_f32", call(fn, cast(arg, scop.F32)), true})
	}
	for _, fn := range []string{"pow", "atan2"} {
		x, y := bin(scop.Add, rd("D"), kf(scop.F64, 0.5)), bin(scop.Sub, rd("D"), kf(scop.F64, 2))
		cases = append(cases,
			exprCase{fn + "_f64", call(fn, x, y), true},
			exprCase{fn + "_f32", call(fn, cast(x, scop.F32), cast(y, scop.F32)), true})
	}
	return cases
}

// exprProgram makes a program with one statement O<k>[i] = case k for
// every case, in one loop over i < n: a C skeleton parsed by cparse,
// whose bodies (and _Bool arrays) are then replaced.
func exprProgram(t *testing.T, cases []exprCase) *scop.Program {
	t.Helper()
	var sig, body []string
	sig = append(sig, "int n", "float alpha", "double beta")
	cname := func(t scop.ElemType) string {
		if t == scop.Bool {
			return "uint8_t"
		}
		return t.CName()
	}
	for _, in := range exprInputs {
		sig = append(sig, fmt.Sprintf("%s %s[16]", cname(in.t), in.name))
	}
	for k, c := range cases {
		sig = append(sig, fmt.Sprintf("%s O%d[16]", cname(c.e.Type()), k))
		body = append(body, fmt.Sprintf("    O%d[i] = 0;", k))
	}
	src := fmt.Sprintf("void exprs(%s)\n{\n  int i;\n  for (i = 0; i < n; i++) {\n%s\n  }\n}\n", strings.Join(sig, ", "), strings.Join(body, "\n"))
	p, err := cparse.ParseFunc("exprs.c", []byte(src), "exprs")
	if err != nil {
		t.Fatal(err)
	}
	p.Array("B").Type = scop.Bool
	for k, c := range cases {
		s := p.Stmts[k]
		if s.Write.Array != fmt.Sprintf("O%d", k) {
			t.Fatalf("statement %s writes %s", s.Name, s.Write.Array)
		}
		s.Value = c.e
		p.Array(s.Write.Array).Type = c.e.Type()
	}
	return p
}

// TestExpressions runs statement bodies of every operator and type, built
// with opt and llc, serial and parallel, and compares each result with
// ast.PrintProgram's C compiled by gcc and, where Go's math is not in
// the way, with the reference executor, bit for bit.
func TestExpressions(t *testing.T) {
	tc := needTools(t)
	cases := exprCases()
	p := exprProgram(t, cases)
	params := map[string]int64{"n": 16}
	n := originalAST(t, p)
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	ref := cloneBufs(in)
	if err := refexec.Run(p, params, ref); err != nil {
		t.Fatal(err)
	}
	src, err := ast.PrintProgram(p, n, "exprs")
	if err != nil {
		t.Fatal(err)
	}
	cOut, err := charness.RunC(t.TempDir(), p, params, src, "exprs", cloneBufs(in))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	inFile := writeInput(t, p, in)
	// speculated evaluates both operands of every select that cannot
	// trap (n is 16, so every read is in bounds): the select instruction
	// must pick what the branches do.
	spec := map[*scop.Select]bool{}
	for _, c := range cases {
		if c.name == "select_div" {
			continue
		}
		scop.Walk(c.e, func(e scop.Expr) bool {
			if s, ok := e.(*scop.Select); ok {
				spec[s] = true
			}
			return true
		})
	}
	if len(spec) == 0 {
		t.Fatal("no select to speculate")
	}
	speculated := modes[1]
	speculated.name, speculated.opts.Speculable = "speculated", spec
	for _, m := range append(modes[:2:2], speculated) {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, p, n, m.opts)
			if got := len(regexp.MustCompile(`(?m)^sel\.then(\.\d+)?:`).FindAllString(mod.IR, -1)); m.name == "speculated" && got != 1 {
				t.Errorf("%d branching selects, want 1 (select_div)", got)
			}
			bin := tc.build(t, t.TempDir(), mod, p, params)
			got := runHarness(t, bin, inFile, p, in, 2)
			for k, c := range cases {
				out := fmt.Sprintf("O%d", k)
				if undefinedInC[c.name] {
					// gcc's cvttss2si gives INT_MIN out of range; the
					// program's meaning is the reference's.
				} else if m, err := scop.Compare(got[out], cOut[out], 0); err != nil || m != nil {
					t.Errorf("%s: differs from the C at %v (%v)", c.name, m, err)
				}
				if c.libm {
					continue
				}
				if m, err := scop.Compare(got[out], ref[out], 0); err != nil || m != nil {
					t.Errorf("%s: differs from the reference at %v (%v)", c.name, m, err)
				}
			}
		})
	}
}
