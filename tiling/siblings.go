package tiling

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// This file fuses sibling reductions (Policy.FuseSiblings): adjacent
// children of a sequence, each one statement under one band, whose bands
// are twins (the same schedule rows over the same iteration space, the
// same coincident members), whose last member carries each statement's
// chain of dependent instances beside a coincident member, and which
// read the same elements (an access with the same subscripts). gesummv's
//
//	tmp[i] = A[i][j] * x[j] + tmp[i];    y[i] = B[i][j] * x[j] + y[i];
//
// is the case: apart, each row is one chain of additions, which tiles
// overlap (shortensChains); fused, the two chains of a row overlap each
// other and x[j] is read once for both. The fused band stays untiled:
// tiled 32, the short loops of two statements ran 1.67 ms against 0.70
// ms untiled and 1.02 ms for the two tiled bands apart (gesummv LARGE,
// 2 threads, warm). Twins whose tiles would bring reuse (Reuses) stay
// apart, tiled as before. Every fusion is checked exactly (Policy.Check)
// and dropped when the check fails.

// fuseSiblings fuses the sibling reductions of t and returns the tree
// with the paths of the fused bands.
func fuseSiblings(t scheduletree.Tree, pol Policy) (scheduletree.Tree, []scheduletree.Path, error) {
	var seqs []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindSequence {
			seqs = append(seqs, slices.Clone(p))
		}
		return true
	})
	// Last first: fusing children of one sequence moves no path of a
	// sequence met before it in the walk. It may move the bands fused
	// under a later one, so they are found again by identity at the end
	// (edits share the nodes they do not change).
	bands := map[*scheduletree.Node]bool{}
	for i := len(seqs) - 1; i >= 0; i-- {
		var err error
		if t, err = fuseChildren(t, seqs[i], pol, bands); err != nil {
			return t, nil, err
		}
	}
	var fused []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if bands[n] {
			fused = append(fused, slices.Clone(p))
		}
		return true
	})
	return t, fused, nil
}

// fuseChildren fuses runs of twin children of the sequence at p, adding
// the fused bands to bands.
func fuseChildren(t scheduletree.Tree, p scheduletree.Path, pol Policy, bands map[*scheduletree.Node]bool) (scheduletree.Tree, error) {
	for k := 0; ; k++ {
		seq, err := t.At(p)
		if err != nil {
			return t, err
		}
		if k+1 >= seq.NumChildren() {
			return t, nil
		}
		run := []*scheduletree.Node{seq.Child(k)}
		for j := k + 1; j < seq.NumChildren(); j++ {
			ok, err := twins(pol.Program, t, p, k, j)
			if err != nil {
				return t, err
			}
			if !ok {
				break
			}
			run = append(run, seq.Child(j))
		}
		if len(run) < 2 {
			continue
		}
		u, band, err := fuseRun(t, p, k, run)
		if err != nil {
			return t, err
		}
		legal, err := pol.Check(u)
		if err != nil {
			return t, err
		}
		if legal {
			t, bands[band] = u, true
		}
	}
}

// single returns the band of a child filter -> band -> leaf, and its
// one statement's name.
func single(c *scheduletree.Node) (scheduletree.Band, string, bool) {
	if c.Kind() != scheduletree.KindFilter || c.NumChildren() != 1 {
		return scheduletree.Band{}, "", false
	}
	b := c.Child(0)
	if b.Kind() != scheduletree.KindBand || b.NumChildren() != 1 || b.Child(0).Kind() != scheduletree.KindLeaf {
		return scheduletree.Band{}, "", false
	}
	maps := b.Band().Schedule.Maps()
	if len(maps) != 1 {
		return scheduletree.Band{}, "", false
	}
	return b.Band(), maps[0].Space().In.Name, true
}

// twins reports whether children k and j of the sequence at p are
// sibling reductions to fuse (see the file comment).
func twins(prog *scop.Program, t scheduletree.Tree, p scheduletree.Path, k, j int) (bool, error) {
	seq, err := t.At(p)
	if err != nil {
		return false, err
	}
	b1, s1, ok1 := single(seq.Child(k))
	b2, s2, ok2 := single(seq.Child(j))
	st1, st2 := prog.Stmt(s1), prog.Stmt(s2)
	switch {
	case !ok1 || !ok2 || st1 == nil || st2 == nil:
		return false, nil
	case !b1.Permutable || !b2.Permutable || !slices.Equal(b1.Coincident, b2.Coincident) || !shortensChains(b1):
		return false, nil
	}
	m1, m2 := b1.Schedule.Maps()[0], b2.Schedule.Maps()[0]
	lin1, off1, ok1 := linearRows(m1)
	lin2, off2, ok2 := linearRows(m2)
	if !ok1 || !ok2 || !slices.EqualFunc(lin1, lin2, slices.Equal) || !slices.EqualFunc(off1, off2, slices.Equal) {
		return false, nil
	}
	if same, err := sameTimes(m1, st1, m2, st2); err != nil || !same {
		return false, err
	}
	if !sharedRead(st1, st2) {
		return false, nil
	}
	for _, c := range []int{k, j} {
		r, err := Reuses(prog, t, append(p.Child(c), 0))
		if err != nil || r {
			return false, err
		}
	}
	return true, nil
}

// sameTimes reports whether the two statements' bands run over the same
// points.
func sameTimes(m1 presburger.Map, st1 *scop.Stmt, m2 presburger.Map, st2 *scop.Stmt) (bool, error) {
	times := func(m presburger.Map, st *scop.Stmt) (presburger.Set, error) {
		r, err := m.IntersectDomain(st.Domain)
		if err != nil {
			return presburger.Set{}, err
		}
		return r.Range()
	}
	t1, err := times(m1, st1)
	if err != nil {
		return false, err
	}
	t2, err := times(m2, st2)
	if err != nil {
		return false, err
	}
	return t1.IsEqual(t2)
}

// sharedRead reports whether the statements read some array through the
// same subscripts.
func sharedRead(st1, st2 *scop.Stmt) bool {
	for _, a := range st1.Reads {
		la, oa, ok := linearRows(a.Rel)
		if !ok {
			continue
		}
		for _, b := range st2.Reads {
			if lb, ob, ok := linearRows(b.Rel); ok && a.Array == b.Array &&
				slices.EqualFunc(la, lb, slices.Equal) && slices.EqualFunc(oa, ob, slices.Equal) {
				return true
			}
		}
	}
	return false
}

// fuseRun replaces the run of children starting at k of the sequence at
// p by one filter over them all, with one band over every statement and
// below it a sequence of the statements in their order. It returns the
// new tree and the band.
func fuseRun(t scheduletree.Tree, p scheduletree.Path, k int, run []*scheduletree.Node) (scheduletree.Tree, *scheduletree.Node, error) {
	band := run[0].Child(0).Band()
	filter := run[0].Filter()
	var parts []*scheduletree.Node
	for i, c := range run {
		parts = append(parts, scheduletree.NewFilter(c.Filter(), scheduletree.NewLeaf()))
		if i == 0 {
			continue
		}
		var err error
		if filter, err = filter.Union(c.Filter()); err != nil {
			return t, nil, err
		}
		if band.Schedule, err = band.Schedule.Union(c.Child(0).Band().Schedule); err != nil {
			return t, nil, err
		}
	}
	seq, err := t.At(p)
	if err != nil {
		return t, nil, err
	}
	children := seq.Children()
	b := scheduletree.NewBand(band, scheduletree.NewSequence(parts...))
	children = append(append(children[:k:k], scheduletree.NewFilter(filter, b)), children[k+len(run):]...)
	u, err := t.Replace(p, scheduletree.NewSequence(children...))
	return u, b, err
}
