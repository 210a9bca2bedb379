package dsl

import (
	"math"
	"strconv"

	"github.com/tilefuse/tilefuse/scop"
)

// Type is an element type: of an image, a function, or an expression.
type Type = scop.ElemType

// The element types. Bool is the type of conditions only; images and
// functions hold numbers.
const (
	Bool = scop.Bool
	I8   = scop.I8
	U8   = scop.U8
	I16  = scop.I16
	U16  = scop.U16
	I32  = scop.I32
	U32  = scop.U32
	I64  = scop.I64
	U64  = scop.U64
	F32  = scop.F32
	F64  = scop.F64
)

// indexType is the type of variables, parameters and coordinates, as in
// Halide.
const indexType = I32

// typeRange is the range of an integer type (u64 is capped at int64's,
// which is all an untyped constant can hold).
func typeRange(t Type) (lo, hi int64) {
	switch t {
	case I8:
		return math.MinInt8, math.MaxInt8
	case U8:
		return 0, math.MaxUint8
	case I16:
		return math.MinInt16, math.MaxInt16
	case U16:
		return 0, math.MaxUint16
	case I32:
		return math.MinInt32, math.MaxInt32
	case U32:
		return 0, math.MaxUint32
	case U64:
		return 0, math.MaxInt64
	}
	return math.MinInt64, math.MaxInt64
}

// constText prints an untyped constant's value.
func constText(n *node) string {
	if n.isFloat {
		return strconv.FormatFloat(n.f, 'g', -1, 64)
	}
	return strconv.FormatInt(n.i, 10)
}

// convertConst gives an untyped constant type t where it meets an
// expression of that type: it must be representable, as for Go's
// constants (a float constant only where it is a whole number, for an
// integer type).
func convertConst(n *node, t Type, at scop.Pos) *node {
	c := &node{kind: kConst, t: t, pos: n.pos}
	switch {
	case t == Bool:
		return errNode(at, "cannot use constant %s as bool", constText(n))
	case t.IsFloat():
		v := n.f
		if !n.isFloat {
			v = float64(n.i)
		}
		if t == F32 && math.Abs(v) > math.MaxFloat32 {
			return errNode(at, "constant %s overflows f32", constText(n))
		}
		c.f = scop.FloatValue(t, v).F
	default:
		v := n.i
		if n.isFloat {
			if n.f != math.Trunc(n.f) || math.Abs(n.f) >= 1<<63 {
				return errNode(at, "constant %s is not a whole number; it cannot be %s (cast the other operand to a float type)", constText(n), t)
			}
			v = int64(n.f)
		}
		if lo, hi := typeRange(t); v < lo || v > hi {
			return errNode(at, "constant %s overflows %s", constText(n), t)
		}
		c.i = v
	}
	return c
}

// castConst converts an untyped constant explicitly, with C's rules as
// Cast nodes have them.
func castConst(n *node, t Type) *node {
	var v scop.Value
	from := I64
	if n.isFloat {
		v, from = scop.Value{F: n.f}, F64
	} else {
		v.I = n.i
	}
	v = scop.Convert(v, from, t)
	return &node{kind: kConst, t: t, pos: n.pos, i: v.I, f: v.F}
}

// typed gives an untyped operand (a constant, or a Select of untyped
// branches) type t; typed operands are returned as they are.
func typed(n *node, t Type, at scop.Pos) *node {
	if n.err != nil || n.t != scop.Invalid {
		return n
	}
	switch n.kind {
	case kConst:
		return convertConst(n, t, at)
	case kSelect:
		a, b := typed(n.args[1], t, at), typed(n.args[2], t, at)
		if err := firstErr(a, b); err != nil {
			return &node{err: err}
		}
		return &node{kind: kSelect, t: t, pos: n.pos, args: []*node{n.args[0], a, b}}
	}
	return n
}

// defaultType is the type an untyped operand takes where nothing else
// gives it one: i32 for integers, f32 for floats.
func defaultType(n *node) Type {
	if n.kind == kConst && n.isFloat {
		return F32
	}
	if n.kind == kSelect {
		if defaultType(n.args[1]) == F32 || defaultType(n.args[2]) == F32 {
			return F32
		}
	}
	return indexType
}

// unify gives two operands one type. A typed operand gives its type to an
// untyped one; two typed operands must agree; two untyped operands stay
// untyped (the caller folds constants).
func unify(op string, a, b *node, at scop.Pos) (*node, *node, *scop.Error) {
	if err := firstErr(a, b); err != nil {
		return nil, nil, err
	}
	switch {
	case a.t == scop.Invalid && b.t == scop.Invalid:
		return a, b, nil
	case a.t == scop.Invalid:
		a = typed(a, b.t, at)
	case b.t == scop.Invalid:
		b = typed(b, a.t, at)
	case a.t != b.t:
		return nil, nil, scop.Errorf(at, "type mismatch: %s %s %s (convert one operand with dsl.Cast)", a.t, op, b.t)
	}
	if err := firstErr(a, b); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}
