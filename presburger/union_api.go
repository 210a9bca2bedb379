package presburger

// String prints the union in isl notation; "{  }" when empty.
func (s UnionSet) String() string { return s.u.String() }

// String prints the union in isl notation; "{  }" when empty.
func (m UnionMap) String() string { return m.u.String() }

// Union returns s ∪ t.
func (s UnionSet) Union(t UnionSet) (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).unionWith(t.u.with(bud))}, nil
}

// Intersect returns s ∩ t.
func (s UnionSet) Intersect(t UnionSet) (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).pairwise(t.u.with(bud), false, rel.intersect)}, nil
}

// Subtract returns s \ t.
func (s UnionSet) Subtract(t UnionSet) (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).pairwise(t.u.with(bud), true, rel.subtract)}, nil
}

// IsEmpty reports whether s holds no point.
func (s UnionSet) IsEmpty() (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.u.with(bud).isEmpty(), nil
}

// IsSubset reports whether s ⊆ t.
func (s UnionSet) IsSubset(t UnionSet) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.u.with(bud).isSubset(t.u.with(bud)), nil
}

// IsEqual reports whether s and t hold the same points.
func (s UnionSet) IsEqual(t UnionSet) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.u.with(bud).isSubset(t.u.with(bud)) && t.u.with(bud).isSubset(s.u.with(bud)), nil
}

// Sample returns a union holding one point of s, or an empty union.
func (s UnionSet) Sample() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{s.u.with(bud).sample()}, nil
}

// Params returns the parameter values for which s is non-empty.
func (s UnionSet) Params() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.u.with(bud).params_()}, nil
}

// Apply returns the image of s under m.
func (s UnionSet) Apply(m UnionMap) (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	var out []rel
	for _, a := range s.u.with(bud).rels {
		for _, b := range m.u.with(bud).rels {
			if b.space.In.sameShape(a.space.Out) {
				out = append(out, a.apply(b))
			}
		}
	}
	return unionSetFromRels(alignParams(s.u.params, m.u.params), out), nil
}

// Identity returns the identity map on s.
func (s UnionSet) Identity() (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{s.u.with(bud).mapEach(rel.identity)}, nil
}

// Union returns m ∪ n.
func (m UnionMap) Union(n UnionMap) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).unionWith(n.u.with(bud))}, nil
}

// Intersect returns m ∩ n.
func (m UnionMap) Intersect(n UnionMap) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).pairwise(n.u.with(bud), false, rel.intersect)}, nil
}

// Subtract returns m \ n.
func (m UnionMap) Subtract(n UnionMap) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).pairwise(n.u.with(bud), true, rel.subtract)}, nil
}

// IsEmpty reports whether m holds no pair.
func (m UnionMap) IsEmpty() (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.u.with(bud).isEmpty(), nil
}

// IsSubset reports whether m ⊆ n.
func (m UnionMap) IsSubset(n UnionMap) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.u.with(bud).isSubset(n.u.with(bud)), nil
}

// IsEqual reports whether m and n hold the same pairs.
func (m UnionMap) IsEqual(n UnionMap) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.u.with(bud).isSubset(n.u.with(bud)) && n.u.with(bud).isSubset(m.u.with(bud)), nil
}

// Sample returns a union holding one pair of m, or an empty union.
func (m UnionMap) Sample() (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).sample()}, nil
}

// Params returns the parameter values for which m is non-empty.
func (m UnionMap) Params() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{m.u.with(bud).params_()}, nil
}

// Reverse returns y -> x for every x -> y in m.
func (m UnionMap) Reverse() (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionMap{m.u.with(bud).mapEach(rel.reverse)}, nil
}

// Domain returns the union of the domains.
func (m UnionMap) Domain() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{m.u.with(bud).mapEach(rel.domain)}, nil
}

// Range returns the union of the ranges.
func (m UnionMap) Range() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{m.u.with(bud).mapEach(rel.rangeSet)}, nil
}

// Wrap returns the set of wrapped pairs [A -> B].
func (m UnionMap) Wrap() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	return UnionSet{m.u.with(bud).mapEach(rel.wrap)}, nil
}

// ApplyRange returns x -> z for x -> y in m and y -> z in n.
func (m UnionMap) ApplyRange(n UnionMap) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	var out []rel
	ms, ns := m.u.with(bud).rels, n.u.with(bud).rels
	if len(ms)*len(ns) <= 64 {
		for _, a := range ms {
			for _, b := range ns {
				if a.space.Out.sameShape(b.space.In) {
					out = append(out, a.applyRange(b))
				}
			}
		}
		return unionMapFromRels(alignParams(m.u.params, n.u.params), out), nil
	}
	// Many spaces (thousands of statements): pair them by key, in the
	// same order as the loops above.
	byIn := map[string][]int{}
	for j, b := range ns {
		k := b.space.In.Key()
		byIn[k] = append(byIn[k], j)
	}
	for _, a := range ms {
		for _, j := range byIn[a.space.Out.Key()] {
			out = append(out, a.applyRange(ns[j]))
		}
	}
	return unionMapFromRels(alignParams(m.u.params, n.u.params), out), nil
}

// ApplyDomain returns z -> y for x -> y in m and x -> z in n.
func (m UnionMap) ApplyDomain(n UnionMap) (res UnionMap, err error) {
	defer catch(&err)
	r, err := n.Reverse()
	if err != nil {
		return res, err
	}
	return r.ApplyRange(m)
}

// IntersectDomain restricts m to inputs in s.
func (m UnionMap) IntersectDomain(s UnionSet) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	var out []rel
	for _, a := range m.u.with(bud).rels {
		if b, ok := s.u.with(bud).findSet(a.space.In); ok {
			out = append(out, a.intersectDomain(b))
		}
	}
	return unionMapFromRels(alignParams(m.u.params, s.u.params), out), nil
}

// IntersectRange restricts m to outputs in s.
func (m UnionMap) IntersectRange(s UnionSet) (res UnionMap, err error) {
	defer catch(&err)
	bud := newBudget()
	var out []rel
	for _, a := range m.u.with(bud).rels {
		if b, ok := s.u.with(bud).findSet(a.space.Out); ok {
			out = append(out, a.intersectRange(b))
		}
	}
	return unionMapFromRels(alignParams(m.u.params, s.u.params), out), nil
}

// Deltas returns y - x for the pairs of maps whose domain and range spaces
// are the same; other maps contribute nothing (as isl_union_map_deltas).
func (m UnionMap) Deltas() (res UnionSet, err error) {
	defer catch(&err)
	bud := newBudget()
	var out []rel
	for _, a := range m.u.with(bud).rels {
		if a.space.In.sameShape(a.space.Out) {
			out = append(out, a.deltas())
		}
	}
	return unionSetFromRels(m.u.params, out), nil
}
