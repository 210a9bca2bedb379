package dsl

import (
	"math"
	"math/bits"

	"github.com/tilefuse/tilefuse/scop"
)

// opText is how the DSL prints each operator (Go's spelling).
var opText = map[scop.BinOp]string{
	scop.Add: "+", scop.Sub: "-", scop.Mul: "*", scop.Div: "/", scop.FloorDiv: "/",
	scop.Mod: "%", scop.Min: "min", scop.Max: "max", scop.BitAnd: "&", scop.BitOr: "|",
	scop.BitXor: "^", scop.Shl: "<<", scop.Shr: ">>", scop.Lt: "<", scop.Le: "<=",
	scop.Gt: ">", scop.Ge: ">=", scop.Eq: "==", scop.Ne: "!=", scop.And: "&&", scop.Or: "||",
}

// intOnly are the operators that need integer operands.
func intOnly(op scop.BinOp) bool {
	switch op {
	case scop.Mod, scop.BitAnd, scop.BitOr, scop.BitXor, scop.Shl, scop.Shr:
		return true
	}
	return false
}

// binary builds x op y with the typing rules of the package documentation.
// Div means floor division on integers, as in Halide.
func binary(op scop.BinOp, x, y *node, at scop.Pos) *node {
	if err := firstErr(x, y); err != nil {
		return &node{err: err}
	}
	if op.IsLogical() {
		for _, a := range []*node{x, y} {
			if a.t != Bool {
				return errNode(at, "type mismatch: %s needs bool operands, has %s", opText[op], typeText(a))
			}
		}
		return &node{kind: kBinary, bop: op, t: Bool, pos: at, args: []*node{x, y}}
	}
	x, y, err := unify(opText[op], x, y, at)
	if err != nil {
		return &node{err: err}
	}
	if x.t == scop.Invalid {
		if x.kind == kConst && y.kind == kConst {
			return fold(op, x, y, at)
		}
		t := defaultType(x)
		if defaultType(y) == F32 {
			t = F32
		}
		x, y = typed(x, t, at), typed(y, t, at)
		if err := firstErr(x, y); err != nil {
			return &node{err: err}
		}
	}
	t := x.t
	switch {
	case t == Bool && op != scop.Eq && op != scop.Ne:
		return errNode(at, "type mismatch: %s on bool operands", opText[op])
	case t.IsFloat() && intOnly(op):
		return errNode(at, "type mismatch: %s needs integer operands, has %s", opText[op], t)
	case op == scop.Div && t.IsInt():
		op = scop.FloorDiv
	}
	if (op == scop.FloorDiv || op == scop.Mod) && y.kind == kConst && y.i == 0 {
		return errNode(at, "division by zero")
	}
	res := &node{kind: kBinary, bop: op, t: t, pos: at, args: []*node{x, y}}
	if op.IsCompare() {
		res.t = Bool
	}
	return res
}

// fold evaluates an operator on two untyped constants, as Go does for its
// constants (but with floor division, as the DSL divides integers).
func fold(op scop.BinOp, x, y *node, at scop.Pos) *node {
	if x.isFloat || y.isFloat {
		return foldFloat(op, x, y, at)
	}
	a, b := x.i, y.i
	var v int64
	ok := true
	switch op {
	case scop.Add:
		v = a + b
		ok = (v > a) == (b > 0) || b == 0
	case scop.Sub:
		v = a - b
		ok = (v < a) == (b > 0) || b == 0
	case scop.Mul:
		hi, lo := bits.Mul64(uint64(abs64(a)), uint64(abs64(b)))
		ok = hi == 0 && lo <= math.MaxInt64 && a != math.MinInt64 && b != math.MinInt64
		v = a * b
	case scop.Div, scop.Mod:
		if b == 0 {
			return errNode(at, "division by zero")
		}
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		v = q
		if op == scop.Mod {
			v = a - b*q
		}
	case scop.Min:
		v = min(a, b)
	case scop.Max:
		v = max(a, b)
	case scop.BitAnd:
		v = a & b
	case scop.BitOr:
		v = a | b
	case scop.BitXor:
		v = a ^ b
	case scop.Shl, scop.Shr:
		if b < 0 || b > 63 {
			return errNode(at, "shift count %d out of range", b)
		}
		if v = a >> b; op == scop.Shl {
			v = a << b
			ok = v>>b == a
		}
	default:
		return boolConst(compareInts(op, a, b), at)
	}
	if !ok {
		return errNode(at, "constant overflow in %d %s %d", a, opText[op], b)
	}
	return &node{kind: kConst, i: v, pos: at}
}

func foldFloat(op scop.BinOp, x, y *node, at scop.Pos) *node {
	a, b := x.f, y.f
	if !x.isFloat {
		a = float64(x.i)
	}
	if !y.isFloat {
		b = float64(y.i)
	}
	var v float64
	switch op {
	case scop.Add:
		v = a + b
	case scop.Sub:
		v = a - b
	case scop.Mul:
		v = a * b
	case scop.Div:
		if b == 0 {
			return errNode(at, "division by zero")
		}
		v = a / b
	case scop.Min:
		v = math.Min(a, b)
	case scop.Max:
		v = math.Max(a, b)
	default:
		if op.IsCompare() {
			return boolConst(compareFloats(op, a, b), at)
		}
		return errNode(at, "type mismatch: %s needs integer operands, has a float constant", opText[op])
	}
	return &node{kind: kConst, isFloat: true, f: v, pos: at}
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func compareInts(op scop.BinOp, a, b int64) bool {
	switch op {
	case scop.Lt:
		return a < b
	case scop.Le:
		return a <= b
	case scop.Gt:
		return a > b
	case scop.Ge:
		return a >= b
	case scop.Eq:
		return a == b
	}
	return a != b
}

func compareFloats(op scop.BinOp, a, b float64) bool {
	switch op {
	case scop.Lt:
		return a < b
	case scop.Le:
		return a <= b
	case scop.Gt:
		return a > b
	case scop.Ge:
		return a >= b
	case scop.Eq:
		return a == b
	}
	return a != b
}

func boolConst(v bool, at scop.Pos) *node {
	n := &node{kind: kConst, t: Bool, pos: at}
	if v {
		n.i = 1
	}
	return n
}

// typeText names an operand's type for messages.
func typeText(n *node) string {
	if n.t == scop.Invalid {
		return "a constant"
	}
	return n.t.String()
}

func neg(x *node, at scop.Pos) *node {
	switch {
	case x.err != nil:
		return x
	case x.kind == kConst && x.t == scop.Invalid:
		if x.isFloat {
			return &node{kind: kConst, isFloat: true, f: -x.f, pos: at}
		}
		if x.i == math.MinInt64 {
			return errNode(at, "constant overflow in -(%d)", x.i)
		}
		return &node{kind: kConst, i: -x.i, pos: at}
	case x.t == scop.Invalid:
		x = typed(x, defaultType(x), at)
	case x.t == Bool:
		return errNode(at, "type mismatch: negation of bool")
	}
	return &node{kind: kUnary, uop: scop.Neg, t: x.t, pos: at, args: []*node{x}}
}

func not(x *node, at scop.Pos) *node {
	if x.err != nil {
		return x
	}
	if x.t != Bool {
		return errNode(at, "type mismatch: ! needs a bool operand, has %s", typeText(x))
	}
	if x.kind == kConst {
		return boolConst(x.i == 0, at)
	}
	return &node{kind: kUnary, uop: scop.Not, t: Bool, pos: at, args: []*node{x}}
}

func selectNode(c, a, b *node, at scop.Pos) *node {
	if err := firstErr(c, a, b); err != nil {
		return &node{err: err}
	}
	if c.t != Bool {
		return errNode(at, "type mismatch: select condition has type %s, not bool", typeText(c))
	}
	a, b, err := unify("select", a, b, at)
	if err != nil {
		return &node{err: err}
	}
	return &node{kind: kSelect, t: a.t, pos: at, args: []*node{c, a, b}}
}

func castNode(t Type, x *node, at scop.Pos) *node {
	switch {
	case x.err != nil:
		return x
	case t == Bool || t <= scop.Invalid || t > F64:
		return errNode(at, "cannot cast to %s (compare with Ne(0) for a bool)", t)
	case x.t == t:
		return x
	case x.kind == kConst && x.t == scop.Invalid:
		c := castConst(x, t)
		c.pos = at
		return c
	case x.t == scop.Invalid:
		x = typed(x, defaultType(x), at)
	}
	return &node{kind: kCast, t: t, pos: at, args: []*node{x}}
}

// call applies a math function. Its arguments share one type; integer
// (and untyped) arguments become f32, as in Halide, except for abs, which
// also takes integers.
func call(fn string, args []*node, at scop.Pos) *node {
	if err := firstErr(args...); err != nil {
		return &node{err: err}
	}
	arity, ok := scop.MathFuncs[fn]
	if !ok {
		return errNode(at, "unknown math function %s", fn)
	}
	if len(args) != arity {
		return errNode(at, "%s takes %d arguments, has %d", fn, arity, len(args))
	}
	t := scop.Invalid
	for _, a := range args {
		switch {
		case a.t == Bool:
			return errNode(at, "type mismatch: %s of bool", fn)
		case a.t == scop.Invalid:
		case t == scop.Invalid:
			t = a.t
		case a.t != t:
			return errNode(at, "type mismatch: %s of %s and %s (convert one argument with dsl.Cast)", fn, t, a.t)
		}
	}
	switch {
	case t == scop.Invalid:
		t = F32
	case t.IsInt() && fn != "abs":
		t = F32
	}
	out := make([]*node, len(args))
	for i, a := range args {
		if a.t == scop.Invalid {
			a = typed(a, t, at)
		} else if a.t != t {
			a = &node{kind: kCast, t: t, pos: at, args: []*node{a}}
		}
		if a.err != nil {
			return a
		}
		out[i] = a
	}
	return &node{kind: kCall, math: fn, t: t, pos: at, args: out}
}
