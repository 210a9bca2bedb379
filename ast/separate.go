package ast

import (
	"sort"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// components groups the statement domains (sets of [c0..cd]) into loops
// and orders them, as isl does: two domains may get separate consecutive
// loops when, at every outer point, all values of dimension d of one come
// before all values of the other. Domains that overlap share a loop.
func (g *gen) components(doms []presburger.Set, d int) ([][]int, error) {
	n := len(doms)
	// reach[a][b]: b cannot be placed before a (some value of a is at
	// or after some value of b).
	reach := make([][]bool, n)
	for a := range reach {
		reach[a] = make([]bool, n)
		reach[a][a] = true
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if a == b {
				continue
			}
			ok, err := before(doms[b], doms[a], d)
			if err != nil {
				return nil, err
			}
			reach[a][b] = !ok
		}
	}
	closeReach(reach)
	return orderGroups(reach), nil
}

// closeReach closes the relation reach transitively.
func closeReach(reach [][]bool) {
	n := len(reach)
	for k := 0; k < n; k++ {
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				reach[a][b] = reach[a][b] || reach[a][k] && reach[k][b]
			}
		}
	}
}

// orderGroups returns the strongly connected components of the relation
// reach (transitively closed), in an order compatible with it; among
// free choices, the component with the smallest member first.
func orderGroups(reach [][]bool) [][]int {
	n := len(reach)
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var groups [][]int
	for a := 0; a < n; a++ {
		if comp[a] >= 0 {
			continue
		}
		var grp []int
		for b := a; b < n; b++ {
			if reach[a][b] && reach[b][a] {
				comp[b] = len(groups)
				grp = append(grp, b)
			}
		}
		groups = append(groups, grp)
	}
	done := make([]bool, len(groups))
	var out [][]int
	for len(out) < len(groups) {
		for gi, grp := range groups {
			if done[gi] {
				continue
			}
			free := true
			for hi, h := range groups {
				if hi != gi && !done[hi] && reach[h[0]][grp[0]] {
					free = false
					break
				}
			}
			if free {
				done[gi] = true
				out = append(out, grp)
				break
			}
		}
	}
	return out
}

// before reports whether, at every point of the outer dimensions [c0..c(d-1)]
// where both have values, every value of dimension d in a is smaller than
// every value in b.
func before(a, b presburger.Set, d int) (bool, error) {
	am, err := a.AsMap(d)
	if err != nil {
		return false, err
	}
	bm, err := b.AsMap(d)
	if err != nil {
		return false, err
	}
	r, err := am.Reverse()
	if err == nil {
		r, err = r.ApplyRange(bm)
	}
	if err != nil {
		return false, err
	}
	sp := presburger.SetSpace(r.Space().Params, presburger.NewTuple("", "x"))
	r, err = r.Intersect(presburger.LexGE(sp))
	if err != nil {
		return false, err
	}
	return r.IsEmpty()
}

// separate splits the piece p of a band member with the separate option
// into full tiles and the rest. The band must sit directly above another
// band (marks in between are fine): the tile band above the point band.
// A point of the tile members is a full tile when every point its tile
// constraints (those relating the band's members to the point band's)
// allow belongs to the domain; the piece is split at dimension d into the
// values with some full tile and the others, and the pieces are ordered
// (overlapping ones merged).
func (g *gen) separate(p presburger.Set, stmts []stmt, st *state, lv dimension) ([]presburger.Set, error) {
	d := st.depth
	nb := lv.band.Band().Members()
	first := d - lv.j // the band's first member
	tileEnd := first + nb
	// Extend the schedules with the rest of the band and the nested bands.
	child := lv.band.Child(0)
	for child.Kind() == scheduletree.KindMark {
		child = child.Child(0)
	}
	if child.Kind() != scheduletree.KindBand {
		return []presburger.Set{p}, nil
	}
	var full presburger.Set
	for i, s := range stmts {
		m, err := g.extendMembers(s.sched, lv.band, lv.j+1, nb, s)
		if err == nil {
			m, err = g.extendMembers(m, child, 0, child.Band().Members(), s)
		}
		if err != nil {
			return nil, err
		}
		r, err := m.Range()
		if err != nil {
			return nil, err
		}
		if i == 0 {
			full = r
		} else if full, err = full.Union(r); err != nil {
			return nil, err
		}
	}
	total := full.Space().NOut()
	hull := full
	var err error
	if full.NumBasic() > 1 {
		if hull, err = full.SimpleHull(); err != nil {
			return nil, err
		}
	}
	forms := hull.Forms()
	if len(forms) != 1 || hasExistential(forms[0]) || hasExistential(p.Forms()...) {
		// Separation is a heuristic; existentials make it costly.
		return []presburger.Set{p}, nil
	}
	// Keep the constraints relating a tile member to a point member.
	f := forms[0]
	involves := func(row []int64, lo, hi int) bool {
		for c := lo; c < hi; c++ {
			if row[1+f.NParam+c] != 0 {
				return true
			}
		}
		for k, dv := range f.Divs {
			if row[1+f.NParam+f.NDim+k] != 0 && dv.Den != 0 && divInvolves(f, dv, lo, hi) {
				return true
			}
		}
		return false
	}
	keep := func(rows [][]int64) [][]int64 {
		var out [][]int64
		for _, r := range rows {
			if involves(r, first, tileEnd) && involves(r, tileEnd, total) {
				out = append(out, r)
			}
		}
		return out
	}
	tf := presburger.Form{NParam: f.NParam, NDim: f.NDim, Divs: f.Divs, Eqs: keep(f.Eqs), Ineqs: keep(f.Ineqs)}
	if len(tf.Eqs)+len(tf.Ineqs) == 0 {
		return []presburger.Set{p}, nil
	}
	tiles, err := presburger.SetFromForms(hull.Space(), tf)
	if err != nil {
		return nil, err
	}
	// Only tiles at outer points the domain has: outside them every
	// tile would count as partial, and their many pieces past
	// maxSeparateDisjuncts (the loops of a producer an extension adds
	// under its consumer's band, bounded by the consumer's loops).
	// Only when that projection is one piece without existentials:
	// otherwise its subtraction below can cost more than the split is
	// worth (a GPU-mapped random program ran out of its budget).
	if outer, err := hull.ProjectOut(first, total-first); err == nil && outer.NumBasic() == 1 && !hasExistential(outer.Forms()...) {
		if outer, err = outer.InsertDims(first, total-first); err == nil {
			if restricted, err := tiles.Intersect(outer); err == nil {
				tiles = restricted
			}
		}
	}
	// Full tiles: tile points whose whole tile lies in the domain (its
	// simple hull: the split is a heuristic, the code below it is exact
	// anyway).
	bad, err := tiles.Subtract(hull)
	if err == nil {
		bad, err = bad.ProjectOut(tileEnd, total-tileEnd)
	}
	var fullTiles presburger.Set
	if err == nil {
		fullTiles, err = hull.ProjectOut(tileEnd, total-tileEnd)
	}
	if err == nil && bad.NumBasic() > maxSeparateDisjuncts {
		return []presburger.Set{p}, nil
	}
	if err == nil {
		fullTiles, err = fullTiles.Subtract(bad)
	}
	if err == nil {
		fullTiles, err = fullTiles.ProjectOut(d+1, tileEnd-d-1)
	}
	if err != nil {
		return nil, err
	}
	inFull, err := p.Intersect(fullTiles)
	if err != nil {
		return nil, err
	}
	if empty, err := inFull.IsEmpty(); err != nil || empty {
		return []presburger.Set{p}, err
	}
	rest, err := p.Subtract(fullTiles)
	if err != nil {
		return nil, err
	}
	var parts []presburger.Set
	for _, s := range []presburger.Set{inFull, rest} {
		s, err := s.Coalesce()
		if err != nil {
			return nil, err
		}
		for _, f := range s.Forms() {
			one, err := presburger.SetFromForms(s.Space(), f)
			if err != nil {
				return nil, err
			}
			parts = append(parts, one)
		}
	}
	if len(parts) == 1 {
		return parts, nil
	}
	groups, err := g.components(parts, d)
	if err != nil {
		return nil, err
	}
	var out []presburger.Set
	for _, grp := range groups {
		sort.Ints(grp)
		u := parts[grp[0]]
		for _, k := range grp[1:] {
			if u, err = u.Union(parts[k]); err != nil {
				return nil, err
			}
		}
		out = append(out, u)
	}
	return out, nil
}

// divInvolves reports whether local dv of f depends on a dimension in
// [lo, hi), directly or through other locals.
func divInvolves(f presburger.Form, dv presburger.Div, lo, hi int) bool {
	for c := lo; c < hi; c++ {
		if c < len(dv.Num)-1-f.NParam && dv.Num[1+f.NParam+c] != 0 {
			return true
		}
	}
	for k, o := range f.Divs {
		col := 1 + f.NParam + f.NDim + k
		if col < len(dv.Num) && dv.Num[col] != 0 && o.Den != 0 && divInvolves(f, o, lo, hi) {
			return true
		}
	}
	return false
}

// maxSeparateDisjuncts bounds the partial-tile sets separation works on.
const maxSeparateDisjuncts = 8

// hasExistential reports whether some form has a local without a
// definition.
func hasExistential(forms ...presburger.Form) bool {
	for _, f := range forms {
		for _, d := range f.Divs {
			if d.Den == 0 {
				return true
			}
		}
	}
	return false
}

// extendMembers extends s's schedule m by the members [from, to) of
// band n, one output dimension each.
func (g *gen) extendMembers(m presburger.Map, n *scheduletree.Node, from, to int, s stmt) (presburger.Map, error) {
	for j := from; j < to; j++ {
		f, err := g.member(n, j, s)
		if err != nil {
			return m, err
		}
		if m, err = extend(m, f, m.Space().NOut()); err != nil {
			return m, err
		}
	}
	return m, nil
}
