package scheduler

import (
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// band is a permutable band under construction: per member, one
// hyperplane per statement of the group.
type band struct {
	members    []map[int]hyper
	coincident []bool
	// over reports that the band ended at a member whose integer program
	// exceeded its budget (or int64), not at one that does not exist.
	over bool
	// outer counts, per statement, the rows of its basis from the levels
	// above the band.
	outer map[int]int
}

// findBand finds hyperplanes for all statements of group, one ILP each,
// until every statement has full rank or no further hyperplane exists.
// Every member satisfies every edge weakly (the edges live at the band's
// start), which makes the band permutable; the distance bound only counts
// edges that no earlier member carries entirely. With FuseSmart, a
// member that is not coincident while some component alone could have a
// coincident one ends the band (the components are distributed below).
// There the feasibility of a coincident hyperplane for the whole group
// (distance 0 on the Farkas cone of every edge, as partition asks it) is
// checked first, and the band ends at once when there is none, without
// the member's lexmin (a much harder program: in the pyramids of the
// PolyMage pipelines it took minutes, for a member then thrown away).
// Where that question says yes and the edges are all bounded, the lexmin
// is coincident; where it says no, the lexmin could only be coincident on
// the dependences' integer pairs while not on their rational relaxation,
// which no program of PolyBench or of the pipelines does (the lexmins of
// all such members were computed and checked once).
//
// cache holds the answers of hyperplaneExists for edges at the ranks
// before the band (the first member's).
func (s *scheduler) findBand(group []int, edges []*edge, comps [][]int, cache map[string]bool) (*band, error) {
	b := &band{outer: map[int]int{}}
	for _, i := range group {
		b.outer[i] = len(s.stmts[i].basis)
	}
	carried := make([]bool, len(edges))
	for {
		var open []int
		for _, i := range group {
			if !s.stmts[i].full() {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			return b, nil
		}
		lose := false // a member that is not coincident ends the band
		if s.opt.Fuse == FuseSmart && len(comps) > 1 {
			if len(b.members) > 0 { // the ranks have changed
				cache = map[string]bool{}
			}
			var err error
			if lose, err = s.anyParallel(comps, edges, cache); err != nil {
				return nil, err
			}
			if lose {
				if zero, err := s.hyperplaneExists(group, edges, true, cache); err != nil || !zero {
					return b, err
				}
			}
		}
		q, sol, over, err := s.solve(problem{group: group, edges: edges, unbounded: carried})
		if err != nil || sol == nil {
			b.over = over
			return b, err
		}
		hs := map[int]hyper{}
		for _, i := range group {
			hs[i] = q.hyper(sol, i)
		}
		coinc, err := s.coincident(edges, hs)
		if err != nil {
			return nil, err
		}
		if lose && !coinc {
			return b, nil
		}
		b.members = append(b.members, hs)
		b.coincident = append(b.coincident, coinc)
		for _, i := range open {
			s.stmts[i].basis = append(s.stmts[i].basis, hs[i].c)
		}
		for k, e := range edges {
			if !carried[k] {
				if carried[k], err = s.carries(e, hs); err != nil {
					return nil, err
				}
			}
		}
	}
}

// coincident reports whether the hyperplanes give every edge distance 0.
func (s *scheduler) coincident(edges []*edge, hs map[int]hyper) (bool, error) {
	for _, e := range edges {
		// Legality makes the distance >= 0; is it ever >= 1?
		row := pairRow(s.np, hs[e.src], hs[e.dst])
		row[0]--
		m, err := restrict(e.rel, nil, [][]int64{row})
		if err != nil {
			return false, err
		}
		empty, err := m.IsEmpty()
		if err != nil || !empty {
			return false, err
		}
	}
	return true, nil
}

// carries reports whether the hyperplanes give every pair of e distance >= 1.
func (s *scheduler) carries(e *edge, hs map[int]hyper) (bool, error) {
	m, err := restrict(e.rel, nil, [][]int64{negRow(pairRow(s.np, hs[e.src], hs[e.dst]))})
	if err != nil {
		return false, err
	}
	return m.IsEmpty()
}

// refine keeps the pairs of each edge that the band does not order: those
// with equal values on all members.
func (s *scheduler) refine(edges []*edge, b *band) ([]*edge, error) {
	var out []*edge
	for _, e := range edges {
		var eqs [][]int64
		for _, hs := range b.members {
			eqs = append(eqs, pairRow(s.np, hs[e.src], hs[e.dst]))
		}
		rel, err := restrict(e.rel, eqs, nil)
		if err != nil {
			return nil, err
		}
		empty, err := rel.IsEmpty()
		if err != nil {
			return nil, err
		}
		if !empty {
			n := *e
			n.rel, n.cone = rel, nil
			out = append(out, &n)
		}
	}
	return out, nil
}

// bandNode builds the band of the tree: per statement, the map to the
// members' values.
func (s *scheduler) bandNode(group []int, b *band) (scheduletree.Band, error) {
	maps := make([]presburger.Map, len(group))
	for k, i := range group {
		hs := make([]hyper, len(b.members))
		for m, mem := range b.members {
			hs[m] = mem[i]
		}
		var err error
		if maps[k], err = bandMap(s.np, s.stmts[i], hs); err != nil {
			return scheduletree.Band{}, err
		}
	}
	sched, err := presburger.UnionMapFromMaps(maps...)
	if err != nil {
		return scheduletree.Band{}, err
	}
	return scheduletree.Band{Schedule: sched, Permutable: true, Coincident: b.coincident}, nil
}
