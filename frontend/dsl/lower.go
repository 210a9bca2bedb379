package dsl

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// stage is one statement: a case of a pure definition or an update.
type stage struct {
	f      *Func
	name   string
	label  string // how messages name it: out, or hist's update 1
	keys   []any  // the iterators' declarations: *varDecl or *rvarDecl
	iters  []string
	shown  []string // the iterators as the user names them: x, r.x
	dom    string   // the domain's constraints, isl notation
	number int      // position in program order
	caseNo int
	val    *node
	coords []*node // an update's coordinates; nil for a pure case
	may    bool
	at     scop.Pos
}

// lower makes the program: arrays, then one statement per stage.
func (p *Pipeline) lower(order []*Func) (*scop.Program, []*stage, error) {
	prog := &scop.Program{Name: p.name}
	for _, d := range p.params {
		prog.Params = append(prog.Params, d.name)
	}
	ctx, err := presburger.ParseSet(fmt.Sprintf("[%s] -> { : %s }", strings.Join(prog.Params, ", "), p.contextText()))
	if err != nil {
		return nil, nil, scop.Errorf(p.at, "context of pipeline %s: %v", p.name, err)
	}
	prog.Context = ctx
	for _, img := range p.inputs {
		a := &scop.Array{Name: img.name, Type: img.t, LiveIn: true, At: img.at}
		for _, e := range img.extents {
			a.Extent = append(a.Extent, paramExpr(e, nil, img.at))
		}
		prog.Arrays = append(prog.Arrays, a)
	}
	var stages []*stage
	next := 0 // the next stage number
	for _, f := range order {
		a := &scop.Array{Name: f.name, Type: f.t, LiveOut: f.output, At: f.at}
		for _, d := range f.dims {
			a.Extent = append(a.Extent, paramExpr(d.iv.hi, d.iv.lo, d.iv.at))
		}
		prog.Arrays = append(prog.Arrays, a)
		stages = append(stages, f.stages(next)...)
		next += 1 + len(f.updates)
	}
	depth := 0
	for _, st := range stages {
		depth = max(depth, len(st.iters))
	}
	for _, st := range stages {
		s, err := st.stmt(prog.Params, depth)
		if err != nil {
			return nil, nil, err
		}
		prog.Stmts = append(prog.Stmts, s)
	}
	return prog, stages, nil
}

// contextText is the assumptions as an isl formula.
func (p *Pipeline) contextText() string {
	if len(p.assumed) == 0 {
		return "true"
	}
	parts := make([]string, len(p.assumed))
	for i, c := range p.assumed {
		parts[i], _ = condText(c, nil) // checked by Assume
	}
	return strings.Join(parts, " and ")
}

// stages are f's statements: its pure cases, then its updates.
func (f *Func) stages(first int) []*stage {
	var keys []any
	var iters, bounds []string
	for _, d := range f.dims {
		keys = append(keys, d.v.d)
		iters = append(iters, d.v.d.name)
		bounds = append(bounds, boundText(d.iv, d.v.d.name))
	}
	var out []*stage
	var earlier []string // the negated conditions of earlier cases
	for k, pc := range f.pure {
		cons := append(append([]string(nil), bounds...), earlier...)
		name := f.name + "_s0"
		if len(f.pure) > 1 {
			name = fmt.Sprintf("%s_s0_c%d", f.name, k)
		}
		if pc.cond != nil {
			c, _ := condText(pc.cond, nil) // checked by Define
			cons = append(cons, c)
			earlier = append(earlier, "not "+c)
		}
		out = append(out, &stage{f: f, name: name, label: f.name, keys: keys, iters: iters, shown: iters,
			dom: conj(cons), number: first, caseNo: k, val: pc.val, at: pc.at})
	}
	for k, u := range f.updates {
		st := &stage{f: f, name: fmt.Sprintf("%s_s%d", f.name, k+1), label: fmt.Sprintf("%s's update %d", f.name, k+1),
			number: first + 1 + k, val: u.val, coords: u.coords, may: u.may, at: u.at}
		st.updateIters(u)
		out = append(out, st)
	}
	return out
}

// updateIters: f's variables that the coordinates use, in f's order, then
// every dimension of each reduction domain used, in declaration order.
func (st *stage) updateIters(u update) {
	used := map[any]bool{}
	var rdoms []*rdomDecl
	note := func(n *node) {
		n.walk(func(m *node) {
			switch {
			case m.kind == kVar:
				used[m.v] = true
			case m.kind == kRVar && !used[m.rv.rdom]:
				used[m.rv.rdom] = true
				rdoms = append(rdoms, m.rv.rdom)
			}
		})
	}
	for _, c := range u.coords {
		note(c)
	}
	note(u.val)
	var cons []string
	for _, d := range st.f.dims {
		if used[d.v.d] {
			st.keys = append(st.keys, d.v.d)
			st.iters = append(st.iters, d.v.d.name)
			st.shown = append(st.shown, d.v.d.name)
			cons = append(cons, boundText(d.iv, d.v.d.name))
		}
	}
	p := st.f.p
	for _, r := range p.rdoms { // declaration order
		if !used[r] {
			continue
		}
		for _, v := range r.vars {
			st.keys = append(st.keys, v)
			st.iters = append(st.iters, v.iter)
			st.shown = append(st.shown, v.name)
			cons = append(cons, boundText(v.iv, v.iter))
		}
		for _, w := range r.where {
			c, _ := condText(w, nil) // checked by Where
			cons = append(cons, c)
		}
	}
	st.dom = conj(cons)
}

func boundText(iv Interval, v string) string {
	lo, _ := affText(iv.lo, nil) // checked where declared
	hi, _ := affText(iv.hi, nil)
	return fmt.Sprintf("%s <= %s < %s", lo, v, hi)
}

func conj(cons []string) string {
	if len(cons) == 0 {
		return "true"
	}
	return strings.Join(cons, " and ")
}

// stmt makes the statement, with the schedule
// [stage, iterators padded with zeros to depth, case].
func (st *stage) stmt(params []string, depth int) (*scop.Stmt, error) {
	head := fmt.Sprintf("[%s] -> { %s[%s]", strings.Join(params, ", "), st.name, strings.Join(st.iters, ", "))
	dom, err := presburger.ParseSet(head + " : " + st.dom + " }")
	if err != nil {
		return nil, scop.Errorf(st.at, "domain of %s: %v", st.label, err)
	}
	time := []string{fmt.Sprint(st.number)}
	time = append(time, st.iters...)
	for len(time) < 1+depth {
		time = append(time, "0")
	}
	time = append(time, fmt.Sprint(st.caseNo))
	sched, err := presburger.ParseMap(head + " -> [" + strings.Join(time, ", ") + "] }")
	if err != nil {
		return nil, scop.Errorf(st.at, "schedule of %s: %v", st.label, err)
	}
	s := &scop.Stmt{Name: st.name, Iters: st.iters, Domain: dom, Schedule: sched, MayWrite: st.may, At: st.at}
	s.Write = scop.Ref{Array: st.f.name}
	for i, d := range st.f.dims {
		if st.coords == nil {
			s.Write.Index = append(s.Write.Index, st.index(d.v.node(), d.iv.lo, st.at))
		} else {
			s.Write.Index = append(s.Write.Index, st.index(st.coords[i], d.iv.lo, st.at))
		}
	}
	s.Value = st.expr(st.val, st.at)
	return s, nil
}

// index is the array subscript of coordinate c in a dimension starting
// at lo: c - lo, as i32.
func (st *stage) index(c, lo *node, at scop.Pos) scop.Expr {
	e := st.expr(typed(c, indexType, at), at)
	if e.Type() != indexType {
		e = &scop.Cast{At: at, X: e, T: indexType}
	}
	if v, ok := constInt(lo); ok && v == 0 {
		return e
	}
	return &scop.Binary{At: at, Op: scop.Sub, X: e, Y: scopIndex(lo, at), T: indexType}
}

// paramExpr is hi - lo (hi when lo is nil), an expression of parameters,
// simplified where linear: an interval [1, R+1) has extent R.
func paramExpr(hi, lo *node, at scop.Pos) scop.Expr {
	h, ok := linear(hi)
	l := linearForm{coef: map[*paramDecl]int64{}}
	okLo := true
	if lo != nil {
		l, okLo = linear(lo)
	}
	if !ok || !okLo {
		if lo == nil {
			return scopIndex(hi, at)
		}
		return &scop.Binary{At: at, Op: scop.Sub, X: scopIndex(hi, at), Y: scopIndex(lo, at), T: indexType}
	}
	for _, d := range l.order {
		if _, seen := h.coef[d]; !seen {
			h.order = append(h.order, d)
		}
		h.coef[d] -= l.coef[d]
	}
	h.c -= l.c
	var e scop.Expr
	add := func(t scop.Expr) {
		if e == nil {
			e = t
		} else {
			e = &scop.Binary{At: at, Op: scop.Add, X: e, Y: t, T: indexType}
		}
	}
	for _, d := range h.order {
		switch c := h.coef[d]; c {
		case 0:
		case 1:
			add(&scop.Param{At: at, Name: d.name, T: indexType})
		default:
			add(&scop.Binary{At: at, Op: scop.Mul, X: &scop.Const{At: at, T: indexType, I: c},
				Y: &scop.Param{At: at, Name: d.name, T: indexType}, T: indexType})
		}
	}
	switch {
	case e == nil:
		return &scop.Const{At: at, T: indexType, I: h.c}
	case h.c > 0:
		return &scop.Binary{At: at, Op: scop.Add, X: e, Y: &scop.Const{At: at, T: indexType, I: h.c}, T: indexType}
	case h.c < 0:
		return &scop.Binary{At: at, Op: scop.Sub, X: e, Y: &scop.Const{At: at, T: indexType, I: -h.c}, T: indexType}
	}
	return e
}

// linearForm is sum(coef[p] * p) + c over parameters.
type linearForm struct {
	coef  map[*paramDecl]int64
	order []*paramDecl // first appearance
	c     int64
}

// linear writes a parameter expression as a linearForm; ok is false for
// anything else (floor division, min, ...).
func linear(n *node) (linearForm, bool) {
	f := linearForm{coef: map[*paramDecl]int64{}}
	var add func(n *node, k int64) bool
	add = func(n *node, k int64) bool {
		switch {
		case n.kind == kParam:
			if _, seen := f.coef[n.param]; !seen {
				f.order = append(f.order, n.param)
			}
			f.coef[n.param] += k
			return true
		case n.kind == kUnary && n.uop == scop.Neg:
			return add(n.args[0], -k)
		case n.kind == kCast && (n.t == I32 || n.t == I64):
			return add(n.args[0], k)
		case n.kind != kBinary:
			v, ok := constInt(n)
			f.c += k * v
			return ok
		case n.bop == scop.Add:
			return add(n.args[0], k) && add(n.args[1], k)
		case n.bop == scop.Sub:
			return add(n.args[0], k) && add(n.args[1], -k)
		case n.bop == scop.Mul:
			if v, ok := constInt(n.args[0]); ok {
				return add(n.args[1], k*v)
			}
			if v, ok := constInt(n.args[1]); ok {
				return add(n.args[0], k*v)
			}
		}
		return false
	}
	return f, add(n, 1)
}

// scopIndex converts an expression of parameters and constants.
func scopIndex(n *node, at scop.Pos) scop.Expr {
	return (&stage{}).expr(typed(n, indexType, at), at)
}

// expr converts a checked expression to scop's nodes. Leaves take the
// position of the operation they appear in (a variable's own is its
// declaration).
func (st *stage) expr(n *node, at scop.Pos) scop.Expr {
	if n.pos.IsValid() && n.kind != kVar && n.kind != kRVar && n.kind != kParam {
		at = n.pos
	}
	switch n.kind {
	case kConst:
		if n.t == scop.Invalid {
			n = typed(n, defaultType(n), at)
		}
		return &scop.Const{At: at, T: n.t, I: n.i, F: n.f}
	case kVar, kRVar:
		for i, k := range st.keys {
			if k == any(n.v) && n.kind == kVar || k == any(n.rv) && n.kind == kRVar {
				return &scop.Iter{At: at, Name: st.iters[i], Index: i, T: indexType}
			}
		}
		panic("dsl: variable outside its stage: " + exprText(n)) // Define and Set check scopes
	case kParam:
		return &scop.Param{At: at, Name: n.param.name, T: indexType}
	case kRead:
		r := &scop.Read{At: at, T: n.t}
		if n.fn != nil {
			r.Array = n.fn.name
			for i, c := range n.args {
				r.Index = append(r.Index, st.index(c, n.fn.dims[i].iv.lo, at))
			}
		} else {
			r.Array = n.img.name
			for _, c := range n.args {
				r.Index = append(r.Index, st.index(c, &node{kind: kConst, t: indexType}, at))
			}
		}
		return r
	case kUnary:
		return &scop.Unary{At: at, Op: n.uop, X: st.expr(n.args[0], at)}
	case kBinary:
		return &scop.Binary{At: at, Op: n.bop, X: st.expr(n.args[0], at), Y: st.expr(n.args[1], at), T: n.t}
	case kSelect:
		return &scop.Select{At: at, Cond: st.expr(n.args[0], at), Then: st.expr(n.args[1], at), Else: st.expr(n.args[2], at)}
	case kCast:
		return &scop.Cast{At: at, X: st.expr(n.args[0], at), T: n.t}
	}
	args := make([]scop.Expr, len(n.args))
	for i, a := range n.args {
		args[i] = st.expr(a, at)
	}
	return &scop.Call{At: at, Fn: n.math, Args: args, T: n.t}
}
