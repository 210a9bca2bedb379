package ast

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
)

// Guards: conditions on the outer dimensions, written as readably as the
// build allows, and what generated code enforces by itself.

// guardCond writes the condition of a guard set at st: the constraints
// common to all its disjuncts, and the disjunction of the rest unless the
// build and the common constraints imply it. It also returns the common
// constraints (resolved).
func (g *gen) guardCond(guard presburger.Set, st *state) (Expr, []cons, error) {
	disj, err := g.disjuncts(guard)
	if err != nil {
		return Expr{}, nil, err
	}
	disj = g.resolveDisj(disj, st)
	count := map[string]int{}
	for _, cs := range disj {
		seen := map[string]bool{}
		for _, c := range cs {
			if k := consKey(c); !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	var common []cons
	rests := make([][]cons, len(disj))
	for i, cs := range disj {
		for _, c := range cs {
			if count[consKey(c)] == len(disj) {
				if i == 0 {
					common = append(common, c)
				}
			} else {
				rests[i] = append(rests[i], c)
			}
		}
	}
	nm := g.names(st)
	if len(disj) == 1 {
		return g.condition(disj, nm), common, nil
	}
	if rests, err = g.dropCovered(st.depth, rests); err != nil {
		return Expr{}, nil, err
	}
	var ands []Expr
	for _, c := range common {
		ands = append(ands, consExpr(c, nm))
	}
	implied, err := g.covers(st, common, rests)
	if err != nil {
		return Expr{}, nil, err
	}
	if !implied {
		ands = append(ands, g.condition(rests, nm))
	}
	return And(ands...), common, nil
}

// dropCovered removes the disjuncts contained in another one.
func (g *gen) dropCovered(d int, disj [][]cons) ([][]cons, error) {
	sets := make([]presburger.Set, len(disj))
	for i, cs := range disj {
		s, err := g.set(d, cs)
		if err != nil {
			return nil, err
		}
		sets[i] = s
	}
	gone := make([]bool, len(disj))
	var out [][]cons
	for i := range disj {
		for j := range disj {
			if i == j || gone[j] {
				continue
			}
			sub, err := sets[i].IsSubset(sets[j])
			if err != nil {
				return nil, err
			}
			if sub {
				gone[i] = true
				break
			}
		}
		if !gone[i] {
			out = append(out, disj[i])
		}
	}
	return out, nil
}

// covers reports whether the build and the common constraints imply the
// union of the rests.
func (g *gen) covers(st *state, common []cons, rests [][]cons) (bool, error) {
	d := st.depth
	b := st.build
	if len(common) > 0 {
		cs, err := g.set(d, common)
		if err == nil {
			b, err = b.Intersect(cs)
		}
		if err != nil {
			return false, err
		}
	}
	u := presburger.EmptySet(g.space(d))
	for _, r := range rests {
		if len(r) == 0 {
			return true, nil
		}
		rs, err := g.set(d, r)
		if err == nil {
			u, err = u.Union(rs)
		}
		if err != nil {
			return false, err
		}
	}
	return b.IsSubset(u)
}

func consKey(c cons) string {
	if c.eq {
		return "=" + c.a.key()
	}
	return ">" + c.a.key()
}

func (g *gen) resolveDisj(disj [][]cons, st *state) [][]cons {
	out := make([][]cons, len(disj))
	for i, cs := range disj {
		out[i] = g.resolveAll(cs, st)
	}
	return out
}

// implied reports whether the build implies the guard (a set over the
// same dimensions, already simplified in it): a guard without
// constraints, or a union of a few conditions that covers the build
// without any of them doing so alone (checked where that is cheap:
// subtracting existentials needs their definitions).
func (g *gen) implied(guard, build presburger.Set) (bool, error) {
	if isUniverse(guard) {
		return true, nil
	}
	n := guard.NumBasic()
	if n == 1 || n > maxBuildDisjuncts || hasExistential(guard.Forms()...) {
		return false, nil
	}
	return build.IsSubset(guard)
}

// isUniverse reports whether some disjunct of s has no constraints.
func isUniverse(s presburger.Set) bool {
	for _, f := range s.Forms() {
		if len(f.Eqs) == 0 && len(f.Ineqs) == 0 {
			return true
		}
	}
	return false
}

// blockResult puts results in sequence. A block does nothing when each
// of its parts does nothing, so it enforces the hull of what they
// enforce: here, the constraints all parts have up to the constant term,
// with the weakest constant.
func (g *gen) blockResult(rs []result) (result, error) {
	if len(rs) == 1 {
		return rs[0], nil
	}
	// strongest maps each linear part to the largest lower bound a part
	// enforces on it: a + k >= 0 with the smallest k.
	strongest := func(cs []cons) map[string]cons {
		out := map[string]cons{}
		for _, c := range cs {
			if c.eq {
				continue
			}
			c = normCons(c)
			k := linearKey(c.a)
			if old, ok := out[k]; !ok || c.a.k < old.a.k {
				out[k] = c
			}
		}
		return out
	}
	var nodes []Node
	var common map[string]cons
	var order []string
	for i, r := range rs {
		nodes = append(nodes, r.node)
		s := strongest(r.enf)
		if i == 0 {
			common = s
			for _, c := range r.enf {
				if k := linearKey(normCons(c).a); !c.eq && !slices.Contains(order, k) {
					order = append(order, k)
				}
			}
			continue
		}
		for k, c := range common {
			o, ok := s[k]
			if !ok {
				delete(common, k)
				continue
			}
			// The block enforces the weaker of the parts' bounds.
			if o.a.k > c.a.k {
				c.a.k = o.a.k
				common[k] = c
			}
		}
	}
	var enf []cons
	for _, k := range order {
		if c, ok := common[k]; ok {
			enf = append(enf, c)
		}
	}
	nodes, err := g.mergeGuards(nodes)
	return result{block(nodes...), enf}, err
}

// ifInfo is what an if tests: at the points of st's build, its condition
// holds exactly on guard.
type ifInfo struct {
	guard presburger.Set
	st    *state
}

// newIf returns the if of cond (which holds on guard in st's build)
// around then, remembering the guard for mergeGuards.
func (g *gen) newIf(cond Expr, guard presburger.Set, st *state, then Node) *If {
	n := &If{Cond: cond, Then: then}
	g.ifs[n] = ifInfo{guard, st}
	return n
}

// mergeGuards merges consecutive ifs in a sequence, as isl does with the
// guards of its grafts. Ifs with the same condition (and no else) become
// one if around their bodies: the bodies cannot change the condition,
// which only reads outer iterators and parameters. An if whose condition
// is the complement of the previous one's (generated at the same build:
// no point satisfies both, every point one of them) becomes its else
// branch.
func (g *gen) mergeGuards(nodes []Node) ([]Node, error) {
	var out []Node
	for _, n := range children(block(nodes...)) {
		if len(out) > 0 {
			a, ok1 := out[len(out)-1].(*If)
			b, ok2 := n.(*If)
			if ok1 && ok2 && a.Else == nil && b.Else == nil {
				if a.Cond.String() == b.Cond.String() {
					body, err := g.mergeGuards(append(children(a.Then), children(b.Then)...))
					if err != nil {
						return nil, err
					}
					m := &If{Cond: a.Cond, Then: block(body...)}
					if info, ok := g.ifs[a]; ok {
						g.ifs[m] = info
					}
					out[len(out)-1] = m
					continue
				}
				if ok, err := g.complementary(a, b); err != nil {
					return nil, err
				} else if ok {
					out[len(out)-1] = &If{Cond: a.Cond, Then: a.Then, Else: b.Then}
					continue
				}
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// complementary reports whether the ifs a and b were generated at the
// same build, and exactly one of their conditions holds at each of its
// points.
func (g *gen) complementary(a, b *If) (bool, error) {
	ia, ok1 := g.ifs[a]
	ib, ok2 := g.ifs[b]
	if !ok1 || !ok2 || ia.st != ib.st {
		return false, nil
	}
	// Whether the build lies in either condition is tested first: it
	// usually fails quickly, while intersecting the conditions' unions
	// with the build is costly (isl's disjuncts.in: seconds per pair).
	either, err := ia.guard.Union(ib.guard)
	if err != nil {
		return false, err
	}
	if covered, err := ia.st.build.IsSubset(either); err != nil || !covered {
		return false, err
	}
	both, err := ia.guard.Intersect(ib.guard)
	if err == nil {
		both, err = both.Intersect(ia.st.build)
	}
	if err != nil {
		return false, err
	}
	return both.IsEmpty()
}

// children is the nodes of a block, n alone, or none for nil.
func children(n Node) []Node {
	switch n := n.(type) {
	case nil:
		return nil
	case *Block:
		return n.Children
	}
	return []Node{n}
}

// normCons divides an inequality by the content of its variable part,
// rounding the constant down.
func normCons(c cons) cons {
	if c.eq {
		return c
	}
	g := int64(0)
	for _, v := range c.a.p {
		g = gcd(g, v)
	}
	for _, v := range c.a.c {
		g = gcd(g, v)
	}
	for _, d := range c.a.divs {
		g = gcd(g, d.coef)
	}
	if g <= 1 {
		return c
	}
	a := aff{k: floorDiv(c.a.k, g)}
	for _, v := range c.a.p {
		a.p = append(a.p, v/g)
	}
	for _, v := range c.a.c {
		a.c = append(a.c, v/g)
	}
	for _, d := range c.a.divs {
		a.divs = append(a.divs, divTerm{coef: d.coef / g, num: d.num, den: d.den})
	}
	return cons{a: a}
}

// linearKey identifies an aff up to its constant term.
func linearKey(a aff) string {
	a.k = 0
	return a.key()
}

// testable returns a set containing s whose locals all have definitions,
// so that it can be written as a condition, and whether it equals s.
// Existentials without a definition are projected out over the rationals
// (Fourier-Motzkin), which is exact when they were only bounded by unit
// coefficients; isl would compute their definitions instead, which may
// need parametric integer programming (isl_set_compute_divs).
func (g *gen) testable(s presburger.Set) (presburger.Set, bool, error) {
	forms := s.Forms()
	exact := true
	for i, f := range forms {
		r := g.reader(s, f)
		base := 1 + f.NParam + f.NDim
		var undef []int
		for k := range f.Divs {
			if !r.ok[base+k] {
				undef = append(undef, base+k)
			}
		}
		if len(undef) == 0 {
			continue
		}
		exact = false
		eqs, ineqs := copyRows(f.Eqs), copyRows(f.Ineqs)
		for _, c := range undef {
			if d := f.Divs[c-base]; d.Den != 0 {
				lo, hi := divRows(d, c)
				ineqs = append(ineqs, lo, hi)
			}
		}
		// A weaker test (a local dropped) still contains s.
		eqs, ineqs, _ = eliminateAll(eqs, ineqs, undef)
		f.Eqs, f.Ineqs = eqs, ineqs
		for _, c := range undef {
			f.Divs[c-base] = presburger.Div{Num: make([]int64, f.NCol())}
			f.Divs[c-base].Den = 1 // unused: a column of zeros
		}
		forms[i] = f
	}
	if exact {
		return s, true, nil
	}
	out, err := presburger.SetFromForms(s.Space(), forms...)
	return out, false, err
}

// gistGuard simplifies the condition s in the build: gist, then the
// constraints on locals the build implies over the integers dropped.
func gistGuard(s, build presburger.Set) (presburger.Set, error) {
	g, err := s.Gist(build)
	if err != nil {
		return g, err
	}
	return dropImplied(g, build)
}

// dropImplied removes from a single-disjunct s the constraints on locals
// that ctx implies over the integers. The rational gist misses them when
// the context defines the same residue class with its own locals.
func dropImplied(s, ctx presburger.Set) (presburger.Set, error) {
	forms := s.Forms()
	if len(forms) != 1 {
		return s, nil
	}
	f := forms[0]
	for _, d := range f.Divs {
		if d.Den == 0 {
			// A constraint on an existential means nothing alone.
			return s, nil
		}
	}
	base := 1 + f.NParam + f.NDim
	usesLocal := func(r []int64) bool {
		for _, v := range r[base:] {
			if v != 0 {
				return true
			}
		}
		return false
	}
	changed := false
	filter := func(rows [][]int64, eq bool) ([][]int64, error) {
		var out [][]int64
		for _, r := range rows {
			if usesLocal(r) {
				one := presburger.Form{NParam: f.NParam, NDim: f.NDim, Divs: f.Divs}
				if eq {
					one.Eqs = [][]int64{r}
				} else {
					one.Ineqs = [][]int64{r}
				}
				c, err := presburger.SetFromForms(s.Space(), one)
				if err != nil {
					return nil, err
				}
				ok, err := ctx.IsSubset(c)
				if err != nil {
					return nil, err
				}
				if ok {
					changed = true
					continue
				}
			}
			out = append(out, r)
		}
		return out, nil
	}
	eqs, err := filter(f.Eqs, true)
	if err != nil {
		return s, err
	}
	ineqs, err := filter(f.Ineqs, false)
	if err != nil || !changed {
		return s, err
	}
	f.Eqs, f.Ineqs = eqs, ineqs
	return presburger.SetFromForms(s.Space(), f)
}
