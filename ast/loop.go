package ast

import (
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// dimension describes the dimension being generated: a band member (band, j)
// or a statement iterator at a leaf (j = -1).
type dimension struct {
	opt        scheduletree.Option
	coincident bool
	band       *scheduletree.Node
	j          int
}

// bodyFn generates what is inside the loop of a level.
type bodyFn func([]stmt, *state) (result, error)

// level generates the new dimension d = st.depth, which every statement's
// schedule already has: its loops (one per component of statements whose
// values are ordered, or one for all with the atomic option, split into
// full and partial tiles with separate), each with the body inside.
func (g *gen) level(stmts []stmt, st *state, lv dimension, body bodyFn) (result, error) {
	d := st.depth
	doms := make([]presburger.Set, len(stmts))
	for i, s := range stmts {
		r, err := s.sched.Range()
		if err != nil {
			return result{}, err
		}
		doms[i] = r
	}
	groups := [][]int{seqInts(len(stmts))}
	if lv.opt != scheduletree.OptionAtomic && len(stmts) > 1 {
		var err error
		if groups, err = g.stmtComponents(stmts, doms, lv, d); err != nil {
			return result{}, err
		}
	}
	var out []result
	for _, grp := range groups {
		sub := make([]stmt, len(grp))
		p := doms[grp[0]]
		for i, k := range grp {
			sub[i] = stmts[k]
			if i > 0 {
				var err error
				if p, err = p.Union(doms[k]); err != nil {
					return result{}, err
				}
			}
		}
		parts, err := g.isolate(p, sub, st, lv)
		if err != nil {
			return result{}, err
		}
		for _, pt := range parts {
			plv := lv
			plv.opt = pt.opt
			psub := sub
			if len(parts) > 1 {
				if psub, err = restrictStmts(sub, pt.set); err != nil {
					return result{}, err
				}
			}
			pieces := []presburger.Set{pt.set}
			if plv.opt == scheduletree.OptionSeparate && lv.band != nil {
				if pieces, err = g.separate(pt.set, psub, st, plv); err != nil {
					return result{}, err
				}
			}
			for _, piece := range pieces {
				in := psub
				if len(pieces) > 1 {
					if in, err = restrictStmts(psub, piece); err != nil {
						return result{}, err
					}
				}
				r, err := g.loop(piece, in, st, plv, body)
				if err != nil {
					return result{}, err
				}
				if r.node != nil {
					out = append(out, r)
				}
			}
		}
	}
	return g.blockResult(out)
}

// restrictStmts restricts the statements' schedules to the points in
// piece, dropping the statements with none there.
func restrictStmts(stmts []stmt, piece presburger.Set) ([]stmt, error) {
	var in []stmt
	for _, s := range stmts {
		m, err := s.sched.IntersectRange(piece)
		if err != nil {
			return nil, err
		}
		if empty, err := m.IsEmpty(); err != nil {
			return nil, err
		} else if !empty {
			in = append(in, stmt{s.name, m})
		}
	}
	return in, nil
}

func seqInts(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// loop generates dimension d over the piece p (a set of [c0..cd]) for the
// statements in it: a guard for the outer dimensions where the piece does
// not cover the build, then a loop, a substitution (one value) or
// unrolled copies.
func (g *gen) loop(p presburger.Set, stmts []stmt, st *state, lv dimension, body bodyFn) (result, error) {
	d := st.depth
	proj, err := p.ProjectOut(d, 1)
	if err != nil {
		return result{}, err
	}
	guard, err := gistGuard(proj, st.build)
	if err != nil {
		return result{}, err
	}
	if len(guard.Forms()) == 0 {
		return result{}, nil
	}
	trivial, err := g.implied(guard, st.build)
	if err != nil {
		return result{}, err
	}
	build := st.build
	if !trivial {
		// What the condition tests holds inside.
		var exact bool
		if guard, exact, err = g.testable(guard); err != nil {
			return result{}, err
		}
		tested := proj
		if !exact {
			tested = guard
			// The weaker test may be implied where the exact one
			// was not recognised.
			if guard, err = guard.Gist(st.build); err != nil {
				return result{}, err
			}
			if isUniverse(guard) {
				trivial = true
			}
		}
		if build, err = restrict(build, tested); err != nil {
			return result{}, err
		}
	}
	bnd, err := g.loopBounds(p, build, d)
	if ue, ok := err.(*UnboundedError); ok && ue.Where == "" {
		ue.Where = lv.describe(stmts)
	}
	if err != nil || bnd == nil {
		return result{}, err
	}
	r, err := g.loopNode(bnd, stmts, st, build, lv, body)
	if err != nil || r.node == nil || trivial {
		return r, err
	}
	// The guard need not test what the loop enforces itself.
	e := st.build
	if len(r.enf) > 0 {
		es, err := g.set(d, r.enf)
		if err == nil {
			e, err = restrict(es, st.build)
		}
		if err == nil {
			guard, err = guard.Gist(e)
		}
		if err != nil {
			return result{}, err
		}
		if isUniverse(guard) {
			return r, nil
		}
	}
	if _, ok := r.node.(*For); ok && bnd.value == nil && !bnd.single() && len(bnd.lowRows)*len(bnd.upRows) <= maxBuildDisjuncts && bnd.meetRows() <= maxMeetRows {
		// Nor where a loop over a union of bounds is empty.
		u, err := g.runs(bnd)
		if err == nil {
			u, err = u.Intersect(e)
		}
		var ok bool
		if err == nil {
			ok, err = u.IsSubset(guard)
		}
		if err != nil || ok {
			return r, err
		}
	}
	cond, common, err := g.guardCond(guard, st)
	if err != nil {
		return result{}, err
	}
	if cond.IsConst(1) {
		// The build implies the condition as written.
		return r, nil
	}
	enf := append(append([]cons(nil), r.enf...), common...)
	return result{g.newIf(cond, guard, st, r.node), enf}, nil
}

// maxBuildDisjuncts bounds the disjuncts of a build set: gists in a
// union context cost in proportion.
const maxBuildDisjuncts = 4

// maxMeetRows bounds the constraints runs builds (each lower bound row
// meets each upper one); past it the guard stays, which is always correct.
const maxMeetRows = 256

// restrict intersects the build set b with s, keeping b small: a union
// of more than maxBuildDisjuncts is replaced by its simple hull. The
// build only serves as a context in which conditions are known to hold,
// so a superset of the points the code visits is safe; it just
// simplifies less.
func restrict(b, s presburger.Set) (presburger.Set, error) {
	r, err := b.Intersect(s)
	if err != nil || r.NumBasic() <= 1 {
		return r, err
	}
	if r.NumBasic() <= maxBuildDisjuncts {
		return r, nil
	}
	return r.SimpleHull()
}

// inner returns the state inside a loop or substitution of dimension d:
// the build gets the rows and, for each list of groups, the union of
// their conjunctions.
func (g *gen) inner(st *state, build presburger.Set, rows []cons, value *aff, groups ...[][]cons) (*state, error) {
	g.grow()
	d := st.depth
	b, err := build.InsertDims(d, 1)
	if err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		rs, err := g.set(d+1, rows)
		if err != nil {
			return nil, err
		}
		if b, err = restrict(b, rs); err != nil {
			return nil, err
		}
	}
	for _, grps := range groups {
		u := presburger.EmptySet(g.space(d + 1))
		for _, cs := range grps {
			rs, err := g.set(d+1, cs)
			if err == nil {
				u, err = u.Union(rs)
			}
			if err != nil {
				return nil, err
			}
		}
		if b, err = restrict(b, u); err != nil {
			return nil, err
		}
	}
	s2 := *st
	s2.depth = d + 1
	s2.build = b
	s2.values = append(append([]*aff(nil), st.values...), value)
	return &s2, nil
}

// loopNode generates the loop (or substitution, or unrolled copies) of
// dimension d with bounds bnd, at outer points satisfying build.
func (g *gen) loopNode(bnd *bounds, stmts []stmt, st *state, build presburger.Set, lv dimension, body bodyFn) (result, error) {
	d := st.depth
	if bnd.value != nil {
		v := g.resolve(*bnd.value, st)
		in, err := g.inner(st, build, bnd.rows, &v)
		if err != nil {
			return result{}, err
		}
		r, err := body(stmts, in)
		if err != nil || r.node == nil {
			return r, err
		}
		enf := dropDim(r.enf, d)
		if len(bnd.guard) > 0 {
			// The piece's guard may have tested the divisibility.
			gs, err := g.set(d, bnd.guard)
			if err != nil {
				return result{}, err
			}
			if implied, err := build.IsSubset(gs); err != nil || implied {
				return result{r.node, enf}, err
			}
		}
		if len(bnd.guard) > 0 {
			gs := g.resolveAll(bnd.guard, st)
			r.node = &If{Cond: g.condition([][]cons{gs}, g.names(st)), Then: r.node}
			enf = append(enf, gs...)
		}
		return result{r.node, enf}, nil
	}
	if lv.opt == scheduletree.OptionUnroll && bnd.single() {
		if r, ok, err := g.unroll(bnd, stmts, st, build, body); ok || err != nil {
			return r, err
		}
	}
	in, err := g.inner(st, build, bnd.rows, nil, bnd.lowRows, bnd.upRows)
	if err != nil {
		return result{}, err
	}
	f := &For{Iter: g.iter(d), Stride: bnd.stride}
	if lv.coincident && !st.inParallel && (g.opts.Parallel || st.parallelMark) {
		f.Parallel = true
		in.inParallel, in.parallelMark = true, false
	} else {
		in.inSequential = true
	}
	r, err := body(stmts, in)
	if err != nil || r.node == nil {
		return r, err
	}
	f.Body = r.node
	if f.Parallel && g.opts.SerialLeaves && !st.parallelMark && st.inSequential && !hasLoop(r.node) {
		f.Parallel = false
	}
	f.Vector = lv.coincident && st.vectorMark && !hasLoop(r.node)
	var los, ups []Expr
	for _, grp := range bnd.lower {
		var xs []Expr
		for _, a := range grp {
			xs = append(xs, g.expr(a, st))
		}
		los = append(los, Max(xs...))
	}
	for _, grp := range bnd.upper {
		var xs []Expr
		for _, a := range grp {
			xs = append(xs, g.expr(a, st))
		}
		ups = append(ups, Min(xs...))
	}
	f.Lower = Min(los...)
	if bnd.unbounded() {
		f.Unbounded = true
	} else {
		f.Upper = Max(ups...)
	}
	enf := append(g.resolveAll(bnd.nonEmpty(), st), dropDim(r.enf, d)...)
	return result{f, enf}, nil
}

// dropDim keeps the constraints that do not involve dimension d.
func dropDim(cs []cons, d int) []cons {
	var out []cons
	for _, c := range cs {
		if !c.a.usesDim(d) && c.a.maxDim() < d {
			out = append(out, c)
		}
	}
	return out
}

func hasLoop(n Node) bool {
	found := false
	Walk(n, func(x Node) bool {
		if _, ok := x.(*For); ok {
			found = true
		}
		return !found
	})
	return found
}
