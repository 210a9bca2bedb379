package ast

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// This file converts between presburger sets over the schedule
// dimensions [c0, ..., c(n-1)] and constraints on affs, and writes
// constraints as conditions.

// cons is the constraint a >= 0, or a = 0 when eq.
type cons struct {
	a  aff
	eq bool
}

// space is the set space of the first n schedule dimensions.
func (g *gen) space(n int) presburger.Space {
	dims := make([]string, n)
	for i := range dims {
		dims[i] = fmt.Sprintf("c%d", i)
	}
	return presburger.SetSpace(g.params, presburger.NewTuple("", dims...))
}

// paramIndex returns the index of parameter name, adding it if new.
func (g *gen) paramIndex(name string) int {
	for i, p := range g.params {
		if p == name {
			return i
		}
	}
	g.params = append(g.params, name)
	return len(g.params) - 1
}

// formReader turns the columns of one disjunct into affs: parameters,
// dimensions and the locals with a definition (ok[k] false for the others).
type formReader struct {
	f      presburger.Form
	cols   []aff // per column (index 0, the constant, unused)
	ok     []bool
	nParam int
}

func (g *gen) reader(s presburger.Set, f presburger.Form) *formReader {
	r := &formReader{f: f, nParam: f.NParam}
	n := f.NCol()
	r.cols = make([]aff, n)
	r.ok = make([]bool, n)
	r.ok[0] = true
	r.cols[0] = constAff(1)
	for i, name := range s.Space().Params {
		pi := g.paramIndex(name)
		p := make([]int64, pi+1)
		p[pi] = 1
		r.cols[1+i], r.ok[1+i] = aff{p: p}, true
	}
	for i := 0; i < f.NDim; i++ {
		r.cols[1+f.NParam+i], r.ok[1+f.NParam+i] = dimAff(i), true
	}
	base := 1 + f.NParam + f.NDim
	for k, d := range f.Divs {
		if d.Den == 0 {
			continue
		}
		num, ok := r.row(d.Num)
		if ok {
			r.cols[base+k], r.ok[base+k] = aff{}.addDiv(1, num, d.Den), true
		}
	}
	return r
}

// row is the aff of a row, ok false when it uses an undefined local.
func (r *formReader) row(row []int64) (aff, bool) {
	a := aff{k: row[0]}
	for j := 1; j < len(row); j++ {
		if row[j] == 0 {
			continue
		}
		if !r.ok[j] {
			return aff{}, false
		}
		a = a.plus(r.cols[j], row[j])
	}
	return a, true
}

// disjuncts returns s (over the first n dimensions) as a union of
// conjunctions of constraints; its locals must all be defined (see
// testable).
func (g *gen) disjuncts(s presburger.Set) ([][]cons, error) {
	var out [][]cons
	for _, f := range s.Forms() {
		r := g.reader(s, f)
		var cs []cons
		for k, rows := range [][][]int64{f.Eqs, f.Ineqs} {
			for _, row := range rows {
				a, ok := r.row(row)
				if !ok {
					return nil, fmt.Errorf("ast: condition on an undefined local in %s", s)
				}
				cs = append(cs, cons{a: a, eq: k == 0})
			}
		}
		out = append(out, cs)
	}
	return out, nil
}

// formWriter collects the rows of constraints on affs, giving every
// distinct division a local column.
type formWriter struct {
	np, nd int
	divs   []divTerm // coef unused
	keys   map[string]int
}

func (w *formWriter) ncol() int { return 1 + w.np + w.nd + len(w.divs) }

// local returns the column of floor(num/den), adding it if new.
func (w *formWriter) local(num aff, den int64) int {
	key := fmt.Sprintf("%s/%d", num.key(), den)
	if k, ok := w.keys[key]; ok {
		return 1 + w.np + w.nd + k
	}
	w.row(num) // nested divisions first
	w.divs = append(w.divs, divTerm{num: num, den: den})
	w.keys[key] = len(w.divs) - 1
	return 1 + w.np + w.nd + len(w.divs) - 1
}

// row writes a over the columns; its length grows with the locals.
func (w *formWriter) row(a aff) []int64 {
	type entry struct {
		col int
		v   int64
	}
	var es []entry
	for i, v := range a.p {
		es = append(es, entry{1 + i, v})
	}
	for i, v := range a.c {
		if i >= w.nd && v != 0 {
			panic(fmt.Sprintf("ast: dimension c%d outside a set of %d dimensions", i, w.nd))
		}
		es = append(es, entry{1 + w.np + i, v})
	}
	for _, d := range a.divs {
		es = append(es, entry{w.local(d.num, d.den), d.coef})
	}
	out := make([]int64, w.ncol())
	out[0] = a.k
	for _, e := range es {
		out[e.col] = mustAdd(out[e.col], e.v)
	}
	return out
}

// set builds the set of the first nd dimensions satisfying all of cs.
func (g *gen) set(nd int, cs []cons) (presburger.Set, error) {
	w := &formWriter{np: len(g.params), nd: nd, keys: map[string]int{}}
	var eqs, ineqs [][]int64
	for _, c := range cs {
		if c.eq {
			eqs = append(eqs, w.row(c.a))
		} else {
			ineqs = append(ineqs, w.row(c.a))
		}
	}
	f := presburger.Form{NParam: w.np, NDim: nd, Eqs: eqs, Ineqs: ineqs}
	for _, d := range w.divs {
		f.Divs = append(f.Divs, presburger.Div{Num: w.row(d.num), Den: d.den})
	}
	return presburger.SetFromForms(g.space(nd), f)
}

// condition writes a union of conjunctions as an expression.
func (g *gen) condition(disj [][]cons, nm *names) Expr {
	var ors []Expr
	for _, cs := range disj {
		var ands []Expr
		for _, c := range cs {
			ands = append(ands, consExpr(c, nm))
		}
		ors = append(ors, And(ands...))
	}
	return Or(ors...)
}

// consExpr writes one constraint readably: the innermost iterator (else a
// parameter, else a division) alone on the left with a positive
// coefficient, divisibility as "x % m == 0".
func consExpr(c cons, nm *names) Expr {
	if e, ok := modExpr(c, nm); ok {
		return e
	}
	a := c.a
	lead := func(a aff) (int64, Expr, aff) {
		for i := len(a.c) - 1; i >= 0; i-- {
			if v := a.c[i]; v != 0 {
				return v, nm.dim(i), a.plus(dimAff(i), -v)
			}
		}
		for i, v := range a.p {
			if v != 0 {
				p := make([]int64, i+1)
				p[i] = 1
				return v, Var(nm.params[i]), a.plus(aff{p: p}, -v)
			}
		}
		return 0, Expr{}, a
	}
	v, x, rest := lead(a)
	if v == 0 {
		if len(a.divs) == 0 {
			if c.eq {
				return Int(b2i(a.k == 0))
			}
			return Int(b2i(a.k >= 0))
		}
		return Cmp(map[bool]Op{true: OpEq, false: OpGe}[c.eq], a.expr(nm), Int(0))
	}
	op := OpGe
	if c.eq {
		op = OpEq
	}
	if v < 0 {
		v, rest = -v, rest.scale(-1)
		if !c.eq {
			op = OpLe
		}
	}
	// v*x + rest op 0  <=>  v*x op -rest
	rhs := rest.scale(-1)
	if op == OpLe && rhs.k < 0 && !rhs.isConst() {
		rhs.k++
		op = OpLt
	}
	if op == OpLe && rhs.isConst() && rhs.k < 0 {
		rhs.k++
		op = OpLt
	}
	return Cmp(op, Mul(v, x), rhs.expr(nm))
}

// modExpr recognises t * (y mod m) + K op 0: a constraint whose only
// variable part is one division t*m*floor(y/m) cancelled by -t*m*... ,
// written with y mod m = y - m*floor(y/m).
func modExpr(c cons, nm *names) (Expr, bool) {
	a := c.a
	if len(a.divs) != 1 {
		return Expr{}, false
	}
	d := a.divs[0]
	if d.coef%d.den != 0 {
		return Expr{}, false
	}
	t := d.coef / d.den
	// coef*floor(y/m) = t*y - t*(y mod m)
	rest := aff{k: a.k, p: a.p, c: a.c}.plus(d.num, t)
	if !rest.isConst() {
		return Expr{}, false
	}
	// -t*(y mod m) + K op 0
	u, k := -t, rest.k
	y, m := d.num, d.den
	if c.eq {
		if k%u != 0 {
			return Int(0), true
		}
		v := -k / u
		if v < 0 || v >= m {
			return Int(0), true
		}
		y.k = floorMod(y.k-v, m)
		return Cmp(OpEq, Mod(y.expr(nm), m), Int(0)), true
	}
	// u*r + k >= 0 with r = y mod m in [0, m)
	if u > 0 {
		lo := -floorDiv(k, u)
		if lo <= 0 || lo >= m {
			return Int(b2i(lo <= 0)), true
		}
		return Cmp(OpGe, Mod(y.expr(nm), m), Int(lo)), true
	}
	hi := floorDiv(k, -u)
	if hi >= m-1 || hi < 0 {
		return Int(b2i(hi >= m-1)), true
	}
	return Cmp(OpLe, Mod(y.expr(nm), m), Int(hi)), true
}
