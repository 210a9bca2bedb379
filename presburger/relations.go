package presburger

import "github.com/tilefuse/tilefuse/presburger/internal/arith"

// Variable layout of a rel: [params (np), in (ni), out (no)].
func (r rel) dims() (np, ni, no int) { return r.space.NParam(), r.space.NIn(), r.space.NOut() }

// reverse swaps the domain and range of a map.
func (r rel) reverse() rel {
	np, ni, no := r.dims()
	vm := append(seq(0, np), append(seq(np+no, ni), seq(np, no)...)...)
	return r.transform(MapSpace(r.space.Params, r.space.Out, r.space.In), vm)
}

// domain projects a map onto its input tuple.
func (r rel) domain() rel {
	np, ni, no := r.dims()
	vm := append(seq(0, np+ni), minusOnes(no)...)
	return r.transform(SetSpace(r.space.Params, r.space.In), vm)
}

// rangeSet projects a map onto its output tuple.
func (r rel) rangeSet() rel {
	np, ni, no := r.dims()
	vm := append(append(seq(0, np), minusOnes(ni)...), seq(np, no)...)
	return r.transform(SetSpace(r.space.Params, r.space.Out), vm)
}

// params projects onto the parameters.
func (r rel) params() rel {
	np, ni, no := r.dims()
	vm := append(seq(0, np), minusOnes(ni+no)...)
	return r.transform(ParamSpace(r.space.Params), vm)
}

func minusOnes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	return out
}

// scratch is an anonymous map space used for intermediate layouts.
func scratch(params []string, in, out int) Space {
	return MapSpace(params, anonymous(in), anonymous(out))
}

// applyRange returns the map x -> z with x -> y in r and y -> z in s.
func (r rel) applyRange(s rel) rel {
	if !r.space.Out.sameShape(s.space.In) {
		spaceError("apply_range", r.space, s.space)
	}
	r, s = align(r, s)
	np, na, nb := r.dims()
	_, _, nc := s.dims()
	tmp := scratch(r.space.Params, na, nb+nc)
	a := r.embed(tmp, append(seq(0, np), seq(np, na+nb)...))
	b := s.embed(tmp, append(seq(0, np), seq(np+na, nb+nc)...))
	c := intersectParts(tmp, a, b)
	vm := append(append(seq(0, np+na), minusOnes(nb)...), seq(np+na, nc)...)
	return c.transform(MapSpace(r.space.Params, r.space.In, s.space.Out), vm)
}

// intersectParts intersects two rels of the same (scratch) space.
func intersectParts(sp Space, a, b rel) rel {
	a.space, b.space = sp, sp
	return a.intersect(b)
}

// intersectDomain restricts a map's domain to the set s.
func (r rel) intersectDomain(s rel) rel {
	if !r.space.In.sameShape(s.space.Out) {
		spaceError("intersect_domain", r.space, s.space)
	}
	r, s = align(r, s)
	np, ni, _ := r.dims()
	return r.intersect(s.embed(r.space, append(seq(0, np), seq(np, ni)...)))
}

// intersectRange restricts a map's range to the set s.
func (r rel) intersectRange(s rel) rel {
	if !r.space.Out.sameShape(s.space.Out) {
		spaceError("intersect_range", r.space, s.space)
	}
	r, s = align(r, s)
	np, ni, no := r.dims()
	return r.intersect(s.embed(r.space, append(seq(0, np), seq(np+ni, no)...)))
}

// apply returns the image of the set r under the map m.
func (r rel) apply(m rel) rel { return m.intersectDomain(r).rangeSet() }

// deltas returns { y - x : x -> y in r } for a map with equal-size tuples.
func (r rel) deltas() rel {
	np, ni, no := r.dims()
	if ni != no {
		spaceError("deltas", r.space, r.space)
	}
	tmp := scratch(r.space.Params, ni, 2*no)
	c := r.embed(tmp, seq(0, np+ni+no))
	var rows [][]int64
	for j := 0; j < no; j++ {
		row := make([]int64, 1+np+ni+2*no)
		row[1+np+j] = 1       // x
		row[1+np+ni+j] = -1   // y
		row[1+np+ni+no+j] = 1 // d = y - x
		rows = append(rows, row)
	}
	c = c.addRows(rows)
	vm := append(append(seq(0, np), minusOnes(ni+no)...), seq(np, no)...)
	return c.transform(SetSpace(r.space.Params, r.space.Out), vm)
}

// addRows adds equalities (given over [1, vars]) to every piece.
func (r rel) addRows(eqs [][]int64) rel {
	out := rel{space: r.space}
	for _, b := range r.parts {
		c := b.clone()
		for _, e := range eqs {
			c.addEq(e)
		}
		if c.simplify(); !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}

// addIneqs adds inequalities (given over [1, vars]) to every piece.
func (r rel) addIneqs(ineqs [][]int64) rel {
	out := rel{space: r.space}
	for _, b := range r.parts {
		c := b.clone()
		for _, in := range ineqs {
			c.addIneq(in)
		}
		if c.simplify(); !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}

// wrap turns a map A -> B into the set [A -> B].
func (r rel) wrap() rel {
	out := r.clone()
	out.space = SetSpace(r.space.Params, WrapTuples("", r.space.In, r.space.Out))
	for _, b := range out.parts {
		b.nOut += b.nIn
		b.nIn = 0
	}
	return out
}

// unwrap turns a set [A -> B] into the map A -> B.
func (r rel) unwrap() rel {
	t := r.space.Out
	if t.Nest == nil {
		spaceError("unwrap", r.space, r.space)
	}
	out := r.clone()
	out.space = MapSpace(r.space.Params, t.Nest[0], t.Nest[1])
	for _, b := range out.parts {
		b.nIn = t.Nest[0].Len()
		b.nOut -= b.nIn
	}
	return out
}

// identity returns the map x -> x on the set r.
func (r rel) identity() rel {
	np, _, n := r.dims()
	sp := MapSpace(r.space.Params, r.space.Out, r.space.Out)
	c := r.embed(sp, seq(0, np+n))
	var rows [][]int64
	for j := 0; j < n; j++ {
		row := make([]int64, 1+np+2*n)
		row[1+np+j], row[1+np+n+j] = 1, -1
		rows = append(rows, row)
	}
	return c.addRows(rows)
}

// setProduct returns the set [A -> B] of pairs from sets r (A) and s (B).
func (r rel) setProduct(s rel) rel {
	r, s = align(r, s)
	np, _, na := r.dims()
	_, _, nb := s.dims()
	sp := SetSpace(r.space.Params, WrapTuples("", r.space.Out, s.space.Out))
	return intersectParts(sp, r.embed(sp, seq(0, np+na)), s.embed(sp, append(seq(0, np), seq(np+na, nb)...)))
}

// product returns [A -> C] -> [B -> D] from maps A -> B and C -> D.
func (r rel) product(s rel) rel {
	r, s = align(r, s)
	np, na, nb := r.dims()
	_, nc, nd := s.dims()
	sp := MapSpace(r.space.Params, WrapTuples("", r.space.In, s.space.In), WrapTuples("", r.space.Out, s.space.Out))
	a := r.embed(sp, append(append(seq(0, np), seq(np, na)...), seq(np+na+nc, nb)...))
	b := s.embed(sp, append(append(seq(0, np), seq(np+na, nc)...), seq(np+na+nc+nb, nd)...))
	return intersectParts(sp, a, b)
}

// rangeProduct returns A -> [B -> C] from maps A -> B and A -> C.
func (r rel) rangeProduct(s rel) rel {
	if !r.space.In.sameShape(s.space.In) {
		spaceError("range_product", r.space, s.space)
	}
	r, s = align(r, s)
	np, na, nb := r.dims()
	_, _, nc := s.dims()
	sp := MapSpace(r.space.Params, r.space.In, WrapTuples("", r.space.Out, s.space.Out))
	a := r.embed(sp, seq(0, np+na+nb))
	b := s.embed(sp, append(seq(0, np+na), seq(np+na+nb, nc)...))
	return intersectParts(sp, a, b)
}

// sample returns a single-point rel of r, or the empty rel.
func (r rel) sample() rel {
	for _, b := range r.parts {
		p := b.sample()
		if p == nil {
			continue
		}
		np, ni, no := r.dims()
		pt := newUniverse(np, ni, no)
		for j := 0; j < np+ni+no; j++ {
			row := make([]int64, 1+np+ni+no)
			row[0] = arith.Neg(p[1+j])
			row[1+j] = 1
			pt.eqs = append(pt.eqs, row)
		}
		return relFromBasic(r.space, pt)
	}
	return emptyRel(r.space)
}

// bound adds lo <= var <= hi style constraints: row = sign*(x_v) + c >= 0.
func (r rel) boundVar(v int, sign, c int64, eq bool) rel {
	np, ni, no := r.dims()
	row := make([]int64, 1+np+ni+no)
	row[1+v], row[0] = sign, c
	if eq {
		return r.addRows([][]int64{row})
	}
	return r.addIneqs([][]int64{row})
}
