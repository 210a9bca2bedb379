package widen

import (
	"slices"

	"github.com/tilefuse/tilefuse/scop"
)

// wide is the element type of a widened table.
const wide = scop.I32

// Program returns p with its gathered small-integer tables widened to
// 32 bits (see the package documentation) and the names of the arrays it
// widened. p is not changed; when nothing is widened the result is p
// itself.
func Program(p *scop.Program) (*scop.Program, []string) {
	var names []string
	for _, a := range p.Arrays {
		if !a.LiveIn && !a.LiveOut && narrow(a.Type) && gathered(p, a.Name) {
			names = append(names, a.Name)
		}
	}
	if len(names) == 0 {
		return p, nil
	}
	old := map[string]scop.ElemType{}
	q := *p
	q.Arrays = make([]*scop.Array, len(p.Arrays))
	for i, a := range p.Arrays {
		q.Arrays[i] = a
		if slices.Contains(names, a.Name) {
			c := *a
			old[a.Name], c.Type = a.Type, wide
			q.Arrays[i] = &c
		}
	}
	q.Stmts = make([]*scop.Stmt, len(p.Stmts))
	for i, s := range p.Stmts {
		c := *s
		c.Value = widenReads(s.Value, old)
		c.Write.Index = make([]scop.Expr, len(s.Write.Index))
		for k, x := range s.Write.Index {
			c.Write.Index[k] = widenReads(x, old)
		}
		if t, ok := old[s.Write.Array]; ok {
			v := c.Value
			if v.Type() != t {
				v = &scop.Cast{At: v.Position(), X: v, T: t}
			}
			c.Value = &scop.Cast{At: v.Position(), X: v, T: wide}
		}
		q.Stmts[i] = &c
	}
	return &q, names
}

// narrow reports whether t is an integer type narrower than wide.
func narrow(t scop.ElemType) bool {
	switch t {
	case scop.I8, scop.U8, scop.I16, scop.U16:
		return true
	}
	return false
}

// gathered reports whether some statement of p reads array through a
// subscript that reads an array.
func gathered(p *scop.Program, array string) bool {
	for _, s := range p.Stmts {
		for _, r := range scop.Reads(s.Value) {
			if r.Array != array {
				continue
			}
			for _, x := range r.Index {
				if len(scop.Reads(x)) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// widenReads makes every read of a widened array in e load the wide
// element and convert it back to the array's old type.
func widenReads(e scop.Expr, old map[string]scop.ElemType) scop.Expr {
	return scop.Rewrite(e, func(x scop.Expr) scop.Expr {
		r, ok := x.(*scop.Read)
		if !ok {
			return nil
		}
		t, widened := old[r.Array]
		c := *r
		c.Index = make([]scop.Expr, len(r.Index))
		for k, i := range r.Index {
			c.Index[k] = widenReads(i, old)
		}
		if !widened {
			return &c
		}
		c.T = wide
		return &scop.Cast{At: r.At, X: &c, T: t}
	})
}
