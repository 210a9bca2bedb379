package scheduletree

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// Kind is the type of a schedule tree node.
type Kind int

// The node kinds, as in isl (isl_schedule_node_type).
const (
	KindLeaf Kind = iota
	KindDomain
	KindContext
	KindBand
	KindSequence
	KindSet
	KindFilter
	KindExtension
	KindExpansion
	KindMark
	KindGuard
)

var kindNames = [...]string{
	KindLeaf:      "leaf",
	KindDomain:    "domain",
	KindContext:   "context",
	KindBand:      "band",
	KindSequence:  "sequence",
	KindSet:       "set",
	KindFilter:    "filter",
	KindExtension: "extension",
	KindExpansion: "expansion",
	KindMark:      "mark",
	KindGuard:     "guard",
}

// String returns the kind's name as used in JSON ("band", "filter", ...).
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

func kindByName(s string) (Kind, bool) {
	for k, n := range kindNames {
		if n == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// Node is one node of a schedule tree. Nodes are immutable: the fields are
// unexported, constructors copy their arguments and accessors return
// copies, so subtrees can be shared between trees freely.
type Node struct {
	kind Kind
	// uset is the domain of a domain node or the filter of a filter node.
	uset presburger.UnionSet
	// set is the parameter set of a context node or the guard of a guard node.
	set presburger.Set
	// umap is the extension of an extension node or the expansion of an
	// expansion node.
	umap presburger.UnionMap
	// contraction is the contraction of an expansion node.
	contraction presburger.UnionMap
	band        Band
	mark        string
	children    []*Node
}

var leaf = &Node{kind: KindLeaf}

// NewLeaf returns a leaf: the end of a branch, where the statement
// instances that reach it are executed.
func NewLeaf() *Node { return leaf }

func orLeaf(n *Node) *Node {
	if n == nil {
		return leaf
	}
	return n
}

// NewDomain returns a domain node (the root of a tree) holding the
// statement instances the tree schedules. A nil child is a leaf.
func NewDomain(dom presburger.UnionSet, child *Node) *Node {
	return &Node{kind: KindDomain, uset: dom, children: []*Node{orLeaf(child)}}
}

// NewContext returns a context node: constraints on the parameters that
// hold in its subtree.
func NewContext(ctx presburger.Set, child *Node) *Node {
	return &Node{kind: KindContext, set: ctx, children: []*Node{orLeaf(child)}}
}

// NewBand returns a band node with a copy of b. Coincident and Options
// shorter than the number of members are padded with false and
// OptionDefault.
func NewBand(b Band, child *Node) *Node {
	return &Node{kind: KindBand, band: b.normalized(), children: []*Node{orLeaf(child)}}
}

// NewSequence returns a sequence node: its children, filter nodes, run one
// after the other.
func NewSequence(children ...*Node) *Node {
	return &Node{kind: KindSequence, children: childList(children)}
}

// NewSet returns a set node: its children, filter nodes, may run in any
// order.
func NewSet(children ...*Node) *Node {
	return &Node{kind: KindSet, children: childList(children)}
}

func childList(children []*Node) []*Node {
	out := make([]*Node, len(children))
	for i, c := range children {
		out[i] = orLeaf(c)
	}
	return out
}

// NewFilter returns a filter node: only the instances in f pass to its
// child.
func NewFilter(f presburger.UnionSet, child *Node) *Node {
	return &Node{kind: KindFilter, uset: f, children: []*Node{orLeaf(child)}}
}

// NewExtension returns an extension node: ext maps points of the prefix
// schedule space (the outer band members, an unnamed tuple) to extra
// statement instances executed at that point of the outer loops.
func NewExtension(ext presburger.UnionMap, child *Node) *Node {
	return &Node{kind: KindExtension, umap: ext, children: []*Node{orLeaf(child)}}
}

// NewExpansion returns an expansion node. The contraction maps each
// instance of the subtree to the instance that represents it above the
// node (a function); the expansion maps it back to the instances it stands
// for (a subset of the inverse of the contraction).
func NewExpansion(contraction, expansion presburger.UnionMap, child *Node) *Node {
	return &Node{kind: KindExpansion, contraction: contraction, umap: expansion, children: []*Node{orLeaf(child)}}
}

// NewMark returns a mark node with the given name ("skipped", "kernel",
// "thread", "parallel", "promote[A]", ...). Marks do not change the
// schedule; later passes interpret them.
func NewMark(name string, child *Node) *Node {
	return &Node{kind: KindMark, mark: name, children: []*Node{orLeaf(child)}}
}

// NewGuard returns a guard node: g is a set of the prefix schedule space
// (or a parameter set) that the AST generator may assume to hold in the
// subtree, and has to check.
func NewGuard(g presburger.Set, child *Node) *Node {
	return &Node{kind: KindGuard, set: g, children: []*Node{orLeaf(child)}}
}

// Kind returns the node's kind.
func (n *Node) Kind() Kind { return n.kind }

// Domain returns the instances of a domain node.
func (n *Node) Domain() presburger.UnionSet { return n.uset }

// Filter returns the instances a filter node lets through.
func (n *Node) Filter() presburger.UnionSet { return n.uset }

// Context returns the parameter constraints of a context node.
func (n *Node) Context() presburger.Set { return n.set }

// Guard returns the condition of a guard node.
func (n *Node) Guard() presburger.Set { return n.set }

// Extension returns the map of an extension node.
func (n *Node) Extension() presburger.UnionMap { return n.umap }

// Contraction returns the contraction of an expansion node.
func (n *Node) Contraction() presburger.UnionMap { return n.contraction }

// Expansion returns the expansion of an expansion node.
func (n *Node) Expansion() presburger.UnionMap { return n.umap }

// Mark returns the name of a mark node.
func (n *Node) Mark() string { return n.mark }

// Band returns a copy of the band of a band node.
func (n *Node) Band() Band { return n.band.clone() }

// NumChildren returns the number of children: 0 for a leaf, the number of
// filters for a sequence or set, 1 otherwise.
func (n *Node) NumChildren() int { return len(n.children) }

// Child returns child i.
func (n *Node) Child(i int) *Node { return n.children[i] }

// Children returns a copy of the list of children.
func (n *Node) Children() []*Node { return append([]*Node(nil), n.children...) }

// hasOneChild reports whether the kind has exactly one child.
func (k Kind) hasOneChild() bool {
	return k != KindLeaf && k != KindSequence && k != KindSet
}

// withChildren returns a shallow copy of n with new children.
func (n *Node) withChildren(children []*Node) *Node {
	c := *n
	c.children = children
	return &c
}

// withChild returns a copy of n with child i replaced.
func (n *Node) withChild(i int, child *Node) *Node {
	ch := append([]*Node(nil), n.children...)
	ch[i] = child
	return n.withChildren(ch)
}
