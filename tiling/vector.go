package tiling

import "github.com/tilefuse/tilefuse/scheduletree"

// vectorize distributes the point band below the tile band at p over the
// filters of the sequence below it, when that makes the innermost point
// loop of every filter parallel: the band's last member, not coincident
// (in a time-skewed stencil it carries the dependences between the
// statements of one iteration), is split off, sunk into each filter,
// marked coincident and put under a "vector" mark, so that the AST marks
// its loops Vector and LLVM vectorizes them without runtime alias
// checks. check decides, on the whole tree: every dependence must keep
// its order (no later filter feeds an earlier one at equal outer times)
// and the new flags must hold. When check says no, or fails (a limit of
// the check), t is returned as it is.
func vectorize(t scheduletree.Tree, p scheduletree.Path, check func(scheduletree.Tree) (bool, error)) (scheduletree.Tree, error) {
	pp := p.Child(0)
	n, err := t.At(pp)
	if err != nil {
		return t, err
	}
	if n.Kind() != scheduletree.KindBand || n.NumChildren() != 1 || n.Child(0).Kind() != scheduletree.KindSequence {
		return t, nil
	}
	b := n.Band()
	m := b.Members()
	if m < 2 || m <= len(b.Coincident) && b.Coincident[m-1] {
		return t, nil
	}
	c, err := t.SplitBand(pp, m-1)
	if err != nil {
		return t, err
	}
	inner := pp.Child(0)
	if c, err = c.SinkBand(inner); err != nil {
		return t, err
	}
	for i := range n.Child(0).NumChildren() {
		bp := inner.Child(i).Child(0)
		bn, err := c.At(bp)
		if err != nil {
			return t, err
		}
		lb := bn.Band()
		lb.Coincident = []bool{true}
		if c, err = c.SetBand(bp, lb); err != nil {
			return t, err
		}
		if c, err = c.InsertMark(bp, scheduletree.MarkVector); err != nil {
			return t, err
		}
	}
	if ok, err := check(c); err != nil || !ok {
		return t, nil
	}
	return c, nil
}
