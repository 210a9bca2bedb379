package cparse

import (
	"github.com/tilefuse/tilefuse/scop"
)

// Data-dependent control, in pet's model: a subscript that reads memory
// makes its access a may-access over the array's whole extent (a write
// so subscripted marks the statement MayWrite), and an if whose
// condition reads memory stays in the bodies of the statements it
// guards. A guarded statement A[f] = e becomes A[f] = cond ? e : A[f]:
// it writes the element it would write, with its old value where the
// condition is false, and only the chosen operand is evaluated, so the
// guarded reads are made only where the condition holds. Its accesses
// are exact where the subscripts are affine; the dependences it adds
// (the read of A[f]) are the conservative part of the model.

// readsMemory reports whether e reads an array element or a scalar
// variable (anything but iterators, size parameters and constants).
func readsMemory(e expr) bool {
	found := false
	walkExpr(e, func(x expr) {
		switch x := x.(type) {
		case *indexExpr:
			found = true
		case *identExpr:
			if x.sym != nil && !x.sym.size && !x.sym.iter {
				found = true
			}
		}
	})
	return found
}

// guardedIf translates an if whose condition reads memory. The condition
// is evaluated again by every statement of the branches, so it must see
// the same values in each: when the branches hold more than one
// statement, none of them may write what the condition reads.
func (b *builder) guardedIf(s *ifStmt) error {
	c, err := b.cond(s.cond)
	if err != nil {
		return err
	}
	first := len(b.stmts)
	n := len(b.guards)
	b.guards = append(b.guards, c)
	err = b.stmt(s.then)
	b.guards = b.guards[:n]
	if err == nil && s.els != nil {
		b.guards = append(b.guards, &scop.Unary{At: c.Position(), Op: scop.Not, X: c})
		err = b.stmt(s.els)
		b.guards = b.guards[:n]
	}
	if err != nil || len(b.stmts)-first <= 1 {
		return err
	}
	read := map[string]bool{}
	for _, r := range scop.Reads(c) {
		read[r.Array] = true
	}
	for _, p := range b.stmts[first:] {
		if read[p.s.Write.Array] {
			return errorf(p.s.At, "%s is written under a data-dependent condition that reads it (the condition is evaluated once per statement here); compute the condition into a variable first", p.s.Write.Array)
		}
	}
	return nil
}

// finishBody completes a statement st just translated: a write through a
// data-dependent subscript marks it MayWrite, and the enclosing
// data-dependent conditions become a select that keeps the old value.
func (b *builder) finishBody(st *scop.Stmt, t scop.ElemType) error {
	for _, x := range st.Write.Index {
		if len(scop.Reads(x)) > 0 {
			st.MayWrite = true
		}
	}
	if len(b.guards) == 0 {
		return nil
	}
	if st.MayWrite {
		return errorf(st.At, "a write through a data-dependent subscript under a data-dependent condition is not supported (its element would be written where the condition is false)")
	}
	cond := b.guards[0]
	for _, g := range b.guards[1:] {
		cond = &scop.Binary{At: g.Position(), Op: scop.And, X: cond, Y: g, T: scop.Bool}
	}
	old := &scop.Read{At: st.At, Ref: st.Write, T: t}
	st.Value = &scop.Select{At: st.At, Cond: cond, Then: st.Value, Else: old}
	return nil
}
