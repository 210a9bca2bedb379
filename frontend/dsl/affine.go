package dsl

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/tilefuse/tilefuse/scop"
)

var errNotAffine = errors.New("not affine")

// islName is a leaf's name in isl notation; names may rename variables
// (nil keeps their own names).
func islName(m *node, names map[any]string) string {
	var key any
	var own string
	switch m.kind {
	case kVar:
		key, own = m.v, m.v.name
	case kRVar:
		key, own = m.rv, m.rv.iter
	case kParam:
		return m.param.name
	}
	if s, ok := names[key]; ok {
		return s
	}
	return own
}

// affText writes an integer expression in isl notation, or fails when it
// is not quasi-affine: sums, products with a constant, floor division and
// mod by positive constants, min and max of such, and casts to i32 or i64
// (which are exact for the values such expressions take here).
func affText(n *node, names map[any]string) (string, error) {
	switch n.kind {
	case kConst:
		if n.isFloat || n.t == Bool || n.t.IsFloat() {
			return "", errNotAffine
		}
		return strconv.FormatInt(n.i, 10), nil
	case kVar, kRVar, kParam:
		return islName(n, names), nil
	case kUnary:
		if n.uop == scop.Neg {
			x, err := affText(n.args[0], names)
			return "-(" + x + ")", err
		}
	case kCast:
		if (n.t == I32 || n.t == I64) && n.args[0].t.IsInt() {
			return affText(n.args[0], names)
		}
	case kBinary:
		return affBinary(n, names)
	}
	return "", errNotAffine
}

func affBinary(n *node, names map[any]string) (string, error) {
	x, err := affText(n.args[0], names)
	if err != nil {
		return "", err
	}
	y, err := affText(n.args[1], names)
	if err != nil {
		return "", err
	}
	switch n.bop {
	case scop.Add:
		return "(" + x + " + " + y + ")", nil
	case scop.Sub:
		return "(" + x + " - " + y + ")", nil
	case scop.Mul:
		_, ok1 := constInt(n.args[0])
		_, ok2 := constInt(n.args[1])
		if ok1 || ok2 {
			return "(" + x + ")*(" + y + ")", nil
		}
	case scop.FloorDiv, scop.Mod:
		if d, ok := constInt(n.args[1]); ok && d > 0 {
			if n.bop == scop.FloorDiv {
				return fmt.Sprintf("floor((%s)/%d)", x, d), nil
			}
			return fmt.Sprintf("((%s) mod %d)", x, d), nil
		}
	case scop.Min, scop.Max:
		return opText[n.bop] + "(" + x + ", " + y + ")", nil
	}
	return "", errNotAffine
}

// constInt is the value of an integer constant.
func constInt(n *node) (int64, bool) {
	switch {
	case n.kind == kConst && !n.isFloat && (n.t == scop.Invalid || n.t.IsInt()):
		return n.i, true
	case n.kind == kUnary && n.uop == scop.Neg:
		v, ok := constInt(n.args[0])
		return -v, ok
	case n.kind == kCast && n.t.IsInt():
		return constInt(n.args[0])
	}
	return 0, false
}

var islCompare = map[scop.BinOp]string{
	scop.Lt: "<", scop.Le: "<=", scop.Gt: ">", scop.Ge: ">=", scop.Eq: "=", scop.Ne: "!=",
}

// condText writes an affine condition in isl notation.
func condText(n *node, names map[any]string) (string, error) {
	switch n.kind {
	case kConst:
		if n.t == Bool {
			return strconv.FormatBool(n.i != 0), nil
		}
	case kUnary:
		if n.uop == scop.Not {
			x, err := condText(n.args[0], names)
			return "not (" + x + ")", err
		}
	case kBinary:
		var f func(*node, map[any]string) (string, error)
		op := ""
		switch {
		case n.bop == scop.And || n.bop == scop.Or:
			f, op = condText, map[scop.BinOp]string{scop.And: "and", scop.Or: "or"}[n.bop]
		case n.bop.IsCompare() && n.args[0].t.IsInt():
			f, op = affText, islCompare[n.bop]
		default:
			return "", errNotAffine
		}
		x, err := f(n.args[0], names)
		if err != nil {
			return "", err
		}
		y, err := f(n.args[1], names)
		return "(" + x + " " + op + " " + y + ")", err
	}
	return "", errNotAffine
}

// condition checks an affine condition on parameters and the variables
// allowed (none when allowed is nil).
func (p *Pipeline) condition(n *node, what string, at scop.Pos, allowed func(*node) bool) *scop.Error {
	if n.err != nil {
		return n.err
	}
	if n.t != Bool {
		return scop.Errorf(at, "%s: %s has type %s, not bool", what, exprText(n), typeText(n))
	}
	if allowed == nil {
		allowed = func(*node) bool { return false }
	}
	if err := p.scope(n, allowed, what, at); err != nil {
		return err
	}
	if n.hasRead() {
		return scop.Errorf(at, "%s: %s is not affine: it reads memory (choose with dsl.Select instead)", what, exprText(n))
	}
	if _, err := condText(n, nil); err != nil {
		return scop.Errorf(at, "%s: %s is not affine", what, exprText(n))
	}
	return nil
}
