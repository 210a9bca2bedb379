package presburger

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// coalesceLocal runs isl's case analysis (coalesce_local_pair_reuse) on the
// aligned basics 0 and 1.
func (p *pair) coalesceLocal() change {
	if p.info[0] == nil || p.info[1] == nil {
		return noChange
	}
	if !p.computeStatus() {
		p.separated = true
		return noChange
	}
	if ch := p.caseAnalysis(); ch != noChange || p.separated {
		return ch
	}
	return p.hullFuse()
}

// caseAnalysis dispatches on the statuses as isl's
// coalesce_local_pair_reuse does.
func (p *pair) caseAnalysis() change {
	I, J := p.info[0], p.info[1]
	if anyStatus(I.eqSt, stSeparate) {
		p.separated = true
		return p.separatingEquality(0, 1)
	}
	if anyStatus(J.eqSt, stSeparate) {
		p.separated = true
		return p.separatingEquality(1, 0)
	}
	switch {
	case I.allValid():
		return dropSecond
	case J.allValid():
		return dropFirst
	case anyStatus(I.eqSt, stAdjEq):
		return p.checkEqAdjEq(0, 1)
	case anyStatus(J.eqSt, stAdjEq):
		return p.checkEqAdjEq(1, 0)
	case anyStatus(I.eqSt, stAdjIneq) || anyStatus(J.eqSt, stAdjIneq):
		return p.checkAdjEq(0, 1)
	case anyStatus(I.ineqSt, stAdjEq):
		return p.checkIneqAdjEq(0, 1)
	case anyStatus(J.ineqSt, stAdjEq):
		return p.checkIneqAdjEq(1, 0)
	case anyStatus(I.ineqSt, stAdjIneq) || anyStatus(J.ineqSt, stAdjIneq):
		return p.checkAdjIneq(0, 1)
	}
	ch := noChange
	if !anyStatus(I.eqSt, stCut) && !anyStatus(J.eqSt, stCut) {
		ch = p.checkFacets(0, 1)
	}
	if ch == noChange {
		ch = p.checkWrap(0, 1)
	}
	return ch
}

// fuse proposes the basic of the constraints of i and j that are valid for
// the other, plus extra; with checkNumber it refuses a result with more
// constraints than the pair.
func (p *pair) fuse(i, j int, extra [][]int64, checkNumber bool) change {
	f := p.info[i].b.clone()
	f.eqs, f.ineqs = nil, nil
	for _, c := range []*cinfo{p.info[i], p.info[j]} {
		for k, e := range c.b.eqs {
			lo, hi := c.eqSt[2*k] == stValid, c.eqSt[2*k+1] == stValid
			switch {
			case lo && hi:
				f.addEq(e)
			case lo:
				f.addIneq(negRow(e, 0))
			case hi:
				f.addIneq(e)
			}
		}
		for k, in := range c.b.ineqs {
			if c.ineqSt[k] == stValid {
				f.addIneq(in)
			}
		}
	}
	for _, r := range extra {
		f.addIneq(r)
	}
	return p.accept(f, checkNumber)
}

// accept checks a candidate f for the union of the pair (in the aligned
// columns): every constraint must hold on the integer points of both
// basics, so f contains them, and f must have no integer point outside the
// original basics (and the other disjuncts).
func (p *pair) accept(f *basic, checkNumber bool) change {
	for _, c := range p.info {
		for _, e := range f.eqs {
			if !c.intValid(e) || !c.intValid(negRow(e, 0)) {
				return noChange
			}
		}
		for _, in := range f.ineqs {
			if !c.intValid(in) {
				return noChange
			}
		}
	}
	if checkNumber && p.moreConstraints(f) {
		return noChange
	}
	g := f.clone()
	g.forgetDependentDivs()
	if g.simplify(); g.empty {
		return noChange
	}
	if !p.coveredBy(g) {
		return noChange
	}
	clean, tab := g.normalizeLocalsClean(g.reduceClean())
	p.result = newPart(g, clean, tab)
	return fused
}

// coveredBy reports whether g has no integer point outside the union of
// the pair and the other disjuncts.
func (p *pair) coveredBy(g *basic) bool {
	return emptyBeyond(g, append([]*basic{p.orig[0], p.orig[1]}, p.others()...))
}

// hullFuse proposes, beyond isl, the constraints of both basics each
// shifted by the smallest integer that makes it hold on every integer point
// of both (a simple hull of the pair, which therefore contains both), and
// accepts it when it adds no integer point outside the disjuncts, checked
// exactly. The shifts come from the statuses: each constraint holds on its
// own basic and is shifted by its minimum on the other, rounded up (the
// integer points reach no lower); one unbounded there is left out.
func (p *pair) hullFuse() change {
	f := p.info[0].b.clone()
	f.eqs, f.ineqs = nil, nil
	var seen [][]int64 // the rows taken, by their non-constant part
	add := func(r []int64, low lowBound, other *cinfo) {
		for _, q := range seen {
			if slices.Equal(q[1:], r[1:]) {
				return
			}
		}
		seen = append(seen, r)
		if low.ok && low.v < 0 && usesLocal(other.b, r) && other.intValidAfterAll(r) {
			// The rational minimum below 0 only reflects the relaxed
			// locals: on the integer points the row holds as it is.
			low.v = 0
		}
		if low.ok {
			f.addIneq(shifted(r, arith.Neg(low.v)))
		}
	}
	for k, c := range p.info {
		other := p.info[1-k]
		for l, in := range c.b.ineqs {
			add(in, c.ineqLow[l], other)
		}
		for l, e := range c.b.eqs {
			add(e, c.eqLow[2*l+1], other)
			add(negRow(e, 0), c.eqLow[2*l], other)
		}
	}
	g := f.clone()
	g.forgetDependentDivs()
	if g.simplify(); g.empty {
		return noChange
	}
	// Every constraint holds on the integer points of both aligned basics
	// by construction, so g contains both; only the converse needs checking.
	if !p.coveredBy(g) {
		return noChange
	}
	clean, tab := g.normalizeLocalsClean(g.reduceClean())
	p.result = newPart(g, clean, tab)
	return fused
}

// usesLocal reports whether row involves a local of b.
func usesLocal(b *basic, row []int64) bool { return !isZeroRow(row[1+b.nVar():]) }

// moreConstraints reports whether f has more irredundant constraints than
// the two basics together (equalities count twice, as in isl).
func (p *pair) moreConstraints(f *basic) bool {
	nDef := 0
	for _, d := range f.divs {
		if d.den != 0 {
			nDef++
		}
	}
	old := 4 * nDef
	for _, c := range p.info {
		old += 2*len(c.b.eqs) + len(c.b.ineqs)
	}
	eqs, ineqs := f.system()
	red, _, empty := simplex.Reduce(eqs, ineqs, f.nSolverVars(), f.solver())
	if empty {
		return false
	}
	n := 2*len(f.eqs) + 2*nDef
	for l := range f.ineqs {
		if !red[l] {
			n++
		}
	}
	return n > old
}

// checkFacets fuses i and j when all constraints are valid or cut and the
// facet of each cut constraint of i satisfies the cut constraints of j
// (isl's check_facets).
func (p *pair) checkFacets(i, j int) change {
	I, J := p.info[i], p.info[j]
	for k, st := range I.ineqSt {
		if st != stCut {
			continue
		}
		snap := I.tab.Snapshot()
		I.tab.AddEq(I.b.ineqs[k])
		ok := true
		for l, st2 := range J.ineqSt {
			if st2 == stCut && !validOn(I.tab, J.b.ineqs[l]) {
				ok = false
				break
			}
		}
		I.tab.Rollback(snap)
		if !ok {
			return noChange
		}
	}
	return p.fuse(i, j, nil, false)
}

// intValid reports whether row >= 0 holds on every integer point of c.b:
// rationally (one minimization), or else because c.b has no integer point
// with row <= -1 (wrapping may produce constraints that only the integer
// points satisfy).
func (c *cinfo) intValid(row []int64) bool {
	if validOn(c.tab, row) {
		return true
	}
	x := c.b.clone()
	x.addIneq(negRow(row, 1))
	return x.isEmpty()
}

// intValidAfterAll is intValid for a row known not to hold on the
// rational points of c: a point of c beyond it is first looked for by a
// short branch and bound in c's tableau.
func (c *cinfo) intValidAfterAll(row []int64) bool {
	snap := c.tab.Snapshot()
	c.tab.AddIneq(negRow(row, 1))
	nodes := branchNodes(c.tab)
	x, done := branchSample(c.tab, &nodes)
	c.tab.Rollback(snap)
	if x != nil || done {
		return x == nil
	}
	b := c.b.clone()
	b.addIneq(negRow(row, 1))
	return b.isEmpty()
}

// contains reports whether all constraints of c hold on t.
func (c *cinfo) contains(t *simplex.Tableau) bool {
	if t.Empty() {
		return true
	}
	for _, e := range c.b.eqs {
		if !validOn(t, e) || !validOn(t, negRow(e, 0)) {
			return false
		}
	}
	for _, in := range c.b.ineqs {
		if !validOn(t, in) {
			return false
		}
	}
	return true
}

// isAdjIneqExtension handles i with a single inequality k adjacent to j and
// all other constraints valid: the valid ridges of k are first wrapped
// around j to fit it more tightly; if the part beyond k, restricted by the
// constraints of j valid for i and these wraps, lies in j, then i and j fuse
// (isl's is_adj_ineq_extension).
func (p *pair) isAdjIneqExtension(i, j int) change {
	I, J := p.info[i], p.info[j]
	k := findStatus(I.ineqSt, stAdjIneq)
	if k < 0 {
		return noChange
	}
	w := p.newWraps()
	if !p.wrapsAroundFacet(w, i, k, J.b, true) {
		w.rows = nil
	}
	t := I.b.clone()
	t.ineqs[k] = negRow(I.b.ineqs[k], 1)
	for l, in := range J.b.ineqs {
		if J.ineqSt[l] == stValid {
			t.addIneq(in)
		}
	}
	for _, r := range w.rows {
		t.addIneq(r)
	}
	tab := t.tableau()
	if (!tab.Empty() && !detectConstants(tab)) || J.contains(tab) {
		return p.fuse(i, j, w.rows, false)
	}
	return noChange
}

// detectConstants fixes every variable of t that takes a single integer
// value; it reports false when some variable takes no integer value (t has
// no integer point).
func detectConstants(t *simplex.Tableau) bool {
	n := t.NumVars()
	for v := 0; v < n; v++ {
		obj := make([]int64, 1+n)
		obj[1+v] = 1
		lo, lden, st := t.Min(obj)
		if st != simplex.Optimal {
			continue
		}
		hi, hden, st := t.Max(obj)
		if st != simplex.Optimal {
			continue
		}
		l, h := arith.CeilDiv(lo, lden), arith.FloorDiv(hi, hden)
		if l > h {
			return false
		}
		if l == h {
			obj[0] = arith.Neg(l)
			t.AddEq(obj)
		}
	}
	return true
}

// checkAdjIneq handles pairs with inequalities adjacent to inequalities
// (isl's check_adj_ineq).
func (p *pair) checkAdjIneq(i, j int) change {
	I, J := p.info[i], p.info[j]
	ci, cj := countStatus(I.ineqSt, stAdjIneq), countStatus(J.ineqSt, stAdjIneq)
	if ci != 1 && cj != 1 {
		return noChange
	}
	cutI := anyStatus(I.eqSt, stCut) || anyStatus(I.ineqSt, stCut)
	cutJ := anyStatus(J.eqSt, stCut) || anyStatus(J.ineqSt, stCut)
	if !cutI && !cutJ && ci == 1 && cj == 1 {
		return p.fuse(i, j, nil, false)
	}
	if ci == 1 && !cutI {
		if ch := p.isAdjIneqExtension(i, j); ch != noChange {
			return ch
		}
	}
	if cj == 1 && !cutJ {
		return p.isAdjIneqExtension(j, i)
	}
	return noChange
}

// separatingEquality handles i with an equality separating it from j: j may
// still be an extension of i (isl's separating_equality).
func (p *pair) separatingEquality(i, j int) change {
	J := p.info[j]
	if !allStatus(J.eqSt, stValid) {
		return noChange
	}
	adj := 0
	for _, st := range J.ineqSt {
		switch st {
		case stValid:
		case stAdjIneq:
			adj++
		default:
			return noChange
		}
	}
	if adj != 1 {
		return noChange
	}
	return p.isAdjIneqExtension(j, i)
}

// checkAdjEq handles an equality of one basic adjacent to an inequality of
// the other (isl's check_adj_eq).
func (p *pair) checkAdjEq(i, j int) change {
	I, J := p.info[i], p.info[j]
	if anyStatus(I.eqSt, stAdjIneq) && anyStatus(J.eqSt, stAdjIneq) {
		return noChange
	}
	if anyStatus(I.eqSt, stAdjIneq) {
		return p.checkAdjEq(j, i)
	}
	// j has an equality adjacent to an inequality of i.
	if countStatus(I.ineqSt, stAdjEq) != 1 {
		if I.allValidOrCut() {
			return p.canWrapInSet(i, j)
		}
		return noChange
	}
	if anyStatus(I.eqSt, stCut) {
		return noChange
	}
	if anyStatus(J.ineqSt, stAdjEq) || anyStatus(I.ineqSt, stAdjIneq) || anyStatus(J.ineqSt, stAdjIneq) {
		return noChange
	}
	return p.checkSingleAdjEq(i, j)
}

// checkSingleAdjEq handles i with exactly one inequality k adjacent to an
// equality of j: relax k (and the cut constraints of i, if relaxing them by
// one makes them valid) to extend i over j, or wrap j into i.
func (p *pair) checkSingleAdjEq(i, j int) change {
	I, J := p.info[i], p.info[j]
	k := findStatus(I.ineqSt, stAdjEq)
	relax := []int{k}
	try := true
	nCut := 0
	for l, st := range I.ineqSt {
		if st != stCut {
			continue
		}
		nCut++
		if !validOn(J.tab, shifted(I.b.ineqs[l], 1)) {
			try = false
		}
		relax = append(relax, l)
	}
	if try {
		r := I.b.clone()
		for _, l := range relax {
			r.ineqs[l][0] = arith.Add(r.ineqs[l][0], 1)
		}
		if ch := p.accept(r, false); ch != noChange {
			return ch
		}
	}
	return p.canWrapInFacet(i, j, k, nCut > 0)
}
