package cparse

import (
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// The syntax tree covers the C subset the parser accepts. Expressions keep
// the position of their first token; names are bound to symbols by the
// resolver before a program is built.

type expr interface{ pos() scop.Pos }

type (
	identExpr struct {
		at   scop.Pos
		name string
		sym  *symbol // set by the resolver
	}
	// numExpr is an integer, floating or character constant, typed by
	// the parser.
	numExpr struct {
		at   scop.Pos
		text string
		t    scop.ElemType
		i    int64
		f    float64
	}
	indexExpr struct {
		at       scop.Pos
		x, index expr
	}
	callExpr struct {
		at   scop.Pos
		fn   string
		args []expr
	}
	// unaryExpr is a prefix operator: - + ! ~ ++ --.
	unaryExpr struct {
		at scop.Pos
		op string
		x  expr
	}
	// postfixExpr is x++ or x--.
	postfixExpr struct {
		at scop.Pos
		op string
		x  expr
	}
	binaryExpr struct {
		at   scop.Pos
		op   string
		x, y expr
	}
	// assignExpr is = or a compound assignment (op is "+=", ...).
	assignExpr struct {
		at       scop.Pos
		op       string
		lhs, rhs expr
	}
	condExpr struct {
		at              scop.Pos
		cond, then, els expr
	}
	castExpr struct {
		at scop.Pos
		t  scop.ElemType
		x  expr
	}
	commaExpr struct {
		at   scop.Pos
		x, y expr
	}
	// stringExpr is a string literal: parsed so that code outside the
	// scop may hold one, rejected inside.
	stringExpr struct{ at scop.Pos }
)

func (e *identExpr) pos() scop.Pos   { return e.at }
func (e *numExpr) pos() scop.Pos     { return e.at }
func (e *indexExpr) pos() scop.Pos   { return e.at }
func (e *callExpr) pos() scop.Pos    { return e.at }
func (e *unaryExpr) pos() scop.Pos   { return e.at }
func (e *postfixExpr) pos() scop.Pos { return e.at }
func (e *binaryExpr) pos() scop.Pos  { return e.at }
func (e *assignExpr) pos() scop.Pos  { return e.at }
func (e *condExpr) pos() scop.Pos    { return e.at }
func (e *castExpr) pos() scop.Pos    { return e.at }
func (e *commaExpr) pos() scop.Pos   { return e.at }
func (e *stringExpr) pos() scop.Pos  { return e.at }

type stmt interface{ pos() scop.Pos }

type (
	// exprStmt is an expression statement; x is nil for ';'.
	exprStmt struct {
		at scop.Pos
		x  expr
	}
	declStmt struct {
		at    scop.Pos
		decls []*declarator
	}
	blockStmt struct {
		at   scop.Pos
		list []stmt
	}
	forStmt struct {
		at   scop.Pos
		init stmt // *exprStmt or *declStmt; nil when empty
		cond expr // nil when empty
		post expr // nil when empty
		body stmt
	}
	ifStmt struct {
		at        scop.Pos
		cond      expr
		then, els stmt // els is nil without else
		elseAt    scop.Pos
	}
	// whileStmt is a while loop; the builder accepts the bounded ones
	// (while.go).
	whileStmt struct {
		at   scop.Pos
		cond expr
		body stmt
	}
	pragmaStmt struct {
		at  scop.Pos
		end bool // #pragma endscop
	}
	// otherStmt is a statement the scop subset has no use for (while,
	// return, a label, ...): accepted outside the scop, rejected inside.
	otherStmt struct {
		at   scop.Pos
		what string
		bare bool // a return without a value
	}
	// shapeStmt is "#pragma tilefuse array A[N], ...": the extents of
	// array parameters.
	shapeStmt struct {
		at    scop.Pos
		decls []*declarator
	}
)

func (s *exprStmt) pos() scop.Pos   { return s.at }
func (s *declStmt) pos() scop.Pos   { return s.at }
func (s *blockStmt) pos() scop.Pos  { return s.at }
func (s *forStmt) pos() scop.Pos    { return s.at }
func (s *ifStmt) pos() scop.Pos     { return s.at }
func (s *whileStmt) pos() scop.Pos  { return s.at }
func (s *pragmaStmt) pos() scop.Pos { return s.at }
func (s *otherStmt) pos() scop.Pos  { return s.at }
func (s *shapeStmt) pos() scop.Pos  { return s.at }

// declarator is one declared name: a variable (scalar or array), a
// parameter, or a typedef.
type declarator struct {
	at   scop.Pos
	name string
	t    scop.ElemType
	dims []expr // array extents, outermost first; nil where not declared
	ptr  bool   // a restrict pointer parameter, dims[0] its target's count
	init expr   // nil without initializer
	sym  *symbol
}

// funcDef is a function definition.
type funcDef struct {
	at     scop.Pos
	name   string
	params []*declarator
	body   *blockStmt
}

// unit is a parsed file.
type unit struct {
	globals []*declarator
	funcs   []*funcDef
}

// exprString prints e in the C-like style of scop.Expr.String, fully
// parenthesized, for error messages.
func exprString(e expr) string {
	switch e := e.(type) {
	case *identExpr:
		return e.name
	case *numExpr:
		return e.text
	case *indexExpr:
		return exprString(e.x) + "[" + exprString(e.index) + "]"
	case *callExpr:
		args := make([]string, len(e.args))
		for i, a := range e.args {
			args[i] = exprString(a)
		}
		return e.fn + "(" + strings.Join(args, ", ") + ")"
	case *unaryExpr:
		return e.op + exprString(e.x)
	case *postfixExpr:
		return exprString(e.x) + e.op
	case *binaryExpr:
		return "(" + exprString(e.x) + " " + e.op + " " + exprString(e.y) + ")"
	case *assignExpr:
		return "(" + exprString(e.lhs) + " " + e.op + " " + exprString(e.rhs) + ")"
	case *condExpr:
		return "(" + exprString(e.cond) + " ? " + exprString(e.then) + " : " + exprString(e.els) + ")"
	case *castExpr:
		return "(" + cTypeName(e.t) + ")" + exprString(e.x)
	case *commaExpr:
		return "(" + exprString(e.x) + ", " + exprString(e.y) + ")"
	case *stringExpr:
		return "\"...\""
	}
	return "?"
}

// mentions reports whether e refers to the symbol s.
func mentions(e expr, s *symbol) bool {
	found := false
	walkExpr(e, func(x expr) {
		if id, ok := x.(*identExpr); ok && id.sym == s {
			found = true
		}
	})
	return found
}

func walkExpr(e expr, f func(expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case *indexExpr:
		walkExpr(e.x, f)
		walkExpr(e.index, f)
	case *callExpr:
		for _, a := range e.args {
			walkExpr(a, f)
		}
	case *unaryExpr:
		walkExpr(e.x, f)
	case *postfixExpr:
		walkExpr(e.x, f)
	case *binaryExpr:
		walkExpr(e.x, f)
		walkExpr(e.y, f)
	case *assignExpr:
		walkExpr(e.lhs, f)
		walkExpr(e.rhs, f)
	case *condExpr:
		walkExpr(e.cond, f)
		walkExpr(e.then, f)
		walkExpr(e.els, f)
	case *castExpr:
		walkExpr(e.x, f)
	case *commaExpr:
		walkExpr(e.x, f)
		walkExpr(e.y, f)
	}
}
