package pip

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// context is the region of parameter space a branch of the search works
// on: constraints over [1, p, divs] plus the divs' definitions, and a few
// integer points of the region that answer most sign questions without a
// call to the integer sampler.
type context struct {
	nParam  int
	maxDivs int // the most divs the region may have (0: no bound); see MaxDivs
	divs    []Div
	eqs     [][]int64
	ineqs   [][]int64
	samples [][]int64 // points [p, divs] of the region
	elims   []elim    // equalities used to eliminate a column from row constants
	b       *simplex.Budget
	// rat is the rational tableau of the region, nil when stale. A clone
	// shares it: the solver takes a snapshot before handing a clone to a
	// sub-search and rolls back after.
	rat *simplex.Tableau

	jointChecked  bool      // the region is known to hold a point with integer x
	prefixChecked [][]int64 // values of y_0..y_k known to have integer points in the region
	eqsDetected   bool      // detectEqs has run since the region last changed
	restarts      int       // fresh tableaux built along this path
	enumTried     bool      // enumerate has declined the region
}

// elim is an equality of the region with a unit coefficient in column col:
// row constants of the tableau are kept free of that column, so that
// parameters fixed or linked by equalities do not breed divs.
type elim struct {
	row []int64
	col int
}

const maxSamples = 16

func (c *context) width() int { return 1 + c.nParam + len(c.divs) }

func (c *context) clone() *context {
	u := *c
	u.divs = slices.Clone(c.divs)
	u.eqs = slices.Clone(c.eqs)
	u.ineqs = slices.Clone(c.ineqs)
	u.samples = slices.Clone(c.samples)
	u.elims = slices.Clone(c.elims)
	return &u
}

// divIneqs returns the constraints 0 <= num - den·q <= den - 1 of each div q.
func (c *context) divIneqs() [][]int64 {
	w := c.width()
	var out [][]int64
	for i, d := range c.divs {
		col := 1 + c.nParam + i
		lo := make([]int64, w)
		copy(lo, d.Num)
		lo[col] = arith.Neg(d.Den)
		hi := make([]int64, w)
		for j, a := range lo {
			hi[j] = arith.Neg(a)
		}
		hi[0] = arith.Add(hi[0], arith.Sub(d.Den, 1))
		out = append(out, lo, hi)
	}
	return out
}

// feasible reports whether the region has an integer point with aff >= 0,
// remembering the point it finds. Known points answer first, then the
// rational relaxation (empty, or with an integral vertex), and only then
// the exact integer sampler.
func (c *context) feasible(aff []int64) bool {
	for _, s := range c.samples {
		if eval(aff, s) >= 0 {
			return true
		}
	}
	if rt := c.ratTab(); rt != nil {
		c.rat = nil // left stale should an overflow interrupt
		snap := rt.Snapshot()
		rt.AddIneq(aff)
		empty := rt.Empty()
		var pt []int64
		if !empty {
			if num, den := rt.RationalSample(); den == 1 {
				pt = num
			}
		}
		rt.Rollback(snap)
		c.rat = rt
		if empty {
			return false
		}
		if pt != nil && c.holds(pt) && eval(aff, pt) >= 0 {
			c.addSample(pt)
			return true
		}
	}
	pt, ok := c.integerSample(aff)
	if ok {
		c.addSample(pt)
	}
	return ok
}

// constFloorOf returns num = f·aff and reports whether floor(num / den)
// takes one value k on the whole region, as its rational bounds show.
func (c *context) constFloorOf(aff []int64, f, den int64) (num []int64, k int64, ok bool) {
	num = make([]int64, len(aff))
	for i, x := range aff {
		v, ok := arith.MulOK(f, x)
		if !ok {
			return nil, 0, false
		}
		num[i] = v
	}
	rt := c.ratTab()
	if rt == nil {
		return nil, 0, false
	}
	c.rat = nil // left stale should an overflow interrupt
	lo, loDen, st1 := rt.Min(num)
	hi, hiDen, st2 := rt.Max(num)
	c.rat = rt
	if st1 != simplex.Optimal || st2 != simplex.Optimal {
		return nil, 0, false
	}
	k = arith.FloorDiv(lo, arith.Mul(loDen, den))
	return num, k, k == arith.FloorDiv(hi, arith.Mul(hiDen, den))
}

// integerSample returns an integer point [p, divs] of the region with
// aff >= 0. Divs that neither the region nor aff uses are left out of the
// query (their definitions hold for any p) and computed afterwards: the
// integer search is exponential in the dimension, and cuts leave many divs
// that only the tableau uses.
func (c *context) integerSample(aff []int64) ([]int64, bool) {
	nd := len(c.divs)
	used := make([]bool, nd)
	for _, rows := range [][][]int64{c.eqs, c.ineqs, {aff}} {
		for _, r := range rows {
			for i := range nd {
				used[i] = used[i] || r[1+c.nParam+i] != 0
			}
		}
	}
	for i := nd - 1; i >= 0; i-- {
		if used[i] {
			for k, x := range c.divs[i].Num[1+c.nParam:] {
				used[k] = used[k] || x != 0
			}
		}
	}
	keep := make([]int, 0, c.width()) // kept columns of [1, p, divs]
	for col := range 1 + c.nParam {
		keep = append(keep, col)
	}
	for i, u := range used {
		if u {
			keep = append(keep, 1+c.nParam+i)
		}
	}
	project := func(r []int64) []int64 {
		out := make([]int64, len(keep))
		for k, col := range keep {
			if col < len(r) {
				out[k] = r[col]
			}
		}
		return out
	}
	var eqs, ineqs [][]int64
	for _, e := range c.eqs {
		eqs = append(eqs, project(e))
	}
	for _, r := range c.ineqs {
		ineqs = append(ineqs, project(r))
	}
	defs := c.divIneqs()
	for i, u := range used {
		if u {
			ineqs = append(ineqs, project(defs[2*i]), project(defs[2*i+1]))
		}
	}
	ineqs = append(ineqs, project(aff))
	q, ok := simplex.IntegerSample(eqs, ineqs, len(keep)-1, c.b)
	if !ok {
		return nil, false
	}
	pt := clone(q[:c.nParam])
	for _, d := range c.divs {
		pt = append(pt, arith.FloorDiv(eval(d.Num, pt), d.Den))
	}
	if !c.holds(pt) || eval(aff, pt) < 0 {
		panic("pip: internal error: projected integer sample outside the region")
	}
	return pt, true
}

// ratTab returns the rational tableau of the region, building it when
// stale; nil when the region is rationally empty (it never is when
// non-empty over the integers, but stay safe).
func (c *context) ratTab() *simplex.Tableau {
	if c.rat != nil {
		return c.rat
	}
	rt := simplex.NewTableau(c.width()-1, c.b)
	for _, e := range c.eqs {
		rt.AddEq(e)
	}
	for _, r := range append(slices.Clone(c.ineqs), c.divIneqs()...) {
		rt.AddIneq(r)
	}
	if rt.Empty() {
		return nil
	}
	c.rat = rt
	return rt
}

// holds reports whether pt = [p, divs] is a point of the region (divs
// included): a double check on points the rational tableau provides.
func (c *context) holds(pt []int64) bool {
	for _, e := range c.eqs {
		if eval(e, pt) != 0 {
			return false
		}
	}
	for _, r := range append(slices.Clone(c.ineqs), c.divIneqs()...) {
		if eval(r, pt) < 0 {
			return false
		}
	}
	return true
}

func (c *context) addSample(pt []int64) {
	if len(c.samples) >= maxSamples {
		c.samples = slices.Delete(c.samples, 0, 1)
	}
	c.samples = append(c.samples, pt)
}

// restrict intersects the region with aff >= 0. When the region already
// has the opposite inequality, aff = 0 is added as an equality instead; a
// new eliminating equality is returned.
func (c *context) restrict(aff []int64) *elim {
	c.jointChecked = false
	c.prefixChecked = nil
	c.enumTried = false
	c.eqsDetected = false
	aff = normAff(aff)
	for _, r := range append(slices.Clone(c.ineqs), c.divIneqs()...) {
		if opposite(aff, r) {
			return c.addEq(aff)
		}
	}
	samples := c.keptSamples(func(s []int64) bool { return eval(aff, s) >= 0 })
	c.ineqs = append(c.ineqs, aff)
	c.samples = samples
	if c.rat != nil {
		c.rat.AddIneq(aff)
	}
	return nil
}

// keptSamples returns the samples satisfying keep. Context updates compute
// it before changing anything, so that an overflow leaves c intact (a
// sample outside the region would be a false witness).
func (c *context) keptSamples(keep func([]int64) bool) [][]int64 {
	var out [][]int64
	for _, s := range c.samples {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// detectEqs turns the inequalities of the region, div definitions
// included, that are tight at every integer point of the region into
// equalities, and returns the new eliminations. Thin regions, where a
// parameter is fixed over the integers but not over the rationals, are
// common after splits; left implicit, they make cuts parametric for no
// reason and breed ever larger divs.
func (c *context) detectEqs() []*elim {
	if c.eqsDetected {
		return nil
	}
	c.eqsDetected = true
	var out []*elim
	for _, r := range append(slices.Clone(c.ineqs), c.divIneqs()...) {
		r = pad(r, c.width())
		loose := false
		for _, s := range c.samples {
			if eval(r, s) > 0 {
				loose = true
				break
			}
		}
		if loose {
			continue
		}
		up := clone(r)
		up[0] = arith.Sub(up[0], 1)
		if c.feasible(up) {
			continue
		}
		if el := c.addEq(r); el != nil {
			out = append(out, el)
		}
	}
	return out
}

// addEq adds the equality e = 0 and returns it as an elimination when it
// has a unit coefficient once reduced by the earlier eliminations.
func (c *context) addEq(e []int64) *elim {
	e = slices.Clone(e)
	for _, el := range c.elims {
		el.apply(e)
	}
	if allZero(e) {
		return nil
	}
	e = normEq(e)
	samples := c.keptSamples(func(s []int64) bool { return eval(e, s) == 0 })
	c.eqs = append(c.eqs, e)
	c.samples = samples
	if c.rat != nil {
		c.rat.AddEq(e)
	}
	for col := len(e) - 1; col >= 1; col-- {
		if e[col] == 1 || e[col] == -1 {
			c.elims = append(c.elims, elim{row: e, col: col})
			return &c.elims[len(c.elims)-1]
		}
	}
	return nil
}

// apply removes column el.col from v (an affine form over [1, p, divs],
// at least as long as el.row) using the equality.
func (el elim) apply(v []int64) {
	f := v[el.col]
	if f == 0 {
		return
	}
	f = arith.Mul(f, el.row[el.col]) // row[col] = ±1
	for i, x := range el.row {
		if x != 0 {
			v[i] = arith.Sub(v[i], arith.Mul(f, x))
		}
	}
}

// opposite reports whether a + b = 0.
func opposite(a, b []int64) bool {
	for i := range a {
		if a[i] != -b[i] {
			return false
		}
	}
	return true
}

// div returns the index of the div floor(num/den), adding it when new; added
// reports whether it was added.
func (c *context) div(num []int64, den int64) (idx int, added bool) {
	g := arith.GCD(arith.GCDVec(num), den)
	num = slices.Clone(num)
	if g > 1 {
		for i := range num {
			num[i] /= g
		}
		den /= g
	}
	for i, d := range c.divs {
		if d.Den == den && slices.Equal(d.Num, num[:len(d.Num)]) && allZero(num[len(d.Num):]) {
			return i, false
		}
	}
	if c.maxDivs > 0 && len(c.divs) >= c.maxDivs {
		panic(arith.Overflow{Op: "pip (too many divs in a region)"})
	}
	// Compute before changing anything: an overflow must leave c intact.
	samples := make([][]int64, len(c.samples))
	for i, s := range c.samples {
		samples[i] = append(slices.Clip(s), arith.FloorDiv(eval(num, s), den))
	}
	c.samples = samples
	c.rat = nil
	c.divs = append(c.divs, Div{Num: num, Den: den})
	c.eqsDetected = false
	// Rows may be shared with clones: extend copies.
	for i, r := range c.eqs {
		c.eqs[i] = append(slices.Clip(r), 0)
	}
	for i, r := range c.ineqs {
		c.ineqs[i] = append(slices.Clip(r), 0)
	}
	for i, el := range c.elims {
		c.elims[i].row = append(slices.Clip(el.row), 0)
	}
	return len(c.divs) - 1, true
}

// nested reports whether a div of the region uses another div.
func (c *context) nested() bool {
	for _, d := range c.divs {
		if !allZero(d.Num[1+c.nParam:]) {
			return true
		}
	}
	return false
}

func isConst(aff []int64) bool { return allZero(aff[1:]) }

func allZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
