package scop

// Rewrite rebuilds e bottom-up where f returns a replacement (nil: keep
// the node, rewriting its operands); unchanged subtrees are shared.
func Rewrite(e Expr, f func(Expr) Expr) Expr {
	if r := f(e); r != nil {
		return r
	}
	switch e := e.(type) {
	case *Read:
		idx, changed := rewriteAll(e.Index, f)
		if !changed {
			return e
		}
		c := *e
		c.Index = idx
		return &c
	case *Unary:
		if x := Rewrite(e.X, f); x != e.X {
			c := *e
			c.X = x
			return &c
		}
	case *Binary:
		x, y := Rewrite(e.X, f), Rewrite(e.Y, f)
		if x != e.X || y != e.Y {
			c := *e
			c.X, c.Y = x, y
			return &c
		}
	case *Select:
		cond, th, el := Rewrite(e.Cond, f), Rewrite(e.Then, f), Rewrite(e.Else, f)
		if cond != e.Cond || th != e.Then || el != e.Else {
			c := *e
			c.Cond, c.Then, c.Else = cond, th, el
			return &c
		}
	case *Cast:
		if x := Rewrite(e.X, f); x != e.X {
			c := *e
			c.X = x
			return &c
		}
	case *Call:
		if args, changed := rewriteAll(e.Args, f); changed {
			c := *e
			c.Args = args
			return &c
		}
	}
	return e
}

func rewriteAll(es []Expr, f func(Expr) Expr) ([]Expr, bool) {
	out := make([]Expr, len(es))
	changed := false
	for i, x := range es {
		out[i] = Rewrite(x, f)
		changed = changed || out[i] != x
	}
	return out, changed
}
