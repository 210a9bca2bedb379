package scop

// checker type-checks one statement's expressions.
type checker struct {
	p *Program
	s *Stmt
}

func (c checker) ref(r Ref, at Pos) error {
	a := c.p.Array(r.Array)
	if a == nil {
		return Errorf(at, "unknown array %s", r.Array)
	}
	if len(r.Index) != a.Rank() {
		return Errorf(at, "%s has %d dimensions, indexed with %d subscripts", a.Name, a.Rank(), len(r.Index))
	}
	for _, x := range r.Index {
		if err := c.expr(x); err != nil {
			return err
		}
		if !x.Type().IsInt() {
			return Errorf(x.Position(), "subscript %s of %s has type %s, not an integer type", x, a.Name, x.Type())
		}
	}
	return nil
}

func (c checker) expr(e Expr) error {
	if e == nil {
		return Errorf(c.s.At, "statement %s has a missing expression", c.s.Name)
	}
	if !e.Type().valid() {
		return Errorf(e.Position(), "expression %s has no type", e)
	}
	switch e := e.(type) {
	case *Const:
		return nil
	case *Iter:
		if e.Index < 0 || e.Index >= len(c.s.Iters) || c.s.Iters[e.Index] != e.Name {
			return Errorf(e.At, "unknown iterator %s of statement %s", e.Name, c.s.Name)
		}
		return c.intOnly(e, e.T)
	case *Param:
		if !contains(c.p.Params, e.Name) {
			return Errorf(e.At, "unknown parameter %s", e.Name)
		}
		return c.intOnly(e, e.T)
	case *Read:
		if err := c.ref(e.Ref, e.At); err != nil {
			return err
		}
		if a := c.p.Array(e.Array); a.Type != e.T {
			return Errorf(e.At, "type mismatch: read of %s array %s typed %s", a.Type, a.Name, e.T)
		}
		return nil
	case *Unary:
		return c.unary(e)
	case *Binary:
		return c.binary(e)
	case *Select:
		if err := c.all(e.Cond, e.Then, e.Else); err != nil {
			return err
		}
		if e.Cond.Type() != Bool {
			return Errorf(e.At, "type mismatch: condition %s has type %s, not bool", e.Cond, e.Cond.Type())
		}
		if e.Then.Type() != e.Else.Type() {
			return Errorf(e.At, "type mismatch: select branches of types %s and %s", e.Then.Type(), e.Else.Type())
		}
		return nil
	case *Cast:
		return c.expr(e.X)
	case *Call:
		return c.call(e)
	}
	return Errorf(e.Position(), "unknown expression node %T", e)
}

func (c checker) all(es ...Expr) error {
	for _, x := range es {
		if err := c.expr(x); err != nil {
			return err
		}
	}
	return nil
}

func (c checker) intOnly(e Expr, t ElemType) error {
	if !t.IsInt() {
		return Errorf(e.Position(), "type mismatch: %s must have an integer type, not %s", e, t)
	}
	return nil
}

func (c checker) unary(e *Unary) error {
	if err := c.expr(e.X); err != nil {
		return err
	}
	t := e.X.Type()
	switch e.Op {
	case Neg:
		if t == Bool {
			return Errorf(e.At, "type mismatch: negation of bool %s", e.X)
		}
	case Not:
		if t != Bool {
			return Errorf(e.At, "type mismatch: logical not of %s %s", t, e.X)
		}
	case BitNot:
		return c.intOnly(e.X, t)
	default:
		return Errorf(e.At, "unknown unary operator %d", e.Op)
	}
	return nil
}

func (c checker) binary(e *Binary) error {
	if err := c.all(e.X, e.Y); err != nil {
		return err
	}
	xt, yt := e.X.Type(), e.Y.Type()
	if xt != yt {
		return Errorf(e.At, "type mismatch: %s operands of types %s and %s", e.Op, xt, yt)
	}
	switch {
	case e.Op <= 0 || e.Op > Or:
		return Errorf(e.At, "unknown binary operator %d", e.Op)
	case e.Op.IsLogical():
		if xt != Bool || e.T != Bool {
			return Errorf(e.At, "type mismatch: %s needs bool operands, has %s", e.Op, xt)
		}
		return nil
	case e.Op.IsCompare():
		if e.T != Bool {
			return Errorf(e.At, "type mismatch: comparison %s typed %s, not bool", e, e.T)
		}
		return nil
	}
	if e.T != xt {
		return Errorf(e.At, "type mismatch: %s of %s operands typed %s", e.Op, xt, e.T)
	}
	switch e.Op {
	case Rem, FloorDiv, Mod, BitAnd, BitOr, BitXor, Shl, Shr:
		return c.intOnly(e, xt)
	}
	if xt == Bool {
		return Errorf(e.At, "type mismatch: arithmetic %s on bool operands", e.Op)
	}
	return nil
}

func (c checker) call(e *Call) error {
	n, ok := MathFuncs[e.Fn]
	if !ok {
		return Errorf(e.At, "unknown function %s", e.Fn)
	}
	if len(e.Args) != n {
		return Errorf(e.At, "%s takes %d arguments, has %d", e.Fn, n, len(e.Args))
	}
	if err := c.all(e.Args...); err != nil {
		return err
	}
	for _, a := range e.Args {
		if a.Type() != e.T {
			return Errorf(a.Position(), "type mismatch: argument %s of %s has type %s, call typed %s", a, e.Fn, a.Type(), e.T)
		}
	}
	if !e.T.IsFloat() && !(e.Fn == "abs" && e.T.IsInt()) {
		return Errorf(e.At, "type mismatch: %s of %s", e.Fn, e.T)
	}
	return nil
}
