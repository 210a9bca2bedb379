package cparse

import (
	"github.com/tilefuse/tilefuse/scop"
)

// A symbol is a declared name. Integer scalar parameters are size
// parameters; every other variable is storage (a scalar or an array),
// except integer locals that serve as loop iterators.
type symbol struct {
	name string
	at   scop.Pos
	t    scop.ElemType
	dims []expr
	size bool // an integer scalar parameter: a size parameter
	// param and global say where storage was declared; neither means a
	// local.
	param, global bool
	iter          bool // an integer local used as a loop iterator
	ptr           bool // a restrict pointer parameter
	used, written bool // referenced and assigned inside the scop region
	seq           int  // declaration order, for the array list

	arr *scop.Array // the array, once the builder needs it
}

func (s *symbol) isScalarInt() bool { return len(s.dims) == 0 && s.t.IsInt() }

// resolver binds names to symbols with C's block scoping. Shadowing of a
// parameter or local is rejected (it would make loop iterators and size
// parameters ambiguous); locals may shadow globals.
type resolver struct {
	errs   *first
	scopes []map[string]*symbol // [0] holds the globals
	names  map[string]bool      // every name declared, for fresh names
	seq    int
}

func (r *resolver) push() { r.scopes = append(r.scopes, map[string]*symbol{}) }
func (r *resolver) pop()  { r.scopes = r.scopes[:len(r.scopes)-1] }

func (r *resolver) lookup(name string) *symbol {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if s, ok := r.scopes[i][name]; ok {
			return s
		}
	}
	return nil
}

// declare adds d to the innermost scope.
func (r *resolver) declare(d *declarator, s *symbol) {
	if d.name == "" {
		r.errs.set(d.at, "parameter without a name")
		return
	}
	inner := r.scopes[len(r.scopes)-1]
	if _, ok := inner[d.name]; ok {
		r.errs.set(d.at, "redeclaration of %s", d.name)
		return
	}
	for i := len(r.scopes) - 2; i >= 1; i-- {
		if _, ok := r.scopes[i][d.name]; ok {
			r.errs.set(d.at, "declaration of %s shadows an earlier declaration", d.name)
			return
		}
	}
	r.seq++
	if r.names != nil {
		r.names[d.name] = true
	}
	s.name, s.at, s.t, s.dims, s.seq = d.name, d.at, d.t, d.dims, r.seq
	d.sym = s
	inner[d.name] = s
	for _, x := range d.dims {
		if x != nil {
			r.expr(x)
		}
	}
}

func (r *resolver) expr(e expr) {
	switch e := e.(type) {
	case *identExpr:
		e.sym = r.lookup(e.name)
		if e.sym == nil {
			r.errs.set(e.at, "unknown identifier %s", e.name)
			return
		}
		e.sym.used = true
	case *indexExpr:
		r.expr(e.x)
		r.expr(e.index)
	case *callExpr:
		for _, a := range e.args {
			r.expr(a)
		}
	case *unaryExpr:
		r.expr(e.x)
	case *postfixExpr:
		r.expr(e.x)
	case *binaryExpr:
		r.expr(e.x)
		r.expr(e.y)
	case *assignExpr:
		r.expr(e.lhs)
		r.expr(e.rhs)
	case *condExpr:
		r.expr(e.cond)
		r.expr(e.then)
		r.expr(e.els)
	case *castExpr:
		r.expr(e.x)
	case *commaExpr:
		r.expr(e.x)
		r.expr(e.y)
	}
}

// localDecl declares the variables of a declaration in the function;
// initializers before the region are not resolved (they must be
// constants).
func (r *resolver) localDecl(s *declStmt, inRegion bool) {
	for _, d := range s.decls {
		r.declare(d, &symbol{})
		if inRegion && d.init != nil {
			r.expr(d.init)
		}
	}
}

// stmt resolves a statement of the scop region.
func (r *resolver) stmt(s stmt) {
	switch s := s.(type) {
	case *exprStmt:
		if s.x != nil {
			r.expr(s.x)
		}
	case *declStmt:
		r.localDecl(s, true)
	case *blockStmt:
		r.push()
		for _, x := range s.list {
			r.stmt(x)
		}
		r.pop()
	case *forStmt:
		r.push()
		if s.init != nil {
			r.stmt(s.init)
			r.markIter(s.init)
		}
		for _, x := range []expr{s.cond, s.post} {
			if x != nil {
				r.expr(x)
			}
		}
		r.stmt(s.body)
		r.pop()
	case *whileStmt:
		r.expr(s.cond)
		r.stmt(s.body)
	case *ifStmt:
		r.expr(s.cond)
		r.stmt(s.then)
		if s.els != nil {
			r.stmt(s.els)
		}
	}
}

// markIter records that the variable a loop initialises is an iterator,
// so that the builder treats it as one everywhere in the region.
func (r *resolver) markIter(init stmt) {
	var sym *symbol
	switch s := init.(type) {
	case *exprStmt:
		if a, ok := s.x.(*assignExpr); ok && a.op == "=" {
			if id, ok := a.lhs.(*identExpr); ok {
				sym = id.sym
			}
		}
	case *declStmt:
		if len(s.decls) == 1 {
			sym = s.decls[0].sym
		}
	}
	if sym != nil && !sym.size && !sym.param && !sym.global && sym.isScalarInt() {
		sym.iter = true
	}
}
