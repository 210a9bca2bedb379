package ast

import (
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// Statement order: which statements may get separate consecutive loops
// at a band member, as isl's any_scheduled_after decides.

// stmtComponents groups the statements (their domains over [c0..cd] in
// doms) into loops and orders them. Statement a must come after b when,
// at some outer point, some instance of a is scheduled after some
// instance of b: a larger value at d, or the same value and a later
// position in the rest of the schedule (the band's later members, then
// the subtree below the band: sequence positions and inner bands). The
// groups are the strongly connected components of that relation in
// topological order. Statements that run at a single value of d which
// another's loop also covers thus get a loop of their own when the inner
// schedule puts them first or last.
func (g *gen) stmtComponents(stmts []stmt, doms []presburger.Set, lv dimension, d int) ([][]int, error) {
	n := len(stmts)
	// after[a][b]: some instance of a is scheduled after one of b.
	after := make([][]bool, n)
	for a := range after {
		after[a] = make([]bool, n)
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			gt, lt, tie, err := pairOrder(doms[a], doms[b], d)
			if err != nil {
				return nil, err
			}
			after[a][b], after[b][a] = gt, lt
			if !tie || gt && lt {
				continue
			}
			// Tied values at d: the rest of the schedule decides.
			rb, err := stmts[b].sched.Reverse()
			if err != nil {
				return nil, err
			}
			pairs, err := stmts[a].sched.ApplyRange(rb)
			if err != nil {
				return nil, err
			}
			if !gt {
				if after[a][b], err = g.afterRest(pairs, stmts[a], stmts[b], lv); err != nil {
					return nil, err
				}
			}
			if !lt {
				rev, err := pairs.Reverse()
				if err != nil {
					return nil, err
				}
				if after[b][a], err = g.afterRest(rev, stmts[b], stmts[a], lv); err != nil {
					return nil, err
				}
			}
		}
	}
	// reach[a][b]: b cannot be placed before a.
	reach := make([][]bool, n)
	for a := range reach {
		reach[a] = make([]bool, n)
		reach[a][a] = true
		for b := 0; b < n; b++ {
			reach[a][b] = reach[a][b] || after[b][a]
		}
	}
	closeReach(reach)
	return orderGroups(reach), nil
}

// pairOrder compares the values of dimension d in the domains a and b
// (sets of [c0..cd]) at common outer points: whether some value of a
// exceeds some value of b (gt), the converse (lt), and whether some are
// equal (tie, only computed when gt and lt do not both hold).
func pairOrder(a, b presburger.Set, d int) (gt, lt, tie bool, err error) {
	am, err := a.AsMap(d)
	if err != nil {
		return
	}
	bm, err := b.AsMap(d)
	if err != nil {
		return
	}
	r, err := am.Reverse()
	if err == nil {
		r, err = r.ApplyRange(bm)
	}
	if err != nil {
		return
	}
	// r: {a_d -> b_d} at common outer points.
	sp := presburger.SetSpace(r.Space().Params, presburger.NewTuple("", "x"))
	nonEmpty := func(m presburger.Map) (bool, error) {
		x, err := r.Intersect(m)
		if err != nil {
			return false, err
		}
		e, err := x.IsEmpty()
		return !e, err
	}
	if gt, err = nonEmpty(presburger.LexGT(sp)); err != nil {
		return
	}
	if lt, err = nonEmpty(presburger.LexLT(sp)); err != nil || gt && lt {
		return
	}
	ge, err := presburger.LexGE(sp).Intersect(presburger.LexLE(sp))
	if err != nil {
		return
	}
	tie, err = nonEmpty(ge)
	return
}

// afterRest reports whether, among the pairs of instances of x and y
// (a map from x's instances to y's) that the schedule so far ties, the
// rest of the schedule puts some instance of x after its partner: the
// members of the band after the current one, then the subtree below it.
// It answers true when it cannot tell, which only fuses more.
func (g *gen) afterRest(pairs presburger.Map, x, y stmt, lv dimension) (bool, error) {
	if lv.band == nil {
		return true, nil
	}
	if empty, err := pairs.IsEmpty(); err != nil || empty {
		return false, err
	}
	nb := lv.band.Band().Members()
	for j := lv.j + 1; j < nb; j++ {
		fx, err := g.member(lv.band, j, x)
		if err != nil {
			return false, err
		}
		fy, err := g.member(lv.band, j, y)
		if err != nil {
			return false, err
		}
		later, eq, err := splitPairs(pairs, fx, fy)
		if err != nil || later {
			return later, err
		}
		if empty, err := eq.IsEmpty(); err != nil || empty {
			return false, err
		}
		pairs = eq
	}
	return g.afterTree(lv.band.Child(0), pairs)
}

// splitPairs compares the pairs x -> y under the schedules fx and fy:
// whether fx(x) >lex fy(y) for some pair, and the pairs with equal
// values.
func splitPairs(pairs, fx, fy presburger.Map) (bool, presburger.Map, error) {
	if fx.Space().Out.Key() != fy.Space().Out.Key() {
		// Schedules into different spaces: no order to compare.
		return true, pairs, nil
	}
	rx, err := fx.Reverse()
	if err != nil {
		return false, pairs, err
	}
	p, err := rx.ApplyRange(pairs)
	if err == nil {
		p, err = p.ApplyRange(fy)
	}
	if err != nil {
		return false, pairs, err
	}
	sp := presburger.SetSpace(p.Space().Params, p.Space().In)
	gt, err := p.Intersect(presburger.LexGT(sp))
	if err != nil {
		return false, pairs, err
	}
	if empty, err := gt.IsEmpty(); err != nil || !empty {
		return !empty, pairs, err
	}
	ry, err := fy.Reverse()
	if err != nil {
		return false, pairs, err
	}
	same, err := fx.ApplyRange(ry)
	if err == nil {
		same, err = pairs.Intersect(same)
	}
	return false, same, err
}

// afterTree reports whether the subtree n schedules some instance of a
// pair x -> y after its partner (isl's after_in_tree); true when it
// cannot tell.
func (g *gen) afterTree(n *scheduletree.Node, pairs presburger.Map) (bool, error) {
	if empty, err := pairs.IsEmpty(); err != nil || empty {
		return false, err
	}
	switch n.Kind() {
	case scheduletree.KindLeaf:
		return false, nil
	case scheduletree.KindMark, scheduletree.KindGuard, scheduletree.KindContext:
		return g.afterTree(n.Child(0), pairs)
	case scheduletree.KindFilter:
		p, err := filterPairs(pairs, n.Filter(), n.Filter())
		if err != nil {
			return false, err
		}
		return g.afterTree(n.Child(0), p)
	case scheduletree.KindBand:
		if n.Band().Members() == 0 {
			return g.afterTree(n.Child(0), pairs)
		}
		fx, okx := bandSchedule(n, pairs.Space().In)
		fy, oky := bandSchedule(n, pairs.Space().Out)
		if !okx || !oky {
			return true, nil
		}
		later, eq, err := splitPairs(pairs, fx, fy)
		if err != nil || later {
			return later, err
		}
		return g.afterTree(n.Child(0), eq)
	case scheduletree.KindSequence, scheduletree.KindSet:
		kids := n.Children()
		for _, c := range kids {
			if c.Kind() != scheduletree.KindFilter {
				return true, nil
			}
		}
		if n.Kind() == scheduletree.KindSequence {
			// An instance in a later child than its partner.
			for i := 1; i < len(kids); i++ {
				fi := kids[i].Filter()
				for j := 0; j < i; j++ {
					p, err := filterPairs(pairs, fi, kids[j].Filter())
					if err != nil {
						return false, err
					}
					if empty, err := p.IsEmpty(); err != nil || !empty {
						return !empty, err
					}
				}
			}
		}
		for _, c := range kids {
			later, err := g.afterTree(c, pairs)
			if err != nil || later {
				return later, err
			}
		}
		return false, nil
	}
	// Extensions and expansions add or replace instances.
	return true, nil
}

// filterPairs restricts the pairs x -> y to x in fx and y in fy.
func filterPairs(pairs presburger.Map, fx, fy presburger.UnionSet) (presburger.Map, error) {
	sp := pairs.Space()
	sx, ok := fx.ExtractSet(sp.In.Name)
	if !ok {
		return presburger.EmptyMap(sp), nil
	}
	sy, ok := fy.ExtractSet(sp.Out.Name)
	if !ok {
		return presburger.EmptyMap(sp), nil
	}
	p, err := pairs.IntersectDomain(sx)
	if err == nil {
		p, err = p.IntersectRange(sy)
	}
	return p, err
}

// bandSchedule is the band's schedule of the statement with tuple t.
func bandSchedule(n *scheduletree.Node, t presburger.Tuple) (presburger.Map, bool) {
	for _, m := range n.Band().Schedule.Maps() {
		if m.Space().In.Key() == t.Key() {
			return m, true
		}
	}
	return presburger.Map{}, false
}
