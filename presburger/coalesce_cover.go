package presburger

import (
	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// The exactness check of coalescing: does a candidate have integer points
// outside the union of some basics? It runs for every candidate, accepted
// or not, so it works in a single tableau: the basics' locals are added to
// the candidate's columns once (a defined local is a function of the
// variables, so this changes no set; identical definitions share a
// column), and the pieces of the subtraction are explored depth first by
// adding and rolling back constraints, as isl's basic_map_subtract does,
// instead of being built, simplified and given a tableau each.

// maxCoverSteps bounds the pieces one check explores.
const maxCoverSteps = 10000

// cover is the state of one check.
type cover struct {
	base  *basic // the candidate with the basics' locals
	tab   *simplex.Tableau
	path  [][]int64   // the constraints added to it on the current path
	cons  [][][]int64 // each basic's constraints (row >= 0) in its columns
	steps int
}

// emptyBeyond reports whether f has no integer point outside the union of
// bs. It samples an integer point of f, finds a basic of bs holding it (if
// none does, the answer is no, usually found after one sample), and
// continues with the pieces of f minus that basic, so most failing checks
// cost one or two integer samples instead of a full subtraction.
func emptyBeyond(f *basic, bs []*basic) bool {
	if f.empty {
		return true
	}
	var known []*basic // bs with every local defined
	for _, b := range bs {
		switch {
		case b.empty:
		case len(b.divs) == 0:
			known = append(known, b) // only read
		default:
			known = append(known, b.knownDivs()...)
		}
	}
	c := newCover(f, known)
	return c.tab.Empty() || c.covered()
}

// subsetBasic decides exactly whether a ⊆ b (over the integers).
func subsetBasic(a, b *basic) bool { return emptyBeyond(a, []*basic{b}) }

// newCover extends f by the locals of the basics bs (all defined) and
// rewrites their constraints in its columns.
func newCover(f *basic, bs []*basic) *cover {
	base := f.clone()
	cols := make([][]int, len(bs)) // basic's column -> base's column
	for i, b := range bs {
		cols[i] = make([]int, b.nCol())
		for j := 0; j <= b.nVar(); j++ {
			cols[i][j] = j
		}
		for k := range b.divs {
			cols[i][b.divCol(k)] = base.shareDiv(b, k, cols[i])
		}
	}
	c := &cover{cons: make([][][]int64, len(bs))}
	n := base.nCol()
	total := 0
	for _, b := range bs {
		total += 2*len(b.eqs) + len(b.ineqs)
	}
	buf := make([]int64, n*total) // every row in one allocation
	for i, b := range bs {
		move := func(row []int64, sign int64) []int64 {
			out := buf[:n:n]
			buf = buf[n:]
			for j, v := range row {
				if v != 0 {
					out[cols[i][j]] = arith.Add(out[cols[i][j]], arith.Mul(sign, v))
				}
			}
			return out
		}
		rows := make([][]int64, 0, 2*len(b.eqs)+len(b.ineqs))
		for _, e := range b.eqs {
			rows = append(rows, move(e, 1), move(e, -1))
		}
		for _, in := range b.ineqs {
			rows = append(rows, move(in, 1))
		}
		c.cons[i] = rows
	}
	c.base, c.tab = base, base.tableau()
	return c
}

// shareDiv returns the column of base holding local k of b, whose earlier
// locals sit in the columns cols: a local of base defined identically, or
// a new one.
func (base *basic) shareDiv(b *basic, k int, cols []int) int {
	d := b.divs[k]
	num := make([]int64, base.nCol())
	for j, v := range d.num {
		if v == 0 {
			continue
		}
		if j >= b.divCol(k) {
			// Definitions refer to earlier locals (knownDivs sorts them).
			panic(internalError{ErrNoExplicitLocals})
		}
		num[cols[j]] = arith.Add(num[cols[j]], v)
	}
	for t, bd := range base.divs {
		if bd.den == d.den && equalPadded(bd.num, num) {
			return base.divCol(t)
		}
	}
	return base.addDiv(num, d.den)
}

// covered reports whether the tableau's set has no integer point outside
// the basics: it finds a point, then checks the pieces of the set outside
// the basic holding it, each the set with the constraints before one
// constraint of that basic and the negation of that one.
func (c *cover) covered() bool {
	if c.steps++; c.steps > maxCoverSteps {
		panic(simplex.BudgetExceeded{})
	}
	pt := c.point()
	if pt == nil {
		return true
	}
	k := -1
	for i, rows := range c.cons {
		if holdsAll(rows, pt) {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	snap, n := c.tab.Snapshot(), len(c.path)
	defer func() {
		c.tab.Rollback(snap)
		c.path = c.path[:n]
	}()
	for _, r := range c.cons[k] {
		neg := negRow(r, 1)
		s := c.tab.Snapshot()
		c.tab.AddIneq(neg)
		if c.tab.Empty() {
			// The set implies r: no piece, and nothing to add.
			c.tab.Rollback(s)
			continue
		}
		c.path = append(c.path, neg)
		if !c.covered() {
			return false
		}
		c.path = c.path[:len(c.path)-1]
		c.tab.Rollback(s)
		c.tab.AddIneq(r)
		c.path = append(c.path, r)
		if c.tab.Empty() {
			break
		}
	}
	return true
}

// point returns an integer point (all columns, constant first) of the
// current set, or nil if it has none: found by a short branch and bound in
// the tableau, or else by a search in the simplified set, with the locals
// that the basics use recomputed from its variables.
func (c *cover) point() []int64 {
	nodes := branchNodes(c.tab)
	if x, done := branchSample(c.tab, &nodes); x != nil || done {
		return x
	}
	p := c.base.clone()
	p.ineqs = append(p.ineqs, copyRows(c.path)...)
	x := p.simplify().sample()
	if x == nil {
		return nil
	}
	full, _ := c.base.evalDivs(x[:1+c.base.nVar()])
	return full
}

// branchSample looks for an integer point of the tableau's set by branch
// and bound, splitting on a variable with a fractional sample value,
// within *nodes tableau states, and leaves the tableau as it found it. The
// point has all columns, constant first. done reports that the search was
// complete: a nil point then means that there is none.
func branchSample(t *simplex.Tableau, nodes *int) (pt []int64, done bool) {
	if t.Empty() {
		return nil, true
	}
	if x, ok := t.IntegralSample(); ok {
		return append([]int64{1}, x...), true
	}
	if *nodes -= 2; *nodes < 0 {
		return nil, false
	}
	n := t.NumVars()
	v := 0
	var num, den int64
	for ; v < n; v++ {
		if num, den = t.SampleVar(v); num%den != 0 {
			break
		}
	}
	lo := arith.FloorDiv(num, den)
	done = true
	for _, up := range []bool{false, true} {
		row := make([]int64, 1+n) // x_v <= lo, then x_v >= lo + 1
		if up {
			row[0], row[1+v] = arith.Neg(arith.Add(lo, 1)), 1
		} else {
			row[0], row[1+v] = lo, -1
		}
		snap := t.Snapshot()
		t.AddIneq(row)
		x, d := branchSample(t, nodes)
		t.Rollback(snap)
		if x != nil {
			return x, true
		}
		done = done && d
	}
	return nil, done
}

// branchNodes is the effort branchSample gets before a full search: enough
// for the easy sets that coalescing meets, where a bad split or two
// reaches an integral vertex.
func branchNodes(t *simplex.Tableau) int { return 2 + t.NumVars()/2 }

// holdsAll reports whether every row >= 0 holds at pt.
func holdsAll(rows [][]int64, pt []int64) bool {
	for _, r := range rows {
		if dot(r, pt) < 0 {
			return false
		}
	}
	return true
}
