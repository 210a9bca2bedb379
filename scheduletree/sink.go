package scheduletree

// SinkBand moves the band at p, whose child is a sequence or a set,
// below each filter of that child, each copy restricted to its filter's
// instances (isl_schedule_node_band_sink, for a band over one sequence
// or set). The members then order each child's instances on their own:
// below a sequence all of one child run before all of the next at the
// band's outer times, which is legal only when no dependence goes from
// a later child to an earlier one there; the caller checks it. Each copy
// keeps the band's flags and options.
func (t Tree) SinkBand(p Path) (Tree, error) {
	return t.editBand(p, func(n *Node, b Band) (*Node, error) {
		c := n.children[0]
		if c.kind != KindSequence && c.kind != KindSet {
			return nil, pathErr(p, n, "cannot sink a band into a %s node", c.kind)
		}
		kids := make([]*Node, len(c.children))
		for i, f := range c.children {
			nb := b.clone()
			nb.Schedule = must(b.Schedule.IntersectDomain(f.uset))
			kids[i] = f.withChild(0, NewBand(nb, f.children[0]))
		}
		return c.withChildren(kids), nil
	})
}
