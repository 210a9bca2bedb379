package dsl

import (
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// Go's operator precedence, which the DSL's notation follows.
func precedence(op scop.BinOp) int {
	switch {
	case op == scop.Or:
		return 1
	case op == scop.And:
		return 2
	case op.IsCompare():
		return 3
	case op == scop.Add || op == scop.Sub || op == scop.BitOr || op == scop.BitXor:
		return 4
	}
	return 5
}

const (
	precUnary   = 6
	precPrimary = 7
)

// exprText prints an expression in the DSL's notation: Go's operators,
// f(x, y) for reads, sin(x), f32(x), min(x, y), select(c, a, b).
func exprText(n *node) string {
	s, _ := text(n)
	return s
}

func text(n *node) (string, int) {
	if n.err != nil {
		return "<error>", precPrimary
	}
	switch n.kind {
	case kConst:
		return constLit(n), precPrimary
	case kVar:
		return n.v.name, precPrimary
	case kRVar:
		return n.rv.name, precPrimary
	case kParam:
		return n.param.name, precPrimary
	case kRead:
		name := ""
		if n.fn != nil {
			name = n.fn.name
		} else {
			name = n.img.name
		}
		return name + "(" + list(n.args) + ")", precPrimary
	case kUnary:
		op := map[scop.UnOp]string{scop.Neg: "-", scop.Not: "!"}[n.uop]
		return op + operand(n.args[0], precUnary), precUnary
	case kCast:
		return n.t.String() + "(" + exprText(n.args[0]) + ")", precPrimary
	case kCall:
		return n.math + "(" + list(n.args) + ")", precPrimary
	case kSelect:
		return "select(" + list(n.args) + ")", precPrimary
	}
	if n.bop == scop.Min || n.bop == scop.Max {
		return opText[n.bop] + "(" + list(n.args) + ")", precPrimary
	}
	p := precedence(n.bop)
	// Left associative: a parenthesised right operand of equal
	// precedence keeps a - (b - c) apart from a - b - c.
	return operand(n.args[0], p) + " " + opText[n.bop] + " " + operand(n.args[1], p+1), p
}

func operand(n *node, min int) string {
	s, p := text(n)
	if p < min {
		return "(" + s + ")"
	}
	return s
}

func list(ns []*node) string {
	parts := make([]string, len(ns))
	for i, a := range ns {
		parts[i] = exprText(a)
	}
	return strings.Join(parts, ", ")
}

func constLit(n *node) string {
	switch {
	case n.t == scop.Invalid:
		return constText(n)
	case n.t == Bool:
		return strconv.FormatBool(n.i != 0)
	case n.t == F32:
		return strconv.FormatFloat(n.f, 'g', -1, 32)
	case n.t == F64:
		return strconv.FormatFloat(n.f, 'g', -1, 64)
	}
	return strconv.FormatInt(n.i, 10)
}

// String is f's definition in the DSL's notation, one line per case and
// update:
//
//	blurx(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3
func (f *Func) String() string {
	vars := make([]string, len(f.dims))
	for i, d := range f.dims {
		vars[i] = d.v.Name()
	}
	lhs := f.name + "(" + strings.Join(vars, ", ") + ")"
	var lines []string
	for _, pc := range f.pure {
		line := lhs + " = " + exprText(pc.val)
		switch {
		case pc.cond != nil:
			line += " if " + exprText(pc.cond)
		case len(f.pure) > 1:
			line += " otherwise"
		}
		lines = append(lines, line)
	}
	for _, u := range f.updates {
		lines = append(lines, f.name+"("+list(u.coords)+") = "+exprText(u.val))
	}
	if len(lines) == 0 {
		return lhs + " undefined"
	}
	return strings.Join(lines, "\n")
}
