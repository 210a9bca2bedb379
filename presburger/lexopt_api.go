package presburger

// LexMin returns the lexicographically smallest point of s for each
// parameter value (empty where s is empty); ErrUnbounded if there is none.
func (s Set) LexMin() (res Set, err error) {
	defer catch(&err)
	return Set{s.r.with(newBudget()).lexRel(false)}, nil
}

// LexMax returns the lexicographically largest point of s.
func (s Set) LexMax() (res Set, err error) {
	defer catch(&err)
	return Set{s.r.with(newBudget()).lexRel(true)}, nil
}

// LexMinPw returns the lexicographic minimum as a piecewise quasi-affine
// function of the parameters.
func (s Set) LexMinPw() (res PwMultiAff, err error) {
	defer catch(&err)
	return s.r.with(newBudget()).lexPw(false), nil
}

// LexMaxPw returns the lexicographic maximum as a piecewise function.
func (s Set) LexMaxPw() (res PwMultiAff, err error) {
	defer catch(&err)
	return s.r.with(newBudget()).lexPw(true), nil
}

// LexMin returns, for each input, the lexicographically smallest image.
func (m Map) LexMin() (res Map, err error) {
	defer catch(&err)
	return Map{m.r.with(newBudget()).lexRel(false)}, nil
}

// LexMax returns, for each input, the lexicographically largest image.
func (m Map) LexMax() (res Map, err error) {
	defer catch(&err)
	return Map{m.r.with(newBudget()).lexRel(true)}, nil
}

// LexMinPw returns the lexicographic minimum as a piecewise function of the
// input tuple (and parameters).
func (m Map) LexMinPw() (res PwMultiAff, err error) {
	defer catch(&err)
	return m.r.with(newBudget()).lexPw(false), nil
}

// LexMaxPw returns the lexicographic maximum as a piecewise function.
func (m Map) LexMaxPw() (res PwMultiAff, err error) {
	defer catch(&err)
	return m.r.with(newBudget()).lexPw(true), nil
}

// DimMin returns the minimum of set dimension pos over s as a piecewise
// quasi-affine function of the parameters (isl_set_dim_min).
func (s Set) DimMin(pos int) (res PwMultiAff, err error) {
	defer catch(&err)
	return s.r.with(newBudget()).dimOpt(pos, false), nil
}

// DimMax returns the maximum of set dimension pos over s (isl_set_dim_max).
func (s Set) DimMax(pos int) (res PwMultiAff, err error) {
	defer catch(&err)
	return s.r.with(newBudget()).dimOpt(pos, true), nil
}

// DimMinOuter returns the minimum of set dimension pos as a piecewise
// function of the parameters and the dimensions before pos: the lower bound
// of a loop over pos nested in loops over the earlier dimensions.
func (s Set) DimMinOuter(pos int) (res PwMultiAff, err error) {
	defer catch(&err)
	return s.r.with(newBudget()).boundOuter(pos, false), nil
}

// DimMaxOuter is DimMinOuter for the upper bound.
func (s Set) DimMaxOuter(pos int) (res PwMultiAff, err error) {
	defer catch(&err)
	return s.r.with(newBudget()).boundOuter(pos, true), nil
}

// dimOpt projects s onto dimension pos and optimises it.
func (r rel) dimOpt(pos int, max bool) PwMultiAff {
	r.checkRange("dim_min", DimOut, pos, 1)
	p := r.onlyDim(pos).dropLocals()
	if pw, ok := p.unitBound(max); ok {
		return pw
	}
	return p.lexPw(max)
}

// boundOuter views s as a map from its first pos dimensions to dimension
// pos and optimises it.
func (r rel) boundOuter(pos int, max bool) PwMultiAff {
	n := r.space.NOut()
	r.checkRange("dim_min", DimOut, pos, 1)
	p := r.projectOut(DimOut, pos+1, n-pos-1)
	names := p.space.Out.flatNames()
	m := p.withSpace(MapSpace(p.space.Params, Tuple{Dims: names[:pos]}, Tuple{Dims: names[pos:]}))
	for i, b := range m.parts {
		c := *b
		c.nIn, c.nOut = pos, 1
		m.parts[i] = &c
	}
	return m.lexPw(max)
}

// LexMin returns the lexicographic minimum of each set of the union (per
// space, as isl_union_set_lexmin).
func (s UnionSet) LexMin() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).mapEach(func(r rel) rel { return r.lexRel(false) })}, nil
}

// LexMax returns the lexicographic maximum of each set of the union.
func (s UnionSet) LexMax() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).mapEach(func(r rel) rel { return r.lexRel(true) })}, nil
}

// LexMin returns, per map of the union and per input, the smallest image.
func (m UnionMap) LexMin() (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).mapEach(func(r rel) rel { return r.lexRel(false) })}, nil
}

// LexMax returns, per map of the union and per input, the largest image.
func (m UnionMap) LexMax() (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).mapEach(func(r rel) rel { return r.lexRel(true) })}, nil
}
