package dsl

import (
	"fmt"

	"github.com/tilefuse/tilefuse/scop"
)

// Func is a function from integer coordinates to values of one type,
// over a box domain (one interval per variable). It is defined once by
// cases (Define), then optionally updated in order (Ref.Set, Ref.Incr).
// Its values live in an array that holds the domain's bounding box:
// coordinate v of a dimension with interval [lo, hi) is element v - lo.
type Func struct {
	p       *Pipeline
	name    string
	t       Type
	dims    []Dim
	at      scop.Pos
	pure    []piece
	defAt   scop.Pos
	updates []update
	output  bool
	sched   schedule
}

// piece is one case of a pure definition; cond is nil for the default.
type piece struct {
	cond, val *node
	at        scop.Pos
}

// update is one update definition: f(coords) = val.
type update struct {
	coords []*node
	val    *node
	at     scop.Pos
	may    bool // a data-dependent coordinate: the write may go anywhere
}

// Func declares a function of element type t over the product of dims,
// the first dimension outermost (row-major).
func (p *Pipeline) Func(name string, t Type, dims ...Dim) *Func {
	f := &Func{p: p, name: name, t: t, dims: dims, at: here()}
	p.declare(name, "function", f.at)
	if t == Bool || t <= scop.Invalid || t > F64 {
		p.fail(scop.Errorf(f.at, "function %s has element type %s; functions hold numbers", name, t))
	}
	seen := map[*varDecl]bool{}
	for _, d := range dims {
		if d.v.d == nil {
			p.fail(scop.Errorf(f.at, "function %s has a dimension without a variable", name))
			continue
		}
		p.own(d.v.d.p, "variable", d.v.d.name, f.at)
		if seen[d.v.d] {
			p.fail(scop.Errorf(d.at, "function %s uses variable %s twice", name, d.v.d.name))
		}
		seen[d.v.d] = true
		p.fail(p.bounds(d.iv, "variable "+d.v.d.name+" of "+name))
	}
	p.funcs = append(p.funcs, f)
	return f
}

// Name is the function's name.
func (f *Func) Name() string { return f.name }

// Type is the function's element type.
func (f *Func) Type() Type { return f.t }

// Case is one case of a piecewise definition; see When.
type Case struct {
	cond, val *node
	at        scop.Pos
}

// When is the case "value where cond holds": cond is an affine condition
// on the function's variables and the parameters (x.Eq(0), say).
func When(cond, value any) Case {
	at := here()
	return Case{cond: toNode(cond, at), val: toNode(value, at), at: at}
}

// Define gives f its pure definition, over its whole domain. Every
// argument but the last must be a Case; the last may be a plain value,
// the default. Cases are tried in order, the first whose condition holds
// wins (as in a switch), and points that no case covers and no default
// defines are undefined: reading them is an error Build reports.
//
// The definition may read f itself (a recurrence): points are computed in
// loop order, the first variable outermost, each in increasing order, and
// only points computed earlier may be read.
func (f *Func) Define(defn ...any) {
	at := here()
	p := f.p
	switch {
	case f.defAt.IsValid() || len(f.pure) > 0:
		p.fail(scop.Errorf(at, "function %s is already defined (at %s)", f.name, f.defAt))
		return
	case len(defn) == 0:
		p.fail(scop.Errorf(at, "Define of %s has no value", f.name))
		return
	}
	var pieces []piece
	for i, d := range defn {
		c, isCase := d.(Case)
		switch {
		case isCase:
			if err := p.condition(c.cond, "case condition of "+f.name, c.at, f.isVar); err != nil {
				p.fail(err)
				return
			}
		case i < len(defn)-1:
			p.fail(scop.Errorf(at, "argument %d of %s's Define is not a Case: only the last may be a plain value (the default)", i+1, f.name))
			return
		default:
			c = Case{val: toNode(d, at), at: at}
		}
		val, err := f.value(c.val, c.at, f.isVar, "the definition", f.name+"'s definition")
		if err != nil {
			p.fail(err)
			return
		}
		pieces = append(pieces, piece{cond: c.cond, val: val, at: c.at})
	}
	f.pure, f.defAt = pieces, at
}

func (f *Func) isVar(n *node) bool {
	if n.kind != kVar {
		return false
	}
	for _, d := range f.dims {
		if d.v.d == n.v {
			return true
		}
	}
	return false
}

// value checks a defining value: its type is f's, it uses only the
// variables allowed, and everything it names belongs to f's pipeline.
func (f *Func) value(n *node, at scop.Pos, allowed func(*node) bool, what, scopeWhat string) (*node, *scop.Error) {
	n = typed(n, f.t, at)
	if n.err != nil {
		return nil, n.err
	}
	if n.t != f.t {
		return nil, scop.Errorf(at, "type mismatch: %s is %s, %s has type %s (convert with dsl.Cast)", f.name, f.t, what, n.t)
	}
	if err := f.p.scope(n, allowed, scopeWhat, at); err != nil {
		return nil, err
	}
	return n, nil
}

// scope checks that n uses only the allowed variables and only
// declarations of p.
func (p *Pipeline) scope(n *node, allowed func(*node) bool, what string, at scop.Pos) *scop.Error {
	var err *scop.Error
	n.walk(func(m *node) {
		if err != nil {
			return
		}
		switch m.kind {
		case kVar, kRVar:
			if !allowed(m) {
				err = scop.Errorf(at, "%s uses %s", what, varText(m))
			}
		}
		if q := owner(m); q != nil && q != p {
			err = scop.Errorf(at, "%s uses %s of pipeline %s", what, exprText(m), q.name)
		}
	})
	return err
}

func varText(m *node) string {
	if m.kind == kRVar {
		return "reduction variable " + m.rv.name
	}
	return "variable " + m.v.name
}

// owner is the pipeline a leaf node belongs to.
func owner(m *node) *Pipeline {
	switch {
	case m.kind == kVar:
		return m.v.p
	case m.kind == kRVar:
		return m.rv.rdom.p
	case m.kind == kParam:
		return m.param.p
	case m.fn != nil:
		return m.fn.p
	case m.img != nil:
		return m.img.p
	}
	return nil
}

// Ref is a read of a function at some coordinates: an expression, and
// the left-hand side of an update.
type Ref struct {
	Expr
	f *Func
}

// At reads f at the given coordinates: affine in the variables and
// parameters (x.Add(1), x.Div(2)), or data-dependent (containing a read).
func (f *Func) At(coords ...any) Ref {
	at := here()
	if f == nil {
		return Ref{Expr: wrap(errNode(at, "read of a nil function"))}
	}
	return Ref{Expr: wrap(readNode(f, nil, toNodes(coords, at), at)), f: f}
}

// Set adds an update: f(coords) = v, run after the pure definition and
// earlier updates. The coordinates may use f's variables (the update then
// runs over their whole intervals; they must appear in the coordinates to
// be used in v), reduction variables (it runs over their whole domains),
// and reads: a data-dependent coordinate, as in a histogram, makes the
// update a may-write of the whole array.
func (r Ref) Set(v any) {
	at := here()
	r.set(toNode(v, at), at)
}

// Incr is Set(r + v): Halide's f(coords) += v.
func (r Ref) Incr(v any) {
	at := here()
	r.set(binary(scop.Add, r.node(), toNode(v, at), at), at)
}

func (r Ref) set(v *node, at scop.Pos) {
	if r.f == nil {
		// No pipeline to report to, as for any method of a nil *Func.
		panic(r.node().err.Error())
	}
	f, p, lhs := r.f, r.f.p, r.node()
	switch {
	case lhs.err != nil:
		p.fail(lhs.err)
		return
	case len(f.pure) == 0:
		p.fail(scop.Errorf(at, "update of %s before its pure definition (call %s.Define first)", f.name, f.name))
		return
	}
	inLHS := map[*varDecl]bool{}
	may := false
	for _, c := range lhs.args {
		c.walk(func(m *node) {
			if m.kind == kVar {
				inLHS[m.v] = true
			}
		})
		may = may || c.hasRead()
	}
	coordVar := func(m *node) bool { return m.kind == kRVar || f.isVar(m) }
	if err := p.scope(lhs, coordVar, "update of "+f.name, at); err != nil {
		p.fail(err)
		return
	}
	if v.err == nil {
		var stray *varDecl
		v.walk(func(m *node) {
			if stray == nil && f.isVar(m) && !inLHS[m.v] {
				stray = m.v
			}
		})
		if stray != nil {
			p.fail(scop.Errorf(at, "update of %s: its value uses variable %s, which its coordinates do not", f.name, stray.name))
			return
		}
	}
	val, err := f.value(v, at, coordVar, "the update", "update of "+f.name)
	if err != nil {
		p.fail(err)
		return
	}
	f.updates = append(f.updates, update{coords: lhs.args, val: val, at: at, may: may})
}

// readNode builds a read of a function or image, checking the
// coordinates: their number, integer types, and that each is affine in
// the variables and parameters or data-dependent.
func readNode(f *Func, img *Image, coords []*node, at scop.Pos) *node {
	name, rank, t := "", 0, scop.Invalid
	if f != nil {
		name, rank, t = f.name, len(f.dims), f.t
	} else {
		name, rank, t = img.name, len(img.extents), img.t
	}
	if err := firstErr(coords...); err != nil {
		return &node{err: err}
	}
	if len(coords) != rank {
		return errNode(at, "%s has %s, read with %s", name, count(rank, "dimension"), count(len(coords), "coordinate"))
	}
	typedCoords := make([]*node, len(coords))
	for i, c := range coords {
		switch {
		case c.kind == kConst && c.t == scop.Invalid && c.isFloat:
			return errNode(at, "coordinate %d of %s is %s, not an integer", i+1, name, constText(c))
		case c.t == scop.Invalid:
			c = typed(c, indexType, at)
			if c.err != nil {
				return c
			}
		case !c.t.IsInt():
			return errNode(at, "coordinate %d of %s has type %s, not an integer type", i+1, name, c.t)
		}
		if !c.hasRead() {
			if _, err := affText(c, nil); err != nil {
				return errNode(at, "coordinate %s of %s is not affine in the variables and parameters", exprText(c), name)
			}
		}
		typedCoords[i] = c
	}
	return &node{kind: kRead, fn: f, img: img, t: t, pos: at, args: typedCoords}
}

// count is "1 coordinate", "2 coordinates".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
