package presburger

import "fmt"

// The disjuncts of a set as rows together with the floor definitions of
// their locals, and the converse construction: AST generation (package
// ast) reads loop bounds and guards off them.

// Form is one disjunct of a set: equality rows (r·(1, x) = 0) and
// inequality rows (r·(1, x) >= 0) over the columns [1, params, dims,
// locals]. Divs[k] defines local k as floor(Num·(1, x) / Den) (Num has one
// entry per column; a local only refers to earlier ones); Den == 0 marks
// an existential without a definition. Unlike Constraints, the defining
// inequalities of the locals are not among Ineqs.
type Form struct {
	NParam, NDim int
	Divs         []Div
	Eqs, Ineqs   [][]int64
}

// NCol is the number of columns of the rows: 1 + params + dims + locals.
func (f Form) NCol() int { return 1 + f.NParam + f.NDim + len(f.Divs) }

// Forms returns the non-empty disjuncts of s.
func (s Set) Forms() []Form {
	var out []Form
	for _, b := range s.r.parts {
		if b.empty {
			continue
		}
		n := b.nCol()
		f := Form{NParam: b.nParam, NDim: b.nIn + b.nOut, Eqs: formRows(b.eqs, n), Ineqs: formRows(b.ineqs, n)}
		for _, d := range b.divs {
			nd := Div{Den: d.den}
			if d.den != 0 {
				nd.Num = pad(append([]int64(nil), d.num...), n)
			}
			f.Divs = append(f.Divs, nd)
		}
		out = append(out, f)
	}
	return out
}

// formRows copies rows, padded with zeros to n columns.
func formRows(rows [][]int64, n int) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = pad(append([]int64(nil), r...), n)
	}
	return out
}

// SetFromForms returns the union of the disjuncts forms in the set space
// sp (each form must have sp's numbers of parameters and dimensions).
func SetFromForms(sp Space, forms ...Form) (res Set, err error) {
	defer catch(&err)
	if sp.IsMap || sp.IsParams {
		return Set{}, fmt.Errorf("presburger: SetFromForms: %s is not a set space", sp)
	}
	bud := newBudget()
	out := rel{space: sp}
	for _, f := range forms {
		if f.NParam != sp.NParam() || f.NDim != sp.NOut() {
			return Set{}, fmt.Errorf("presburger: SetFromForms: form with %d parameters and %d dimensions in %s", f.NParam, f.NDim, sp)
		}
		b := newUniverse(f.NParam, 0, f.NDim)
		b.bud = bud
		for range f.Divs {
			b.addDiv(nil, 0)
		}
		n := b.nCol()
		for k, d := range f.Divs {
			if d.Den != 0 {
				if len(d.Num) > n {
					return Set{}, fmt.Errorf("presburger: SetFromForms: local %d has %d columns, want %d", k, len(d.Num), n)
				}
				b.divs[k] = div{num: pad(append([]int64(nil), d.Num...), n), den: d.Den}
			}
		}
		for _, rows := range [][][]int64{f.Eqs, f.Ineqs} {
			for _, r := range rows {
				if len(r) > n {
					return Set{}, fmt.Errorf("presburger: SetFromForms: row of %d columns, want %d", len(r), n)
				}
			}
		}
		b.eqs, b.ineqs = formRows(f.Eqs, n), formRows(f.Ineqs, n)
		if c := b.simplify(); !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return Set{out}, nil
}
