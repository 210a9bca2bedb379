package presburger

// EmptyMap returns the empty map of space sp.
func EmptyMap(sp Space) Map { return Map{emptyRel(sp)} }

// UniverseMap returns the map relating every pair of points of sp.
func UniverseMap(sp Space) Map { return Map{universeRel(sp)} }

// Space returns the map's space.
func (m Map) Space() Space { return m.r.space }

// String prints the map in isl notation.
func (m Map) String() string { return m.r.String() }

// NumBasic returns the number of disjuncts in the representation.
func (m Map) NumBasic() int { return len(m.r.parts) }

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

// Intersect returns m ∩ n.
func (m Map) Intersect(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).intersect(n.r.with(bud))}, nil
}

// Union returns m ∪ n.
func (m Map) Union(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).union(n.r.with(bud))}, nil
}

// Subtract returns m \ n.
func (m Map) Subtract(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).subtract(n.r.with(bud))}, nil
}

// Complement returns the pairs of m's space not in m.
func (m Map) Complement() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).complement()}, nil
}

// IsEmpty reports whether m relates no pair of integer points.
func (m Map) IsEmpty() (empty bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.r.with(bud).isEmpty(), nil
}

// IsSubset reports whether m ⊆ n.
func (m Map) IsSubset(n Map) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.r.with(bud).isSubset(n.r.with(bud)), nil
}

// IsEqual reports whether m and n relate the same pairs.
func (m Map) IsEqual(n Map) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.r.with(bud).isEqual(n.r.with(bud)), nil
}

// Sample returns a map holding one pair of m, or the empty map.
func (m Map) Sample() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).sample()}, nil
}

// Contains reports whether the point [params..., in..., out...] lies in m.
func (m Map) Contains(pt []int64) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return m.r.with(bud).contains(pt), nil
}

// Reverse returns the map y -> x for x -> y in m.
func (m Map) Reverse() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).reverse()}, nil
}

// Domain returns the points with an image under m.
func (m Map) Domain() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{m.r.with(bud).domain()}, nil
}

// Range returns the images of m.
func (m Map) Range() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{m.r.with(bud).rangeSet()}, nil
}

// Params returns the parameter values for which m is non-empty.
func (m Map) Params() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{m.r.with(bud).params()}, nil
}

// ApplyRange returns x -> z for x -> y in m and y -> z in n (n after m).
func (m Map) ApplyRange(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).applyRange(n.r.with(bud))}, nil
}

// ApplyDomain returns z -> y for x -> y in m and x -> z in n.
func (m Map) ApplyDomain(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{n.r.with(bud).reverse().applyRange(m.r.with(bud))}, nil
}

// IntersectDomain restricts m to inputs in s.
func (m Map) IntersectDomain(s Set) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).intersectDomain(s.r.with(bud))}, nil
}

// IntersectRange restricts m to outputs in s.
func (m Map) IntersectRange(s Set) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).intersectRange(s.r.with(bud))}, nil
}

// Deltas returns { y - x : x -> y in m }; the tuples must have equal size.
func (m Map) Deltas() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{m.r.with(bud).deltas()}, nil
}

// Wrap returns the set [A -> B] of the pairs of m.
func (m Map) Wrap() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{m.r.with(bud).wrap()}, nil
}

// Product returns [A -> C] -> [B -> D] for m: A -> B and n: C -> D.
func (m Map) Product(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).product(n.r.with(bud))}, nil
}

// RangeProduct returns A -> [B -> C] for m: A -> B and n: A -> C.
func (m Map) RangeProduct(n Map) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).rangeProduct(n.r.with(bud))}, nil
}

// ProjectOut existentially quantifies n dimensions of kind k from first.
func (m Map) ProjectOut(k DimKind, first, n int) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).projectOut(k, first, n)}, nil
}

// InsertDims inserts n unconstrained dimensions of kind k at pos.
func (m Map) InsertDims(k DimKind, pos, n int) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).insertDims(k, pos, n)}, nil
}

// FixDim constrains dimension pos of kind k to equal val.
func (m Map) FixDim(k DimKind, pos int, val int64) (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).fixDim(k, pos, val)}, nil
}

// Simplify removes redundant constraints and detects implicit equalities.
func (m Map) Simplify() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{m.r.with(bud).reduceAll()}, nil
}
