package cparse

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Every assignment of the region is one statement. `a = b = c` is two:
// b = c, then a = b.

func (b *builder) exprStmt(x expr) error {
	switch x := x.(type) {
	case *assignExpr:
		_, _, err := b.assign(x)
		return err
	case *postfixExpr:
		return b.increment(x.x, x.op, x.at)
	case *unaryExpr:
		if x.op == "++" || x.op == "--" {
			return b.increment(x.x, x.op, x.at)
		}
	case *commaExpr:
		return errorf(x.at, "comma operator is not supported")
	case *callExpr:
		if _, ok := mathFuncs[x.fn]; !ok {
			return errorf(x.at, "call to non-math function %s", x.fn)
		}
	}
	return errorf(x.pos(), "expression statement %s assigns nothing", exprString(x))
}

// assign emits the statements of an assignment and returns the element
// it writes, with its type.
func (b *builder) assign(e *assignExpr) (scop.Ref, scop.ElemType, error) {
	var chained scop.Expr
	if inner, ok := e.rhs.(*assignExpr); ok {
		ref, t, err := b.assign(inner)
		if err != nil {
			return scop.Ref{}, 0, err
		}
		chained = &scop.Read{At: inner.at, Ref: ref, T: t}
	}
	sym, err := b.target(e.lhs)
	if err != nil {
		return scop.Ref{}, 0, err
	}
	st, err := b.newStmt(e.at)
	if err != nil {
		return scop.Ref{}, 0, err
	}
	ref, _, err := b.ref(e.lhs)
	if err != nil {
		return scop.Ref{}, 0, err
	}
	v := chained
	if v == nil {
		if v, err = b.value(e.rhs); err != nil {
			return scop.Ref{}, 0, err
		}
	}
	if e.op != "=" {
		cur := &scop.Read{At: e.at, Ref: ref, T: sym.t}
		if v, err = arith(e.at, e.op[:len(e.op)-1], cur, v); err != nil {
			return scop.Ref{}, 0, err
		}
	}
	sym.written = true
	st.Write, st.Value = ref, conv(v, sym.t)
	if err := b.finishBody(st, sym.t); err != nil {
		return scop.Ref{}, 0, err
	}
	return ref, sym.t, nil
}

// increment emits x = x + 1 (or - 1) for x++, ++x, x-- and --x.
func (b *builder) increment(x expr, op string, at scop.Pos) error {
	sym, err := b.target(x)
	if err != nil {
		return err
	}
	st, err := b.newStmt(at)
	if err != nil {
		return err
	}
	ref, _, err := b.ref(x)
	if err != nil {
		return err
	}
	cur := &scop.Read{At: at, Ref: ref, T: sym.t}
	v, err := arith(at, op[:1], cur, &scop.Const{At: at, T: scop.I32, I: 1})
	if err != nil {
		return err
	}
	sym.written = true
	st.Write, st.Value = ref, conv(v, sym.t)
	return b.finishBody(st, sym.t)
}

// target checks the left side of an assignment and returns its variable.
func (b *builder) target(e expr) (*symbol, error) {
	base := e
	for {
		ix, ok := base.(*indexExpr)
		if !ok {
			break
		}
		base = ix.x
	}
	id, ok := base.(*identExpr)
	if !ok || id.sym == nil {
		return nil, errorf(e.pos(), "cannot assign to %s", exprString(e))
	}
	switch s := id.sym; {
	case s.size:
		return nil, errorf(e.pos(), "assignment to size parameter %s", s.name)
	case s.iter:
		return nil, errorf(e.pos(), "assignment to loop iterator %s", s.name)
	}
	return id.sym, nil
}

// ref translates a variable or array element: the subscripts must be
// affine in the iterators and parameters.
func (b *builder) ref(e expr) (scop.Ref, *symbol, error) {
	var subs []expr
	base := e
	for {
		ix, ok := base.(*indexExpr)
		if !ok {
			break
		}
		subs = append([]expr{ix.index}, subs...)
		base = ix.x
	}
	id, ok := base.(*identExpr)
	if !ok {
		return scop.Ref{}, nil, errorf(base.pos(), "subscripted value %s is not an array", exprString(base))
	}
	s := id.sym
	if s == nil || s.size || s.iter { // target rejects these on the left
		return scop.Ref{}, nil, errorf(id.at, "subscripted value %s is not an array", id.name)
	}
	if len(subs) != len(s.dims) {
		return scop.Ref{}, nil, errorf(e.pos(), "wrong number of subscripts for %s: got %d, want %d", s.name, len(subs), len(s.dims))
	}
	a, err := b.useArray(s)
	if err != nil {
		return scop.Ref{}, nil, err
	}
	ref := scop.Ref{Array: a.Name}
	for _, x := range subs {
		v, err := b.subscript(x, s.name)
		if err != nil {
			return scop.Ref{}, nil, err
		}
		ref.Index = append(ref.Index, v)
	}
	return ref, s, nil
}

// subscript translates one subscript. C division and remainder by a
// constant become floor division and modulo where the dividend's sign is
// known on the statement's domain.
func (b *builder) subscript(x expr, array string) (scop.Expr, error) {
	v, err := b.value(x)
	if err != nil {
		return nil, err
	}
	if !v.Type().IsInt() {
		return nil, errorf(x.pos(), "subscript %s of %s is not an integer", v, array)
	}
	if len(scop.Reads(v)) > 0 {
		// A data-dependent subscript: the access ranges over the whole
		// extent (a may-access); scop derives its relation.
		return v, nil
	}
	orig := v
	if v, err = b.fixDivs(v); err != nil {
		return nil, errorf(x.pos(), "subscript %s of %s divides a value that may be negative", orig, array)
	}
	if _, err := scop.AffineText(v); err != nil {
		return nil, errorf(x.pos(), "non-affine subscript %s of %s", orig, array)
	}
	return v, nil
}

// fixDivs rewrites C's truncating / and % by constants into FloorDiv and
// Mod, which have exact affine access relations, when the dividend is
// never negative on the domain (or never positive: then x / d is
// -floordiv(-x, d)).
func (b *builder) fixDivs(e scop.Expr) (scop.Expr, error) {
	switch x := e.(type) {
	case *scop.Unary:
		y, err := b.fixDivs(x.X)
		return &scop.Unary{At: x.At, Op: x.Op, X: y}, err
	case *scop.Cast:
		y, err := b.fixDivs(x.X)
		return &scop.Cast{At: x.At, X: y, T: x.T}, err
	case *scop.Binary:
		l, err := b.fixDivs(x.X)
		if err != nil {
			return nil, err
		}
		r, err := b.fixDivs(x.Y)
		if err != nil {
			return nil, err
		}
		out := &scop.Binary{At: x.At, Op: x.Op, X: l, Y: r, T: x.T}
		if x.Op != scop.Div && x.Op != scop.Rem {
			return out, nil
		}
		return b.fixDiv(out)
	}
	return e, nil
}

func (b *builder) fixDiv(x *scop.Binary) (scop.Expr, error) {
	d, ok := scop.ConstInt(x.Y)
	if !ok || d == 0 {
		return x, nil // not affine: reported by the caller
	}
	text, err := scop.AffineText(x.X)
	if err != nil {
		return x, nil
	}
	neg := d < 0
	if neg {
		d = -d
	}
	if d < 0 {
		return x, nil
	}
	dc := &scop.Const{At: x.Y.Position(), T: x.T, I: d}
	nonNeg, err := b.signEmpty(text + " < 0")
	if err != nil {
		return nil, err
	}
	op := scop.FloorDiv
	if x.Op == scop.Rem {
		op, neg = scop.Mod, false // x % -d == x % d
	}
	var out scop.Expr
	if nonNeg {
		out = &scop.Binary{At: x.At, Op: op, X: x.X, Y: dc, T: x.T}
	} else {
		nonPos, err := b.signEmpty(text + " > 0")
		if err != nil {
			return nil, err
		}
		if !nonPos {
			return nil, fmt.Errorf("dividend %s may be negative", text)
		}
		minus := &scop.Unary{At: x.At, Op: scop.Neg, X: x.X}
		out = &scop.Unary{At: x.At, Op: scop.Neg, X: &scop.Binary{At: x.At, Op: op, X: minus, Y: dc, T: x.T}}
	}
	if neg {
		out = &scop.Unary{At: x.At, Op: scop.Neg, X: out}
	}
	return out, nil
}

// signEmpty reports whether no point of the current statement's domain
// satisfies cond.
func (b *builder) signEmpty(cond string) (bool, error) {
	// The enclosing loops and conditions, not b.cur's domain: a
	// data-dependent condition is translated before the statements it
	// guards exist (and after those of earlier loops).
	conds := append([]string{cond}, b.conds...)
	text := b.paramPrefix() + "{ [" + strings.Join(b.iterNames(), ", ") + "] : " + strings.Join(conds, " and ") + " }"
	set, err := presburger.ParseSet(text)
	if err != nil {
		return false, err
	}
	return set.IsEmpty()
}
