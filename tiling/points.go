package tiling

import (
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// This file orders the point loops of a tile for locality
// (Policy.LocalPoints). The scheduler orders a band's members once, for
// the band untiled, and keeps the band's only coincident member out of
// the innermost place so that its loop stays the parallel one. Tiled
// with that member first, the parallel loop is the tile loop, and the
// point loops are free: any order of a permutable band's members is
// legal. bicg's s[j] += r[i] * A[i][j] had the band (j, i), j the
// parallel member; its points walked A by columns, each s[j] one chain
// over i. Its points ordered (i, j) walk A's rows, and the loop over j
// vectorizes (bicg LARGE, 2 threads, warm: 3.7 -> 2.4 ms).
//
// The criterion is the scheduler's (scheduletree.Locality, Pluto's
// intra-tile optimisation): the member that moves the fewest accesses to
// another row goes innermost, then a coincident one, then the one that
// reuses most (the same element counts twice, a step along the row
// once), when it beats the last.

// pointOrder returns the permutation of the band at p of t (new member k
// is old member perm[k]) that moves its best member for locality
// innermost, or nil when the last member is the best already or when
// some statement under the band is not scheduled by it completely (its
// rows above and in the band do not fix every iterator).
func pointOrder(prog *scop.Program, t scheduletree.Tree, p scheduletree.Path) ([]int, error) {
	n, err := t.At(p)
	if err != nil {
		return nil, err
	}
	b := n.Band()
	m := b.Members()
	if m < 2 || prog == nil {
		return nil, nil
	}
	outer, ok, err := outerRows(t, p)
	if err != nil || !ok {
		return nil, err
	}
	scores := make([]scheduletree.Locality, m)
	for k := range scores {
		scores[k].Coincident = k < len(b.Coincident) && b.Coincident[k]
	}
	for _, sm := range b.Schedule.Maps() {
		members, _, ok := linearRows(sm)
		st := prog.Stmt(sm.Space().In.Name)
		if !ok || st == nil {
			return nil, nil
		}
		accs, ok := stmtAccesses(st)
		if !ok {
			return nil, nil
		}
		rows := append(append([][]int64{}, outer[st.Name]...), members...)
		if rank(rows, nil) != len(st.Iters) {
			return nil, nil
		}
		for k := range members {
			fixed := append(append([][]int64{}, outer[st.Name]...), members[:k]...)
			fixed = append(fixed, members[k+1:]...)
			for _, a := range accs {
				addLocality(&scores[k], fixed, a)
			}
		}
	}
	best := m - 1
	for k := 0; k < m-1; k++ {
		if scores[k].Better(scores[best]) {
			best = k
		}
	}
	if best == m-1 {
		return nil, nil
	}
	perm := make([]int, 0, m)
	for k := range m {
		if k != best {
			perm = append(perm, k)
		}
	}
	return append(perm, best), nil
}

// outerRows returns, per statement, the schedule rows of the bands above
// p as coefficient rows over its iterators; false when one of them is
// not affine without divisions.
func outerRows(t scheduletree.Tree, p scheduletree.Path) (map[string][][]int64, bool, error) {
	outer := map[string][][]int64{}
	for k := range len(p) {
		a, err := t.At(p[:k])
		if err != nil {
			return nil, false, err
		}
		if a.Kind() != scheduletree.KindBand {
			continue
		}
		for _, m := range a.Band().Schedule.Maps() {
			rows, _, ok := linearRows(m)
			if !ok {
				return nil, false, nil
			}
			name := m.Space().In.Name
			outer[name] = append(outer[name], rows...)
		}
	}
	return outer, true, nil
}

// addLocality scores access a along the step that moves the member and leaves
// the rows fixed unchanged (unique: fixed has rank one below the
// iterators). A subscript row stays put along that step exactly when it
// lies in the span of fixed.
func addLocality(s *scheduletree.Locality, fixed [][]int64, a access) {
	base := rank(fixed, nil)
	moved := func(row []int64) bool {
		return rank(append(append([][]int64{}, fixed...), row), nil) > base
	}
	last := len(a.linear) - 1
	for k, row := range a.linear {
		if k < last && moved(row) {
			s.Poor++
			return
		}
	}
	switch {
	case last < 0 || !moved(a.linear[last]):
		s.Reuse += 2
	default:
		s.Reuse++
	}
}
