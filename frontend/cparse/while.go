package cparse

import (
	"fmt"
	"strconv"

	"github.com/tilefuse/tilefuse/scop"
)

// While loops, in pet's model of a loop with a data-dependent exit, made
// exact by a bound derived from the loop itself. The accepted form is
//
//	k = e0;                          (affine: iterators, size parameters)
//	while (k < ub && A[k] > 0) {     (any order of && conjuncts)
//		...                          (k not otherwise written)
//		k++;                         (the body's last statements)
//	}
//
// The variables that the body's trailing statements step by a constant
// (k++, k -= 2) are the loop's counters; each must be assigned an affine
// value by the statements just before the loop. The loop becomes a loop
// over a new iterator t >= 0 in which every counter is e0 + step*t (its
// reads are that affine value). The conjuncts of the condition that
// compare a counter with a bound in the direction it moves, like a for
// loop's condition, hold on a prefix of t and bound it: they are the
// domain, and at least one must exist, otherwise the loop is refused.
// The other conjuncts (the data-dependent exit) become a flag, a new int
// scalar: set to 1 before the loop, and at the start of iteration t
// "flag = flag ? cond : 0"; every statement of the body is guarded by it
// as by a data-dependent if (guard.go). An iteration of the C loop runs
// exactly where t is in the domain and every test so far held, so the
// model is exact; the counters' writes (guarded increments) leave them
// with their C values after the loop.

// induction is a counter of an enclosing while loop: value is its
// affine value, e0 + step*t, as an expression of the syntax tree.
type induction struct {
	step  int64
	value expr
}

func (b *builder) whileLoop(s *whileStmt, before []stmt) error {
	body := []stmt{s.body}
	if blk, ok := s.body.(*blockStmt); ok {
		body = blk.list
	}
	counters, steps, rest := b.trailingSteps(body)
	if len(counters) == 0 {
		if x, ok := body[len(body)-1].(*exprStmt); ok {
			if k := steppedTarget(x.x); k != nil && k.iter {
				return errorf(x.at, "assignment to loop iterator %s (a while loop's counter must be a variable of its own)", k.name)
			}
		}
		return errorf(s.at, "while loop without a bound: its body must end by stepping a counter by a constant (k++) that its condition bounds, as in while (k < n && A[k] > 0) { ...; k++; }")
	}
	inits := initialValues(before)
	for _, k := range counters {
		for _, x := range rest {
			if at, ok := writesVar(x, k); ok {
				return errorf(at, "%s is a counter of the while loop at %s: only the body's last statements may change it", k.name, s.at)
			}
		}
		if inits[k] == nil {
			return errorf(s.at, "counter %s of the while loop must be assigned its start (an affine expression of iterators and size parameters) just before the loop", k.name)
		}
		if _, err := (affCtx{b, "start of counter " + k.name}).aff(inits[k]); err != nil {
			return err
		}
	}

	t := &symbol{name: b.freshName("t"), at: s.at, t: scop.I64, iter: true}
	for i, k := range counters {
		step := &numExpr{at: s.at, text: strconv.FormatInt(steps[i], 10), t: scop.I64, i: steps[i]}
		tid := &identExpr{at: s.at, name: t.name, sym: t}
		b.inductions[k] = &induction{step: steps[i], value: &binaryExpr{at: s.at, op: "+", x: inits[k], y: &binaryExpr{at: s.at, op: "*", x: step, y: tid}}}
	}
	defer func() {
		for _, k := range counters {
			delete(b.inductions, k)
		}
	}()
	b.loops = append(b.loops, &loopCtx{sym: t})
	var bounds []string
	var test []expr
	for _, c := range conjuncts(s.cond) {
		if f, ok := b.counterBound(c, counters); ok {
			bounds = append(bounds, "("+f+")")
		} else {
			test = append(test, c)
		}
	}
	b.loops = b.loops[:len(b.loops)-1]
	if len(bounds) == 0 {
		return errorf(s.cond.pos(), "while loop without a bound: no conjunct of %s compares a counter (%s) with a bound in the direction it moves", exprString(s.cond), counterNames(counters))
	}

	// The flag's initialisation runs before the loop.
	var flag scop.Ref
	if len(test) > 0 {
		sym := &symbol{name: b.freshName("running"), at: s.at, t: scop.I32, written: true}
		a, err := b.useArray(sym)
		if err != nil {
			return err
		}
		flag = scop.Ref{Array: a.Name}
		if err := b.setFlag(s.at, flag, &scop.Const{At: s.at, T: scop.I32, I: 1}); err != nil {
			return err
		}
	}

	b.loops = append(b.loops, &loopCtx{sym: t})
	defer func() { b.loops = b.loops[:len(b.loops)-1] }()
	nc, ns := len(b.conds), len(b.sched)
	b.conds = append(b.conds, t.name+" >= 0")
	b.conds = append(b.conds, bounds...)
	b.sched = append(b.sched, fmt.Sprint(*b.pos), t.name)
	*b.pos++
	outer := b.pos
	pos := 0
	b.pos = &pos
	defer func() { b.pos, b.conds, b.sched = outer, b.conds[:nc], b.sched[:ns] }()
	if len(test) == 0 {
		return b.stmt(s.body)
	}
	// The test is translated once its statement exists: a subscript's
	// division is checked on that statement's domain (signEmpty).
	running := flagSet(s.at, flag)
	st, err := b.newStmt(s.cond.pos())
	if err != nil {
		return err
	}
	cond, err := b.cond(joinAnd(test))
	if err != nil {
		return err
	}
	st.Write = flag
	st.Value = &scop.Select{At: cond.Position(), Cond: running, Then: conv(cond, scop.I32), Else: &scop.Const{At: s.at, T: scop.I32}}
	if err := b.finishBody(st, scop.I32); err != nil {
		return err
	}
	n := len(b.guards)
	b.guards = append(b.guards, running)
	defer func() { b.guards = b.guards[:n] }()
	return b.stmt(s.body)
}

// trailingSteps splits body into the trailing statements that step an
// integer scalar by a constant, one each, and the statements before.
func (b *builder) trailingSteps(body []stmt) (counters []*symbol, steps []int64, rest []stmt) {
	seen := map[*symbol]bool{}
	n := len(body)
	for n > 0 {
		x, ok := body[n-1].(*exprStmt)
		if !ok {
			break
		}
		k := steppedVar(x.x)
		if k == nil || seen[k] {
			break
		}
		step, err := b.stepOf(x.x, k)
		if err != nil {
			break
		}
		seen[k] = true
		counters, steps = append(counters, k), append(steps, step)
		n--
	}
	return counters, steps, body[:n]
}

// steppedVar returns the integer scalar that an increment-shaped
// expression (k++, --k, k += e, k = k - e) assigns, or nil.
func steppedVar(e expr) *symbol {
	s := steppedTarget(e)
	if s == nil || s.size || s.iter || !s.isScalarInt() {
		return nil
	}
	return s
}

// steppedTarget returns the variable that an increment-shaped
// expression assigns, or nil.
func steppedTarget(e expr) *symbol {
	var target expr
	switch e := e.(type) {
	case *postfixExpr:
		target = e.x
	case *unaryExpr:
		if e.op == "++" || e.op == "--" {
			target = e.x
		}
	case *assignExpr:
		target = e.lhs
	}
	if id, ok := target.(*identExpr); ok {
		return id.sym
	}
	return nil
}

// initialValues returns the values that the assignments just before a
// loop (the longest run of `k = e;` and `int k = e;` ending there) give
// to integer scalars, the last one of each.
func initialValues(before []stmt) map[*symbol]expr {
	vals := map[*symbol]expr{}
	for i := len(before) - 1; i >= 0; i-- {
		switch x := before[i].(type) {
		case *exprStmt:
			a, ok := x.x.(*assignExpr)
			if !ok || a.op != "=" {
				return vals
			}
			id, ok := a.lhs.(*identExpr)
			if !ok || id.sym == nil || !id.sym.isScalarInt() {
				return vals
			}
			if vals[id.sym] == nil {
				vals[id.sym] = a.rhs
			}
		case *declStmt:
			for j := len(x.decls) - 1; j >= 0; j-- {
				d := x.decls[j]
				if d.init != nil && d.sym != nil && d.sym.isScalarInt() && vals[d.sym] == nil {
					vals[d.sym] = d.init
				}
			}
		default:
			return vals
		}
	}
	return vals
}

// writesVar reports the position of an assignment to k in s, if any.
func writesVar(s stmt, k *symbol) (scop.Pos, bool) {
	var at scop.Pos
	found := false
	inExpr := func(e expr) {
		walkExpr(e, func(x expr) {
			var target expr
			switch x := x.(type) {
			case *assignExpr:
				target = x.lhs
			case *postfixExpr:
				target = x.x
			case *unaryExpr:
				if x.op == "++" || x.op == "--" {
					target = x.x
				}
			}
			if id, ok := target.(*identExpr); ok && id.sym == k && !found {
				at, found = x.pos(), true
			}
		})
	}
	var walk func(stmt)
	walk = func(s stmt) {
		switch s := s.(type) {
		case *exprStmt:
			inExpr(s.x)
		case *declStmt:
			for _, d := range s.decls {
				inExpr(d.init)
			}
		case *blockStmt:
			for _, x := range s.list {
				walk(x)
			}
		case *forStmt:
			if s.init != nil {
				walk(s.init)
			}
			inExpr(s.post)
			walk(s.body)
		case *ifStmt:
			walk(s.then)
			if s.els != nil {
				walk(s.els)
			}
		case *whileStmt:
			walk(s.body)
		}
	}
	walk(s)
	return at, found
}

// conjuncts returns the operands of the && chain e.
func conjuncts(e expr) []expr {
	if bin, ok := e.(*binaryExpr); ok && bin.op == "&&" {
		return append(conjuncts(bin.x), conjuncts(bin.y)...)
	}
	return []expr{e}
}

func joinAnd(list []expr) expr {
	e := list[0]
	for _, x := range list[1:] {
		e = &binaryExpr{at: x.pos(), op: "&&", x: e, y: x}
	}
	return e
}

// counterBound translates a conjunct made of && and || of comparisons of
// a counter with a bound that no counter changes, each in the direction
// that bounds the counter as it moves: such a conjunct holds on a prefix
// of the iterations (as a for loop's condition). ok is false for any
// other conjunct, which the flag tests instead.
func (b *builder) counterBound(e expr, counters []*symbol) (string, bool) {
	bin, ok := e.(*binaryExpr)
	if !ok {
		return "", false
	}
	switch bin.op {
	case "&&", "||":
		x, okx := b.counterBound(bin.x, counters)
		y, oky := b.counterBound(bin.y, counters)
		if !okx || !oky {
			return "", false
		}
		op := " and "
		if bin.op == "||" {
			op = " or "
		}
		return "(" + x + ")" + op + "(" + y + ")", true
	case "<", "<=", ">", ">=":
	default:
		return "", false
	}
	for _, k := range counters {
		op, other := bin.op, bin.y
		switch {
		case isIter(bin.y, k):
			op, other = flip[op], bin.x
		case !isIter(bin.x, k):
			continue
		}
		for _, j := range counters {
			if mentions(other, j) {
				return "", false
			}
		}
		if up := b.inductions[k].step > 0; up != (op == "<" || op == "<=") {
			return "", false
		}
		c := affCtx{b, "while condition"}
		x, err := c.aff(b.inductions[k].value)
		if err != nil {
			return "", false
		}
		y, err := c.aff(other)
		if err != nil {
			return "", false
		}
		f, err := c.compare(x, op, y, e)
		return f, err == nil
	}
	return "", false
}

func counterNames(counters []*symbol) string {
	s := ""
	for i, k := range counters {
		if i > 0 {
			s += ", "
		}
		s += k.name
	}
	return s
}

// setFlag emits the statement flag = v (guarded by the enclosing
// data-dependent conditions).
func (b *builder) setFlag(at scop.Pos, flag scop.Ref, v scop.Expr) error {
	st, err := b.newStmt(at)
	if err != nil {
		return err
	}
	st.Write, st.Value = flag, v
	return b.finishBody(st, scop.I32)
}

func flagSet(at scop.Pos, flag scop.Ref) scop.Expr {
	zero := &scop.Const{At: at, T: scop.I32}
	return &scop.Binary{At: at, Op: scop.Ne, X: &scop.Read{At: at, Ref: flag, T: scop.I32}, Y: zero, T: scop.Bool}
}

// freshName returns base, or base_1, ..., a name that no declaration,
// array or enclosing iterator has.
func (b *builder) freshName(base string) string {
	name := base
	for i := 1; b.taken[name] || b.declared[name] || b.iterNamed(name); i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	b.declared[name] = true
	return name
}

func (b *builder) iterNamed(name string) bool {
	for _, l := range b.loops {
		if l.sym.name == name {
			return true
		}
	}
	return false
}
