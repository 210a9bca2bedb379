package scop

import "sort"

// ConstantArrays lists the temporary arrays whose contents are the same at
// every run of the program, whatever its inputs and parameters: every
// statement writing one has a domain with no parameter in its
// constraints, and its value and subscripts name no parameter and read
// only such arrays (a lookup table computed from constants, as
// camera_pipe's tone curve). Code generation may compute them once and
// keep them between calls. Sorted by name.
func (p *Program) ConstantArrays() []string {
	writers := map[string][]*Stmt{}
	for _, s := range p.Stmts {
		writers[s.Write.Array] = append(writers[s.Write.Array], s)
	}
	constant := map[string]bool{}
	for _, a := range p.Arrays {
		if !a.LiveIn && !a.LiveOut && a.Rank() > 0 && len(writers[a.Name]) > 0 {
			constant[a.Name] = true
		}
	}
	// Drop arrays until every writer of those left reads only those left:
	// a fixed point, since dropping one can only disqualify others.
	for changed := true; changed; {
		changed = false
		for name := range constant {
			for _, s := range writers[name] {
				if !constantStmt(s, constant) {
					delete(constant, name)
					changed = true
					break
				}
			}
		}
	}
	out := make([]string, 0, len(constant))
	for name := range constant {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// constantStmt reports whether s computes the same instances and values at
// every run, given that the arrays in constant do.
func constantStmt(s *Stmt, constant map[string]bool) bool {
	for _, c := range s.Domain.Constraints() {
		for _, rows := range [][][]int64{c.Eqs, c.Ineqs} {
			for _, r := range rows {
				for _, v := range r[1 : 1+c.NParam] {
					if v != 0 {
						return false
					}
				}
			}
		}
	}
	ok := true
	visit := func(e Expr) bool {
		switch e := e.(type) {
		case *Param:
			ok = false
		case *Read:
			if !constant[e.Array] {
				ok = false
			}
		}
		return ok
	}
	Walk(s.Value, visit)
	for _, i := range s.Write.Index {
		Walk(i, visit)
	}
	return ok
}
