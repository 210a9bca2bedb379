package ast

import (
	"slices"

	"github.com/tilefuse/tilefuse/scop"
)

// Node is a node of the AST: *For, *If, *Block, *User, *Mark, *Alloc or
// *Free.
type Node interface{ node() }

// For is the loop
//
//	for (Iter = Lower; Iter <= Upper; Iter += Stride) Body
//
// with inclusive bounds. Parallel marks a loop whose iterations are
// independent (a coincident band member, see Options.Parallel); Vector
// marks an innermost parallel loop meant for SIMD. Unbounded marks a loop
// whose points have no upper bound (Upper is unset): it runs without end,
// as isl's "for (Iter = Lower; 1; Iter += Stride)".
type For struct {
	Iter         string
	Lower, Upper Expr
	Stride       int64
	Parallel     bool
	Vector       bool
	Unbounded    bool
	Body         Node
}

// If runs Then when Cond is non-zero, else Else (which may be nil).
type If struct {
	Cond       Expr
	Then, Else Node
}

// Block runs its children in order.
type Block struct {
	Children []Node
}

// User runs one instance of statement Stmt: Args holds one expression per
// statement iterator, over the loop iterators and the parameters.
type User struct {
	Stmt string
	Args []Expr
}

// Mark is a named annotation of the schedule tree kept in the AST
// ("kernel", "parallel", "promote[A]", ...).
type Mark struct {
	Name string
	Body Node
}

// Alloc allocates a tile-local buffer Array of Shape elements of Elem,
// visible until the matching Free. Origin, when set, is the index of the
// buffer's first element in every dimension: the array's element idx is
// the buffer's element idx - Origin (one tile's part of the array).
//
// Fold, when set, has one entry per dimension: 0 leaves the dimension as
// is; F > 0 makes it a ring of F elements (Halide's storage folding), the
// element idx living at (idx - Origin) mod F (floor mod, Origin 0 when
// unset), and Shape is F there. The builder of the tree guarantees idx -
// Origin >= 0 for every access inside the buffer's scope.
type Alloc struct {
	Array  string
	Elem   scop.ElemType
	Shape  []Expr
	Origin []Expr
	Fold   []int64
}

// Free releases the buffer allocated by the Alloc of Array.
type Free struct {
	Array string
}

func (*For) node()   {}
func (*If) node()    {}
func (*Block) node() {}
func (*User) node()  {}
func (*Mark) node()  {}
func (*Alloc) node() {}
func (*Free) node()  {}

// block returns the nodes as one node: nil for none, the node itself for
// one, a Block (flattened) otherwise.
func block(nodes ...Node) Node {
	var out []Node
	for _, n := range nodes {
		switch n := n.(type) {
		case nil:
		case *Block:
			out = append(out, n.Children...)
		default:
			out = append(out, n)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return &Block{Children: out}
}

// Walk calls fn on n and its descendants in pre-order while fn returns
// true.
func Walk(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	switch n := n.(type) {
	case *For:
		Walk(n.Body, fn)
	case *If:
		Walk(n.Then, fn)
		Walk(n.Else, fn)
	case *Block:
		for _, c := range n.Children {
			Walk(c, fn)
		}
	case *Mark:
		Walk(n.Body, fn)
	}
}

// RenameIterators returns a copy of n in which every loop iterator is
// renamed by fn, in its loop and in the expressions that use it.
func RenameIterators(n Node, fn func(string) string) Node {
	names := map[string]string{}
	Walk(n, func(x Node) bool {
		if f, ok := x.(*For); ok {
			names[f.Iter] = fn(f.Iter)
		}
		return true
	})
	return renameNode(n, names)
}

func renameNode(n Node, names map[string]string) Node {
	exprs := func(xs []Expr) []Expr {
		out := make([]Expr, len(xs))
		for i, x := range xs {
			out[i] = x.rename(names)
		}
		return out
	}
	switch n := n.(type) {
	case *For:
		c := *n
		c.Iter = names[n.Iter]
		c.Lower, c.Upper = n.Lower.rename(names), n.Upper.rename(names)
		c.Body = renameNode(n.Body, names)
		return &c
	case *If:
		return &If{Cond: n.Cond.rename(names), Then: renameNode(n.Then, names), Else: renameNode(n.Else, names)}
	case *Block:
		out := &Block{}
		for _, c := range n.Children {
			out.Children = append(out.Children, renameNode(c, names))
		}
		return out
	case *User:
		return &User{Stmt: n.Stmt, Args: exprs(n.Args)}
	case *Mark:
		return &Mark{Name: n.Name, Body: renameNode(n.Body, names)}
	case *Alloc:
		return &Alloc{Array: n.Array, Elem: n.Elem, Shape: exprs(n.Shape), Origin: exprs(n.Origin), Fold: slices.Clone(n.Fold)}
	}
	return n
}
