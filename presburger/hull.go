package presburger

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// AffineHull returns the smallest affine subspace containing the integer
// points of s, as a set described by equalities only (over the parameters
// and dimensions). It samples affinely independent integer points, as isl
// does: starting from one point, for each equality of the hull of the points
// found so far it looks for a point of s off that hyperplane; when there is
// none, the equality holds on all of s. The affine hull of the empty set is
// empty.
func (s Set) AffineHull() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{relFromBasic(s.r.with(bud).space, s.r.with(bud).affineHull())}, nil
}

// AffineHull returns the smallest affine subspace containing the pairs of
// m; see Set.AffineHull.
func (m Map) AffineHull() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{relFromBasic(m.r.with(bud).space, m.r.with(bud).affineHull())}, nil
}

// SimpleHull returns a single disjunct containing s, made of the
// constraints of the disjuncts of s themselves: each constraint of any
// disjunct, shifted by the smallest integer that makes it hold on all
// integer points of all disjuncts (a simplex minimization per disjunct), and
// the affine hull. When all locals are defined, the disjuncts are first
// given a common list of local definitions, so that stride constraints
// shared by all disjuncts survive; otherwise constraints involving locals
// are left out. A single disjunct is its own simple hull.
func (s Set) SimpleHull() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{relFromBasic(s.r.with(bud).space, s.r.with(bud).simpleHull())}, nil
}

// SimpleHull returns a single disjunct containing m; see Set.SimpleHull.
func (m Map) SimpleHull() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{relFromBasic(m.r.with(bud).space, m.r.with(bud).simpleHull())}, nil
}

// ConvexHull returns the smallest rational polyhedron containing s: the
// closure of the convex hull of the rational relaxations of its disjuncts,
// with locals projected out (constant terms are then rounded to the
// integers, which keeps every integer point). It is an over-approximation of
// s by definition. It is built disjunct by disjunct, conv(conv(P1 ∪ P2) ∪
// P3) and so on, each step by Fourier-Motzkin elimination on the Cayley
// embedding x = y_1 + y_2, λ_1 + λ_2 = 1, λ_k >= 0, A_k·y_k + b_k·λ_k >= 0
// (Balas' formulation): the equalities remove n+1 variables by
// substitution, and the other n + 1 (plus the locals of the disjunct) are
// eliminated one at a time, choosing the variable with the fewest new
// constraints and removing redundant constraints with the simplex after
// every step. A step costs a few simplex runs per constraint when the
// constraints stay few, which is the case for loop-nest shapes, but is
// exponential in the worst case (each elimination may square the number of
// constraints); it is capped by the operation budget (ErrBudget) and may
// fail with ErrOverflow on large coefficients.
func (s Set) ConvexHull() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{relFromBasic(s.r.with(bud).space, s.r.with(bud).convexHull())}, nil
}

// ConvexHull returns the rational convex hull of m; see Set.ConvexHull.
func (m Map) ConvexHull() (res Map, err error) { return m.ConvexHullWithin(0) }

// ConvexHullWithin is ConvexHull that also fails with ErrBudget once its
// simplex pivots have updated more than maxEntries tableau entries (0:
// no such bound). The pivots the operation budget counts can each cost
// a tableau of thousands of constraints when an elimination multiplies
// them; a caller for whom the hull is an optimisation bounds its real
// work with this (loop-nest hulls update a few thousand entries).
func (m Map) ConvexHullWithin(maxEntries int64) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	if maxEntries > 0 {
		bud.CapEntries, bud.Entries = true, maxEntries
	}
	return Map{relFromBasic(m.r.with(bud).space, m.r.with(bud).convexHull())}, nil
}

// Bound is an affine bound on a set dimension in terms of the parameters:
// the value (Σ Coef[i]·param_i + Const) / Den, with Den > 0 and one
// coefficient per parameter (Coef is nil for a parameter-free set). A lower
// bound means dim >= ceil(value), an upper bound dim <= floor(value).
type Bound struct {
	Coef  []int64
	Const int64
	Den   int64
}

// DimBox is the range of one set dimension: it is at least every bound in
// Lower and at most every bound in Upper; an empty list means unbounded in
// that direction.
type DimBox struct {
	Lower, Upper []Bound
}

// Range returns the constant bounds of the dimension (the tightest ones
// when there are several), with ok flags false when the dimension has no
// constant bound on that side.
func (d DimBox) Range() (lo, hi int64, hasLo, hasHi bool) {
	for _, b := range d.Lower {
		if v, ok := b.constant(true); ok && (!hasLo || v > lo) {
			lo, hasLo = v, true
		}
	}
	for _, b := range d.Upper {
		if v, ok := b.constant(false); ok && (!hasHi || v < hi) {
			hi, hasHi = v, true
		}
	}
	return lo, hi, hasLo, hasHi
}

// constant returns the rounded value of a parameter-free bound.
func (b Bound) constant(lower bool) (int64, bool) {
	for _, c := range b.Coef {
		if c != 0 {
			return 0, false
		}
	}
	if lower {
		return arith.CeilDiv(b.Const, b.Den), true
	}
	return arith.FloorDiv(b.Const, b.Den), true
}

// BoxHull returns, for every set dimension of s, bounds containing all its
// points (nil for the empty set). For a parameter-free set the bounds are
// exact: the integer minimum and maximum over s, found with the simplex and
// integer sampling (binary search on the bound). For a parametric set they
// are affine bounds in the parameters, derived from the simple hull of the
// projection of s onto the parameters and that dimension; several bounds on
// one side mean their maximum (lower) or minimum (upper).
func (s Set) BoxHull() (box []DimBox, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.r.with(bud).boxHull(), nil
}

// affineHull returns the affine hull of the integer points of r as a basic
// without locals.
func (r rel) affineHull() *basic {
	np, ni, no := r.dims()
	nv := np + ni + no
	var eqs [][]int64
	have := false
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		if !have {
			p := b.sample()
			if p == nil {
				continue
			}
			have = true
			for j := 0; j < nv; j++ {
				e := make([]int64, 1+nv)
				e[0], e[1+j] = arith.Neg(p[1+j]), 1
				eqs = append(eqs, e)
			}
		}
		// The equalities before k hold on b: a point p of b leaves each
		// a multiple of itself (e(p) = 0), so they need no new test.
		for k := 0; k < len(eqs); {
			p := sampleOff(b, eqs[k])
			if p == nil {
				k++
				continue
			}
			eqs = addHullPoint(eqs, k, p)
		}
	}
	if !have {
		return newEmpty(np, ni, no)
	}
	h := newUniverse(np, ni, no)
	h.eqs = eqs
	return h.simplify()
}

// sampleOff returns the variables of an integer point of b where the
// affine function e (over the variables) is not zero, or nil.
func sampleOff(b *basic, e []int64) []int64 {
	for _, row := range [][]int64{shifted(e, -1), negRow(e, 1)} {
		c := b.clone()
		c.addIneq(row)
		if p := c.simplify().sample(); p != nil {
			return p[1 : 1+b.nVar()]
		}
	}
	return nil
}

// addHullPoint updates the equalities of an affine hull for a new point p
// that violates equality k: every other equality e becomes
// e_k(p)·e - e(p)·e_k, which vanishes on the old points and on p.
func addHullPoint(eqs [][]int64, k int, p []int64) [][]int64 {
	val := func(e []int64) int64 {
		v := e[0]
		for j, x := range p {
			v = arith.AddMul(v, e[1+j], x)
		}
		return v
	}
	vk := val(eqs[k])
	var out [][]int64
	for l, e := range eqs {
		if l == k {
			continue
		}
		v := val(e)
		row := make([]int64, len(e))
		for j := range e {
			row[j] = arith.Sub(arith.Mul(vk, e[j]), arith.Mul(v, eqs[k][j]))
		}
		if g := arith.GCDVec(row); g > 1 {
			for j := range row {
				row[j] /= g
			}
		}
		out = append(out, row)
	}
	return out
}

// simpleHull returns one basic containing the integer points of r, made of
// the constraints of its disjuncts shifted to hold on all of them.
func (r rel) simpleHull() *basic {
	np, ni, no := r.dims()
	var parts []*basic
	for _, b := range r.parts {
		if c := prepareBasic(b); c != nil {
			parts = append(parts, c)
		}
	}
	switch len(parts) {
	case 0:
		return newEmpty(np, ni, no)
	case 1:
		return parts[0]
	}
	nv := np + ni + no
	aligned, _, ok := alignAll(parts)
	h := newUniverse(np, ni, no)
	if ok {
		h = aligned[0].clone()
		h.eqs, h.ineqs = nil, nil
	} else {
		aligned = parts
	}
	tabs := make([]*simplex.Tableau, len(aligned))
	for k, b := range aligned {
		tabs[k] = b.tableau()
	}
	seen := map[string]bool{}
	for _, b := range aligned {
		rows := append([][]int64(nil), b.ineqs...)
		for _, e := range b.eqs {
			rows = append(rows, e, negRow(e, 0))
		}
		for _, row := range rows {
			if !ok && !isZeroRow(row[1+nv:]) {
				continue
			}
			dir := append([]int64(nil), row...)
			dir[0] = 0
			if !ok {
				dir = dir[:1+nv]
			}
			if key := rowKey(dir); seen[key] {
				continue
			} else {
				seen[key] = true
			}
			if lo, bounded := minOverAll(aligned, tabs, dir); bounded {
				c := append([]int64(nil), dir...)
				c[0] = arith.Neg(lo)
				h.addIneq(c)
			}
		}
	}
	for _, e := range r.affineHull().eqs {
		h.addEq(e)
	}
	return h.reduce()
}

// minOverAll returns the smallest integer not above the rational minimum of
// the affine function dir over every basic (tabs are their tableaux), or
// false when it is unbounded below on one of them.
func minOverAll(bs []*basic, tabs []*simplex.Tableau, dir []int64) (int64, bool) {
	var lo int64
	for k, t := range tabs {
		obj := make([]int64, bs[k].nCol())
		copy(obj, dir)
		num, den, st := t.Min(obj)
		if st != simplex.Optimal {
			return 0, false
		}
		if m := arith.CeilDiv(num, den); k == 0 || m < lo {
			lo = m
		}
	}
	return lo, true
}

// boxHull returns the bounds of every set dimension of r (nil when empty).
func (r rel) boxHull() []DimBox {
	np, ni, no := r.dims()
	if r.space.IsMap || ni != 0 {
		panic(internalError{fmt.Errorf("presburger: box hull of a map")})
	}
	var parts []*basic
	for _, b := range r.parts {
		if c := prepareBasic(b); c != nil {
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	box := make([]DimBox, no)
	if np == 0 {
		for d := 0; d < no; d++ {
			obj := make([]int64, 1+no)
			obj[1+d] = 1
			if lo, ok := unionIntMin(parts, obj); ok {
				box[d].Lower = []Bound{{Const: lo, Den: 1}}
			}
			if hi, ok := unionIntMin(parts, negRow(obj, 0)); ok {
				box[d].Upper = []Bound{{Const: arith.Neg(hi), Den: 1}}
			}
		}
		return box
	}
	for d := 0; d < no; d++ {
		pr := r.projectOut(DimOut, d+1, no-d-1).projectOut(DimOut, 0, d)
		h := pr.simpleHull()
		col := 1 + np
		rows := append([][]int64(nil), h.ineqs...)
		for _, e := range h.eqs {
			rows = append(rows, e, negRow(e, 0))
		}
		for _, row := range rows {
			a := row[col]
			if a == 0 || !isZeroRow(row[col+1:]) {
				continue
			}
			// a*x + c·params + k >= 0 bounds x by (-c·params - k)/a.
			if a > 0 {
				neg := negRow(row[:col], 0)
				box[d].Lower = append(box[d].Lower, Bound{Coef: neg[1:], Const: neg[0], Den: a})
			} else {
				c := append([]int64(nil), row[:col]...)
				box[d].Upper = append(box[d].Upper, Bound{Coef: c[1:], Const: c[0], Den: arith.Neg(a)})
			}
		}
	}
	return box
}

// unionIntMin returns the minimum of the affine function obj (over the
// variables) on the integer points of the non-empty basics, or false when
// it is unbounded below.
func unionIntMin(parts []*basic, obj []int64) (int64, bool) {
	var best int64
	for k, b := range parts {
		v, ok := intMin(b, obj)
		if !ok {
			return 0, false
		}
		if k == 0 || v < best {
			best = v
		}
	}
	return best, true
}

// intMin returns the minimum of obj over the integer points of the
// non-empty basic b: the rational minimum rounded up is a lower bound and
// a sample point an upper bound; a binary search with integer sampling
// closes the gap. It reports false when obj is unbounded below (b has an
// integer point and a rational recession direction decreasing obj, hence
// integer points with arbitrarily small values).
func intMin(b *basic, obj []int64) (int64, bool) {
	full := make([]int64, b.nCol())
	copy(full, obj)
	num, den, st := b.tableau().Min(full)
	if st != simplex.Optimal {
		return 0, false
	}
	lo := arith.CeilDiv(num, den)
	p := b.sample()
	if p == nil {
		panic(internalError{fmt.Errorf("presburger: internal error: no sample in a non-empty basic")})
	}
	hi := dot(full, p)
	for lo < hi {
		mid := arith.Add(lo, arith.Sub(hi, lo)/2)
		c := b.clone()
		row := negRow(full, 0)
		row[0] = mid
		c.addIneq(row) // obj <= mid
		if q := c.sample(); q != nil {
			hi = dot(full, q)
		} else {
			lo = arith.Add(mid, 1)
		}
	}
	return lo, true
}

// convexHull returns the rational convex hull of r as a basic without
// locals. The hull is built incrementally, conv(conv(P1 ∪ P2) ∪ P3)...,
// each step one Cayley embedding of two polyhedra (fewer variables to
// eliminate and smaller coefficients than one embedding of all).
func (r rel) convexHull() *basic {
	np, ni, no := r.dims()
	var parts []*basic
	for _, b := range r.parts {
		if c := prepareBasic(b); c != nil {
			parts = append(parts, c)
		}
	}
	if len(parts) == 0 {
		return newEmpty(np, ni, no)
	}
	cur := cayleyHull(parts[:1])
	for _, b := range parts[1:] {
		if cur.empty {
			cur = cayleyHull([]*basic{b})
			continue
		}
		cur = cayleyHull([]*basic{cur, b})
	}
	return cur
}

// cayleyHull returns the rational convex hull of the basics (with their
// locals projected out) by Fourier-Motzkin elimination on their Cayley
// embedding.
func cayleyHull(parts []*basic) *basic {
	np, ni, no := parts[0].nParam, parts[0].nIn, parts[0].nOut
	nv := np + ni + no
	if len(parts) == 1 && len(parts[0].divs) == 0 {
		return parts[0].clone().reduce()
	}
	// Columns: constant, x (nv), then per basic k its copy y_k of all its
	// columns but the constant (variables and locals) and λ_k.
	n := nv
	offs := make([]int, len(parts))
	for k, b := range parts {
		offs[k] = 1 + n
		n += b.nSolverVars() + 1
	}
	var eqs, ineqs [][]int64
	sum := make([]int64, 1+n) // Σ λ_k - 1 = 0
	sum[0] = -1
	for k, b := range parts {
		lam := offs[k] + b.nSolverVars()
		move := func(row []int64) []int64 {
			out := make([]int64, 1+n)
			copy(out[offs[k]:], row[1:])
			out[lam] = row[0]
			return out
		}
		e, in := b.system()
		for _, row := range e {
			eqs = append(eqs, move(row))
		}
		for _, row := range in {
			ineqs = append(ineqs, move(row))
		}
		pos := make([]int64, 1+n)
		pos[lam] = 1
		ineqs = append(ineqs, pos)
		sum[lam] = 1
	}
	eqs = append(eqs, sum)
	for j := 0; j < nv; j++ { // x_j - Σ y_k,j = 0
		row := make([]int64, 1+n)
		row[1+j] = 1
		for k := range parts {
			row[offs[k]+j] = -1
		}
		eqs = append(eqs, row)
	}
	eqs, ineqs, empty := fmProject(eqs, ineqs, n, nv, parts[0].solver())
	if empty {
		return newEmpty(np, ni, no)
	}
	h := newUniverse(np, ni, no)
	h.bud = parts[0].bud
	for _, e := range eqs {
		h.eqs = append(h.eqs, e[:1+nv])
	}
	for _, in := range ineqs {
		h.ineqs = append(h.ineqs, in[:1+nv])
	}
	return h.reduce()
}

// maxFMRows caps the constraints of one Fourier-Motzkin projection.
const maxFMRows = 4096

// fmProject eliminates the columns keep+1..n of the rational system
// (rows [const, col_1..col_n]) exactly over the rationals: equalities by
// substitution, then inequalities by Fourier-Motzkin, one column at a time
// (the one creating the fewest rows), with redundant rows removed and
// implicit equalities detected by the simplex after each step, charged to
// bud (the operation's budget; nil: the solver's default). The result
// involves only columns 0..keep. empty reports an infeasible system.
func fmProject(eqs, ineqs [][]int64, n, keep int, bud *simplex.Budget) (outEqs, outIneqs [][]int64, empty bool) {
	eqs, ineqs = copyRows(eqs), copyRows(ineqs)
	for {
		// Substitute the eliminated columns that an equality determines.
		for changed := true; changed; {
			changed = false
			for i, e := range eqs {
				c := pivotToEliminate(e, keep)
				if c < 0 {
					continue
				}
				for l := range eqs {
					if l != i && eqs[l][c] != 0 {
						eqs[l], _ = combine(eqs[l], e, c)
					}
				}
				for l := range ineqs {
					if ineqs[l][c] != 0 {
						ineqs[l], _ = combine(ineqs[l], e, c)
					}
				}
				eqs = append(eqs[:i], eqs[i+1:]...)
				changed = true
				break
			}
		}
		var ok bool
		if eqs, ok = cleanRows(eqs, true); !ok {
			return nil, nil, true
		}
		if ineqs, ok = cleanRows(ineqs, false); !ok {
			return nil, nil, true
		}
		red, impl, infeasible := simplex.Reduce(eqs, ineqs, n, bud)
		if infeasible {
			return nil, nil, true
		}
		var kept [][]int64
		moved := false
		for i, in := range ineqs {
			switch {
			case impl[i]:
				eqs = append(eqs, in)
				moved = true
			case !red[i]:
				kept = append(kept, in)
			}
		}
		ineqs = kept
		if moved {
			continue
		}
		c := fmColumn(ineqs, n, keep)
		if c < 0 {
			return eqs, ineqs, false
		}
		var lows, ups, rest [][]int64
		for _, in := range ineqs {
			switch {
			case in[c] > 0:
				lows = append(lows, in)
			case in[c] < 0:
				ups = append(ups, in)
			default:
				rest = append(rest, in)
			}
		}
		if len(rest)+len(lows)*len(ups) > maxFMRows {
			panic(simplex.BudgetExceeded{})
		}
		for _, l := range lows {
			for _, u := range ups {
				row, _ := combine(l, u, c)
				rest = append(rest, row)
			}
		}
		ineqs = rest
	}
}

// pivotToEliminate returns an eliminated column (beyond keep) with a
// non-zero coefficient in e, preferring a unit coefficient, or -1.
func pivotToEliminate(e []int64, keep int) int {
	best := -1
	for c := keep + 1; c < len(e); c++ {
		if e[c] == 0 {
			continue
		}
		if e[c] == 1 || e[c] == -1 {
			return c
		}
		if best < 0 {
			best = c
		}
	}
	return best
}

// fmColumn returns the eliminated column whose Fourier-Motzkin step creates
// the fewest rows, or -1 when no inequality uses an eliminated column.
func fmColumn(ineqs [][]int64, n, keep int) int {
	best, bestCost := -1, 0
	for c := keep + 1; c <= n; c++ {
		lo, up := 0, 0
		for _, in := range ineqs {
			switch {
			case in[c] > 0:
				lo++
			case in[c] < 0:
				up++
			}
		}
		if lo+up == 0 {
			continue
		}
		if cost := lo*up - lo - up; best < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// cleanRows divides rows by the gcd of all their entries (an exact
// rational normalization), removes duplicates and trivial rows, and
// reports false when a row is a contradiction.
func cleanRows(rows [][]int64, eq bool) ([][]int64, bool) {
	seen := map[string]bool{}
	var out [][]int64
	for _, r := range rows {
		if isZeroRow(r[1:]) {
			if (eq && r[0] != 0) || (!eq && r[0] < 0) {
				return nil, false
			}
			continue
		}
		if g := arith.GCDVec(r); g > 1 {
			for j := range r {
				r[j] /= g
			}
		}
		k := rowKey(r)
		if eq {
			k = eqKey(r)
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out, true
}

// wrapFacet rotates the constraint ineq >= 0 around the ridge where ineq
// and bound both vanish until it holds on the rational points of set, which
// must satisfy bound > 0 (isl_set_wrap_facet). The result is ineq - m*bound
// with m the minimum of ineq/bound over set, found by one linear program on
// the homogenized set. It returns nil when no such rotation exists.
func wrapFacet(set *basic, bound, ineq []int64) []int64 {
	n := set.nCol()
	hom := func(row []int64) []int64 {
		out := make([]int64, 1+n)
		copy(out[1:n], row[1:])
		out[n] = row[0]
		return out
	}
	tab := simplex.NewTableau(n, nil)
	eqs, ineqs := set.system()
	for _, e := range eqs {
		tab.AddEq(hom(e))
	}
	for _, in := range ineqs {
		tab.AddIneq(hom(in))
	}
	s := make([]int64, 1+n)
	s[n] = 1
	tab.AddIneq(s)
	f := hom(bound)
	f[0] = -1
	tab.AddEq(f)
	num, den, st := tab.Min(hom(ineq))
	if st != simplex.Optimal {
		return nil
	}
	out := make([]int64, n)
	for j := range out {
		out[j] = arith.Sub(arith.Mul(den, ineq[j]), arith.Mul(num, bound[j]))
	}
	if g := arith.GCDVec(out); g > 1 {
		for j := range out {
			out[j] /= g
		}
	}
	return out
}
