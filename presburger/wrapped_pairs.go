package presburger

// Maps on wrapped pairs [A -> B], such as the access pairs [S[i] -> A[a]]
// of dependence analysis: the projections on one factor (isl's domain_map
// and range_map) and the unwrapping of a set of pairs into a map.

// DomainMap returns [A -> B] -> A for the pairs of m: A -> B
// (isl_map_domain_map restricted to m's pairs).
func (m Map) DomainMap() (res Map, err error) {
	defer catch(&err)
	return Map{m.r.with(newBudget()).factorMap(true)}, nil
}

// RangeMap returns [A -> B] -> B for the pairs of m.
func (m Map) RangeMap() (res Map, err error) {
	defer catch(&err)
	return Map{m.r.with(newBudget()).factorMap(false)}, nil
}

// DomainMap applies Map.DomainMap to every map of the union.
func (m UnionMap) DomainMap() (res UnionMap, err error) {
	defer catch(&err)
	return UnionMap{m.u.with(newBudget()).mapEach(func(r rel) rel { return r.factorMap(true) })}, nil
}

// RangeMap applies Map.RangeMap to every map of the union.
func (m UnionMap) RangeMap() (res UnionMap, err error) {
	defer catch(&err)
	return UnionMap{m.u.with(newBudget()).mapEach(func(r rel) rel { return r.factorMap(false) })}, nil
}

// factorMap builds [A -> B] -> A (domain) or [A -> B] -> B from the map r.
func (r rel) factorMap(domain bool) rel {
	np, na, nb := r.dims()
	if !r.space.IsMap {
		spaceError("domain_map", r.space, r.space)
	}
	target, first, n := r.space.Out, na, nb
	if domain {
		target, first, n = r.space.In, 0, na
	}
	sp := MapSpace(r.space.Params, WrapTuples("", r.space.In, r.space.Out), target)
	c := r.wrap().embed(sp, seq(0, np+na+nb))
	pairs := make([][2]int, n)
	for j := range pairs {
		pairs[j] = [2]int{np + first + j, np + na + nb + j}
	}
	return c.addEqualities(pairs)
}

// Unwrap turns every set [A -> B] of the union into the map A -> B; a set
// that is not a wrapped pair is an error.
func (s UnionSet) Unwrap() (res UnionMap, err error) {
	defer catch(&err)
	return UnionMap{s.u.with(newBudget()).mapEach(rel.unwrap)}, nil
}
