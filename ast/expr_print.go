package ast

import (
	"strconv"
	"strings"
)

// The C-like text of expressions, shared by String and the C printer.

// String writes e in a C-like notation (the C printer's, without the
// helper functions' prelude): "32 * c0 + 31", "min(N - 1, c0)".
func (e Expr) String() string {
	var b strings.Builder
	writeExpr(&b, e, precLowest)
	return b.String()
}

// Operator precedences for parenthesising, lowest first.
const (
	precLowest = iota
	precOr
	precAnd
	precCmp
	precAdd
	precMul
	precUnary
	precAtom
)

func prec(e Expr) int {
	switch e.Op {
	case OpInt:
		if e.Val < 0 {
			return precUnary
		}
		return precAtom
	case OpOr:
		return precOr
	case OpAnd:
		return precAnd
	case OpAdd:
		return precAdd
	case OpMul:
		if e.Val == -1 {
			return precUnary
		}
		return precMul
	case OpDiv:
		return precMul
	}
	if e.Op.IsCompare() {
		return precCmp
	}
	return precAtom
}

var cmpNames = map[Op]string{OpEq: "==", OpLe: "<=", OpLt: "<", OpGe: ">=", OpGt: ">"}

// writeExpr writes e, in parentheses when its precedence is below min.
func writeExpr(b *strings.Builder, e Expr, min int) {
	p := prec(e)
	if p < min {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch e.Op {
	case OpInt:
		b.WriteString(strconv.FormatInt(e.Val, 10))
	case OpVar:
		b.WriteString(e.Name)
	case OpAdd:
		for i, a := range e.Args {
			neg, abs := negated(a)
			switch {
			case i == 0:
				writeExpr(b, a, precAdd)
				continue
			case neg:
				b.WriteString(" - ")
			default:
				b.WriteString(" + ")
				abs = a
			}
			writeExpr(b, abs, precAdd+1)
		}
	case OpMul:
		if e.Val == -1 {
			b.WriteByte('-')
			writeExpr(b, e.Args[0], precUnary)
			return
		}
		b.WriteString(strconv.FormatInt(e.Val, 10) + " * ")
		writeExpr(b, e.Args[0], precMul+1)
	case OpDiv:
		writeExpr(b, e.Args[0], precMul)
		b.WriteString(" / " + strconv.FormatInt(e.Val, 10))
	case OpFloorDiv, OpCeilDiv:
		b.WriteString(e.Op.String() + "(")
		writeExpr(b, e.Args[0], precLowest)
		b.WriteString(", " + strconv.FormatInt(e.Val, 10) + ")")
	case OpMin, OpMax:
		// Two-argument calls, folded from the left: min(min(a, b), c).
		for range e.Args[1:] {
			b.WriteString(e.Op.String() + "(")
		}
		writeExpr(b, e.Args[0], precLowest)
		for _, a := range e.Args[1:] {
			b.WriteString(", ")
			writeExpr(b, a, precLowest)
			b.WriteByte(')')
		}
	case OpMod:
		// x % d is C's remainder; it agrees with mod in a test against 0.
		b.WriteString("floormod(")
		writeExpr(b, e.Args[0], precLowest)
		b.WriteString(", " + strconv.FormatInt(e.Val, 10) + ")")
	case OpAnd, OpOr:
		// && inside || gets parentheses, as C compilers suggest.
		sep := " && "
		if e.Op == OpOr {
			sep = " || "
		}
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(sep)
			}
			writeExpr(b, a, precAnd+1)
		}
	default: // comparisons
		x, y := e.Args[0], e.Args[1]
		if (e.Op == OpEq) && x.Op == OpMod && y.IsConst(0) {
			writeExpr(b, x.Args[0], precMul+1)
			b.WriteString(" % " + strconv.FormatInt(x.Val, 10) + " == 0")
			return
		}
		writeExpr(b, x, precAdd)
		b.WriteString(" " + cmpNames[e.Op] + " ")
		writeExpr(b, y, precAdd)
	}
}

// negated reports whether a term of a sum reads best as subtracted, and
// the term it subtracts.
func negated(a Expr) (bool, Expr) {
	switch {
	case a.Op == OpInt && a.Val < 0:
		return true, Int(-a.Val)
	case a.Op == OpMul && a.Val < 0:
		return true, Mul(-a.Val, a.Args[0])
	}
	return false, a
}
