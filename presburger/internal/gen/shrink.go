package gen

// Shrinks returns smaller variants of c, the steps a minimiser can take:
// the expression with one operation replaced by one of its operands, and
// each literal with one piece or one conjunct removed. Definitions the
// expression no longer uses are dropped. Some variants are ill-typed (an
// operand of the wrong kind); a minimiser must check that a variant still
// fails in the same way.
func (c *Case) Shrinks() []*Case {
	var out []*Case
	for _, e := range c.Expr.replacements() {
		v := c.clone()
		v.Expr = e
		out = append(out, v.dropUnused())
	}
	for d, def := range c.Defs {
		for p, piece := range def.Lit.Pieces {
			if len(def.Lit.Pieces) > 1 {
				v := c.clone()
				v.Defs[d].Lit.Pieces = remove(v.Defs[d].Lit.Pieces, p)
				out = append(out, v)
			}
			for k := range piece.Conj {
				v := c.clone()
				v.Defs[d].Lit.Pieces[p].Conj = remove(v.Defs[d].Lit.Pieces[p].Conj, k)
				out = append(out, v)
			}
		}
	}
	return out
}

// dropUnused removes the definitions that c's expression does not mention.
func (c *Case) dropUnused() *Case {
	used := map[string]bool{}
	c.Expr.names(used)
	var defs []Def
	for _, d := range c.Defs {
		if used[d.Name] {
			defs = append(defs, d)
		}
	}
	c.Defs = defs
	return c
}

func remove[T any](s []T, i int) []T {
	return append(append([]T(nil), s[:i]...), s[i+1:]...)
}

// clone copies c deeply enough that variants never share mutable parts
// (expressions are never modified in place, so they are shared).
func (c *Case) clone() *Case {
	v := *c
	v.Defs = make([]Def, len(c.Defs))
	for i, d := range c.Defs {
		v.Defs[i] = Def{Name: d.Name, Lit: Literal{Params: d.Lit.Params, Pieces: make([]Piece, len(d.Lit.Pieces))}}
		for j, p := range d.Lit.Pieces {
			v.Defs[i].Lit.Pieces[j] = Piece{Tuple: p.Tuple, Conj: append([]string(nil), p.Conj...)}
		}
	}
	return &v
}
