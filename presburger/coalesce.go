package presburger

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Coalescing replaces pairs of disjuncts by a single disjunct wherever that
// is exact, following isl's isl_map_coalesce (Verdoolaege, "Integer set
// coalescing", and isl 0.2x): every constraint of one basic is classified
// with respect to the other (valid, separate, cut, adjacent to an equality
// or to an inequality) and the classification selects a candidate: one
// basic is dropped when the other contains it, or both are replaced by the
// constraints valid for both, possibly relaxed (extension) or completed by
// wrapping constraints (check_facets, check_adj_ineq with
// is_adj_ineq_extension, check_adj_eq / check_single_adj_eq with relaxed
// extensions and can_wrap_in_facet, check_ineq_adj_eq, check_eq_adj_eq,
// check_wrap / wrap_in_facets, separating_equality).
//
// Unlike isl, every fused candidate is then checked exactly: each of its
// constraints must hold on the integer points of both basics (so it
// contains them), and it must have no integer point outside the union of
// the disjuncts, found by sampling and subtraction. A wrong fusion is
// therefore impossible whatever the case analysis proposes, and a candidate
// may also cover points of the other disjuncts. Beyond isl, when the case
// analysis fails, the pair's "simple hull" (each constraint shifted to hold
// on the integer points of both) is tried the same way, and a disjunct
// covered by the union of the others is dropped.
//
// Before the analysis every disjunct of a union of two or more is reduced
// (redundant constraints removed, implicit equalities explicit,
// integer-empty disjuncts dropped) and its locals normalized: inequalities
// are tightened on the lattice of the equalities, and locals that an
// equality fixes, that are bounded on one side only or that can be
// eliminated exactly are removed.
//
// Locals: two basics whose locals are all defined are extended to the union
// of their local definitions (adding a defined local never changes a set),
// so that they live in the same columns with the same implicit definition
// constraints; locals added that take a single value are fixed, and
// inequalities are rewritten on the lattice of the equalities (isl's
// reduce_coefficients) so that strided adjacency shows. Basics with the
// same number of locals are also tried positionally, with the locals whose
// definitions differ turned into plain existentials (isl's treatment). A
// pair that no case fuses is finally tested for exact containment.
//
// Heuristic steps that overflow int64, run out of budget or need local
// definitions that cannot be made explicit are skipped: the result is then
// less coalesced, never wrong.

// CoalesceWithin is Coalesce with at most maxOps solver steps (fewer
// where the limits in force say so), for a caller to whom merging is an
// optimisation: a merge whose tests run out of steps is not made, and the
// result is less coalesced, never wrong. An interrupt (a watched context
// that ended) is still ErrBudget.
func (s Set) CoalesceWithin(maxOps int64) (res Set, err error) {
	if len(s.r.parts) <= 1 {
		return Set{s.r.coalesce()}, nil
	}
	defer func() {
		if r := recover(); r != nil {
			if _, over := r.(simplex.BudgetExceeded); over && !simplex.Interrupted() {
				res, err = s, nil
				return
			}
			defer catch(&err)
			panic(r)
		}
	}()
	bud := newBudget()
	if maxOps < bud.Ops {
		bud.Ops, bud.Entries = maxOps, maxOps*entriesPerOp
	}
	return Set{s.r.with(bud).coalesce()}, nil
}

// Coalesce returns s with disjuncts merged where possible; the set is
// unchanged. Empty disjuncts and disjuncts contained in another are dropped;
// a set of a single disjunct is returned as it is, as in isl.
func (s Set) Coalesce() (res Set, err error) {
	if len(s.r.parts) <= 1 {
		return Set{s.r.coalesce()}, nil // nothing to merge, nothing to budget
	}
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).coalesce()}, nil
}

// Coalesce returns m with disjuncts merged where possible; see Set.Coalesce.
func (m Map) Coalesce() (res Map, err error) {
	if len(m.r.parts) <= 1 {
		return Map{m.r.coalesce()}, nil
	}
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).coalesce()}, nil
}

// Coalesce coalesces the set of every space; see Set.Coalesce.
func (s UnionSet) Coalesce() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).mapEach(rel.coalesce)}, nil
}

// Coalesce coalesces the map of every space; see Set.Coalesce.
func (m UnionMap) Coalesce() (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).mapEach(rel.coalesce)}, nil
}

// attempt runs f and reports whether it completed; int64 overflow, budget
// exhaustion and the package's internal errors abort it. Other panics are
// bugs and propagate.
func attempt(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case arith.Overflow, simplex.BudgetExceeded, internalError:
				ok = false
			default:
				panic(r)
			}
		}
	}()
	f()
	return true
}

// part is a disjunct being coalesced. It keeps the last aligned form the
// pair code built of it (key) with that form normalised and cleaned (see
// newPair) and its tableau: a disjunct without locals, or whose locals the
// other one shares, aligns to the same form in every pair, and its simplex
// work is then done once. The pairs share the tableau and leave its
// constraints as they found them.
type part struct {
	b   *basic
	id  int
	key *basic
	c   *basic
	tab *simplex.Tableau
}

// aligned returns the aligned form x normalised by norm and cleaned, with
// its tableau (nil when x is rationally empty), reusing those of the
// previous pair when x is the same form.
func (e *part) aligned(x *basic, norm func(*basic)) (*basic, *simplex.Tableau) {
	if e.key == nil || !sameRows(e.key, x) {
		e.key = x.clone()
		norm(x)
		e.c, e.tab = cleanAligned(x)
	}
	return e.c, e.tab
}

// forget drops the cached form: a pair interrupted by a panic may have
// left constraints in the tableau.
func (e *part) forget() { e.key, e.c, e.tab = nil, nil, nil }

// prepareBasic returns a reduced copy of b (redundant constraints removed,
// implicit equalities explicit, inequalities tightened on the lattice of the
// equalities, locals fixed by equalities eliminated), or nil when b has no
// integer point.
func prepareBasic(b *basic) *basic {
	c, _, _ := reduced(b)
	if c == nil {
		return nil
	}
	empty := false
	attempt(func() { empty = c.isEmpty() })
	if empty {
		return nil
	}
	return c
}

// reduced is prepareBasic without the integer emptiness test: nil only
// when the reduction found b empty. clean reports that no stored inequality
// is redundant or an implicit equality, and tab may be a tableau of c (see
// reduceClean).
func reduced(b *basic) (c *basic, clean bool, tab *simplex.Tableau) {
	if !attempt(func() {
		c = b.clone()
		clean, tab = c.normalizeLocalsClean(c.reduceClean())
	}) {
		c, clean, tab = b.clone(), false, nil
		if !attempt(func() { c.simplify() }) {
			c = b.clone()
		}
	}
	if c.empty {
		return nil, false, nil
	}
	return c, clean, tab
}

// newPart returns the part of c, reduced by reduceClean and
// normalizeLocalsClean, which reported clean and tab: when c is already
// what cleaning its aligned form would make of it (with no locals from
// the other basic), that form is cached with the reduction's tableau.
func newPart(c *basic, clean bool, tab *simplex.Tableau) *part {
	e := &part{b: c}
	if clean && !c.clone().reduceCoefficients() {
		if tab == nil {
			tab = c.tableau()
		}
		e.key, e.c, e.tab = c, c, tab
	}
	return e
}

// prepare is prepareBasic for coalescing: it also caches the aligned form
// of the basic without other locals, in whose tableau a short branch and
// bound usually shows an integer point at once.
func prepare(b *basic, id int) *part {
	c, clean, tab := reduced(b)
	if c == nil {
		return nil
	}
	var e *part
	empty := false
	if !attempt(func() {
		e = newPart(c, clean, tab)
		if e.tab == nil {
			if cl, _ := e.aligned(c.clone(), func(x *basic) { x.reduceCoefficients() }); cl == nil {
				empty = true
			}
		}
		if !empty {
			nodes := branchNodes(e.tab)
			if x, done := branchSample(e.tab, &nodes); x == nil {
				empty = done || c.isEmpty()
			}
		}
	}) {
		e = &part{b: c}
		attempt(func() { empty = c.isEmpty() })
	}
	if empty {
		return nil
	}
	e.id = id
	return e
}

// coalesce merges the disjuncts of r pairwise until no pair changes. A
// single disjunct has nothing to merge with and is returned as it is (as
// isl_map_coalesce does): reducing it alone costs more than isl's whole
// operation. Only a disjunct already known to be empty goes.
func (r rel) coalesce() rel {
	if len(r.parts) == 1 && r.parts[0].empty {
		return emptyRel(r.space)
	}
	if len(r.parts) <= 1 {
		return r
	}
	var parts []*part
	next := 0
	for _, b := range r.parts {
		if e := prepare(b, next); e != nil {
			parts = append(parts, e)
			next++
		}
	}
	failed := map[[2]int]bool{}
	bud := r.budget()
	for changed := true; changed && !bud.exhausted(); {
		changed = false
		n := len(parts)
		for i := n - 1; i >= 0; i-- {
			if parts[i] == nil {
				continue
			}
			for j := i + 1; j < n; j++ {
				if parts[i] == nil {
					break
				}
				if parts[j] == nil || failed[[2]int{parts[i].id, parts[j].id}] {
					continue
				}
				// Each pair costs pairCost operations, so that the budget
				// bounds the pairs tried even where no pair reaches the
				// solver (points); once the budget is spent, the
				// disjuncts are left as they are (less coalesced, never
				// wrong), and a watched context that ended stops the
				// operation.
				if bud.charge(pairCost) {
					break
				}
				var ch change
				var f *part
				pi, pj := i, j
				var others []*basic
				built := false
				othersOf := func() []*basic {
					if !built {
						built = true
						for k, e := range parts {
							if e != nil && k != pi && k != pj {
								others = append(others, e.b)
							}
						}
					}
					return others
				}
				if !attempt(func() { ch, f = coalescePair(parts[i], parts[j], othersOf) }) {
					ch = noChange
					parts[i].forget()
					parts[j].forget()
				}
				switch ch {
				case noChange:
					failed[[2]int{parts[i].id, parts[j].id}] = true
				case dropFirst:
					parts[i] = nil
					changed = true
				case dropSecond:
					parts[j] = nil
					changed = true
				case fused:
					f.id = next
					parts[i] = f
					next++
					parts[j] = nil
					changed = true
					j = i // recheck the fused basic against all later ones
				}
			}
		}
		live := parts[:0]
		for _, e := range parts {
			if e != nil {
				live = append(live, e)
			}
		}
		parts = live
	}
	// Drop the disjuncts covered by the union of the others.
	for i := len(parts) - 1; i >= 0 && len(parts) > 2; i-- {
		if bud.charge(1) {
			break
		}
		var others []*basic
		for k, e := range parts {
			if k != i {
				others = append(others, e.b)
			}
		}
		covered := false
		attempt(func() { covered = emptyBeyond(parts[i].b, others) })
		if covered {
			parts = append(parts[:i], parts[i+1:]...)
		}
	}
	out := rel{space: r.space}
	for _, e := range parts {
		out.parts = append(out.parts, e.b)
	}
	return out
}

// pairCost is what trying a pair costs in budget operations, beyond its
// pivots: its alignment and status computation take about as long as a
// few dozen pivots. 3,000 disjuncts (4.5 million pairs) exceed the default
// budget; the few hundred pairs of a compiler's unions cost nothing to
// speak of.
const pairCost = 16

// change is the outcome of coalescing a pair.
type change int

const (
	noChange   change = iota
	dropFirst         // the first basic is contained in the second
	dropSecond        // the second basic is contained in the first
	fused             // both are replaced by one basic
)

// coalescePair tries to replace the reduced, non-empty basics a and b by
// one. It returns the part of the fused basic when the change is fused. It runs isl's
// case analysis and then the hull candidate on the merged locals, then on
// the locals paired by position, and last tests exact containment. (Trying
// the hull candidate before containment matters: when a ⊆ b, the hull of
// the pair may still grow over other disjuncts, which later merges use.)
func coalescePair(pa, pb *part, others func() []*basic) (change, *part) {
	a, b := pa.b, pb.b
	separated := false
	if a.allDivsKnown() && b.allDivsKnown() {
		if a2, b2, owned, ok := alignMerged(a, b); ok {
			p := newPair(pa, pb, a2, b2, owned, others)
			if ch := p.coalesceLocal(); ch != noChange {
				return ch, p.result
			}
			separated = p.separated
		}
	}
	if !separated && len(a.divs) == len(b.divs) && len(a.divs) > 0 && !sameDivs(a, b) {
		if a2, b2, ok := alignPositional(a, b); ok {
			p := newPair(pa, pb, a2, b2, nil, others)
			if ch := p.coalesceLocal(); ch != noChange {
				return ch, p.result
			}
		}
	}
	if separated || intersectBasic(a, b).simplify().rationallyEmpty() {
		return noChange, nil
	}
	if subsetBasic(a, b) {
		return dropFirst, nil
	}
	if subsetBasic(b, a) {
		return dropSecond, nil
	}
	return noChange, nil
}

// sameDivs reports whether a and b have identical local definitions in the
// same order (so that the merged alignment already covered them).
func sameDivs(a, b *basic) bool {
	if len(a.divs) != len(b.divs) || !a.allDivsKnown() || !b.allDivsKnown() {
		return false
	}
	for k := range a.divs {
		if a.divs[k].den != b.divs[k].den || !slices.Equal(a.divs[k].num, b.divs[k].num) {
			return false
		}
	}
	return true
}
