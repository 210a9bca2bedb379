package scheduletree

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// state is what reaches a node from above: the instances and the pieces of
// the prefix schedule, kept the way isl collects them so that the result
// compares equal to isl_schedule_node_get_prefix_schedule_union_map.
type state struct {
	depth int                  // band members above the node
	reach presburger.UnionSet  // instances reaching the node
	univ  presburger.UnionSet  // universe of the root domain
	pre   *presburger.UnionMap // flat range product of outer bands (and extension prefixes)
	filt  *presburger.UnionSet // intersection of the filters not yet applied to pre
}

// prefix returns the prefix schedule: the outer band schedules restricted
// to the outer filters. Like isl it starts from the universe of the domain
// and never intersects with the domain itself, so a band's map keeps its
// own domain; only when no band or filter is above does the (universe of
// the) domain give the instances.
func (s *state) prefix() presburger.UnionMap {
	switch {
	case s.pre == nil && s.filt == nil:
		return fromDomain(s.univ)
	case s.pre == nil:
		return fromDomain(*s.filt)
	case s.filt == nil:
		return *s.pre
	}
	return must(s.pre.IntersectDomain(*s.filt))
}

// descend returns the state of the children of n given the state of n.
func (s state) descend(n *Node) state {
	switch n.kind {
	case KindDomain:
		s.reach = n.uset
		s.univ = universe(n.uset)
	case KindBand:
		b := n.band.Schedule
		if s.pre != nil {
			b = flatRangeProduct(*s.pre, b)
		}
		s.pre = &b
		s.depth += n.band.Members()
	case KindFilter:
		s.reach = must(s.reach.Intersect(n.uset))
		f := n.uset
		if s.filt != nil {
			f = must(s.filt.Intersect(f))
		}
		s.filt = &f
	case KindExtension:
		p := s.prefix()
		extra := must(must(s.reach.Apply(p)).Apply(n.umap))
		s.reach = must(s.reach.Union(extra))
		pre := must(p.Union(must(n.umap.Reverse())))
		s.pre, s.filt = &pre, nil
	case KindExpansion:
		pre := must(must(n.umap.Reverse()).ApplyRange(s.prefix()))
		s.reach = must(s.reach.Apply(n.umap))
		s.pre, s.filt = &pre, nil
	}
	return s
}

// stateAt returns the state reaching the node at p and the node.
func (t Tree) stateAt(p Path) (state, *Node, error) {
	nodes, err := t.ancestry(p)
	if err != nil {
		return state{}, nil, err
	}
	var s state
	for _, n := range nodes[:len(nodes)-1] {
		s = s.descend(n)
	}
	return s, nodes[len(nodes)-1], nil
}

// PrefixSchedule returns the prefix schedule at the node at p: a map from
// the instances reaching it to the flat concatenation of the members of
// all outer bands (sequence positions are not part of it), as
// isl_schedule_node_get_prefix_schedule_union_map. Following isl, the
// domain of the map is not intersected with the root domain: a statement
// keeps the domain its band schedules have, restricted by the outer
// filters. Intersect with Instances for the executed instances only.
//
// Below an extension node the extra instances are included, mapped to the
// prefix points the extension relates them to, extended by the bands
// between the extension and the node (isl refuses extension nodes here).
// At the root the result is empty, as in isl.
func (t Tree) PrefixSchedule(p Path) (res presburger.UnionMap, err error) {
	defer catch(&err)
	s, _, err := t.stateAt(p)
	if err != nil {
		return res, err
	}
	if len(p) == 0 {
		return emptyUnionMap(), nil
	}
	return s.prefix(), nil
}

// Instances returns the statement instances that reach the node at p: the
// domain intersected with the outer filters, plus the instances outer
// extension nodes add at the prefix points the instances above them reach
// (isl_schedule_node_get_domain, which refuses extensions). Below an
// expansion node the instances are the expanded ones. At the root the
// result is empty, as in isl.
func (t Tree) Instances(p Path) (res presburger.UnionSet, err error) {
	defer catch(&err)
	s, _, err := t.stateAt(p)
	if err != nil {
		return res, err
	}
	if len(p) == 0 {
		return unionSet(nil), nil
	}
	return s.reach, nil
}

// ScheduleDepth returns the number of band members above the node at p:
// the dimension of its prefix schedule and of the domain of extension and
// guard nodes placed there.
func (t Tree) ScheduleDepth(p Path) (int, error) {
	s, _, err := t.stateAt(p)
	return s.depth, err
}

// Map returns the schedule of the whole tree as one union map, exactly as
// isl_schedule_get_map: the members of all bands along a branch,
// concatenated, with one constant dimension per sequence or set node with
// more than one child (the child's position; isl numbers the children of
// a set too, under its default option schedule_separate_components),
// padded with zeros at the end to a common length. A child whose schedule
// is empty contributes nothing, not even to the padding, but keeps its
// position number. The domain is not intersected with the root domain: it
// is the universe of the statements, restricted by the bands' own domains
// and by the filters.
//
// isl refuses trees with extension nodes; here an extension node adds its
// instances at the point its map gives them in the outer band members,
// with the sequence positions of the branch inserted where they belong.
func (t Tree) Map() (res presburger.UnionMap, err error) {
	defer catch(&err)
	if t.root == nil {
		return res, fmt.Errorf("scheduletree: empty tree")
	}
	return subtreeSchedule(t.root.children[0], universe(t.root.uset), false), nil
}

// ExecutedMap is Map without the instances of subtrees under a "skipped"
// mark (MarkSkipped): the times at which the code generated from t runs
// each instance (several for an instance that extensions recompute).
func (t Tree) ExecutedMap() (res presburger.UnionMap, err error) {
	defer catch(&err)
	if t.root == nil {
		return res, fmt.Errorf("scheduletree: empty tree")
	}
	return subtreeSchedule(t.root.children[0], universe(t.root.uset), true), nil
}

// subtreeSchedule is isl_schedule_node_get_subtree_schedule_union_map for a
// node whose reaching instances have the universe univ.
func subtreeSchedule(n *Node, univ presburger.UnionSet, skip bool) presburger.UnionMap {
	for n.kind == KindContext || n.kind == KindGuard || n.kind == KindMark {
		if skip && n.kind == KindMark && n.mark == MarkSkipped {
			return emptyUnionMap()
		}
		n = n.children[0]
	}
	if n.kind == KindLeaf {
		return fromDomain(univ)
	}
	return extend(n, fromDomain(initialDomain(n, univ)), nil, skip)
}

// initialDomain is isl's initial_domain: the universe of the statements
// the first node with schedule information talks about.
func initialDomain(n *Node, univ presburger.UnionSet) presburger.UnionSet {
	switch n.kind {
	case KindBand:
		return universe(must(n.band.Schedule.Domain()))
	case KindDomain, KindFilter:
		return universe(n.uset)
	case KindExpansion:
		return universe(must(n.umap.Domain()))
	case KindSequence, KindSet:
		out := unionSet(nil)
		for _, c := range n.children {
			out = must(out.Union(initialDomain(c, univ)))
		}
		return out
	case KindContext, KindGuard, KindMark:
		return initialDomain(n.children[0], univ)
	}
	// An extension (which isl refuses) or a leaf: the reaching instances.
	return univ
}

// dim is one output dimension of the full schedule: a band member (its
// index in the prefix schedule) or a sequence position.
type dim struct {
	member int // -1 for a constant
	value  int64
}

// extend is isl's subtree_schedule_extend: outer maps the instances that
// reach n to the schedule dimensions above it, laid out as dims. With
// skip, a "skipped" mark ends its branch with no instances.
func extend(n *Node, outer presburger.UnionMap, dims []dim, skip bool) presburger.UnionMap {
	switch n.kind {
	case KindLeaf:
		return outer
	case KindMark:
		if skip && n.mark == MarkSkipped {
			return emptyUnionMap()
		}
	case KindBand:
		k := 0
		for _, d := range dims {
			if d.member >= 0 {
				k++
			}
		}
		for i := 0; i < n.band.Members(); i++ {
			dims = append(dims[:len(dims):len(dims)], dim{member: k + i})
		}
		outer = flatRangeProduct(outer, n.band.Schedule)
	case KindDomain, KindFilter:
		outer = must(outer.IntersectDomain(n.uset))
	case KindExpansion:
		outer = must(outer.ApplyDomain(n.umap))
	case KindExtension:
		outer = must(outer.Union(extensionSchedule(n.umap, dims)))
	case KindSequence, KindSet:
		return extendChildren(n, outer, dims, skip)
	}
	return extend(n.children[0], outer, dims, skip)
}

// extensionSchedule maps the instances ext adds to their full schedule
// prefix: the outer band members (ext's domain) with the constant sequence
// positions in between.
func extensionSchedule(ext presburger.UnionMap, dims []dim) presburger.UnionMap {
	var in, out []string
	for _, d := range dims {
		if d.member < 0 {
			out = append(out, fmt.Sprint(d.value))
			continue
		}
		name := fmt.Sprintf("p%d", d.member)
		in = append(in, name)
		out = append(out, name)
	}
	layout := "{ [" + strings.Join(in, ", ") + "] -> [" + strings.Join(out, ", ") + "] }"
	return applyText(must(ext.Reverse()), layout)
}

// extendChildren is isl's subtree_schedule_extend_from_children.
func extendChildren(n *Node, outer presburger.UnionMap, dims []dim, skip bool) presburger.UnionMap {
	// isl's option schedule_separate_components, on by default, makes set
	// nodes number their children as sequences do.
	separate := len(n.children) > 1
	res := emptyUnionMap()
	width := 0
	for i, c := range n.children {
		var umap presburger.UnionMap
		cdims := dims
		if separate {
			umap = flatRangeProduct(outer, constOn(c.uset, int64(i)))
			cdims = append(dims[:len(dims):len(dims)], dim{member: -1, value: int64(i)})
		} else {
			umap = must(outer.IntersectDomain(c.uset))
		}
		umap = extend(c.children[0], umap, cdims, skip)
		if isEmpty(umap) {
			continue
		}
		w := rangeDim(umap)
		switch {
		case w > width:
			res = appendConst(res, make([]int64, w-width)...)
			width = w
		case w < width:
			umap = appendConst(umap, make([]int64, width-w)...)
		}
		res = must(res.Union(umap))
	}
	return res
}

// TimeDepth is the number of dimensions of the full schedule (Map) that
// are fixed above the node at p: one per member of each band above it and
// one per sequence or set of several children above it.
func (t Tree) TimeDepth(p Path) (int, error) {
	n := t.root
	depth := 0
	for i, c := range p {
		if n == nil || c < 0 || c >= len(n.children) {
			return 0, fmt.Errorf("scheduletree: no node at %s", p[:i+1])
		}
		switch n.kind {
		case KindBand:
			depth += n.band.Members()
		case KindSequence, KindSet:
			if len(n.children) > 1 {
				depth++
			}
		}
		n = n.children[c]
	}
	return depth, nil
}

// RunsOnce reports whether t runs every instance of its domain exactly
// once, so that its Map is the whole schedule: it fails on the first
// extension node (recomputed instances) or skipped subtree, naming it.
func (t Tree) RunsOnce() error {
	var bad string
	t.Walk(func(p Path, n *Node) bool {
		switch {
		case n.Kind() == KindExtension:
			bad = "an extension node at " + p.String() + " (recomputed instances)"
		case n.Kind() == KindMark && n.Mark() == MarkSkipped:
			bad = "a skipped subtree at " + p.String()
		}
		return bad == ""
	})
	if bad != "" {
		return fmt.Errorf("the tree has %s", bad)
	}
	return nil
}
