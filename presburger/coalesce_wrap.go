package presburger

import (
	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// shifted returns row with c added to its constant.
func shifted(row []int64, c int64) []int64 {
	out := append([]int64(nil), row...)
	out[0] = arith.Add(out[0], c)
	return out
}

// wraps collects wrapping constraints, whose coefficients are bounded by
// the largest coefficient of the constraints they may replace (isl's
// bounded wrapping).
type wraps struct {
	rows [][]int64
	max  int64
}

func (p *pair) newWraps() *wraps {
	w := &wraps{}
	for _, c := range p.info {
		for l, e := range c.b.eqs {
			if c.eqSt[2*l] != stValid || c.eqSt[2*l+1] != stValid {
				w.bound(e)
			}
		}
		for l, in := range c.b.ineqs {
			if c.ineqSt[l] != stValid {
				w.bound(in)
			}
		}
	}
	return w
}

func (w *wraps) bound(row []int64) {
	for _, v := range row[1:] {
		if a := arith.AbsInt(v); a > w.max {
			w.max = a
		}
	}
}

func (w *wraps) allow(row []int64) bool {
	for _, v := range row[1:] {
		if arith.AbsInt(v) > w.max {
			return false
		}
	}
	return true
}

// addWraps wraps every constraint of c that is not valid for the other
// basic (and not marked in skip) around bound so that it includes set, and
// appends the results. It reports false when a wrap fails.
func (p *pair) addWraps(w *wraps, c *cinfo, skip []bool, bound []int64, set *basic) bool {
	return p.addSelectedWraps(w, c, skip, bound, set, false)
}

// addSelectedWraps is addWraps that, with addValid, also wraps the valid
// inequalities to fit set more tightly, ignoring those that fail (isl's
// add_selected_wraps).
func (p *pair) addSelectedWraps(w *wraps, c *cinfo, skip []bool, bound []int64, set *basic, addValid bool) bool {
	add := func(row []int64) bool {
		if proportional(row, bound) || proportional(negRow(row, 0), bound) {
			return true
		}
		wr := wrapFacet(set, bound, row)
		if wr == nil || proportional(wr, bound) || !w.allow(wr) {
			return false
		}
		w.rows = append(w.rows, wr)
		return true
	}
	for l, in := range c.b.ineqs {
		valid := c.ineqSt[l] == stValid
		if (valid && !addValid) || (skip != nil && skip[l]) {
			continue
		}
		if !add(in) && !valid {
			return false
		}
	}
	for l, e := range c.b.eqs {
		if proportional(e, bound) || proportional(negRow(e, 0), bound) {
			continue
		}
		if c.eqSt[2*l] != stValid && !add(negRow(e, 0)) {
			return false
		}
		if c.eqSt[2*l+1] != stValid && !add(e) {
			return false
		}
	}
	return true
}

// proportional reports whether a is a positive multiple of b.
func proportional(a, b []int64) bool {
	var ra, rb int64 // a = (ra/rb) * b
	for k := range a {
		if (a[k] == 0) != (b[k] == 0) {
			return false
		}
		if a[k] == 0 {
			continue
		}
		if (a[k] > 0) != (b[k] > 0) {
			return false
		}
		if ra == 0 {
			ra, rb = a[k], b[k]
			continue
		}
		// a[k]*rb == b[k]*ra, compared without overflow through big
		// enough checks: fall back to exact division where possible.
		if !sameRatio(a[k], b[k], ra, rb) {
			return false
		}
	}
	return ra != 0
}

// sameRatio reports whether x/y == u/v for non-zero values.
func sameRatio(x, y, u, v int64) bool {
	gx := arith.GCD(x, y)
	gu := arith.GCD(u, v)
	return x/gx == u/gu && y/gx == v/gu
}

// redundantOn returns the stored inequalities of b that are redundant once
// the equality eq holds (greedily, as isl_tab_detect_redundant) and whether
// b is then rationally empty.
func redundantOn(b *basic, eq []int64) (red []bool, empty bool) {
	eqs, ineqs := b.system()
	eqs = append(append([][]int64(nil), eqs...), eq)
	r, _, e := simplex.Reduce(eqs, ineqs, b.nSolverVars(), b.solver())
	return r[:len(b.ineqs)], e
}

// canWrapInFacet handles i with inequality k adjacent to an equality of j:
// wrap the constraints of j around the relaxed k to include i and, with
// wrapFacet, the constraints of the facet of k around it to include j
// (isl's can_wrap_in_facet).
func (p *pair) canWrapInFacet(i, j, k int, wrapFacet bool) change {
	I, J := p.info[i], p.info[j]
	bound := shifted(I.b.ineqs[k], 1)
	w := p.newWraps()
	w.rows = [][]int64{bound}
	if !p.addWraps(w, J, nil, bound, I.b) {
		return noChange
	}
	if wrapFacet && !p.wrapsAroundFacet(w, i, k, J.b, false) {
		return noChange
	}
	return p.fuse(i, j, w.rows, false)
}

// wrapsAroundFacet wraps the constraints of basic i that bound the facet of
// its inequality k around that facet so that they include set, and keeps
// those valid for i (isl's add_selected_wraps_around_facet). Without
// addValid only the constraints not valid for the other basic are wrapped
// and every one must succeed; with addValid the valid ones are wrapped too,
// to fit set more tightly, and failures are dropped.
func (p *pair) wrapsAroundFacet(w *wraps, i, k int, set *basic, addValid bool) bool {
	I := p.info[i]
	red, empty := redundantOn(I.b, I.b.ineqs[k])
	if empty {
		return addValid
	}
	for l, st := range I.ineqSt {
		if st == stCut && red[l] {
			return false
		}
	}
	n := len(w.rows)
	if !p.addSelectedWraps(w, I, red, negRow(I.b.ineqs[k], 0), set, addValid) {
		return false
	}
	kept := w.rows[:n]
	for _, r := range w.rows[n:] {
		if validOn(I.tab, r) {
			kept = append(kept, r)
		} else if !addValid {
			return false
		}
	}
	w.rows = kept
	return true
}

// checkIneqAdjEq handles j lying on a hyperplane adjacent to i: i has one
// inequality adjacent to (a combination of) the equalities of j and all its
// other constraints valid; wrap j into i (isl's check_ineq_adj_eq).
func (p *pair) checkIneqAdjEq(i, j int) change {
	I := p.info[i]
	if anyStatus(I.eqSt, stCut) || anyStatus(I.ineqSt, stCut) || anyStatus(I.ineqSt, stAdjIneq) {
		return noChange
	}
	if countStatus(I.ineqSt, stAdjEq) != 1 {
		return noChange
	}
	return p.canWrapInFacet(i, j, findStatus(I.ineqSt, stAdjEq), false)
}

// checkEqAdjEq handles an equality of i adjacent to j (j lies where it is
// -1 or 1): wrap both basics around the hyperplanes between them (isl's
// check_eq_adj_eq).
func (p *pair) checkEqAdjEq(i, j int) change {
	I, J := p.info[i], p.info[j]
	k := findStatus(I.eqSt, stAdjEq)
	e := I.b.eqs[k/2]
	bound := append([]int64(nil), e...)
	if k%2 == 0 {
		bound = negRow(e, 0)
	}
	bound[0] = arith.Add(bound[0], 1)
	w := p.newWraps()
	w.rows = [][]int64{bound}
	if !p.addWraps(w, J, nil, bound, I.b) {
		return noChange
	}
	bound2 := negRow(bound, -1)
	w.rows = append(w.rows, bound2)
	if !p.addWraps(w, I, nil, bound2, J.b) {
		return noChange
	}
	return p.fuse(i, j, w.rows, false)
}

// checkWrap tries to wrap j into i or i into j (isl's check_wrap).
func (p *pair) checkWrap(i, j int) change {
	if ch := p.canWrapInSet(i, j); ch != noChange {
		return ch
	}
	return p.canWrapInSet(j, i)
}

// canWrapInSet handles j sticking out of i by at most one at each cut
// constraint of i: relax the cut constraints and wrap the parts of j beyond
// them into i (isl's can_wrap_in_set and wrap_in_facets).
func (p *pair) canWrapInSet(i, j int) change {
	I, J := p.info[i], p.info[j]
	var cuts [][]int64
	for l, e := range I.b.eqs {
		if I.eqSt[2*l] == stCut {
			cuts = append(cuts, negRow(e, 0))
		}
		if I.eqSt[2*l+1] == stCut {
			cuts = append(cuts, e)
		}
	}
	for l, in := range I.b.ineqs {
		if I.ineqSt[l] == stCut {
			cuts = append(cuts, in)
		}
	}
	if len(cuts) == 0 {
		return noChange
	}
	for _, t := range cuts {
		if !validOn(J.tab, shifted(t, 1)) {
			return noChange
		}
	}
	w := p.newWraps()
	for _, t := range cuts {
		r := shifted(t, 1)
		red, empty := redundantOn(J.b, r)
		if empty {
			w.rows = append(w.rows, t)
			continue
		}
		w.rows = append(w.rows, r)
		if !p.addWraps(w, J, red, r, I.b) {
			return noChange
		}
	}
	return p.fuse(i, j, w.rows, true)
}
