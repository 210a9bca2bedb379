package ast

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Options control AST generation.
type Options struct {
	// Context is a parameter set of extra assumptions (for example
	// "[N] -> { : N >= 1 }"), added to the tree's context nodes.
	// Conditions it implies are not tested in the generated code. The
	// zero value assumes nothing.
	Context presburger.Set
	// Parallel marks the outermost loop of every coincident band member
	// that is not nested in another parallel loop. Without it only the
	// loops below a "parallel" mark are (see the package documentation).
	Parallel bool
	// SerialLeaves leaves serial a loop that Parallel would mark
	// parallel when no loop is inside it and it runs inside a
	// sequential loop: one
	// statement per iteration of the outer loop does not pay for the
	// threads' synchronisation at every outer iteration (durbin's two
	// inner loops, 4,000 fork/joins or barriers a call at LARGE).
	SerialLeaves bool
	// UnrollLimit is the largest number of iterations a member with the
	// unroll option is unrolled into (default 64); beyond it, a loop is
	// generated.
	UnrollLimit int
	// Prefix names the loop iterators: Prefix0, Prefix1, ... (default "c").
	Prefix string
	// Buffers describes the tile-local buffers: a mark "promote[A]" with
	// an entry for A allocates A before its subtree and frees it after.
	Buffers map[string]Buffer
	// MaxNodes bounds the size of the code: loop bodies, unrolled copies
	// and statements generated (zero: DefaultMaxNodes; negative: no
	// limit). Past it, Generate returns a *LimitError.
	MaxNodes int
}

// Buffer is the element type and shape of a tile-local buffer, and its
// origin when it holds one tile's part of an array: per dimension, the
// index of its first element as an affine function of the parameters and
// of the schedule dimensions outside the "promote[A]" mark (the tile
// coordinates), evaluated where the buffer is allocated. Fold, when set,
// folds dimensions into rings as Alloc.Fold does (Shape is then the
// ring's size there).
type Buffer struct {
	Elem   scop.ElemType
	Shape  []Expr
	Origin []Affine
	Fold   []int64
}

// Affine is Const + Σ Params[name]·name + Σ Dims[i]·c_i.
type Affine struct {
	Const  int64
	Params map[string]int64
	Dims   []int64
}

// gen holds what is fixed during one generation.
type gen struct {
	opts   Options
	params []string
	prefix string
	// members caches the one-member maps of band schedules.
	members map[memberKey]presburger.Map
	// ifs holds what the generated ifs test (see mergeGuards).
	ifs map[*If]ifInfo
	// nodes counts the nodes generated (see grow), shared with the
	// generators of parallelChildren.
	nodes *atomic.Int64
}

type memberKey struct {
	band *scheduletree.Node
	j    int
	stmt string
}

// stmt is a statement reaching a node, with its schedule so far: a map
// from its instances to the dimensions [c0, ..., c(d-1)] built above
// (isl's inverse of "executed").
type stmt struct {
	name  string
	sched presburger.Map
}

// state is what holds at a point of the generated code.
type state struct {
	depth int
	// build is the set of values of the outer dimensions at which this
	// code runs (loop bounds, conditions, context); conditions it implies
	// are not generated.
	build presburger.Set
	// values[i] is the value of a degenerate dimension i (no loop), in
	// terms of the parameters and the loop dimensions.
	values []*aff
	// parallelMark: below a "parallel" mark, no parallel loop yet.
	// vectorMark: below a "vector" mark. inParallel: inside a parallel
	// loop.
	parallelMark, vectorMark, inParallel bool
	// inSequential: inside a loop that is not parallel.
	inSequential bool
}

// result is generated code and the constraints it enforces: when one of
// them fails (on the outer dimensions) the code does nothing, so a guard
// around it need not test them.
type result struct {
	node Node
	enf  []cons
}

// Generate builds the AST of the schedule tree t (see the package
// documentation).
func Generate(t scheduletree.Tree, opts Options) (n Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case overflowPanic:
				err = errOverflow
			case tooLarge:
				n, err = nil, &LimitError{Limit: opts.maxNodes()}
			default:
				panic(r)
			}
		}
	}()
	root := t.Root()
	if root == nil || root.Kind() != scheduletree.KindDomain {
		return nil, errors.New("ast: the tree has no domain root")
	}
	g := &gen{opts: opts, prefix: opts.Prefix, members: map[memberKey]presburger.Map{}, ifs: map[*If]ifInfo{}, nodes: new(atomic.Int64)}
	if g.prefix == "" {
		g.prefix = "c"
	}
	if g.opts.UnrollLimit == 0 {
		g.opts.UnrollLimit = 64
	}
	dom := root.Domain()
	for _, s := range dom.Sets() {
		for _, p := range s.Space().Params {
			g.paramIndex(p)
		}
	}
	if !isZeroSet(opts.Context) {
		for _, p := range opts.Context.Space().Params {
			g.paramIndex(p)
		}
	}
	g.avoidParams()
	st := &state{build: presburger.UniverseSet(g.space(0))}
	if !isZeroSet(opts.Context) {
		if st.build, err = g.assume(st.build, opts.Context, 0); err != nil {
			return nil, err
		}
	}
	var stmts []stmt
	for _, s := range dom.Sets() {
		if empty, err := s.IsEmpty(); err != nil || empty {
			if err != nil {
				return nil, err
			}
			continue
		}
		sp := s.Space()
		m, err := presburger.UniverseMap(presburger.MapSpace(sp.Params, sp.Out, presburger.Tuple{})).IntersectDomain(s)
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, stmt{name: sp.Out.Name, sched: m})
	}
	if root.NumChildren() == 0 {
		r, err := g.leaf(stmts, st)
		return r.node, err
	}
	r, err := g.node(root.Child(0), stmts, st)
	if err != nil {
		return nil, err
	}
	return dropHeldGuards(r.node, nil), nil
}

// avoidParams appends underscores to the iterator prefix while a
// parameter looks like an iterator (prefix followed by digits).
func (g *gen) avoidParams() {
	for {
		clash := false
		for _, p := range g.params {
			if rest, ok := strings.CutPrefix(p, g.prefix); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
				clash = true
			}
		}
		if !clash {
			return
		}
		g.prefix += "_"
	}
}

func isZeroSet(s presburger.Set) bool {
	sp := s.Space()
	return !sp.IsParams && !sp.IsMap && sp.Out.Len() == 0 && sp.Out.Name == "" && len(sp.Params) == 0 && s.NumBasic() == 0
}

// assume intersects build (over d dimensions) with a context: a
// parameter set or a set of the d outer schedule dimensions.
func (g *gen) assume(build, ctx presburger.Set, d int) (presburger.Set, error) {
	if !ctx.Space().IsParams {
		// As in isl, a context may also constrain the outer schedule
		// dimensions: a set of the prefix schedule space ("{ [] : N > 0 }"
		// at the root).
		if sp := ctx.Space(); sp.IsMap || sp.NOut() != d {
			return build, fmt.Errorf("ast: context %s is not a set of the %d outer schedule dimensions", ctx, d)
		}
		return restrict(build, ctx)
	}
	c, err := ctx.InSpace(g.space(d))
	if err != nil {
		return build, err
	}
	return restrict(build, c)
}

// node generates the subtree n for the statements stmts.
func (g *gen) node(n *scheduletree.Node, stmts []stmt, st *state) (result, error) {
	if len(stmts) == 0 {
		return result{}, nil
	}
	switch n.Kind() {
	case scheduletree.KindLeaf:
		return g.leaf(stmts, st)
	case scheduletree.KindBand:
		return g.band(n, 0, stmts, st)
	case scheduletree.KindSequence, scheduletree.KindSet:
		if st.depth == 0 && n.NumChildren() > 1 && runtime.GOMAXPROCS(0) > 1 {
			if rs, ok, err := g.parallelChildren(n, stmts, st); err != nil || ok {
				if err != nil {
					return result{}, err
				}
				return g.blockResult(rs)
			}
		}
		var rs []result
		for _, c := range n.Children() {
			r, err := g.node(c, stmts, st)
			if err != nil {
				return result{}, err
			}
			if r.node != nil {
				rs = append(rs, r)
			}
		}
		return g.blockResult(rs)
	case scheduletree.KindFilter:
		var kept []stmt
		for _, s := range stmts {
			f, ok := n.Filter().ExtractSet(s.name)
			if !ok {
				continue
			}
			m, err := s.sched.IntersectDomain(f)
			if err != nil {
				return result{}, err
			}
			if empty, err := m.IsEmpty(); err != nil {
				return result{}, err
			} else if !empty {
				kept = append(kept, stmt{s.name, m})
			}
		}
		return g.node(n.Child(0), kept, st)
	case scheduletree.KindMark:
		return g.mark(n, stmts, st)
	case scheduletree.KindContext:
		b, err := g.assume(st.build, n.Context(), st.depth)
		if err != nil {
			return result{}, err
		}
		s2 := *st
		s2.build = b
		return g.node(n.Child(0), stmts, &s2)
	case scheduletree.KindGuard:
		return g.guard(n, stmts, st)
	case scheduletree.KindExtension:
		return g.extension(n, stmts, st)
	case scheduletree.KindExpansion:
		return g.expansion(n, stmts, st)
	}
	return result{}, fmt.Errorf("ast: unexpected %s node", n.Kind())
}

// mark handles "skipped" (nothing below), "parallel", "vector" and
// "promote[A]"; every other mark becomes a Mark node.
func (g *gen) mark(n *scheduletree.Node, stmts []stmt, st *state) (result, error) {
	name := n.Mark()
	if name == scheduletree.MarkSkipped {
		return result{}, nil
	}
	s2 := *st
	switch name {
	case scheduletree.MarkParallel:
		s2.parallelMark = true
	case scheduletree.MarkVector, scheduletree.MarkSIMD:
		s2.vectorMark = true
	}
	r, err := g.node(n.Child(0), stmts, &s2)
	if err != nil || r.node == nil {
		return r, err
	}
	body := r.node
	if a, ok := scheduletree.PromotedArray(name); ok {
		if buf, ok := g.opts.Buffers[a]; ok {
			alloc := &Alloc{Array: a, Elem: buf.Elem, Shape: buf.Shape, Fold: slices.Clone(buf.Fold)}
			for _, o := range buf.Origin {
				x, err := g.affine(o, st)
				if err != nil {
					return result{}, fmt.Errorf("ast: origin of buffer %s: %v", a, err)
				}
				alloc.Origin = append(alloc.Origin, x)
			}
			body = block(alloc, body, &Free{Array: a})
		}
	}
	return result{&Mark{Name: name, Body: body}, r.enf}, nil
}

// guard restricts the statements to the guard's prefix points; the
// conditions appear where the loops below need them.
func (g *gen) guard(n *scheduletree.Node, stmts []stmt, st *state) (result, error) {
	gs := n.Guard()
	var err error
	if gs.Space().IsParams {
		if gs, err = gs.InSpace(g.space(st.depth)); err != nil {
			return result{}, err
		}
	}
	var kept []stmt
	for _, s := range stmts {
		m, err := s.sched.IntersectRange(gs)
		if err != nil {
			return result{}, err
		}
		if empty, err := m.IsEmpty(); err != nil {
			return result{}, err
		} else if !empty {
			kept = append(kept, stmt{s.name, m})
		}
	}
	return g.node(n.Child(0), kept, st)
}

// extension adds the instances the extension maps the current prefix
// points to. As in isl, the points are those the generated loops visit
// (the build set), so an extension relation should only use prefix points
// that instances reach.
func (g *gen) extension(n *scheduletree.Node, stmts []stmt, st *state) (result, error) {
	out := append([]stmt(nil), stmts...)
	for _, m := range n.Extension().Maps() {
		if m.Space().NIn() != st.depth {
			return result{}, fmt.Errorf("ast: extension %s at schedule depth %d", m, st.depth)
		}
		r, err := m.Reverse()
		if err == nil {
			r, err = r.IntersectRange(st.build)
		}
		if err != nil {
			return result{}, err
		}
		if empty, err := r.IsEmpty(); err != nil {
			return result{}, err
		} else if empty {
			continue
		}
		name := m.Space().Out.Name
		merged := false
		for i, s := range out {
			if s.name == name && s.sched.Space().In.Key() == r.Space().In.Key() {
				u, err := s.sched.Union(r)
				if err != nil {
					return result{}, err
				}
				out[i] = stmt{name, u}
				merged = true
			}
		}
		if !merged {
			out = append(out, stmt{name, r})
		}
	}
	return g.node(n.Child(0), out, st)
}

// expansion replaces the statements by their expanded instances.
func (g *gen) expansion(n *scheduletree.Node, stmts []stmt, st *state) (result, error) {
	var out []stmt
	for _, s := range stmts {
		for _, e := range n.Expansion().Maps() {
			if e.Space().In.Key() != s.sched.Space().In.Key() {
				continue
			}
			r, err := e.Reverse()
			if err == nil {
				r, err = r.ApplyRange(s.sched)
			}
			if err != nil {
				return result{}, err
			}
			out = append(out, stmt{e.Space().Out.Name, r})
		}
	}
	return g.node(n.Child(0), out, st)
}

// resolve replaces the degenerate dimensions of a by their values.
func (g *gen) resolve(a aff, st *state) aff {
	for i := len(st.values) - 1; i >= 0; i-- {
		if v := st.values[i]; v != nil && a.usesDim(i) {
			a = a.subst(i, *v)
		}
	}
	return a
}

func (g *gen) names(st *state) *names {
	nm := &names{params: g.params}
	for i := 0; i < max(st.depth, len(st.values)); i++ {
		nm.dims = append(nm.dims, Var(g.iter(i)))
	}
	return nm
}

func (g *gen) iter(i int) string { return g.prefix + strconv.Itoa(i) }

// expr is the expression of a at st.
func (g *gen) expr(a aff, st *state) Expr { return g.resolve(a, st).expr(g.names(st)) }

// resolveAll resolves constraints.
func (g *gen) resolveAll(cs []cons, st *state) []cons {
	out := make([]cons, len(cs))
	for i, c := range cs {
		out[i] = cons{g.resolve(c.a, st), c.eq}
	}
	return out
}

// affine is the expression of o at st.
func (g *gen) affine(o Affine, st *state) (Expr, error) {
	if len(o.Dims) > st.depth {
		return Expr{}, fmt.Errorf("it uses schedule dimension %d at depth %d", len(o.Dims)-1, st.depth)
	}
	a := aff{k: o.Const, c: addVec(nil, o.Dims, 1)}
	p := make([]int64, len(g.params))
	for name, k := range o.Params {
		i := slices.Index(g.params, name)
		if i < 0 {
			return Expr{}, fmt.Errorf("unknown parameter %s", name)
		}
		p[i] = k
	}
	a.p = addVec(nil, p, 1)
	return g.expr(a, st), nil
}
