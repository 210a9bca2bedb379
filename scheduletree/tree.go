package scheduletree

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// Tree is a schedule tree: an immutable value whose root is a domain node.
// Every edit returns a new Tree that shares the untouched subtrees with the
// old one (path copying); the old tree stays valid and unchanged.
type Tree struct{ root *Node }

// NewTree returns the tree with the given root, which must be a domain node.
func NewTree(root *Node) (Tree, error) {
	if root == nil || root.kind != KindDomain {
		return Tree{}, errors.New("scheduletree: the root of a tree must be a domain node")
	}
	return Tree{root}, nil
}

// FromDomain returns the tree with only a domain node: every instance of
// dom is executed at one leaf, in no particular order.
func FromDomain(dom presburger.UnionSet) Tree { return Tree{NewDomain(dom, nil)} }

// Root returns the root (domain) node; nil for the zero Tree.
func (t Tree) Root() *Node { return t.root }

// Domain returns the instances of the root domain node.
func (t Tree) Domain() presburger.UnionSet { return t.root.uset }

// Path addresses a node by the child indices leading to it from the root;
// the empty path is the root. A node with one child has it at index 0, and
// a leaf child is addressed like any other node.
type Path []int

// Child returns the path of child i of the node at p (a new slice).
func (p Path) Child(i int) Path {
	return append(append(Path(nil), p...), i)
}

// Parent returns the path of the parent; the root has none.
func (p Path) Parent() (Path, bool) {
	if len(p) == 0 {
		return nil, false
	}
	return append(Path(nil), p[:len(p)-1]...), true
}

// String writes the path as "/0/1/0"; the root is "/".
func (p Path) String() string {
	if len(p) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, i := range p {
		b.WriteString("/" + strconv.Itoa(i))
	}
	return b.String()
}

// ParsePath reads a path written by Path.String.
func ParsePath(s string) (Path, error) {
	if s == "/" {
		return Path{}, nil
	}
	if !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("scheduletree: path %q does not start with /", s)
	}
	var p Path
	for _, f := range strings.Split(s[1:], "/") {
		i, err := strconv.Atoi(f)
		if err != nil || i < 0 {
			return nil, fmt.Errorf("scheduletree: bad path %q", s)
		}
		p = append(p, i)
	}
	return p, nil
}

// PathError reports a problem at a node of a tree.
type PathError struct {
	Path Path
	Kind Kind
	Err  error
}

func (e *PathError) Error() string {
	return fmt.Sprintf("scheduletree: node %s (%s): %v", e.Path, e.Kind, e.Err)
}

func (e *PathError) Unwrap() error { return e.Err }

func pathErr(p Path, n *Node, format string, args ...any) error {
	return &PathError{Path: append(Path(nil), p...), Kind: n.kind, Err: fmt.Errorf(format, args...)}
}

// ancestry returns the nodes from the root to the node at p, inclusive.
func (t Tree) ancestry(p Path) ([]*Node, error) {
	if t.root == nil {
		return nil, errors.New("scheduletree: empty tree")
	}
	nodes := []*Node{t.root}
	n := t.root
	for d, i := range p {
		if i < 0 || i >= len(n.children) {
			return nil, pathErr(p[:d], n, "no child %d (it has %d)", i, len(n.children))
		}
		n = n.children[i]
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// At returns the node at p.
func (t Tree) At(p Path) (*Node, error) {
	nodes, err := t.ancestry(p)
	if err != nil {
		return nil, err
	}
	return nodes[len(nodes)-1], nil
}

// replace returns the tree with the node at p replaced by f's result,
// copying only the nodes on the path.
func (t Tree) replace(p Path, f func(*Node) (*Node, error)) (Tree, error) {
	nodes, err := t.ancestry(p)
	if err != nil {
		return Tree{}, err
	}
	n, err := f(nodes[len(nodes)-1])
	if err != nil {
		return Tree{}, err
	}
	for d := len(p) - 1; d >= 0; d-- {
		n = nodes[d].withChild(p[d], n)
	}
	if n.kind != KindDomain {
		return Tree{}, errors.New("scheduletree: the root of a tree must be a domain node")
	}
	return Tree{n}, nil
}

// Replace returns the tree with the subtree at p replaced by n.
func (t Tree) Replace(p Path, n *Node) (Tree, error) {
	return t.replace(p, func(*Node) (*Node, error) { return orLeaf(n), nil })
}

// Walk calls fn for every node in preorder with its path; when fn returns
// false the node's subtree is skipped. The path is only valid during the call.
func (t Tree) Walk(fn func(p Path, n *Node) bool) {
	var walk func(p Path, n *Node)
	walk = func(p Path, n *Node) {
		if !fn(p, n) {
			return
		}
		for i, c := range n.children {
			walk(append(p, i), c)
		}
	}
	if t.root != nil {
		walk(Path{}, t.root)
	}
}

// Cursor points at one node of a tree and moves through it; it is a value
// and never changes the tree.
type Cursor struct {
	tree  Tree
	path  Path
	nodes []*Node // root .. current
}

// Cursor returns a cursor at the node at p.
func (t Tree) Cursor(p Path) (Cursor, error) {
	nodes, err := t.ancestry(p)
	if err != nil {
		return Cursor{}, err
	}
	return Cursor{tree: t, path: append(Path(nil), p...), nodes: nodes}, nil
}

// Tree returns the tree the cursor points into.
func (c Cursor) Tree() Tree { return c.tree }

// Path returns the path of the current node.
func (c Cursor) Path() Path { return append(Path(nil), c.path...) }

// Node returns the current node.
func (c Cursor) Node() *Node { return c.nodes[len(c.nodes)-1] }

// Depth returns the number of ancestors.
func (c Cursor) Depth() int { return len(c.path) }

// Ancestor returns the ancestor d levels up (0 is the node itself).
func (c Cursor) Ancestor(d int) *Node { return c.nodes[len(c.nodes)-1-d] }

// Parent moves to the parent; false at the root.
func (c Cursor) Parent() (Cursor, bool) {
	if len(c.path) == 0 {
		return c, false
	}
	return Cursor{tree: c.tree, path: c.path[: len(c.path)-1 : len(c.path)-1], nodes: c.nodes[: len(c.nodes)-1 : len(c.nodes)-1]}, true
}

// Child moves to child i; false when there is none.
func (c Cursor) Child(i int) (Cursor, bool) {
	n := c.Node()
	if i < 0 || i >= len(n.children) {
		return c, false
	}
	return Cursor{tree: c.tree, path: c.path.Child(i), nodes: append(append([]*Node(nil), c.nodes...), n.children[i])}, true
}

// NextSibling moves to the next child of the parent; false when there is none.
func (c Cursor) NextSibling() (Cursor, bool) { return c.sibling(1) }

// PrevSibling moves to the previous child of the parent; false when there is none.
func (c Cursor) PrevSibling() (Cursor, bool) { return c.sibling(-1) }

func (c Cursor) sibling(delta int) (Cursor, bool) {
	p, ok := c.Parent()
	if !ok {
		return c, false
	}
	return p.Child(c.path[len(c.path)-1] + delta)
}
