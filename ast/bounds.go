package ast

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
)

// bounds is what one loop over dimension d needs: the lower bounds (a
// maximum) and upper bounds (a minimum) as affs of the outer dimensions
// and the parameters, the stride, or the single value when the dimension
// is degenerate.
type bounds struct {
	d int
	// lower and upper hold, for a single disjunct, one group each: the
	// loop runs from max(lower[0]) to min(upper[0]). For a union without
	// a common hull the lower bound is the minimum over the groups of
	// their maxima, the upper bound the maximum of minima.
	lower, upper [][]aff
	// lowRows and upRows are the constraints over [c0..cd] the bounds
	// of each group enforce; rows are the others (stride, value).
	lowRows, upRows [][]cons
	rows            []cons
	// stride > 1: the dimension is offset modulo stride.
	stride int64
	offset aff
	// value is set for a degenerate dimension, with the divisibility
	// condition it needs in guard (nil when value is always integral).
	value *aff
	guard []cons
}

// unbounded reports whether the loop has no upper bound: one empty group.
func (b *bounds) unbounded() bool { return len(b.upper) == 1 && len(b.upper[0]) == 0 }

// single reports whether the loop has plain max/min bounds.
func (b *bounds) single() bool { return len(b.lower) == 1 && len(b.upper) == 1 }

// nonEmpty is the condition (over the outer dimensions) that the loop
// bounds admit a rational value: every lower bound is at most every upper
// bound. When it fails the loop does not run.
func (b *bounds) nonEmpty() []cons {
	if !b.single() || b.value != nil {
		return nil
	}
	return meet(b.d, b.lowRows[0], b.upRows[0])
}

// meet is the condition that lower bound rows lows and upper bound rows
// ups on dimension d admit a rational value (constant rows dropped).
func meet(d int, lows, ups []cons) []cons {
	var out []cons
	for _, l := range lows {
		for _, u := range ups {
			a, c := at(l.a.c, d), -at(u.a.c, d)
			// a*x + f >= 0 and -c*x + h >= 0 meet when c*f + a*h >= 0.
			e := l.a.scale(c).plus(u.a, a)
			if !e.isConst() {
				out = append(out, cons{a: e})
			}
		}
	}
	return out
}

// meetRows is the number of constraints runs would build.
func (b *bounds) meetRows() int {
	n := 0
	for _, lo := range b.lowRows {
		for _, up := range b.upRows {
			n += len(lo) * len(up)
		}
	}
	return n
}

// runs is a set of outer points (over the first d dimensions) outside of
// which a loop with these bounds is empty: for a union of bound groups,
// the points where some group of lower bounds meets some group of upper
// bounds (a disjunction that enforced constraints cannot express).
func (g *gen) runs(b *bounds) (presburger.Set, error) {
	u := presburger.EmptySet(g.space(b.d))
	for _, lo := range b.lowRows {
		for _, up := range b.upRows {
			s, err := g.set(b.d, meet(b.d, lo, up))
			if err == nil {
				u, err = u.Union(s)
			}
			if err != nil {
				return u, err
			}
		}
	}
	return u, nil
}

// boundsCoalesceOps caps the solver steps of the coalesce of a loop's
// pieces (a twentieth of the default operation budget): a few unions make
// pip's integer sampling run for tens of seconds inside the budget
// (randprog's regress/pip-blowup.c), for a merge the hull does without.
const boundsCoalesceOps = 1_000_000

// loopBounds computes the bounds of dimension d over the piece p (a set of
// the first d+1 dimensions), knowing that the outer dimensions satisfy
// build.
func (g *gen) loopBounds(p presburger.Set, build presburger.Set, d int) (*bounds, error) {
	ctx, err := build.InsertDims(d, 1)
	if err != nil {
		return nil, err
	}
	hull := p
	if p.NumBasic() > 1 {
		// Merging is an optimisation here: the simple hull below bounds
		// whatever is left apart.
		if hull, err = p.CoalesceWithin(boundsCoalesceOps); err != nil {
			return nil, err
		}
	}
	if hull.NumBasic() > 1 {
		if hull, err = hull.SimpleHull(); err != nil {
			return nil, err
		}
	}
	b, err := g.boundsOf(hull, ctx, d)
	if err != nil || b == nil {
		return nil, err
	}
	if b.value != nil || len(b.lower[0]) > 0 && len(b.upper[0]) > 0 {
		return b, nil
	}
	if len(b.lower[0]) > 0 && p.NumBasic() == 1 {
		// No upper bound: the loop runs without end, as in isl.
		return b, nil
	}
	// The hull lost a bound: take each disjunct's bounds on that side.
	groups, err := g.groupBounds(p, ctx, d)
	if err != nil || groups == nil {
		return groups, err
	}
	if len(b.lower[0]) > 0 {
		groups.lower, groups.lowRows = b.lower, b.lowRows
	}
	if len(b.upper[0]) > 0 {
		groups.upper, groups.upRows = b.upper, b.upRows
	}
	return groups, nil
}

// groupBounds is the bounds of dimension d over the union p from the
// bounds of each disjunct: from the least lower bound to the greatest
// upper bound.
func (g *gen) groupBounds(p, ctx presburger.Set, d int) (*bounds, error) {
	out := &bounds{d: d, stride: 1}
	var values []*aff
	unbounded := false
	for _, f := range p.Forms() {
		one, err := presburger.SetFromForms(p.Space(), f)
		if err != nil {
			return nil, err
		}
		bb, err := g.boundsOf(one, ctx, d)
		if err != nil {
			return nil, err
		}
		if bb == nil {
			continue
		}
		if bb.value != nil {
			bb.lower, bb.upper = [][]aff{{*bb.value}}, [][]aff{{*bb.value}}
			x := dimAff(d).plus(*bb.value, -1)
			bb.lowRows, bb.upRows = [][]cons{{{a: x}}}, [][]cons{{{a: x.scale(-1)}}}
		}
		if len(bb.lower[0]) == 0 {
			return nil, &UnboundedError{Dim: d, Lower: true, Set: p.String()}
		}
		// A disjunct without an upper bound leaves the whole loop
		// without one (isl's condition 1).
		unbounded = unbounded || len(bb.upper[0]) == 0
		values = append(values, bb.value)
		out.lower = append(out.lower, bb.lower[0])
		out.upper = append(out.upper, bb.upper[0])
		out.lowRows = append(out.lowRows, bb.lowRows[0])
		out.upRows = append(out.upRows, bb.upRows[0])
	}
	if len(out.lower) == 0 {
		return nil, nil
	}
	out.lower, out.lowRows = dedupGroups(out.lower, out.lowRows)
	out.upper, out.upRows = dedupGroups(out.upper, out.upRows)
	if unbounded {
		out.upper, out.upRows = [][]aff{{}}, [][]cons{{}}
	}
	if v := values[0]; v != nil && len(values[0].divs) == 0 {
		same := true
		for _, w := range values[1:] {
			same = same && w != nil && w.equal(*v)
		}
		if same {
			return &bounds{d: d, stride: 1, value: v, rows: []cons{{a: dimAff(d).plus(*v, -1), eq: true}}}, nil
		}
	}
	return out, nil
}

// boundsOf reads the bounds of dimension d from the single disjunct of s
// after removing what ctx implies; nil for an empty set.
func (g *gen) boundsOf(s, ctx presburger.Set, d int) (*bounds, error) {
	s, err := s.Gist(ctx)
	if err != nil {
		return nil, err
	}
	forms := s.Forms()
	if len(forms) == 0 {
		return nil, nil
	}
	f := forms[0]
	r := g.reader(s, f)
	col := 1 + f.NParam + d
	base := 1 + f.NParam + f.NDim
	// Outer locals are defined from the parameters, the outer dimensions
	// and earlier outer locals; the others are eliminated.
	var inner []int
	for k, dv := range f.Divs {
		c := base + k
		if dv.Den == 0 || !r.ok[c] || r.cols[c].usesDim(d) {
			inner = append(inner, c)
			r.ok[c] = false
		}
	}
	eqs, ineqs := copyRows(f.Eqs), copyRows(f.Ineqs)
	b := &bounds{d: d, stride: 1}
	g.findStride(b, r, eqs, col, inner)
	for _, c := range inner {
		if dv := f.Divs[c-base]; dv.Den != 0 {
			lo, hi := divRows(dv, c)
			ineqs = append(ineqs, lo, hi)
		}
	}
	// Weaker bounds (when a local is dropped) are bounds still: the
	// guards below check membership (see the package documentation).
	eqs, ineqs, dropped := eliminateAll(eqs, ineqs, inner)
	if dropped && !bounded(eqs, ineqs, col) {
		return nil, fmt.Errorf("ast: the bounds of dimension %d of %s: eliminating a local takes more than %d constraints", d, s, maxEliminationRows)
	}
	if len(ineqs) > maxRawBoundRows {
		if f2, ok := g.reduceRows(s, f, eqs, ineqs, inner); ok {
			f, r, eqs, ineqs = f2.Form, f2.reader, f2.Eqs, f2.Ineqs
		}
	}
	for _, e := range eqs {
		a := e[col]
		if a == 0 {
			continue
		}
		rest, ok := r.row(withCol(e, col, 0))
		if !ok {
			return nil, fmt.Errorf("ast: bound on an undefined local in %s", s)
		}
		if a < 0 {
			a, rest = -a, rest.scale(-1)
		}
		// a*x + rest = 0
		v := aff{}.addDivX(1, rest.scale(-1), a, true)
		b.value = &v
		b.rows = []cons{{a: dimAff(d).scale(a).plus(rest, 1), eq: true}}
		if a > 1 {
			// -rest must be a multiple of a: -rest - a*floor(-rest/a) = 0.
			b.guard = []cons{{a: rest.scale(-1).plus(v, -a), eq: true}}
		}
		b.stride = 1
		return b, nil
	}
	var lows, ups []aff
	var lowRows, upRows []cons
	for _, in := range ineqs {
		a := in[col]
		if a == 0 {
			continue
		}
		rest, ok := r.row(withCol(in, col, 0))
		if !ok {
			return nil, fmt.Errorf("ast: bound on an undefined local in %s", s)
		}
		row := cons{a: dimAff(d).scale(a).plus(rest, 1)}
		if a > 0 { // x >= ceil(-rest/a) = -floor(rest/a)
			lows = appendAff(lows, aff{}.addDiv(-1, rest, a))
			lowRows = append(lowRows, row)
		} else { // x <= floor(rest/-a)
			ups = appendAff(ups, aff{}.addDiv(1, rest, -a))
			upRows = append(upRows, row)
		}
	}
	if b.stride > 1 {
		for i, l := range lows {
			// The first value >= l in the residue class of offset:
			// offset - stride*floor((offset - l)/stride).
			lows[i] = b.offset.addDiv(-b.stride, b.offset.plus(l, -1), b.stride)
		}
		b.rows = append(b.rows, strideRow(d, b.stride, b.offset))
	}
	b.lower, b.upper = [][]aff{lows}, [][]aff{ups}
	b.lowRows, b.upRows = [][]cons{lowRows}, [][]cons{upRows}
	return b, nil
}

// maxRawBoundRows is the number of inequalities left by eliminating
// inner locals past which boundsOf removes the redundant ones: each
// elimination multiplies rows, most of them implied, and every one left
// becomes a term of a loop bound's min or max.
const maxRawBoundRows = 16

// reducedForm is a disjunct with its column reader.
type reducedForm struct {
	presburger.Form
	reader *formReader
}

// reduceRows is the system eqs, ineqs (over the columns of f, the inner
// locals eliminated) without its redundant constraints, as one form whose
// locals are all defined; ok false where that cannot be had, or saves
// nothing. The set is the same, so its bounds are too.
func (g *gen) reduceRows(s presburger.Set, f presburger.Form, eqs, ineqs [][]int64, inner []int) (reducedForm, bool) {
	base := 1 + f.NParam + f.NDim
	h := presburger.Form{NParam: f.NParam, NDim: f.NDim, Eqs: eqs, Ineqs: ineqs, Divs: slices.Clone(f.Divs)}
	for _, c := range inner {
		h.Divs[c-base] = presburger.Div{} // unconstrained now: dropped
	}
	for _, d := range h.Divs {
		for _, c := range inner {
			if d.Den != 0 && at(d.Num, c) != 0 {
				return reducedForm{}, false // an outer local defined by an inner one
			}
		}
	}
	t, err := presburger.SetFromForms(s.Space(), h)
	if err == nil {
		t, err = t.Simplify()
	}
	if err != nil {
		return reducedForm{}, false
	}
	fs := t.Forms()
	if len(fs) != 1 || len(fs[0].Ineqs) >= len(ineqs) {
		return reducedForm{}, false
	}
	for _, d := range fs[0].Divs {
		if d.Den == 0 {
			return reducedForm{}, false
		}
	}
	return reducedForm{fs[0], g.reader(t, fs[0])}, true
}

// findStride looks for an equality a*x + f + Σ g_k*e_k = 0 with a = ±1
// and inner locals e_k: then x ≡ -a*f modulo gcd(g_k). It keeps the
// largest such modulus.
func (g *gen) findStride(b *bounds, r *formReader, eqs [][]int64, col int, inner []int) {
	for _, e := range eqs {
		a := e[col]
		if a != 1 && a != -1 {
			continue
		}
		m := int64(0)
		for _, c := range inner {
			m = gcd(m, e[c])
		}
		if m <= b.stride {
			continue
		}
		row := withCol(e, col, 0)
		for _, c := range inner {
			row[c] = 0
		}
		f, ok := r.row(row)
		if !ok {
			continue
		}
		off := f.scale(-a)
		// Reduce the offset modulo m where that keeps it affine.
		off.k = floorMod(off.k, m)
		b.stride, b.offset = m, off
	}
}

// appendAff appends a unless it is already in list.
func appendAff(list []aff, a aff) []aff {
	for _, x := range list {
		if x.equal(a) {
			return list
		}
	}
	return append(list, a)
}

func copyRows(rows [][]int64) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = append([]int64(nil), r...)
	}
	return out
}

func withCol(row []int64, col int, v int64) []int64 {
	out := append([]int64(nil), row...)
	out[col] = v
	return out
}

// divRows are the inequalities defining local column c as floor(num/den):
// num - den*e >= 0 and den*e - num + den - 1 >= 0.
func divRows(d presburger.Div, c int) (lo, hi []int64) {
	n := max(len(d.Num), c+1)
	lo = make([]int64, n)
	hi = make([]int64, n)
	copy(lo, d.Num)
	lo[c] = mustAdd(lo[c], -d.Den)
	for j := range lo {
		hi[j] = -lo[j]
	}
	hi[0] = mustAdd(hi[0], d.Den-1)
	return lo, hi
}

// maxEliminationRows bounds the inequalities one Fourier-Motzkin step
// may produce: eliminating many locals in a row multiplies the rows (cloog's
// otl.st of isl's codegen tests reached millions, gigabytes in seconds).
const maxEliminationRows = 4096

// eliminate removes column c from the system over the rationals: by an
// equality where one involves it, else by Fourier-Motzkin. The result
// contains the projection (an over-approximation over the integers). ok
// is false, and the system returned unchanged, when Fourier-Motzkin would
// produce more than maxEliminationRows inequalities.
func eliminate(eqs, ineqs [][]int64, c int) (outEqs, outIneqs [][]int64, ok bool) {
	for i, e := range eqs {
		if e[c] == 0 {
			continue
		}
		var outE, outI [][]int64
		for j, f := range eqs {
			if j != i {
				outE = append(outE, combineRows(f, e, c, false))
			}
		}
		for _, f := range ineqs {
			outI = append(outI, combineRows(f, e, c, true))
		}
		return outE, outI, true
	}
	var lows, ups, rest [][]int64
	for _, f := range ineqs {
		switch {
		case f[c] > 0:
			lows = append(lows, f)
		case f[c] < 0:
			ups = append(ups, f)
		default:
			rest = append(rest, f)
		}
	}
	if len(lows)*len(ups) > maxEliminationRows {
		return eqs, ineqs, false
	}
	for _, l := range lows {
		for _, u := range ups {
			rest = append(rest, combineRows(l, u, c, true))
		}
	}
	return eqs, tightest(rest), true
}

// eliminateAll eliminates the columns cols, the cheapest first (an
// equality, else the fewest pairs of lower and upper bounds): the order
// decides how many rows Fourier-Motzkin makes. A column too costly to
// eliminate is dropped with its rows (dropped is then true): the result
// still contains the projection.
func eliminateAll(eqs, ineqs [][]int64, cols []int) (outEqs, outIneqs [][]int64, dropped bool) {
	left := slices.Clone(cols)
	for len(left) > 0 {
		best, cost := 0, -1
		for i, c := range left {
			if k := eliminationCost(eqs, ineqs, c); cost < 0 || k < cost {
				best, cost = i, k
			}
		}
		c := left[best]
		left = slices.Delete(left, best, best+1)
		var ok bool
		if eqs, ineqs, ok = eliminate(eqs, ineqs, c); !ok {
			ineqs, dropped = dropColumn(ineqs, c), true
		}
	}
	return eqs, ineqs, dropped
}

// eliminationCost is the number of rows eliminating column c makes: 0
// by an equality, else the pairs of a lower and an upper bound.
func eliminationCost(eqs, ineqs [][]int64, c int) int {
	for _, e := range eqs {
		if e[c] != 0 {
			return 0
		}
	}
	lo, hi := 0, 0
	for _, f := range ineqs {
		switch {
		case f[c] > 0:
			lo++
		case f[c] < 0:
			hi++
		}
	}
	return lo * hi
}

// bounded says whether the system bounds column c from both sides.
func bounded(eqs, ineqs [][]int64, c int) bool {
	lo, hi := false, false
	for _, e := range eqs {
		if e[c] != 0 {
			return true
		}
	}
	for _, f := range ineqs {
		lo, hi = lo || f[c] > 0, hi || f[c] < 0
	}
	return lo && hi
}

// dropColumn removes the inequalities that involve column c: a weaker
// system without c, for when eliminating c would take too many rows.
func dropColumn(ineqs [][]int64, c int) [][]int64 {
	var out [][]int64
	for _, f := range ineqs {
		if f[c] == 0 {
			out = append(out, f)
		}
	}
	return out
}

// tightest drops the inequalities another one implies by having the same
// coefficients and a constant no larger (rows are gcd-normalised, the
// constant first), and those with no coefficients that always hold.
// Without it, eliminating several locals in a row multiplies the rows
// (Fourier-Motzkin), and the copies multiply again in every later step.
func tightest(rows [][]int64) [][]int64 {
	best := make(map[string]int, len(rows))
	out := rows[:0:0]
	for _, r := range rows {
		coef := r[1:]
		for len(coef) > 0 && coef[len(coef)-1] == 0 {
			coef = coef[:len(coef)-1]
		}
		if len(coef) == 0 && r[0] >= 0 {
			continue
		}
		key := fmt.Sprint(coef)
		if i, ok := best[key]; ok {
			if r[0] < out[i][0] {
				out[i] = r
			}
			continue
		}
		best[key] = len(out)
		out = append(out, r)
	}
	return out
}

// combineRows returns a multiple of f plus a multiple of p with column c
// zero. For an inequality f (keepSign) the multiple of f is positive, so
// the result is implied; p is an equality or an inequality of opposite
// sign at c.
func combineRows(f, p []int64, c int, keepSign bool) []int64 {
	if f[c] == 0 {
		return normRow(append([]int64(nil), f...), keepSign)
	}
	g := gcd(f[c], p[c])
	mf, mp := abs64(p[c]/g), -f[c]/g
	if p[c] < 0 {
		mp = -mp
	}
	// mf > 0; mf*f[c] + mp*p[c] = |p[c]|/g*f[c] - f[c]/g*|p[c]|*sgn... = 0
	out := make([]int64, max(len(f), len(p)))
	for j := range out {
		out[j] = mustAdd(mustMul(mf, at(f, j)), mustMul(mp, at(p, j)))
	}
	return normRow(out, keepSign)
}

// normRow divides a row by the gcd of its coefficients; for an
// inequality the constant is rounded down, which is exact on integers.
func normRow(r []int64, ineq bool) []int64 {
	g := int64(0)
	for _, v := range r[1:] {
		g = gcd(g, v)
	}
	if g <= 1 {
		return r
	}
	if !ineq && r[0]%g != 0 {
		return r
	}
	r[0] = floorDiv(r[0], g)
	for j := 1; j < len(r); j++ {
		r[j] /= g
	}
	return r
}

// strideRow is c_d ≡ offset (mod stride) as an equality on a division,
// written as isl writes "c mod m = k" for a constant offset, so that the
// same condition in a domain is recognised as implied.
func strideRow(d int, stride int64, offset aff) cons {
	x := dimAff(d)
	if !offset.isConst() {
		x = x.plus(offset, -1)
		return cons{a: x.addDiv(-stride, x, stride), eq: true}
	}
	return cons{a: x.plus(offset, -1).addDiv(-stride, x, stride), eq: true}
}

// dedupGroups collapses bound groups that are all equal into one.
func dedupGroups(groups [][]aff, rows [][]cons) ([][]aff, [][]cons) {
	key := func(g []aff) string {
		var s string
		for _, a := range g {
			s += a.key() + ";"
		}
		return s
	}
	for _, g := range groups[1:] {
		if key(g) != key(groups[0]) {
			return groups, rows
		}
	}
	return groups[:1], rows[:1]
}
