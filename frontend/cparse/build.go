package cparse

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// islKeywords cannot name parameters or iterators: they appear verbatim
// in the isl text of domains and schedules.
var islKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "implies": true, "exists": true,
	"true": true, "false": true, "floor": true, "ceil": true, "floord": true,
	"ceild": true, "mod": true, "min": true, "max": true,
}

// builder turns one resolved function into a program.
type builder struct {
	file       string
	fn         *funcDef
	paramNames []string
	storage    []*symbol // symbols with arrays, in order of first use
	taken      map[string]bool

	// The walk's state: the enclosing loops, the conditions of the
	// enclosing loops and ifs, the schedule prefix (2d+1 form) and the
	// position counter of the innermost enclosing loop body.
	loops []*loopCtx
	conds []string
	// guards are the enclosing conditions that read memory: they stay
	// in the statements' bodies (guard.go).
	guards []scop.Expr
	sched  []string
	pos    *int
	nq     int // existential variables made so far

	// inductions are the counters of the enclosing while loops: read
	// inside them as their affine values (while.go). declared holds
	// every name of the function, which made-up iterators avoid.
	inductions map[*symbol]*induction
	declared   map[string]bool

	stmts []*pending
	cur   *scop.Stmt // statement whose body is being translated
	mode  exprMode
}

type loopCtx struct {
	sym *symbol
}

// pending is a statement with its schedule prefix; schedules are padded
// to one length once every statement is known.
type pending struct {
	s     *scop.Stmt
	sched []string
}

func buildFunc(file string, u *unit, f *funcDef) (*scop.Program, error) {
	shapes, err := takeShapes(f)
	if err != nil {
		return nil, err
	}
	pre, region, err := splitRegion(f)
	if err != nil {
		return nil, err
	}
	r := &resolver{errs: &first{}, names: map[string]bool{}}
	r.push()
	for _, g := range u.globals {
		r.declare(g, &symbol{global: true})
	}
	r.push() // parameters share the scope of the body's outermost block
	for _, d := range f.params {
		s := &symbol{param: true, ptr: d.ptr}
		r.declare(d, s)
		s.size = s.isScalarInt()
	}
	if err := r.shapes(f, shapes); err != nil {
		return nil, err
	}
	for _, s := range pre {
		if d, ok := s.(*declStmt); ok {
			r.localDecl(d, false)
		}
	}
	for _, s := range region {
		r.stmt(s)
	}
	if r.errs.err != nil {
		return nil, r.errs.err
	}
	b := &builder{file: file, fn: f, taken: map[string]bool{}, declared: r.names, inductions: map[*symbol]*induction{}}
	for k := range islKeywords {
		b.taken[k] = true
	}
	return b.program(pre, region)
}

// splitRegion finds the scop region: the statements between #pragma scop
// and #pragma endscop, or the whole body without them. The statements
// before it are returned too (their declarations are visible in it).
func splitRegion(f *funcDef) (pre, region []stmt, err error) {
	begin, end := -1, -1
	for i, s := range f.body.list {
		p, ok := s.(*pragmaStmt)
		if !ok {
			if err := nestedPragma(s); err != nil {
				return nil, nil, err
			}
			continue
		}
		switch {
		case !p.end && begin >= 0:
			return nil, nil, errorf(p.at, "more than one #pragma scop in function %s", f.name)
		case !p.end:
			begin = i
		case begin < 0:
			return nil, nil, errorf(p.at, "#pragma endscop without #pragma scop")
		case end >= 0:
			return nil, nil, errorf(p.at, "more than one #pragma endscop in function %s", f.name)
		default:
			end = i
		}
	}
	switch {
	case begin < 0:
		list := f.body.list
		// A final "return;" ends the function where it would end anyway.
		if n := len(list); n > 0 {
			if o, ok := list[n-1].(*otherStmt); ok && o.what == "return" && o.bare {
				list = list[:n-1]
			}
		}
		return nil, list, nil
	case end < 0:
		return nil, nil, errorf(f.body.list[begin].pos(), "#pragma scop without #pragma endscop")
	}
	return f.body.list[:begin], f.body.list[begin+1 : end], nil
}

// takeShapes removes the "#pragma tilefuse array" lines from the top
// level of f's body and returns them.
func takeShapes(f *funcDef) ([]*shapeStmt, error) {
	var shapes []*shapeStmt
	list := f.body.list[:0:0]
	for _, s := range f.body.list {
		if sh, ok := s.(*shapeStmt); ok {
			shapes = append(shapes, sh)
			continue
		}
		list = append(list, s)
	}
	f.body.list = list
	return shapes, nil
}

// shapes gives the parameters named by "#pragma tilefuse array" lines
// their extents, which may use any size parameter.
func (r *resolver) shapes(f *funcDef, shapes []*shapeStmt) error {
	params := r.scopes[len(r.scopes)-1]
	given := map[string]bool{}
	for _, sh := range shapes {
		for _, d := range sh.decls {
			s := params[d.name]
			switch {
			case s == nil:
				return errorf(d.at, "#pragma tilefuse array: %s is not a parameter of %s", d.name, f.name)
			case len(s.dims) == 0:
				return errorf(d.at, "#pragma tilefuse array: parameter %s of %s is not an array or pointer", d.name, f.name)
			case len(s.dims) != len(d.dims):
				return errorf(d.at, "#pragma tilefuse array: %s has %d dimensions, the pragma gives %d", d.name, len(s.dims), len(d.dims))
			case given[d.name]:
				return errorf(d.at, "#pragma tilefuse array: the extents of %s are given twice", d.name)
			}
			given[d.name] = true
			for _, x := range d.dims {
				r.expr(x)
			}
			s.dims = d.dims
		}
	}
	if r.errs.err != nil {
		return r.errs.err
	}
	return nil
}

// nestedPragma rejects scop pragmas below the top level of the body.
func nestedPragma(s stmt) error {
	switch s := s.(type) {
	case *shapeStmt:
		return errorf(s.at, "#pragma tilefuse must be at the top level of the function body")
	case *pragmaStmt:
		what := "#pragma scop"
		if s.end {
			what = "#pragma endscop"
		}
		return errorf(s.at, "%s must be at the top level of the function body", what)
	case *blockStmt:
		for _, x := range s.list {
			if err := nestedPragma(x); err != nil {
				return err
			}
		}
	case *forStmt:
		return nestedPragma(s.body)
	case *whileStmt:
		return nestedPragma(s.body)
	case *ifStmt:
		if err := nestedPragma(s.then); err != nil {
			return err
		}
		if s.els != nil {
			return nestedPragma(s.els)
		}
	}
	return nil
}

func (b *builder) program(pre, region []stmt) (*scop.Program, error) {
	for _, d := range b.fn.params {
		s := d.sym
		if !s.size {
			if _, err := b.useArray(s); err != nil {
				return nil, err
			}
			continue
		}
		if islKeywords[s.name] {
			return nil, errorf(s.at, "parameter name %s is reserved in isl notation", s.name)
		}
		b.paramNames = append(b.paramNames, s.name)
		b.taken[s.name] = true
	}
	pos := 0
	b.pos = &pos
	// Locals initialised before the region keep their values by an
	// assignment at the start of the program.
	for _, s := range pre {
		d, ok := s.(*declStmt)
		if !ok {
			continue
		}
		for _, x := range d.decls {
			if x.init != nil && x.sym.used && !x.sym.iter {
				if err := b.outsideInit(x); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := b.block(region); err != nil {
		return nil, err
	}
	return b.assemble()
}

// assemble makes the program: context, arrays, padded schedules; Finish
// checks it and derives the accesses.
func (b *builder) assemble() (*scop.Program, error) {
	ctxText := "{ : true }"
	if len(b.paramNames) > 0 {
		var cons []string
		for _, n := range b.paramNames {
			cons = append(cons, n+" >= 0")
		}
		ctxText = b.paramPrefix() + "{ : " + strings.Join(cons, " and ") + " }"
	}
	ctx, err := presburger.ParseSet(ctxText)
	if err != nil {
		return nil, errorf(b.fn.at, "cannot build the context of %s: %v", b.fn.name, islMessage(err))
	}
	p := &scop.Program{Name: b.fn.name, Params: b.paramNames, Context: ctx}
	for _, d := range b.fn.params { // the C signature is the calling convention
		if d.sym.size {
			p.Args = append(p.Args, d.sym.name)
		} else {
			p.Args = append(p.Args, d.sym.arr.Name)
		}
	}
	syms := append([]*symbol(nil), b.storage...)
	sort.SliceStable(syms, func(i, j int) bool {
		ci, cj := symClass(syms[i]), symClass(syms[j])
		if ci != cj {
			return ci < cj
		}
		return syms[i].seq < syms[j].seq
	})
	for _, s := range syms {
		// Scalar parameters are copies: writes to them are not seen
		// outside.
		s.arr.LiveOut = s.written && (s.global || s.param && len(s.dims) > 0)
		p.Arrays = append(p.Arrays, s.arr)
	}
	n := 0
	for _, st := range b.stmts {
		n = max(n, len(st.sched))
	}
	for _, st := range b.stmts {
		sched := st.sched
		for len(sched) < n {
			sched = append(sched, "0")
		}
		text := fmt.Sprintf("%s{ %s[%s] -> [%s] }", b.paramPrefix(), st.s.Name, strings.Join(st.s.Iters, ", "), strings.Join(sched, ", "))
		m, err := presburger.ParseMap(text)
		if err != nil {
			return nil, errorf(st.s.At, "cannot build the schedule of %s: %v", st.s.Name, islMessage(err))
		}
		st.s.Schedule = m
		p.Stmts = append(p.Stmts, st.s)
	}
	if err := p.Finish(); err != nil {
		return nil, err
	}
	return p, nil
}

// symClass orders arrays: parameters, then globals, then locals.
func symClass(s *symbol) int {
	switch {
	case s.param:
		return 0
	case s.global:
		return 1
	}
	return 2
}

func (b *builder) paramPrefix() string {
	if len(b.paramNames) == 0 {
		return ""
	}
	return "[" + strings.Join(b.paramNames, ", ") + "] -> "
}

// useArray returns the array of a storage symbol, making it on first use.
func (b *builder) useArray(s *symbol) (*scop.Array, error) {
	if s.arr != nil {
		return s.arr, nil
	}
	name := s.name
	for i := 1; b.taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", s.name, i)
	}
	a := &scop.Array{Name: name, Type: s.t, LiveIn: s.param || s.global, At: s.at}
	kind := "array"
	if s.param {
		kind = "array parameter"
	}
	for _, d := range s.dims {
		if d == nil && s.param {
			return nil, errorf(s.at, "%s %s needs an extent in every dimension: declare them (%s) or give them in the function body with #pragma tilefuse array %s, in constants and size parameters", kind, s.name, shapeHint(s, true), shapeHint(s, false))
		}
		if d == nil {
			return nil, errorf(s.at, "%s %s needs an extent in every dimension", kind, s.name)
		}
		x, err := b.extent(d, s.name)
		if err != nil {
			return nil, err
		}
		a.Extent = append(a.Extent, x)
	}
	b.taken[name] = true
	s.arr = a
	b.storage = append(b.storage, s)
	return a, nil
}

func (b *builder) loopOf(s *symbol) int {
	for i, l := range b.loops {
		if l.sym == s {
			return i
		}
	}
	return -1
}

func (b *builder) iterNames() []string {
	names := make([]string, len(b.loops))
	for i, l := range b.loops {
		names[i] = l.sym.name
	}
	return names
}

// newStmt starts a statement at the current point of the walk: its
// domain comes from the enclosing loops and conditions, its schedule
// from their positions.
func (b *builder) newStmt(at scop.Pos) (*scop.Stmt, error) {
	name := fmt.Sprintf("S%d", len(b.stmts))
	iters := b.iterNames()
	text := fmt.Sprintf("%s{ %s[%s]", b.paramPrefix(), name, strings.Join(iters, ", "))
	if len(b.conds) > 0 {
		text += " : " + strings.Join(b.conds, " and ")
	}
	dom, err := presburger.ParseSet(text + " }")
	if err != nil {
		return nil, errorf(at, "cannot build the domain of %s: %v", name, islMessage(err))
	}
	s := &scop.Stmt{Name: name, Iters: iters, Domain: dom, At: at}
	sched := append(append([]string(nil), b.sched...), fmt.Sprint(*b.pos))
	*b.pos++
	b.stmts = append(b.stmts, &pending{s: s, sched: sched})
	b.cur = s
	return s, nil
}

// shapeHint writes how to declare the extents of an array parameter: as
// a C declaration (double A[restrict N][M]) or as the pragma's A[N][M].
func shapeHint(s *symbol, decl bool) string {
	names := []string{"N", "M", "K", "L"}
	var b strings.Builder
	if decl {
		b.WriteString(cTypeName(s.t) + " ")
	}
	b.WriteString(s.name)
	for i := range s.dims {
		n := fmt.Sprintf("N%d", i+1)
		if len(s.dims) <= len(names) {
			n = names[i]
		}
		if i == 0 && decl && s.ptr {
			n = "restrict " + n
		}
		fmt.Fprintf(&b, "[%s]", n)
	}
	return b.String()
}
