package dsl

import (
	"fmt"

	"github.com/tilefuse/tilefuse/scop"
)

type kind uint8

const (
	kConst kind = iota
	kVar
	kRVar
	kParam
	kRead
	kUnary
	kBinary
	kSelect
	kCast
	kCall
)

// node is an expression tree node. Nodes are immutable once made. A node
// with err set stands for an expression that failed to build: every node
// made from it carries the same error, which surfaces (with the position
// of the call that caused it) when the expression is used in a pipeline.
type node struct {
	kind kind
	// t is the type; scop.Invalid marks an untyped Go constant (or a
	// Select of untyped branches), typed where it meets a typed operand.
	t   Type
	pos scop.Pos
	err *scop.Error

	// kConst: an untyped constant is i (isFloat false) or f; a typed one
	// holds its value as scop.Const does.
	isFloat bool
	i       int64
	f       float64

	v     *varDecl   // kVar
	rv    *rvarDecl  // kRVar
	param *paramDecl // kParam
	fn    *Func      // kRead of a function
	img   *Image     // kRead of an image

	bop  scop.BinOp // kBinary
	uop  scop.UnOp  // kUnary
	math string     // kCall
	args []*node    // operands; a read's coordinates
}

func errNode(at scop.Pos, format string, args ...any) *node {
	return &node{err: scop.Errorf(at, format, args...)}
}

// firstErr is the first error among the operands.
func firstErr(ns ...*node) *scop.Error {
	for _, n := range ns {
		if n.err != nil {
			return n.err
		}
	}
	return nil
}

// walk calls f on n and its operands, pre-order.
func (n *node) walk(f func(*node)) {
	f(n)
	for _, a := range n.args {
		a.walk(f)
	}
}

// hasRead reports whether n loads from memory: a data-dependent value.
func (n *node) hasRead() bool {
	found := false
	n.walk(func(m *node) { found = found || m.kind == kRead })
	return found
}

// Expr is an expression: a value computed at every point of a function's
// domain. Expressions are immutable; their methods make new ones. Methods
// and functions that take `any` accept an Expr, a Var, RVar or Param, a
// function read (Ref), or a Go number (int, float64, ...), which takes the
// type of the expression it meets (see the package documentation).
type Expr struct{ n *node }

// Type is the expression's type, or scop.Invalid for a Go constant that
// has not met a typed expression yet.
func (e Expr) Type() Type {
	if e.n == nil || e.n.err != nil {
		return scop.Invalid
	}
	return e.n.t
}

// Err is the error in building the expression, if any. The pipeline also
// reports it when the expression is used.
func (e Expr) Err() error {
	if e.n == nil || e.n.err == nil {
		return nil
	}
	return e.n.err
}

// String is the expression in the DSL's notation: in(x - 1, y) + 1.
func (e Expr) String() string {
	if e.n == nil {
		return "<nil>"
	}
	return exprText(e.n)
}

// value is implemented by everything that converts to an expression.
type value interface{ node() *node }

func (e Expr) node() *node {
	if e.n == nil {
		return errNode(here(), "use of a zero Expr")
	}
	return e.n
}

// toNode converts an operand of an API call made at at.
func toNode(v any, at scop.Pos) *node {
	switch v := v.(type) {
	case value:
		return v.node()
	case int:
		return &node{kind: kConst, i: int64(v), pos: at}
	case int8:
		return &node{kind: kConst, i: int64(v), pos: at}
	case int16:
		return &node{kind: kConst, i: int64(v), pos: at}
	case int32:
		return &node{kind: kConst, i: int64(v), pos: at}
	case int64:
		return &node{kind: kConst, i: v, pos: at}
	case uint:
		return uintNode(uint64(v), at)
	case uint8:
		return &node{kind: kConst, i: int64(v), pos: at}
	case uint16:
		return &node{kind: kConst, i: int64(v), pos: at}
	case uint32:
		return &node{kind: kConst, i: int64(v), pos: at}
	case uint64:
		return uintNode(v, at)
	case float32:
		return &node{kind: kConst, isFloat: true, f: float64(v), pos: at}
	case float64:
		return &node{kind: kConst, isFloat: true, f: v, pos: at}
	case bool:
		c := &node{kind: kConst, t: Bool, pos: at}
		if v {
			c.i = 1
		}
		return c
	case nil:
		return errNode(at, "nil used as an expression")
	}
	return errNode(at, "cannot use %T as an expression", v)
}

func uintNode(v uint64, at scop.Pos) *node {
	if v > 1<<63-1 {
		return errNode(at, "constant %d overflows the constants the DSL holds (int64)", v)
	}
	return &node{kind: kConst, i: int64(v), pos: at}
}

func toNodes(vs []any, at scop.Pos) []*node {
	out := make([]*node, len(vs))
	for i, v := range vs {
		out[i] = toNode(v, at)
	}
	return out
}

func wrap(n *node) Expr { return Expr{n} }

// declPos is how errors refer to a declaration: " (declared at f.go:3:7)".
func declPos(at scop.Pos) string {
	if !at.IsValid() {
		return ""
	}
	return fmt.Sprintf(" (declared at %s)", at)
}
