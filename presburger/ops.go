package presburger

import (
	"fmt"
	"slices"
)

// spaceError reports operands whose spaces do not fit the operation.
func spaceError(op string, a, b Space) {
	panic(internalError{fmt.Errorf("presburger: %s: incompatible spaces %s and %s", op, a, b)})
}

// alignTo returns r with its parameters reordered/extended to params.
func (r rel) alignTo(params []string) rel {
	if equalStrings(r.space.Params, params) {
		return r
	}
	sp := r.space.withParams(params)
	np := len(params)
	varMap := make([]int, r.space.NParam()+r.space.NIn()+r.space.NOut())
	for i, p := range r.space.Params {
		varMap[i] = indexOf(params, p)
	}
	for i := r.space.NParam(); i < len(varMap); i++ {
		varMap[i] = i - r.space.NParam() + np
	}
	out := rel{space: sp}
	for _, b := range r.parts {
		out.parts = append(out.parts, b.remap(np, sp.NIn(), sp.NOut(), varMap))
	}
	return out
}

// align brings r and s to a common parameter list.
func align(r, s rel) (rel, rel) {
	p := alignParams(r.space.Params, s.space.Params)
	return r.alignTo(p), s.alignTo(p)
}

func (r rel) checkSame(op string, s rel) (rel, rel) {
	if !r.space.sameTuples(s.space) || r.space.IsParams != s.space.IsParams {
		spaceError(op, r.space, s.space)
	}
	return align(r, s)
}

// union returns r ∪ s.
func (r rel) union(s rel) rel {
	r, s = r.checkSame("union", s)
	out := rel{space: r.space}
	out.parts = append(append(out.parts, r.parts...), s.parts...)
	return out
}

// intersect returns r ∩ s. When several pairs of pieces meet, rationally
// empty ones are dropped to keep the result small.
func (r rel) intersect(s rel) rel {
	r, s = r.checkSame("intersect", s)
	out := rel{space: r.space}
	prune := len(r.parts)*len(s.parts) > 1
	for _, a := range r.parts {
		for _, b := range s.parts {
			c := intersectBasic(a, b).simplify()
			if !c.empty && !(prune && c.rationallyEmpty()) {
				out.parts = append(out.parts, c)
			}
		}
	}
	return out
}

// subtract returns r \ s.
func (r rel) subtract(s rel) rel {
	r, s = r.checkSame("subtract", s)
	out := rel{space: r.space}
	for _, a := range r.parts {
		if slices.ContainsFunc(s.parts, func(b *basic) bool { return syntacticSubset(a, b) }) {
			continue
		}
		pieces := []*basic{a}
		for _, b := range s.parts {
			var next []*basic
			for _, p := range pieces {
				next = append(next, subtractBasic(p, b)...)
			}
			a.bud.checkPieces(len(next))
			a.bud.spendOn(next)
			pieces = next
		}
		out.parts = append(out.parts, pieces...)
	}
	return out
}

// syntacticSubset reports whether a ⊆ b is evident without solving: the
// same locals, and every constraint of b among a's. Subtracting a set
// from (a part of) itself then costs nothing instead of a split per
// constraint and local.
func syntacticSubset(a, b *basic) bool {
	if a.empty {
		return true
	}
	if b.empty || a.nParam != b.nParam || a.nIn != b.nIn || a.nOut != b.nOut || len(a.divs) != len(b.divs) {
		return false
	}
	for i, d := range a.divs {
		if d.den != b.divs[i].den || !slices.Equal(d.num, b.divs[i].num) {
			return false
		}
	}
	hasRow := func(rows [][]int64, r []int64, orNeg bool) bool {
		for _, x := range rows {
			if slices.Equal(x, r) || orNeg && isNegation(x, r) {
				return true
			}
		}
		return false
	}
	for _, e := range b.eqs {
		if !hasRow(a.eqs, e, true) {
			return false
		}
	}
	for _, in := range b.ineqs {
		if !hasRow(a.ineqs, in, false) && !hasRow(a.eqs, in, true) {
			return false
		}
	}
	return true
}

func isNegation(x, r []int64) bool {
	if len(x) != len(r) {
		return false
	}
	for i := range x {
		if x[i] != -r[i] {
			return false
		}
	}
	return true
}

// complement returns the universe of r's space minus r.
func (r rel) complement() rel {
	return universeRel(r.space).with(r.budget()).subtract(r)
}

// dropEmpty removes pieces that are known or rationally empty.
func (r rel) dropEmpty() rel {
	out := rel{space: r.space}
	for _, b := range r.parts {
		if !b.empty && !b.rationallyEmpty() {
			out.parts = append(out.parts, b)
		}
	}
	return out
}

// isEmpty decides integer emptiness.
func (r rel) isEmpty() bool {
	for _, b := range r.parts {
		if !b.isEmpty() {
			return false
		}
	}
	return true
}

func (r rel) isSubset(s rel) bool { return r.subtract(s).isEmpty() }

func (r rel) isEqual(s rel) bool { return r.isSubset(s) && s.isSubset(r) }

// transform maps every piece through a variable layout change: varMap[i] is
// the new index of old variable i, or -1 to quantify it existentially.
func (r rel) transform(sp Space, varMap []int) rel {
	out := rel{space: sp}
	for _, b := range r.parts {
		c := b.remap(sp.NParam(), sp.NIn(), sp.NOut(), varMap).simplify()
		if !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}

// existsTail quantifies the last n variables (trailing output dims) and
// returns the result in space sp.
func (r rel) existsTail(n int, sp Space) rel {
	nv := r.space.NParam() + r.space.NIn() + r.space.NOut()
	varMap := make([]int, nv)
	for i := range varMap {
		varMap[i] = i
		if i >= nv-n {
			varMap[i] = -1
		}
	}
	return r.transform(sp, varMap)
}

// embed places r's variables into a larger layout of space sp: varMap gives
// the new index of each old variable; other new variables are unconstrained.
func (r rel) embed(sp Space, varMap []int) rel { return r.transform(sp, varMap) }

// identityMap returns the vars map 0..n-1 shifted by off.
func seq(off, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = off + i
	}
	return out
}

// addEqualities adds x_a = x_b for each pair of variable indices.
func (r rel) addEqualities(pairs [][2]int) rel {
	out := rel{space: r.space}
	for _, b := range r.parts {
		c := b.clone()
		for _, p := range pairs {
			row := make([]int64, c.nCol())
			row[1+p[0]] = 1
			row[1+p[1]] = -1
			c.eqs = append(c.eqs, row)
		}
		c.simplify()
		if !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}
