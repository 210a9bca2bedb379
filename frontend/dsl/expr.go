package dsl

import "github.com/tilefuse/tilefuse/scop"

// chain folds x op y op more... left to right, as Go's operators associate.
func chain(op scop.BinOp, x, y any, more []any, at scop.Pos) Expr {
	n := binary(op, toNode(x, at), toNode(y, at), at)
	for _, m := range more {
		n = binary(op, n, toNode(m, at), at)
	}
	return wrap(n)
}

// Add is x + y + more..., summed left to right.
func Add(x, y any, more ...any) Expr { return chain(scop.Add, x, y, more, here()) }

// Sub is x - y.
func Sub(x, y any) Expr {
	at := here()
	return wrap(binary(scop.Sub, toNode(x, at), toNode(y, at), at))
}

// Mul is x * y * more..., multiplied left to right.
func Mul(x, y any, more ...any) Expr { return chain(scop.Mul, x, y, more, here()) }

// Div is x / y: floor division for integers (as in Halide; x/2 of a
// coordinate is scop.FloorDiv), IEEE division for floats.
func Div(x, y any) Expr {
	at := here()
	return wrap(binary(scop.Div, toNode(x, at), toNode(y, at), at))
}

// Mod is x mod y for integers, rounding towards negative infinity like
// Div, so Mod(-1, 4) is 3.
func Mod(x, y any) Expr {
	at := here()
	return wrap(binary(scop.Mod, toNode(x, at), toNode(y, at), at))
}

// Min is the least of its operands.
func Min(x, y any, more ...any) Expr { return chain(scop.Min, x, y, more, here()) }

// Max is the greatest of its operands.
func Max(x, y any, more ...any) Expr { return chain(scop.Max, x, y, more, here()) }

// Clamp is min(max(x, lo), hi).
func Clamp(x, lo, hi any) Expr {
	at := here()
	return wrap(binary(scop.Min, binary(scop.Max, toNode(x, at), toNode(lo, at), at), toNode(hi, at), at))
}

// Neg is -x.
func Neg(x any) Expr { at := here(); return wrap(neg(toNode(x, at), at)) }

// And is the conjunction of bool operands.
func And(x, y any, more ...any) Expr { return chain(scop.And, x, y, more, here()) }

// Or is the disjunction of bool operands.
func Or(x, y any, more ...any) Expr { return chain(scop.Or, x, y, more, here()) }

// Not is the negation of a bool operand.
func Not(x any) Expr { at := here(); return wrap(not(toNode(x, at), at)) }

// Select is cond ? a : b; only the chosen branch is evaluated. a and b
// are typed like the operands of an arithmetic operator.
func Select(cond, a, b any) Expr {
	at := here()
	return wrap(selectNode(toNode(cond, at), toNode(a, at), toNode(b, at), at))
}

// Cast converts x to t with C's rules: floats truncate towards zero,
// integers wrap to t's width.
func Cast(t Type, x any) Expr { at := here(); return wrap(castNode(t, toNode(x, at), at)) }

// Math applies the math function fn (a name in scop.MathFuncs); the named
// wrappers (Sqrt, Sin, ...) are shorter. Integer arguments are converted
// to f32, as in Halide, except by abs.
func Math(fn string, args ...any) Expr { at := here(); return wrap(call(fn, toNodes(args, at), at)) }

func math1(fn string, x any) Expr { at := here(); return wrap(call(fn, []*node{toNode(x, at)}, at)) }

func math2(fn string, x, y any) Expr {
	at := here()
	return wrap(call(fn, []*node{toNode(x, at), toNode(y, at)}, at))
}

// Sqrt is the square root.
func Sqrt(x any) Expr { return math1("sqrt", x) }

// Exp is e**x.
func Exp(x any) Expr { return math1("exp", x) }

// Log is the natural logarithm.
func Log(x any) Expr { return math1("log", x) }

// Pow is x**y.
func Pow(x, y any) Expr { return math2("pow", x, y) }

// Abs is the absolute value (of a float or an integer).
func Abs(x any) Expr { return math1("abs", x) }

// Sin is the sine.
func Sin(x any) Expr { return math1("sin", x) }

// Cos is the cosine.
func Cos(x any) Expr { return math1("cos", x) }

// Tan is the tangent.
func Tan(x any) Expr { return math1("tan", x) }

// Tanh is the hyperbolic tangent.
func Tanh(x any) Expr { return math1("tanh", x) }

// Atan is the arc tangent.
func Atan(x any) Expr { return math1("atan", x) }

// Atan2 is the arc tangent of y/x, in the quadrant of (x, y).
func Atan2(y, x any) Expr { return math2("atan2", y, x) }

// Floor is the greatest whole number <= x.
func Floor(x any) Expr { return math1("floor", x) }

// Ceil is the least whole number >= x.
func Ceil(x any) Expr { return math1("ceil", x) }

// Round is x rounded to the nearest whole number, halves away from zero.
func Round(x any) Expr { return math1("round", x) }

// Exp2 is 2**x.
func Exp2(x any) Expr { return math1("exp2", x) }

// Log2 is the base-2 logarithm.
func Log2(x any) Expr { return math1("log2", x) }

func (e Expr) op(op scop.BinOp, y any) Expr {
	at := here()
	return wrap(binary(op, e.node(), toNode(y, at), at))
}

// Add is e + y.
func (e Expr) Add(y any) Expr { return e.op(scop.Add, y) }

// Sub is e - y.
func (e Expr) Sub(y any) Expr { return e.op(scop.Sub, y) }

// Mul is e * y.
func (e Expr) Mul(y any) Expr { return e.op(scop.Mul, y) }

// Div is e / y; see the function Div.
func (e Expr) Div(y any) Expr { return e.op(scop.Div, y) }

// Mod is e mod y; see the function Mod.
func (e Expr) Mod(y any) Expr { return e.op(scop.Mod, y) }

// Eq is e == y.
func (e Expr) Eq(y any) Expr { return e.op(scop.Eq, y) }

// Ne is e != y.
func (e Expr) Ne(y any) Expr { return e.op(scop.Ne, y) }

// Lt is e < y.
func (e Expr) Lt(y any) Expr { return e.op(scop.Lt, y) }

// Le is e <= y.
func (e Expr) Le(y any) Expr { return e.op(scop.Le, y) }

// Gt is e > y.
func (e Expr) Gt(y any) Expr { return e.op(scop.Gt, y) }

// Ge is e >= y.
func (e Expr) Ge(y any) Expr { return e.op(scop.Ge, y) }

// And is e && y.
func (e Expr) And(y any) Expr { return e.op(scop.And, y) }

// Or is e || y.
func (e Expr) Or(y any) Expr { return e.op(scop.Or, y) }

// BitAnd is e & y.
func (e Expr) BitAnd(y any) Expr { return e.op(scop.BitAnd, y) }

// BitOr is e | y.
func (e Expr) BitOr(y any) Expr { return e.op(scop.BitOr, y) }

// BitXor is e ^ y.
func (e Expr) BitXor(y any) Expr { return e.op(scop.BitXor, y) }

// Shl is e << y.
func (e Expr) Shl(y any) Expr { return e.op(scop.Shl, y) }

// Shr is e >> y (arithmetic for signed types).
func (e Expr) Shr(y any) Expr { return e.op(scop.Shr, y) }

// Neg is -e.
func (e Expr) Neg() Expr { at := here(); return wrap(neg(e.node(), at)) }

// Not is !e.
func (e Expr) Not() Expr { at := here(); return wrap(not(e.node(), at)) }

// Cast is Cast(t, e).
func (e Expr) Cast(t Type) Expr { at := here(); return wrap(castNode(t, e.node(), at)) }
