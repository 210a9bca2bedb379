package cparse

import (
	"fmt"

	"github.com/tilefuse/tilefuse/scop"
)

// The walk over the region builds domains and 2d+1 schedules. A loop adds
// two schedule dimensions (its position in the enclosing body and its
// iterator, negated when the loop counts down) and opens a new position
// counter. Blocks and if statements add nothing: their statements take
// consecutive positions of the enclosing body, which keeps program order
// (then-branch before else-branch; their domains are disjoint anyway).

var unsupported = map[string]string{
	"do": "do-while loop", "switch": "switch statement",
	"return": "return statement", "break": "break statement", "continue": "continue statement",
	"goto": "goto statement", "label": "label", "case": "case label", "default": "default label",
}

func (b *builder) block(list []stmt) error {
	for i, s := range list {
		var err error
		if w, ok := s.(*whileStmt); ok {
			err = b.whileLoop(w, list[:i])
		} else {
			err = b.stmt(s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) stmt(s stmt) error {
	switch s := s.(type) {
	case *exprStmt:
		if s.x == nil {
			return nil
		}
		return b.exprStmt(s.x)
	case *declStmt:
		return b.declStmt(s)
	case *blockStmt:
		return b.block(s.list)
	case *forStmt:
		return b.forLoop(s)
	case *ifStmt:
		return b.ifStmt(s)
	case *whileStmt:
		return b.whileLoop(s, nil)
	case *otherStmt:
		return errorf(s.at, "%s in the scop region is not supported", unsupported[s.what])
	case *pragmaStmt:
		return errorf(s.at, "misplaced pragma")
	}
	return errorf(s.pos(), "unsupported statement")
}

func (b *builder) ifStmt(s *ifStmt) error {
	f, err := affCtx{b, "condition"}.formula(s.cond)
	if err != nil && readsMemory(s.cond) {
		return b.guardedIf(s)
	}
	if err != nil {
		return err
	}
	n := len(b.conds)
	b.conds = append(b.conds, "("+f+")")
	err = b.stmt(s.then)
	b.conds = b.conds[:n]
	if err != nil || s.els == nil {
		return err
	}
	b.conds = append(b.conds, "not ("+f+")")
	err = b.stmt(s.els)
	b.conds = b.conds[:n]
	return err
}

func (b *builder) forLoop(s *forStmt) error {
	it, lbExpr, err := b.loopInit(s)
	if err != nil {
		return err
	}
	step, err := b.loopStep(s, it)
	if err != nil {
		return err
	}
	if s.cond == nil {
		return errorf(s.at, "for loop without a condition")
	}
	bound := affCtx{b, "loop bound"}
	lb, err := bound.aff(lbExpr)
	if err != nil {
		return err
	}
	// The iterator is visible from the condition on.
	b.loops = append(b.loops, &loopCtx{sym: it})
	defer func() { b.loops = b.loops[:len(b.loops)-1] }()
	ub, err := b.loopCond(s.cond, it, step > 0)
	if err != nil {
		return err
	}
	lower, err := b.startFormula(it.name, lb, step)
	if err != nil {
		return err
	}
	nc, ns := len(b.conds), len(b.sched)
	dim := it.name
	if step < 0 {
		dim = "-" + it.name
	}
	b.conds = append(b.conds, lower, "("+ub+")")
	b.sched = append(b.sched, fmt.Sprint(*b.pos), dim)
	*b.pos++
	outer := b.pos
	pos := 0
	b.pos = &pos
	err = b.stmt(s.body)
	b.pos, b.conds, b.sched = outer, b.conds[:nc], b.sched[:ns]
	return err
}

// loopInit checks `i = lb` or `int i = lb` and returns i and lb.
func (b *builder) loopInit(s *forStmt) (*symbol, expr, error) {
	var id *identExpr
	var lb expr
	switch init := s.init.(type) {
	case nil:
		return nil, nil, errorf(s.at, "for loop without an initialisation")
	case *exprStmt:
		if a, ok := init.x.(*assignExpr); ok && a.op == "=" {
			id, _ = a.lhs.(*identExpr)
			lb = a.rhs
		}
	case *declStmt:
		if d := init.decls; len(d) == 1 && d[0].init != nil {
			id, lb = &identExpr{at: d[0].at, name: d[0].name, sym: d[0].sym}, d[0].init
		}
	}
	if id == nil {
		return nil, nil, errorf(s.init.pos(), "loop initialisation must assign a lower bound to the iterator")
	}
	it := id.sym
	switch {
	case it.size:
		return nil, nil, errorf(id.at, "assignment to size parameter %s", it.name)
	case !it.iter:
		return nil, nil, errorf(id.at, "loop iterator %s must be a local integer variable", it.name)
	case b.loopOf(it) >= 0:
		return nil, nil, errorf(id.at, "iterator %s is already used by an enclosing loop", it.name)
	case islKeywords[it.name]:
		return nil, nil, errorf(id.at, "iterator name %s is reserved in isl notation", it.name)
	}
	return it, lb, nil
}

// loopStep reads the increment: ++, --, += c, -= c or i = i ± c with a
// positive constant c. The result is signed.
func (b *builder) loopStep(s *forStmt, it *symbol) (int64, error) {
	if s.post == nil {
		return 0, errorf(s.at, "for loop without an increment")
	}
	return b.stepOf(s.post, it)
}

// stepOf reads an increment of it (it++, it--, it += c, it -= c or
// it = it ± c with a positive constant c) and returns its signed step.
func (b *builder) stepOf(post expr, it *symbol) (int64, error) {
	isIt := func(e expr) bool { return isIter(e, it) }
	var step expr
	sign := int64(1)
	switch e := post.(type) {
	case *postfixExpr:
		if isIt(e.x) {
			return map[string]int64{"++": 1, "--": -1}[e.op], nil
		}
	case *unaryExpr:
		if isIt(e.x) && (e.op == "++" || e.op == "--") {
			return map[string]int64{"++": 1, "--": -1}[e.op], nil
		}
	case *assignExpr:
		if !isIt(e.lhs) {
			break
		}
		switch e.op {
		case "+=":
			step = e.rhs
		case "-=":
			step, sign = e.rhs, -1
		case "=":
			if bin, ok := e.rhs.(*binaryExpr); ok {
				switch {
				case bin.op == "+" && isIt(bin.x):
					step = bin.y
				case bin.op == "+" && isIt(bin.y):
					step = bin.x
				case bin.op == "-" && isIt(bin.x):
					step, sign = bin.y, -1
				}
			}
		}
	}
	if step == nil {
		return 0, errorf(post.pos(), "loop increment must be %s++, %s--, %s += c or %s -= c", it.name, it.name, it.name, it.name)
	}
	v, err := affCtx{b, "loop increment"}.aff(step)
	if err != nil {
		return 0, err
	}
	c, ok := v.constant()
	if !ok || c <= 0 {
		return 0, errorf(step.pos(), "loop increment %s must be a positive constant", exprString(step))
	}
	return sign * c, nil
}

// loopCond translates the loop condition, which must bound the iterator
// in the direction it moves: && and || of comparisons of the iterator
// with bounds that do not depend on it. Such a condition holds on a
// prefix of the iterations, so it is exactly the domain's bound.
func (b *builder) loopCond(e expr, it *symbol, up bool) (string, error) {
	c := affCtx{b, "loop bound"}
	if bin, ok := e.(*binaryExpr); ok {
		switch bin.op {
		case "&&", "||":
			x, err := b.loopCond(bin.x, it, up)
			if err != nil {
				return "", err
			}
			y, err := b.loopCond(bin.y, it, up)
			if err != nil {
				return "", err
			}
			op := " and "
			if bin.op == "||" {
				op = " or "
			}
			return "(" + x + ")" + op + "(" + y + ")", nil
		case "<", "<=", ">", ">=":
			op, other := bin.op, bin.y
			if isIter(bin.y, it) {
				op, other = flip[op], bin.x
			} else if !isIter(bin.x, it) {
				break
			}
			if mentions(other, it) {
				return "", errorf(other.pos(), "loop bound %s depends on the iterator %s", exprString(other), it.name)
			}
			if up != (op == "<" || op == "<=") {
				dir := "increasing iterator " + it.name + " from above"
				if !up {
					dir = "decreasing iterator " + it.name + " from below"
				}
				return "", errorf(e.pos(), "loop condition %s does not bound the %s", exprString(e), dir)
			}
			bound, err := c.aff(other)
			if err != nil {
				return "", err
			}
			return c.compare(pwAff{{val: it.name}}, op, bound, e)
		}
	}
	return "", errorf(e.pos(), "loop condition %s must compare the iterator %s with a bound", exprString(e), it.name)
}

var flip = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}

// isIter reports whether e is the iterator it, possibly cast to an
// integer type.
func isIter(e expr, it *symbol) bool {
	for {
		c, ok := e.(*castExpr)
		if !ok || !c.t.IsInt() {
			break
		}
		e = c.x
	}
	id, ok := e.(*identExpr)
	return ok && id.sym == it
}

// startFormula says that i starts at lb and moves by step: i >= lb (or
// i <= lb counting down) and, for |step| > 1, i = lb + step*q.
func (b *builder) startFormula(i string, lb pwAff, step int64) (string, error) {
	op := ">="
	if step < 0 {
		op = "<="
		step = -step
	}
	var parts []string
	for _, p := range lb {
		f := i + " " + op + " " + p.val
		if step > 1 {
			b.nq++
			q := fmt.Sprintf("q%d'", b.nq)
			f = and(f, fmt.Sprintf("exists (%s : %s = %s + %d*%s)", q, i, p.val, step, q))
		}
		parts = append(parts, "("+and(p.guard, f)+")")
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out += " or " + p
	}
	return "(" + out + ")", nil
}

// declStmt handles declarations inside the region: an initializer is an
// assignment.
func (b *builder) declStmt(s *declStmt) error {
	for _, d := range s.decls {
		if d.init == nil {
			continue
		}
		sym := d.sym
		if sym.iter {
			return errorf(d.at, "assignment to loop iterator %s", sym.name)
		}
		if len(sym.dims) > 0 {
			return errorf(d.at, "array %s cannot have an initializer", sym.name)
		}
		st, err := b.newStmt(d.at)
		if err != nil {
			return err
		}
		arr, err := b.useArray(sym)
		if err != nil {
			return err
		}
		v, err := b.value(d.init)
		if err != nil {
			return err
		}
		sym.written = true
		st.Write, st.Value = scop.Ref{Array: arr.Name}, conv(v, sym.t)
	}
	return nil
}

// outsideInit makes the initialisation of a local declared before the
// region (correlation's `double eps = 0.1;`) the next statement of the
// program. Only constant initializers are accepted: code outside the
// region is not compiled, so nothing else is known about their values.
func (b *builder) outsideInit(d *declarator) error {
	sym := d.sym
	if len(sym.dims) > 0 {
		return errorf(d.at, "array %s cannot have an initializer", sym.name)
	}
	b.mode = modeConst
	v, err := b.value(d.init)
	b.mode = modeBody
	if err != nil || !isConstant(v) {
		return errorf(d.init.pos(), "initializer of %s outside the scop region must be a constant", sym.name)
	}
	st, err := b.newStmt(d.at)
	if err != nil {
		return err
	}
	arr, err := b.useArray(sym)
	if err != nil {
		return err
	}
	sym.written = true
	st.Write, st.Value = scop.Ref{Array: arr.Name}, conv(v, sym.t)
	return nil
}

func isConstant(e scop.Expr) bool {
	ok := true
	scop.Walk(e, func(x scop.Expr) bool {
		switch x.(type) {
		case *scop.Const, *scop.Unary, *scop.Binary, *scop.Cast, *scop.Select:
		default:
			ok = false
		}
		return ok
	})
	return ok
}
