package emit

import (
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

// This file strip-mines an innermost loop whose statements divide its
// iterator by a constant: an upsampling stage reads f(x/2) and selects on
// x%2. Run as it is, each iteration computes a vector floor division and
// a modulo, gathers the reads (x/2 is not consecutive in x) and selects
// per lane. Run as a loop over q with x = k*q + r for each constant r in
// [0, k), x/2 is q plus a constant and x%2 is the constant r: the reads
// are consecutive in q and the selects fold, so the loop vectorizes as
// Halide's upsampling does. The at most k-1 iterations before the first
// multiple of k and after the last whole group run as they were. A loop
// of stride s (a pyramid's parity cases: even rows in one loop, odd rows
// in another) runs the same way over its iteration count t, with
// x = lo + s*t, when s makes its divisions exact.

// maxStrip is the largest strip length: 8 takes a bilateral grid's
// cells of 8 pixels (x/8 and x%8 in the slicing stage); beyond it the
// copies of the loop body cost more compile time than they save.
const maxStrip = 8

// strip describes the loop being strip-mined, for the statements in one
// copy of its body: iter = k*q + base, base not depending on q (the
// constant r of a strip copy, or the lower bound of a loop of stride k).
type strip struct {
	iter string
	q    value.Value
	k    int64
	base value.Value
}

// strideDivides reports whether n, of stride s > 1, divides its iterator
// by a constant that s times the iterator's coefficient makes exact: over
// its iteration count t, with iter = lo + s*t, the division is then
// affine in t (a pyramid's odd rows, x = 2t+1, reading row x/2).
func (fs *fnState) strideDivides(n *ast.For) bool {
	found := false
	fs.eachDivision(n, func(c, d int64) {
		found = found || (c != 0 && c*n.Stride%d == 0)
	})
	return found
}

// stridedLoop generates n, of stride s, as a loop over its iteration
// count t with iter = lo + s*t, whose statements see the iterator as
// strip{q: t, k: s, base: lo}.
func (fs *fnState) stridedLoop(ev *env, n *ast.For, lo, hi value.Value, group *metadata.Tuple, hint loopHint) {
	s := n.Stride
	last := fs.floorDivConst(subNSW(fs.cur, hi, lo), s)
	fs.loop(ev, n.Iter+"_t", i64(0), last, 1, group, hint, func(inner *env) {
		t := inner.iters[n.Iter+"_t"]
		body := inner.clone()
		body.iters[n.Iter] = addNSW(fs.cur, lo, mulNSW(fs.cur, t, i64(s)))
		body.strip = &strip{iter: n.Iter, q: t, k: s, base: lo}
		fs.node(body, n.Body)
	})
}

// eachDivision calls f with the iterator's coefficient c in the operand
// and the divisor d of every floor division and modulo by a constant in
// the statements of the innermost loop n (none when n is not innermost).
func (fs *fnState) eachDivision(n *ast.For, f func(c, d int64)) bool {
	ok := true
	ast.Walk(n.Body, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.For:
			ok = false
		case *ast.User:
			s := fs.e.p.Stmt(m.Stmt)
			if s == nil || len(m.Args) != len(s.Iters) {
				ok = false
				break
			}
			coefs := make([]int64, len(m.Args))
			known := make([]bool, len(m.Args))
			for i, a := range m.Args {
				coefs[i], known[i] = iterCoef(a, n.Iter)
			}
			forms := stripForms{coef: coefs, known: known}
			each := func(e scop.Expr) {
				scop.Walk(e, func(x scop.Expr) bool {
					b, isBin := x.(*scop.Binary)
					if !isBin || (b.Op != scop.FloorDiv && b.Op != scop.Mod) {
						return true
					}
					d, isDiv := divisor(b)
					if c, affine := forms.coefOf(b.X); isDiv && affine {
						f(c, d)
					}
					return true
				})
			}
			each(s.Value)
			for _, x := range s.Write.Index {
				each(x)
			}
		}
		return ok
	})
	return ok
}

// stripLength is the strip length k that makes every constant division
// of n's iterator in n's statements exact, or 1 when there is none, the
// loop is not innermost or k would pass maxStrip.
func (fs *fnState) stripLength(n *ast.For) int64 {
	if n.Stride != 1 {
		return 1
	}
	k := int64(1)
	ok := fs.eachDivision(n, func(c, d int64) {
		if c%d != 0 {
			k = lcm(k, d/gcd(abs64(c), d))
		}
	})
	if !ok || k > maxStrip {
		return 1
	}
	return k
}

// stripLoop generates n as a prologue of single iterations up to the
// first multiple of k, a loop over q running the body for iter = k*q+r,
// r = 0..k-1, and an epilogue of single iterations: the iterations of n,
// in n's order.
func (fs *fnState) stripLoop(ev *env, n *ast.For, lo, hi value.Value, k int64, group *metadata.Tuple, hint loopHint) {
	b := fs.cur
	q0 := fs.floorDivConst(addNSW(b, lo, i64(k-1)), k)
	q1 := fs.floorDivConst(subNSW(b, hi, i64(k-1)), k)
	first := mulNSW(b, q0, i64(k))
	run := func(inner *env) { fs.node(inner, n.Body) }
	fs.loop(ev, n.Iter, lo, fs.smin(hi, subNSW(fs.cur, first, i64(1))), 1, nil, hintCold, run)
	fs.loop(ev, n.Iter+"_q", q0, q1, 1, group, hint, func(inner *env) {
		q := inner.iters[n.Iter+"_q"]
		base := mulNSW(fs.cur, q, i64(k))
		for r := int64(0); r < k; r++ {
			body := inner.clone()
			body.iters[n.Iter] = addNSW(fs.cur, base, i64(r))
			body.strip = &strip{iter: n.Iter, q: q, k: k, base: i64(r)}
			fs.node(body, n.Body)
		}
	})
	after := mulNSW(fs.cur, fs.smax(q0, addNSW(fs.cur, q1, i64(1))), i64(k))
	fs.loop(ev, n.Iter, fs.smax(lo, after), hi, 1, nil, hintCold, run)
}

// stripForms gives, for the iterators of one statement instance, their
// coefficients of a loop value (known where the AST's expression of the
// iterator is affine in it).
type stripForms struct {
	coef  []int64
	known []bool
}

// coefOf is the coefficient of the loop value in x, when x is an
// integer expression of int or int64_t type over constants, parameters
// and iterators with +, -, * by a constant, and floor division and
// modulo by a constant that the coefficient makes exact (their result
// is then the loop value's multiple plus the division of the rest).
// Conversions between int and int64_t are transparent: iterator
// arithmetic does not overflow in a valid program, as subscripts assume.
func (f stripForms) coefOf(x scop.Expr) (int64, bool) {
	if t := x.Type(); t != scop.I32 && t != scop.I64 {
		return 0, false
	}
	switch x := x.(type) {
	case *scop.Const, *scop.Param:
		return 0, true
	case *scop.Iter:
		if x.Index < 0 || x.Index >= len(f.coef) {
			return 0, false
		}
		return f.coef[x.Index], f.known[x.Index]
	case *scop.Cast:
		return f.coefOf(x.X)
	case *scop.Unary:
		c, ok := f.coefOf(x.X)
		return -c, ok && x.Op == scop.Neg
	case *scop.Binary:
		a, okA := f.coefOf(x.X)
		if !okA {
			return 0, false
		}
		switch x.Op {
		case scop.Add, scop.Sub:
			b, okB := f.coefOf(x.Y)
			if x.Op == scop.Sub {
				b = -b
			}
			return a + b, okB
		case scop.Mul:
			b, okB := f.coefOf(x.Y)
			ka, constA := x.X.(*scop.Const)
			kb, constB := x.Y.(*scop.Const)
			switch {
			case okB && constB && kb.T.IsInt():
				return a * kb.I, true
			case okB && constA && ka.T.IsInt():
				return b * ka.I, true
			}
		case scop.FloorDiv, scop.Mod:
			d, ok := divisor(x)
			if !ok || a%d != 0 {
				return 0, false
			}
			if x.Op == scop.Mod {
				return 0, true
			}
			return a / d, true
		}
	}
	return 0, false
}

// divisor is the positive constant divisor of a floor division or modulo.
func divisor(b *scop.Binary) (int64, bool) {
	k, ok := b.Y.(*scop.Const)
	if !ok || !k.T.IsInt() || k.I <= 0 {
		return 0, false
	}
	return k.I, true
}

// iterCoef is the coefficient of iterator name in the AST expression e,
// when e is affine in it.
func iterCoef(e ast.Expr, name string) (int64, bool) {
	switch e.Op {
	case ast.OpInt:
		return 0, true
	case ast.OpVar:
		if e.Name == name {
			return 1, true
		}
		return 0, true
	case ast.OpAdd:
		var sum int64
		for _, a := range e.Args {
			c, ok := iterCoef(a, name)
			if !ok {
				return 0, false
			}
			sum += c
		}
		return sum, true
	case ast.OpMul:
		c, ok := iterCoef(e.Args[0], name)
		return c * e.Val, ok
	}
	return 0, !mentions(e, name)
}

// mentions reports whether e uses the name.
func mentions(e ast.Expr, name string) bool {
	if e.Op == ast.OpVar {
		return e.Name == name
	}
	for _, a := range e.Args {
		if mentions(a, name) {
			return true
		}
	}
	return false
}

func (fs *fnState) smin(x, y value.Value) value.Value {
	return fs.cur.NewSelect(fs.cur.NewICmp(enum.IPredSLT, x, y), x, y)
}

func (fs *fnState) smax(x, y value.Value) value.Value {
	return fs.cur.NewSelect(fs.cur.NewICmp(enum.IPredSGT, x, y), x, y)
}

// stripArgs sets c up for a statement instance in a strip copy: each
// iterator's coefficient of q and its value at q = 0.
func (c *stmtCtx) stripArgs(u *ast.User) {
	st := c.env.strip
	c.forms = stripForms{coef: make([]int64, len(u.Args)), known: make([]bool, len(u.Args))}
	c.bases = make([]value.Value, len(u.Args))
	at0 := c.env.clone()
	at0.strip = nil
	at0.iters[st.iter] = st.base
	for i, a := range u.Args {
		coef, ok := iterCoef(a, st.iter)
		c.forms.coef[i], c.forms.known[i] = coef*st.k, ok
		if ok {
			c.bases[i] = c.fs.aexpr(at0, a)
		}
	}
}

// stripValue computes x, an expression coefOf accepts, as an i64:
// its coefficient times q plus its value at q = 0, which does not
// depend on q (LICM takes it out of the loop). A subscript computed so
// is affine in q for the vectorizer.
func (c *stmtCtx) stripValue(x scop.Expr) (value.Value, bool) {
	coef, ok := c.forms.coefOf(x)
	if !ok {
		return nil, false
	}
	v := c.atZero(x)
	if coef != 0 {
		v = addNSW(c.b(), mulNSW(c.b(), c.env.strip.q, i64(coef)), v)
	}
	return v, true
}

// atZero computes an expression coefOf accepts at q = 0, in i64.
func (c *stmtCtx) atZero(x scop.Expr) value.Value {
	b := c.b()
	switch x := x.(type) {
	case *scop.Const:
		return i64(scop.IntValue(x.T, x.I).I)
	case *scop.Param:
		return c.toI64(c.fromI64(c.env.params[x.Name], x.T), x.T)
	case *scop.Iter:
		return c.bases[x.Index]
	case *scop.Cast:
		return c.atZero(x.X)
	case *scop.Unary:
		return subNSW(b, i64(0), c.atZero(x.X))
	case *scop.Binary:
		u := c.atZero(x.X)
		switch x.Op {
		case scop.FloorDiv:
			d, _ := divisor(x)
			return c.fs.floorDivConst(u, d)
		case scop.Mod:
			d, _ := divisor(x)
			return c.fs.modConst(u, d)
		}
		v := c.atZero(x.Y)
		switch x.Op {
		case scop.Add:
			return addNSW(b, u, v)
		case scop.Sub:
			return subNSW(b, u, v)
		}
		return mulNSW(b, u, v)
	}
	panic("unreachable")
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int64) int64 { return a / gcd(a, b) * b }

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
