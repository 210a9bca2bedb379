package ast

import "reflect"

// dropHeldGuards removes the conditions an enclosing if already tests:
// an if, or a conjunct of its condition, equal to the condition or a
// conjunct of an if around it (on its then branch). Iterators are
// never rebound inside their loop, so equal expressions have equal values
// there. The guards of a fused producer's instances and of its tile
// otherwise repeat at each level that enforces them.
//
// It builds new nodes where it changes something and shares the rest, so
// a subtree used twice is never changed under one of its uses.
func dropHeldGuards(n Node, held []Expr) Node {
	switch n := n.(type) {
	case *For:
		if body := dropHeldGuards(n.Body, held); body != n.Body {
			c := *n
			c.Body = body
			return &c
		}
	case *Block:
		var out []Node
		for i, ch := range n.Children {
			if d := dropHeldGuards(ch, held); d != ch && out == nil {
				out = append(append(make([]Node, 0, len(n.Children)), n.Children[:i]...), d)
			} else if out != nil {
				out = append(out, d)
			}
		}
		if out != nil {
			return &Block{Children: out}
		}
	case *Mark:
		if body := dropHeldGuards(n.Body, held); body != n.Body {
			c := *n
			c.Body = body
			return &c
		}
	case *If:
		if n.Else != nil {
			then, els := dropHeldGuards(n.Then, held), dropHeldGuards(n.Else, held)
			if then != n.Then || els != n.Else {
				return &If{Cond: n.Cond, Then: then, Else: els}
			}
			return n
		}
		all := conjuncts(n.Cond)
		var kept []Expr
		for _, c := range all {
			if !heldExpr(c, held) {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			return dropHeldGuards(n.Then, held)
		}
		cond := n.Cond
		if len(kept) < len(all) {
			cond = And(kept...)
		}
		inner := append(append(held[:len(held):len(held)], cond), kept...)
		then := dropHeldGuards(n.Then, inner)
		if then != n.Then || len(kept) < len(all) {
			return &If{Cond: cond, Then: then}
		}
	}
	return n
}

// conjuncts returns the operands of a conjunction, or e alone.
func conjuncts(e Expr) []Expr {
	if e.Op == OpAnd {
		return e.Args
	}
	return []Expr{e}
}

func heldExpr(e Expr, held []Expr) bool {
	for _, h := range held {
		if reflect.DeepEqual(e, h) {
			return true
		}
	}
	return false
}
