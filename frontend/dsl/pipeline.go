package dsl

import (
	"fmt"
	"regexp"

	"github.com/tilefuse/tilefuse/scop"
)

// Pipeline is a graph of functions over integer coordinates, from input
// images to output functions. Declare its parameters, variables, inputs
// and functions with its methods, define the functions, name the outputs,
// then Build it.
//
// Misuse does not panic: the first error is kept, with the position of
// the call that caused it, and Build returns it.
type Pipeline struct {
	name    string
	at      scop.Pos
	params  []*paramDecl
	assumed []*node
	rdoms   []*rdomDecl
	inputs  []*Image
	funcs   []*Func
	outputs []*Func
	names   map[string]string // every declared name: what it names
	err     *scop.Error
}

// NewPipeline starts an empty pipeline; name becomes the program's name.
func NewPipeline(name string) *Pipeline {
	p := &Pipeline{name: name, at: here(), names: map[string]string{}}
	if !identRE.MatchString(name) {
		p.fail(scop.Errorf(p.at, "pipeline name %q is not an identifier", name))
	}
	return p
}

// Name is the pipeline's name.
func (p *Pipeline) Name() string { return p.name }

// fail keeps the first error: later ones are often its consequences.
func (p *Pipeline) fail(err *scop.Error) {
	if p.err == nil && err != nil {
		p.err = err
	}
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// reserved are the words a name may not be: isl's keywords (names appear
// in isl notation) and C's (code is generated from the program).
var reserved = map[string]bool{
	"and": true, "or": true, "not": true, "implies": true, "exists": true, "true": true,
	"false": true, "floor": true, "ceil": true, "floord": true, "ceild": true, "mod": true,
	"min": true, "max": true,
	"auto": true, "break": true, "case": true, "char": true, "const": true, "continue": true,
	"default": true, "do": true, "double": true, "else": true, "enum": true, "extern": true,
	"float": true, "for": true, "goto": true, "if": true, "inline": true, "int": true,
	"long": true, "register": true, "restrict": true, "return": true, "short": true,
	"signed": true, "sizeof": true, "static": true, "struct": true, "switch": true,
	"typedef": true, "union": true, "unsigned": true, "void": true, "volatile": true,
	"while": true,
}

// declare claims a name for one declaration.
func (p *Pipeline) declare(name, what string, at scop.Pos) bool {
	switch {
	case !identRE.MatchString(name):
		p.fail(scop.Errorf(at, "%s name %q is not an identifier", what, name))
	case reserved[name]:
		p.fail(scop.Errorf(at, "%s name %q is reserved", what, name))
	case p.names[name] != "":
		p.fail(scop.Errorf(at, "%s %s has the same name as %s", what, name, p.names[name]))
	default:
		p.names[name] = fmt.Sprintf("%s %s%s", what, name, declPos(at))
		return true
	}
	return false
}

// own reports whether a declaration of pipeline q may be used in p.
func (p *Pipeline) own(q *Pipeline, what, name string, at scop.Pos) bool {
	if q != p {
		p.fail(scop.Errorf(at, "%s %s belongs to pipeline %s, not %s", what, name, q.name, p.name))
		return false
	}
	return true
}

type paramDecl struct {
	p    *Pipeline
	name string
	at   scop.Pos
}

// Param is an integer size parameter (an i32 expression): image
// extents, domain bounds and expressions may use it.
type Param struct{ Expr }

// Param declares a size parameter. Parameters appear in the program in
// declaration order.
func (p *Pipeline) Param(name string) Param {
	d := &paramDecl{p: p, name: name, at: here()}
	if p.declare(name, "parameter", d.at) {
		p.params = append(p.params, d)
	}
	return Param{wrap(&node{kind: kParam, t: indexType, param: d, pos: d.at})}
}

// Assume restricts the parameter values the pipeline is meant for (the
// program's context): affine conditions on parameters, such as R.Ge(1).
func (p *Pipeline) Assume(conds ...any) {
	at := here()
	for _, c := range conds {
		n := toNode(c, at)
		if err := p.condition(n, "assumption", at, nil); err != nil {
			p.fail(err)
			continue
		}
		p.assumed = append(p.assumed, n)
	}
}

type varDecl struct {
	p    *Pipeline
	name string
	at   scop.Pos
}

// Var is a pure variable: a coordinate of a function (an i32 expression).
// The same Var may serve several functions; each declares its range.
type Var struct {
	Expr
	d *varDecl
}

// Var declares a variable.
func (p *Pipeline) Var(name string) Var {
	d := &varDecl{p: p, name: name, at: here()}
	p.declare(name, "variable", d.at)
	return Var{wrap(&node{kind: kVar, t: indexType, v: d, pos: d.at}), d}
}

// Name is the variable's name.
func (v Var) Name() string {
	if v.d == nil {
		return "<zero Var>"
	}
	return v.d.name
}

// Interval is a range of integers lo <= v < hi, half-open as Go's loops
// and slices are, with bounds affine in the parameters.
type Interval struct {
	lo, hi *node
	at     scop.Pos
}

// Range is the interval lo <= v < hi.
func Range(lo, hi any) Interval {
	at := here()
	return Interval{lo: toNode(lo, at), hi: toNode(hi, at), at: at}
}

// Dim pairs a variable with its interval: one dimension of a function's
// domain.
type Dim struct {
	v  Var
	iv Interval
	at scop.Pos
}

// In is the dimension v ranging over lo <= v < hi.
func (v Var) In(lo, hi any) Dim {
	at := here()
	return Dim{v: v, iv: Interval{lo: toNode(lo, at), hi: toNode(hi, at), at: at}, at: at}
}

// Over is the dimension v ranging over iv.
func (v Var) Over(iv Interval) Dim { return Dim{v: v, iv: iv, at: here()} }

// bounds checks that an interval's bounds are affine in the parameters.
func (p *Pipeline) bounds(iv Interval, what string) *scop.Error {
	if iv.lo == nil {
		return scop.Errorf(iv.at, "%s has a zero Interval", what)
	}
	for _, b := range []*node{iv.lo, iv.hi} {
		if err := p.paramAffine(b, "bound of "+what, iv.at); err != nil {
			return err
		}
	}
	return nil
}

// paramAffine checks an integer expression of constants and parameters.
func (p *Pipeline) paramAffine(n *node, what string, at scop.Pos) *scop.Error {
	if n.err != nil {
		return n.err
	}
	if n.t != scop.Invalid && !n.t.IsInt() {
		return scop.Errorf(at, "%s: %s has type %s, not an integer type", what, exprText(n), n.t)
	}
	var bad *node
	n.walk(func(m *node) {
		switch m.kind {
		case kVar, kRVar, kRead:
			if bad == nil {
				bad = m
			}
		case kParam:
			p.own(m.param.p, "parameter", m.param.name, at)
		}
	})
	if bad != nil {
		return scop.Errorf(at, "%s: %s is not an expression of parameters and constants", what, exprText(n))
	}
	if _, err := affText(n, nil); err != nil {
		return scop.Errorf(at, "%s: %s is not affine", what, exprText(n))
	}
	return nil
}

type rdomDecl struct {
	p     *Pipeline
	name  string
	at    scop.Pos
	vars  []*rvarDecl
	where []*node
}

type rvarDecl struct {
	rdom *rdomDecl
	name string // as printed: r.x
	iter string // as an iterator: r_x
	iv   Interval
}

// RVar is one dimension of a reduction domain (an i32 expression).
type RVar struct {
	Expr
	d *rvarDecl
}

// RDom is a reduction domain: a box of intervals, optionally cut by
// affine conditions (Where). Updates that use its variables run over all
// its points, in order: X outermost, as in this package's loops.
type RDom struct {
	// X, Y, Z and W are the first four dimensions (zero beyond the
	// domain's rank); Dim reaches all of them.
	X, Y, Z, W RVar
	d          *rdomDecl
}

var rvarNames = []string{"x", "y", "z", "w"}

// RDom declares a reduction domain with one dimension per interval. Its
// variables are named name.x, name.y, name.z, name.w, then name.4, ...
func (p *Pipeline) RDom(name string, ivs ...Interval) *RDom {
	d := &rdomDecl{p: p, name: name, at: here()}
	r := &RDom{d: d}
	p.declare(name, "reduction domain", d.at)
	if len(ivs) == 0 {
		p.fail(scop.Errorf(d.at, "reduction domain %s has no intervals", name))
	}
	for i, iv := range ivs {
		suffix := fmt.Sprint(i)
		if i < len(rvarNames) {
			suffix = rvarNames[i]
		}
		v := &rvarDecl{rdom: d, name: name + "." + suffix, iter: name + "_" + suffix, iv: iv}
		p.fail(p.bounds(iv, "reduction variable "+v.name))
		p.declare(v.iter, "reduction variable", d.at)
		d.vars = append(d.vars, v)
		rv := RVar{wrap(&node{kind: kRVar, t: indexType, rv: v, pos: d.at}), v}
		switch i {
		case 0:
			r.X = rv
		case 1:
			r.Y = rv
		case 2:
			r.Z = rv
		case 3:
			r.W = rv
		}
	}
	p.rdoms = append(p.rdoms, d)
	return r
}

// Dim is the i-th dimension, from 0.
func (r *RDom) Dim(i int) RVar {
	if i < 0 || i >= len(r.d.vars) {
		return RVar{Expr: wrap(errNode(here(), "reduction domain %s has no dimension %d", r.d.name, i))}
	}
	v := r.d.vars[i]
	return RVar{wrap(&node{kind: kRVar, t: indexType, rv: v, pos: r.d.at}), v}
}

// Where restricts the domain to the points that satisfy the affine
// conditions on its variables and the parameters, as Halide's
// RDom::where. It returns r.
func (r *RDom) Where(conds ...any) *RDom {
	at := here()
	for _, c := range conds {
		n := toNode(c, at)
		if err := r.d.p.condition(n, "condition of reduction domain "+r.d.name, at, func(m *node) bool {
			return m.kind == kRVar && m.rv.rdom == r.d
		}); err != nil {
			r.d.p.fail(err)
			continue
		}
		r.d.where = append(r.d.where, n)
	}
	return r
}

// Name is the variable's name, such as r.x.
func (v RVar) Name() string {
	if v.d == nil {
		return "<undefined reduction variable>"
	}
	return v.d.name
}

func (v RVar) node() *node {
	if v.d == nil {
		return errNode(here(), "use of a reduction variable its domain does not have (an RDom has as many of X, Y, Z, W as intervals)")
	}
	return v.Expr.node()
}

// Image is an input: a live-in array with extents affine in the
// parameters, indexed from 0.
type Image struct {
	p       *Pipeline
	name    string
	t       Type
	extents []*node
	at      scop.Pos
}

// Input declares an input image of element type t and the given extents,
// one per dimension, in row-major order (the first dimension outermost).
func (p *Pipeline) Input(name string, t Type, extents ...any) *Image {
	img := &Image{p: p, name: name, t: t, at: here()}
	p.declare(name, "image", img.at)
	if t == Bool || t <= scop.Invalid || t > F64 {
		p.fail(scop.Errorf(img.at, "image %s has element type %s; images hold numbers", name, t))
	}
	for _, e := range extents {
		n := toNode(e, img.at)
		p.fail(p.paramAffine(n, "extent of image "+name, img.at))
		img.extents = append(img.extents, n)
	}
	p.inputs = append(p.inputs, img)
	return img
}

// Name is the image's name.
func (img *Image) Name() string { return img.name }

// At reads the image at the given coordinates: affine in the variables
// and parameters, or data-dependent (containing a read).
func (img *Image) At(coords ...any) Expr {
	at := here()
	if img == nil {
		return wrap(errNode(at, "read of a nil image"))
	}
	return wrap(readNode(nil, img, toNodes(coords, at), at))
}

// Output declares functions as the pipeline's results: live-out arrays.
// Functions that no output needs are not computed.
func (p *Pipeline) Output(fs ...*Func) {
	at := here()
	for _, f := range fs {
		switch {
		case f == nil:
			p.fail(scop.Errorf(at, "nil output function"))
		case !p.own(f.p, "function", f.name, at):
		case f.output:
			p.fail(scop.Errorf(at, "function %s is already an output", f.name))
		default:
			f.output = true
			p.outputs = append(p.outputs, f)
		}
	}
}
