package cparse

import (
	"github.com/tilefuse/tilefuse/scop"
)

// Statement bodies become typed scop expressions with C's rules: integer
// promotion, the usual arithmetic conversions, comparisons of type int
// (scop Bool, cast to i32 where used as a number), every conversion an
// explicit Cast.

type exprMode int

const (
	modeBody   exprMode = iota
	modeConst           // an initializer before the region: no names
	modeExtent          // an array extent: constants and size parameters
)

// value translates e as a number: a comparison becomes an int.
func (b *builder) value(e expr) (scop.Expr, error) {
	x, err := b.expr(e)
	if err != nil {
		return nil, err
	}
	if x.Type() == scop.Bool {
		return conv(x, scop.I32), nil
	}
	return x, nil
}

// cond translates e as a truth value: a number x becomes x != 0.
func (b *builder) cond(e expr) (scop.Expr, error) {
	x, err := b.expr(e)
	if err != nil || x.Type() == scop.Bool {
		return x, err
	}
	zero := conv(&scop.Const{At: x.Position(), T: scop.I32}, x.Type())
	return &scop.Binary{At: x.Position(), Op: scop.Ne, X: x, Y: zero, T: scop.Bool}, nil
}

// conv converts x to t: constants are converted now, anything else gets a
// Cast.
func conv(x scop.Expr, t scop.ElemType) scop.Expr {
	if x.Type() == t {
		return x
	}
	if c, ok := x.(*scop.Const); ok {
		v := scop.Convert(scop.Value{I: c.I, F: c.F}, c.T, t)
		return &scop.Const{At: c.At, T: t, I: v.I, F: v.F}
	}
	return &scop.Cast{At: x.Position(), X: x, T: t}
}

func (b *builder) expr(e expr) (scop.Expr, error) {
	switch e := e.(type) {
	case *identExpr:
		return b.ident(e)
	case *numExpr:
		return &scop.Const{At: e.at, T: e.t, I: e.i, F: e.f}, nil
	case *indexExpr:
		if b.mode != modeBody {
			return nil, errorf(e.at, "array element %s in a constant expression", exprString(e))
		}
		ref, sym, err := b.ref(e)
		if err != nil {
			return nil, err
		}
		return &scop.Read{At: e.at, Ref: ref, T: sym.t}, nil
	case *unaryExpr:
		return b.unary(e)
	case *postfixExpr:
		return nil, errorf(e.at, "increment inside an expression is not supported")
	case *binaryExpr:
		return b.binary(e)
	case *assignExpr:
		return nil, errorf(e.at, "assignment inside an expression is not supported")
	case *condExpr:
		c, err := b.cond(e.cond)
		if err != nil {
			return nil, err
		}
		x, err := b.value(e.then)
		if err != nil {
			return nil, err
		}
		y, err := b.value(e.els)
		if err != nil {
			return nil, err
		}
		t := common(x.Type(), y.Type())
		return &scop.Select{At: e.at, Cond: c, Then: conv(x, t), Else: conv(y, t)}, nil
	case *castExpr:
		x, err := b.value(e.x)
		if err != nil {
			return nil, err
		}
		if x.Type() == e.t {
			return x, nil
		}
		if c, ok := x.(*scop.Const); ok {
			x := conv(c, e.t).(*scop.Const)
			x.At = e.at
			return x, nil
		}
		return &scop.Cast{At: e.at, X: x, T: e.t}, nil
	case *callExpr:
		return b.call(e)
	case *commaExpr:
		return nil, errorf(e.at, "comma operator is not supported")
	case *stringExpr:
		return nil, errorf(e.at, "string literals are not supported")
	}
	return nil, errorf(e.pos(), "unsupported expression %s", exprString(e))
}

func (b *builder) ident(e *identExpr) (scop.Expr, error) {
	s := e.sym
	switch {
	case b.mode == modeConst || s == nil:
		return nil, errorf(e.at, "unknown identifier %s", e.name)
	case s.size:
		return &scop.Param{At: e.at, Name: s.name, T: s.t}, nil
	case b.mode == modeExtent:
		return nil, errorf(e.at, "%s is not a size parameter", s.name)
	case s.iter:
		i := b.loopOf(s)
		if i < 0 {
			return nil, errorf(e.at, "iterator %s used outside its loop", s.name)
		}
		return &scop.Iter{At: e.at, Name: s.name, Index: i, T: s.t}, nil
	case b.inductions[s] != nil:
		x, err := b.value(b.inductions[s].value)
		if err != nil {
			return nil, err
		}
		return conv(x, s.t), nil
	case len(s.dims) > 0:
		return nil, errorf(e.at, "wrong number of subscripts for %s: got 0, want %d", s.name, len(s.dims))
	}
	a, err := b.useArray(s)
	if err != nil {
		return nil, err
	}
	return &scop.Read{At: e.at, Ref: scop.Ref{Array: a.Name}, T: s.t}, nil
}

func (b *builder) unary(e *unaryExpr) (scop.Expr, error) {
	switch e.op {
	case "!":
		x, err := b.cond(e.x)
		if err != nil {
			return nil, err
		}
		return &scop.Unary{At: e.at, Op: scop.Not, X: x}, nil
	case "++", "--":
		return nil, errorf(e.at, "increment inside an expression is not supported")
	}
	x, err := b.value(e.x)
	if err != nil {
		return nil, err
	}
	x = conv(x, promote(x.Type()))
	switch e.op {
	case "+":
		return x, nil
	case "~":
		if !x.Type().IsInt() {
			return nil, errorf(e.at, "operand of ~ is not an integer")
		}
		return &scop.Unary{At: e.at, Op: scop.BitNot, X: x}, nil
	}
	if c, ok := x.(*scop.Const); ok { // fold -constant
		v := scop.IntValue(c.T, -c.I)
		if c.T.IsFloat() {
			v = scop.Value{F: -c.F}
		}
		return &scop.Const{At: e.at, T: c.T, I: v.I, F: v.F}, nil
	}
	return &scop.Unary{At: e.at, Op: scop.Neg, X: x}, nil
}

var binOps = map[string]scop.BinOp{
	"+": scop.Add, "-": scop.Sub, "*": scop.Mul, "/": scop.Div, "%": scop.Rem,
	"&": scop.BitAnd, "|": scop.BitOr, "^": scop.BitXor, "<<": scop.Shl, ">>": scop.Shr,
	"<": scop.Lt, "<=": scop.Le, ">": scop.Gt, ">=": scop.Ge, "==": scop.Eq, "!=": scop.Ne,
	"&&": scop.And, "||": scop.Or,
}

func (b *builder) binary(e *binaryExpr) (scop.Expr, error) {
	op := binOps[e.op]
	if op.IsLogical() {
		x, err := b.cond(e.x)
		if err != nil {
			return nil, err
		}
		y, err := b.cond(e.y)
		if err != nil {
			return nil, err
		}
		return &scop.Binary{At: e.at, Op: op, X: x, Y: y, T: scop.Bool}, nil
	}
	x, err := b.value(e.x)
	if err != nil {
		return nil, err
	}
	y, err := b.value(e.y)
	if err != nil {
		return nil, err
	}
	return arith(e.at, e.op, x, y)
}

// arith applies a C arithmetic, bitwise or comparison operator after the
// usual arithmetic conversions.
func arith(at scop.Pos, opText string, x, y scop.Expr) (scop.Expr, error) {
	op := binOps[opText]
	t := common(x.Type(), y.Type())
	switch op {
	case scop.Rem, scop.BitAnd, scop.BitOr, scop.BitXor, scop.Shl, scop.Shr:
		if !t.IsInt() {
			return nil, errorf(at, "operands of %s are not integers", opText)
		}
	}
	if op == scop.Shl || op == scop.Shr { // the type of the promoted left operand
		t = promote(x.Type())
	}
	rt := t
	if op.IsCompare() {
		rt = scop.Bool
	}
	return &scop.Binary{At: at, Op: op, X: conv(x, t), Y: conv(y, t), T: rt}, nil
}

// mathFuncs maps C's math functions to scop calls: the double version
// and the float one (suffix f), plus the integer abs.
type mathFn struct {
	fn string // scop's generic name
	t  scop.ElemType
}

var mathFuncs = map[string]mathFn{
	"fabs": {"abs", scop.F64}, "fabsf": {"abs", scop.F32},
	"abs": {"abs", scop.I32}, "labs": {"abs", scop.I64}, "llabs": {"abs", scop.I64},
}

func init() {
	for fn := range scop.MathFuncs {
		if fn != "abs" {
			mathFuncs[fn] = mathFn{fn, scop.F64}
			mathFuncs[fn+"f"] = mathFn{fn, scop.F32}
		}
	}
}

func (b *builder) call(e *callExpr) (scop.Expr, error) {
	m, ok := mathFuncs[e.fn]
	if !ok {
		return nil, errorf(e.at, "call to non-math function %s", e.fn)
	}
	if n := scop.MathFuncs[m.fn]; len(e.args) != n {
		plural := "s"
		if n == 1 {
			plural = ""
		}
		return nil, errorf(e.at, "%s takes %d argument%s, got %d", e.fn, n, plural, len(e.args))
	}
	c := &scop.Call{At: e.at, Fn: m.fn, T: m.t}
	for _, a := range e.args {
		x, err := b.value(a)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, conv(x, m.t))
	}
	return c, nil
}

// extent translates an array extent: an integer expression of constants
// and size parameters, folded when constant.
func (b *builder) extent(e expr, array string) (scop.Expr, error) {
	b.mode = modeExtent
	x, err := b.value(e)
	b.mode = modeBody
	if err == nil && x.Type().IsInt() {
		if _, err = scop.AffineText(x); err == nil {
			if v, ok := scop.ConstInt(x); ok {
				return &scop.Const{At: e.pos(), T: x.Type(), I: v}, nil
			}
			return x, nil
		}
	}
	return nil, errorf(e.pos(), "extent %s of %s must be an affine expression of constants and size parameters", exprString(e), array)
}
