package presburger

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Gist simplifies a relation in a context (isl_map_gist): every disjunct a
// of A that meets the context keeps only the constraints that the context,
// together with the constraints of a that are kept, does not imply. A
// constraint c is dropped when, for every disjunct C_k of the context, the
// rational points of (a without c) ∩ C_k satisfy c (a simplex minimization),
// so (a without c) ∩ ctx = a ∩ ctx and the result G satisfies
// G ∩ ctx = A ∩ ctx exactly. Equalities are dropped only when implied in both
// directions. Disjuncts that do not meet the context are dropped, so the gist
// of A in a context disjoint from A is empty. Tests that overflow keep the
// constraint.

// Gist returns a set G with G ∩ ctx = s ∩ ctx, dropping the constraints of
// s that ctx implies; see the package notes on gist above.
func (s Set) Gist(ctx Set) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).gist(ctx.r.with(bud))}, nil
}

// Gist returns a map G with G ∩ ctx = m ∩ ctx; see Set.Gist.
func (m Map) Gist(ctx Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).gist(ctx.r.with(bud))}, nil
}

// GistParams returns s simplified in the context ctx, a set of parameter
// values (as returned by Params): G ∩ ctx = s ∩ ctx for the parameters.
func (s Set) GistParams(ctx Set) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).gistParams(ctx.r.with(bud))}, nil
}

// GistParams returns m simplified in the parameter context ctx.
func (m Map) GistParams(ctx Set) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).gistParams(ctx.r.with(bud))}, nil
}

// Gist simplifies the set of every space in the context's set of the same
// space; spaces the context does not mention are dropped (their
// intersection with the context is empty).
func (s UnionSet) Gist(ctx UnionSet) (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).pairwise(ctx.u.with(bud), false, rel.gist)}, nil
}

// Gist simplifies the map of every space in the context's map of the same
// space; see UnionSet.Gist.
func (m UnionMap) Gist(ctx UnionMap) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).pairwise(ctx.u.with(bud), false, rel.gist)}, nil
}

// GistParams simplifies every set of the union in the parameter context.
func (s UnionSet) GistParams(ctx Set) (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).mapEach(func(r rel) rel { return r.gistParams(ctx.r.with(bud)) })}, nil
}

// GistParams simplifies every map of the union in the parameter context.
func (m UnionMap) GistParams(ctx Set) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).mapEach(func(r rel) rel { return r.gistParams(ctx.r.with(bud)) })}, nil
}

// gist returns r simplified in the context ctx (same space).
func (r rel) gist(ctx rel) rel {
	r, ctx = r.checkSame("gist", ctx)
	var cs []*basic
	for _, c := range ctx.parts {
		if p := prepareBasic(c); p != nil {
			cs = append(cs, p)
		}
	}
	out := rel{space: r.space}
	for _, a := range r.parts {
		if g := gistBasic(a, cs); g != nil {
			out.parts = append(out.parts, g)
		}
	}
	return out
}

// gistParams returns r simplified in the parameter context ctx.
func (r rel) gistParams(ctx rel) rel {
	if !ctx.space.IsParams {
		panic(internalError{fmt.Errorf("presburger: gist_params: context %s is not a parameter set", ctx.space)})
	}
	params := alignParams(r.space.Params, ctx.space.Params)
	r, ctx = r.alignTo(params), ctx.alignTo(params)
	np, ni, no := r.dims()
	emb := rel{space: r.space}
	for _, c := range ctx.parts {
		emb.parts = append(emb.parts, c.remap(np, ni, no, seq(0, np)))
	}
	return r.gist(emb)
}

// gistBasic returns a with the constraints implied by the context parts cs
// removed, or nil when a does not meet the context.
func gistBasic(a *basic, cs []*basic) *basic {
	meets := false
	for _, c := range cs {
		empty := false
		if !attempt(func() { empty = intersectBasic(a, c).simplify().isEmpty() }) || !empty {
			meets = true
			break
		}
	}
	if !meets {
		return nil
	}
	g := a.clone()
	attempt(func() {
		r := a.clone().reduce()
		if !r.empty {
			g = r
		}
	})
	for k := 0; k < len(g.eqs); {
		row := g.eqs[k]
		rest := g.clone()
		rest.eqs = append(rest.eqs[:k:k], rest.eqs[k+1:]...)
		if impliedIn(rest, cs, row, true) {
			g = rest
			continue
		}
		k++
	}
	if h, ok := dropImpliedIneqs(g, cs); ok {
		return h.simplify()
	}
	for k := 0; k < len(g.ineqs); {
		row := g.ineqs[k]
		rest := g.clone()
		rest.ineqs = append(rest.ineqs[:k:k], rest.ineqs[k+1:]...)
		if impliedIn(rest, cs, row, false) {
			g = rest
			continue
		}
		k++
	}
	return g.simplify()
}

// dropImpliedIneqs removes from g, in order, each inequality that g's
// other remaining constraints imply rationally in every context part:
// the loop above, with one tableau of g ∩ c per part that g meets, in
// which each inequality found implied is lifted in turn, rather than a
// tableau per inequality and part. A part g does not meet (rationally)
// may meet g without the inequality, so it is tested as above. ok is
// false when a tableau overflowed or ran out of budget.
func dropImpliedIneqs(g *basic, cs []*basic) (out *basic, ok bool) {
	var keep []bool
	ok = attempt(func() {
		var tabs []*simplex.Tableau
		var eqs []int
		var apart []*basic
		for _, c := range cs {
			in := intersectBasic(g, c)
			if tab := in.tableau(); tab.Empty() {
				apart = append(apart, c)
			} else {
				tabs = append(tabs, tab)
				eqs = append(eqs, len(in.eqs))
			}
		}
		keep = make([]bool, len(g.ineqs))
		for k, row := range g.ineqs {
			// A tableau holds in's equalities, then g's inequalities.
			implied := true
			for i, tab := range tabs {
				if !tab.IsRedundant(eqs[i] + k) {
					implied = false
					break
				}
			}
			if implied && len(apart) > 0 {
				rest := g.clone()
				rest.ineqs = rest.ineqs[:0]
				for j, r := range g.ineqs {
					if j != k && (j > k || keep[j]) {
						rest.ineqs = append(rest.ineqs, r)
					}
				}
				implied = impliedIn(rest, apart, row, false)
			}
			keep[k] = !implied
			if implied {
				for i, tab := range tabs {
					tab.DropIfRedundant(eqs[i] + k)
				}
			}
		}
	})
	if !ok {
		return nil, false
	}
	out = g.clone()
	out.ineqs = out.ineqs[:0]
	for k, row := range g.ineqs {
		if keep[k] {
			out.ineqs = append(out.ineqs, row)
		}
	}
	return out, true
}

// impliedIn reports whether row >= 0 (row = 0 with eq) holds on the
// rational points of b ∩ c for every context part c. Overflow or budget
// exhaustion answer false.
func impliedIn(b *basic, cs []*basic, row []int64, eq bool) bool {
	implied := false
	attempt(func() {
		for _, c := range cs {
			in := intersectBasic(b, c)
			tab := in.tableau()
			if tab.Empty() {
				continue
			}
			r := pad(append([]int64(nil), row...), in.nCol())
			if !holdsOn(tab, r) || (eq && !holdsOn(tab, negRow(r, 0))) {
				return
			}
		}
		implied = true
	})
	return implied
}

// holdsOn reports whether row >= 0 on all rational points of t.
func holdsOn(t *simplex.Tableau, row []int64) bool {
	num, _, st := t.Min(row)
	return st == simplex.Optimal && num >= 0
}
