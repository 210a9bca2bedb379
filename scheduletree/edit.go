package scheduletree

import (
	"errors"

	"github.com/tilefuse/tilefuse/presburger"
)

// checkInsert refuses the places where isl refuses to insert a node: above
// the root, and between a sequence or set and its filter children.
func (t Tree) checkInsert(p Path) error {
	parent, ok := p.Parent()
	if !ok {
		return errors.New("scheduletree: cannot insert a node above the root")
	}
	if _, err := t.At(p); err != nil {
		return err
	}
	pn, _ := t.At(parent)
	if pn.kind == KindSequence || pn.kind == KindSet {
		return pathErr(p, pn.children[p[len(p)-1]], "cannot insert a node between a %s and its filter children", pn.kind)
	}
	return nil
}

// insertAbove inserts the node mk builds around the subtree at p.
func (t Tree) insertAbove(p Path, mk func(child *Node) *Node) (Tree, error) {
	if err := t.checkInsert(p); err != nil {
		return Tree{}, err
	}
	return t.replace(p, func(n *Node) (*Node, error) { return mk(n), nil })
}

// The Insert functions put a new node above the node at p, which becomes
// its child; to insert below a node with one child, pass p.Child(0).
// Like isl they refuse the root and the filter children of a sequence or set.

// InsertMark inserts a mark node.
func (t Tree) InsertMark(p Path, name string) (Tree, error) {
	return t.insertAbove(p, func(c *Node) *Node { return NewMark(name, c) })
}

// InsertFilter inserts a filter node.
func (t Tree) InsertFilter(p Path, f presburger.UnionSet) (Tree, error) {
	return t.insertAbove(p, func(c *Node) *Node { return NewFilter(f, c) })
}

// InsertExtension inserts an extension node; ext's domain is the prefix
// schedule space at p (see ScheduleDepth).
func (t Tree) InsertExtension(p Path, ext presburger.UnionMap) (Tree, error) {
	return t.insertAbove(p, func(c *Node) *Node { return NewExtension(ext, c) })
}

// InsertContext inserts a context node.
func (t Tree) InsertContext(p Path, ctx presburger.Set) (Tree, error) {
	return t.insertAbove(p, func(c *Node) *Node { return NewContext(ctx, c) })
}

// InsertGuard inserts a guard node.
func (t Tree) InsertGuard(p Path, g presburger.Set) (Tree, error) {
	return t.insertAbove(p, func(c *Node) *Node { return NewGuard(g, c) })
}

// InsertBand inserts a band node (isl_schedule_node_insert_partial_schedule).
func (t Tree) InsertBand(p Path, b Band) (Tree, error) {
	return t.insertAbove(p, func(c *Node) *Node { return NewBand(b, c) })
}

// InsertSequence inserts a sequence node with one filter child per
// filter, each over a copy (a shared reference) of the subtree at p, as
// isl_schedule_node_insert_sequence.
func (t Tree) InsertSequence(p Path, filters ...presburger.UnionSet) (Tree, error) {
	return t.insertChildren(p, KindSequence, filters)
}

// InsertSet inserts a set node, like InsertSequence.
func (t Tree) InsertSet(p Path, filters ...presburger.UnionSet) (Tree, error) {
	return t.insertChildren(p, KindSet, filters)
}

func (t Tree) insertChildren(p Path, k Kind, filters []presburger.UnionSet) (Tree, error) {
	if len(filters) == 0 {
		return Tree{}, errors.New("scheduletree: a " + k.String() + " needs at least one filter")
	}
	return t.insertAbove(p, func(c *Node) *Node {
		children := make([]*Node, len(filters))
		for i, f := range filters {
			children[i] = NewFilter(f, c)
		}
		return &Node{kind: k, children: children}
	})
}

// Delete removes the node at p, which must have exactly one child, and
// puts its child in its place (isl_schedule_node_delete). The root, leaves,
// sequences, sets and the filter children of a sequence or set cannot be
// deleted this way; see DeleteChild for the latter.
func (t Tree) Delete(p Path) (Tree, error) {
	if err := t.checkInsert(p); err != nil {
		return Tree{}, err
	}
	return t.replace(p, func(n *Node) (*Node, error) {
		if !n.kind.hasOneChild() {
			return nil, pathErr(p, n, "only a node with one child can be deleted")
		}
		return n.children[0], nil
	})
}

// DeleteChild removes the filter child at p from its sequence or set
// parent, with its subtree. The last child cannot be removed.
func (t Tree) DeleteChild(p Path) (Tree, error) {
	parent, ok := p.Parent()
	if !ok {
		return Tree{}, errors.New("scheduletree: the root has no parent")
	}
	i := p[len(p)-1]
	return t.replace(parent, func(n *Node) (*Node, error) {
		if n.kind != KindSequence && n.kind != KindSet {
			return nil, pathErr(parent, n, "DeleteChild needs a sequence or set parent")
		}
		if i < 0 || i >= len(n.children) {
			return nil, pathErr(parent, n, "no child %d (it has %d)", i, len(n.children))
		}
		if len(n.children) == 1 {
			return nil, pathErr(parent, n, "cannot delete the only child")
		}
		ch := append(append([]*Node(nil), n.children[:i]...), n.children[i+1:]...)
		return n.withChildren(ch), nil
	})
}

// GraftBefore inserts graft so that its instances execute before the
// subtree at p, as isl_schedule_node_graft_before. The root of graft is an
// extension node whose domain is the prefix schedule space at p, or a
// domain node (its instances are then added at every prefix point). The
// new instances must not share a statement space with the instances that
// reach p.
//
// An extension node with the graft's map is inserted above p, over a
// sequence of two filters: the graft's instances with the graft's subtree,
// and the instances reaching p with the original subtree. Filters are the
// universes of the statement spaces where these are disjoint, as in isl.
// When p is already the child of a filter of a sequence under an extension
// node, and the new statements differ from those there, that extension is
// extended instead and the graft's filter joins the sequence. It returns
// the new tree and the path of the original node in it.
func (t Tree) GraftBefore(p Path, graft *Node) (Tree, Path, error) {
	return t.graft(p, graft, true)
}

// GraftAfter is GraftBefore with the graft executed after the subtree at p.
func (t Tree) GraftAfter(p Path, graft *Node) (Tree, Path, error) {
	return t.graft(p, graft, false)
}

func (t Tree) graft(p Path, graft *Node, before bool) (res Tree, at Path, err error) {
	defer catch(&err)
	if err := t.checkInsert(p); err != nil {
		return Tree{}, nil, err
	}
	st, _, err := t.stateAt(p)
	if err != nil {
		return Tree{}, nil, err
	}
	if graft != nil && graft.kind == KindDomain {
		graft = NewExtension(universeToward(st.depth, graft.uset), graft.children[0])
	}
	if graft == nil || graft.kind != KindExtension {
		return Tree{}, nil, errors.New("scheduletree: the root of a graft must be a domain or extension node")
	}
	ext := graft.umap
	nodeUniv := universe(st.reach)
	graftDomain := must(ext.Range())
	graftFilter, err := universeIfDisjoint(graftDomain, nodeUniv)
	if err != nil {
		return Tree{}, nil, err
	}
	graftTree := NewFilter(graftFilter, graft.children[0])
	pair := func(orig *Node) []*Node {
		if before {
			return []*Node{graftTree, orig}
		}
		return []*Node{orig, graftTree}
	}
	pos := 0
	if before {
		pos = 1
	}
	if filterPath, seqPath, ok := t.inExtension(p, ext); ok {
		i := filterPath[len(filterPath)-1]
		t, err = t.replace(seqPath[:len(seqPath)-1], func(e *Node) (*Node, error) {
			u := must(e.umap.Union(ext))
			e2 := *e
			e2.umap = u
			seq := e.children[0]
			ch := append(append(append([]*Node(nil), seq.children[:i]...), pair(seq.children[i])...), seq.children[i+1:]...)
			e2.children = []*Node{seq.withChildren(ch)}
			return &e2, nil
		})
		return t, seqPath.Child(i + pos).Child(0), err
	}
	filter, err := universeIfDisjoint(st.reach, graftDomain)
	if err != nil {
		return Tree{}, nil, err
	}
	t, err = t.replace(p, func(n *Node) (*Node, error) {
		return NewExtension(ext, NewSequence(pair(NewFilter(filter, n))...)), nil
	})
	return t, p.Child(0).Child(pos).Child(0), err
}

// inExtension reports whether p is the child of a filter in a sequence
// that is the child of an extension node whose statements (its own and
// those reaching it) are disjoint from ext's range: then isl extends that
// extension node.
func (t Tree) inExtension(p Path, ext presburger.UnionMap) (filterPath, seqPath Path, ok bool) {
	if len(p) < 3 {
		return nil, nil, false
	}
	nodes, err := t.ancestry(p)
	if err != nil {
		return nil, nil, false
	}
	k := len(nodes)
	if nodes[k-2].kind != KindFilter || nodes[k-3].kind != KindSequence || nodes[k-4].kind != KindExtension {
		return nil, nil, false
	}
	extPath := p[:len(p)-3]
	st, _, err := t.stateAt(extPath)
	if err != nil {
		return nil, nil, false
	}
	old := nodes[k-4].umap
	dom := must(universe(st.reach).Union(universe(must(old.Range()))))
	if !isEmpty(must(ext.IntersectRange(dom))) {
		return nil, nil, false
	}
	return append(Path(nil), p[:len(p)-1]...), append(Path(nil), p[:len(p)-2]...), true
}

// universeIfDisjoint returns the universe of s when it is disjoint from
// ref, s itself when only s is; overlapping instances are an error (isl's
// replace_by_universe_if_disjoint).
func universeIfDisjoint(s, ref presburger.UnionSet) (presburger.UnionSet, error) {
	if !must(must(s.Intersect(ref)).IsEmpty()) {
		return s, errors.New("scheduletree: graft instances overlap the instances reaching the node")
	}
	u := universe(s)
	if must(must(u.Intersect(ref)).IsEmpty()) {
		return u, nil
	}
	return s, nil
}

// universeToward returns { [p0, ..., p_{depth-1}] -> x : x in dom }.
func universeToward(depth int, dom presburger.UnionSet) presburger.UnionMap {
	var maps []presburger.Map
	for _, s := range dom.Sets() {
		sp := s.Space()
		m := presburger.UniverseMap(presburger.MapSpace(sp.Params, presburger.Tuple{Dims: make([]string, depth)}, sp.Out))
		maps = append(maps, must(m.IntersectRange(s)))
	}
	return unionMap(maps)
}
