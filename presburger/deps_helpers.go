package presburger

// Helpers for dependence analysis (package deps): lexicographic order
// relations on a time space, and the maps that take a wrapped access pair
// [S[i] -> A[a]] to one of its factors (isl's domain_map and range_map).

// LexLT returns { x -> y : x <lex y } on the tuple of the set space sp
// (isl_map_lex_lt).
func LexLT(sp Space) Map { return Map{lexRelation(sp, -1, false, false)} }

// LexLE returns { x -> y : x <=lex y }.
func LexLE(sp Space) Map { return Map{lexRelation(sp, -1, true, false)} }

// LexGT returns { x -> y : x >lex y }.
func LexGT(sp Space) Map { return Map{lexRelation(sp, -1, false, true)} }

// LexGE returns { x -> y : x >=lex y }.
func LexGE(sp Space) Map { return Map{lexRelation(sp, -1, true, true)} }

// LexLTAt returns the part of LexLT decided at dimension level, which
// must lie in [0, dims): x and y agree before level and x_level < y_level.
// LexLT is the union over all levels; dataflow analysis takes them one by
// one, deepest first, since a candidate at a deeper level is always later.
func LexLTAt(sp Space, level int) Map {
	if level < 0 || level >= sp.NOut() {
		panic("presburger: LexLTAt: level out of range")
	}
	return Map{lexRelation(sp, level, false, false)}
}

// LexGTAt is LexLTAt reversed: x and y agree before level and x_level >
// y_level.
func LexGTAt(sp Space, level int) Map {
	if level < 0 || level >= sp.NOut() {
		panic("presburger: LexGTAt: level out of range")
	}
	return Map{lexRelation(sp, level, false, true)}
}

// lexRelation builds the order on sp's tuple level by level (only level
// when level >= 0); orEqual adds the diagonal, gt flips the comparison.
func lexRelation(sp Space, level int, orEqual, gt bool) rel {
	np, n := sp.NParam(), sp.NOut()
	out := emptyRel(MapSpace(sp.Params, sp.Out, sp.Out))
	for k := 0; k <= n; k++ {
		if (level >= 0 && k != level) || (k == n && !orEqual) {
			continue
		}
		b := newUniverse(np, n, n)
		for j := 0; j < k; j++ {
			row := make([]int64, b.nCol())
			row[1+np+j], row[1+np+n+j] = 1, -1
			b.eqs = append(b.eqs, row)
		}
		if k < n { // y_k - x_k - 1 >= 0, or x_k - y_k - 1 >= 0 for gt
			row := make([]int64, b.nCol())
			row[0], row[1+np+k], row[1+np+n+k] = -1, -1, 1
			if gt {
				row[1+np+k], row[1+np+n+k] = 1, -1
			}
			b.ineqs = append(b.ineqs, row)
		}
		out.parts = append(out.parts, b)
	}
	return out
}

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

// Basics returns the disjuncts of m, each as a map of one basic map
// (isl_map_foreach_basic_map). Dataflow analysis splits a statement's
// reads this way: the answer for a read depends only on the read, so
// pieces can be analysed apart, each with simpler lexicographic optima.
func (m Map) Basics() []Map {
	out := make([]Map, 0, len(m.r.parts))
	for _, b := range m.r.parts {
		out = append(out, Map{relFromBasic(m.r.space, b)})
	}
	return out
}
