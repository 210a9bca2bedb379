package presburger

// Set is a finite union of basic sets in one space: integer tuples satisfying
// Presburger formulas over parameters, as isl_set. Sets are immutable values;
// every operation returns a new Set. Operations that can overflow int64 or
// exceed the operation budget return an error instead of a wrong result.
type Set struct{ r rel }

// Map is a finite union of basic relations between two tuples (isl_map).
type Map struct{ r rel }

// EmptySet returns the empty set of space sp.
func EmptySet(sp Space) Set { return Set{emptyRel(sp)} }

// UniverseSet returns all integer points of space sp.
func UniverseSet(sp Space) Set { return Set{universeRel(sp)} }

// Space returns the set's space.
func (s Set) Space() Space { return s.r.space }

// String prints the set in isl notation.
func (s Set) String() string { return s.r.String() }

// NumBasic returns the number of disjuncts in the representation.
func (s Set) NumBasic() int { return len(s.r.parts) }

func (s Set) sameKind(op string, t Set) {
	if s.r.space.IsMap || t.r.space.IsMap {
		spaceError(op, s.r.space, t.r.space)
	}
}

// Intersect returns s ∩ t.
func (s Set) Intersect(t Set) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).intersect(t.r.with(bud))}, nil
}

// Union returns s ∪ t.
func (s Set) Union(t Set) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).union(t.r.with(bud))}, nil
}

// Subtract returns s \ t.
func (s Set) Subtract(t Set) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).subtract(t.r.with(bud))}, nil
}

// Complement returns the points of s's space not in s.
func (s Set) Complement() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).complement()}, nil
}

// IsEmpty reports whether s has no integer point (for any parameter value).
func (s Set) IsEmpty() (empty bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.r.with(bud).isEmpty(), nil
}

// IsSubset reports whether s ⊆ t.
func (s Set) IsSubset(t Set) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.r.with(bud).isSubset(t.r.with(bud)), nil
}

// IsEqual reports whether s and t contain the same points.
func (s Set) IsEqual(t Set) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.r.with(bud).isEqual(t.r.with(bud)), nil
}

// Sample returns a set holding one point of s (parameters fixed too), or
// the empty set when s is empty.
func (s Set) Sample() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).sample()}, nil
}

// SamplePoint returns one point of s as [params..., dims...], or ok=false.
func (s Set) SamplePoint() (pt []int64, ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	for _, b := range s.r.with(bud).parts {
		if p := b.sample(); p != nil {
			return p[1 : 1+b.nVar()], true, nil
		}
	}
	return nil, false, nil
}

// Contains reports whether the point [params..., dims...] lies in s.
func (s Set) Contains(pt []int64) (ok bool, err error) {
	defer catch(&err)
	bud := newBudget()
	return s.r.with(bud).contains(pt), nil
}

// Params returns the parameter values for which s is non-empty.
func (s Set) Params() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).params()}, nil
}

// Apply returns the image of s under m.
func (s Set) Apply(m Map) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).apply(m.r.with(bud))}, nil
}

// Identity returns the map x -> x for x in s.
func (s Set) Identity() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{s.r.with(bud).identity()}, nil
}

// Unwrap turns a set of wrapped pairs [A -> B] into the map A -> B.
func (s Set) Unwrap() (res Map, err error) {
	defer catch(&err)
	bud := newBudget()
	return Map{s.r.with(bud).unwrap()}, nil
}

// Product returns the set [A -> B] of pairs of points of s (A) and t (B).
func (s Set) Product(t Set) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).setProduct(t.r.with(bud))}, nil
}

// ProjectOut existentially quantifies n set dimensions starting at first.
func (s Set) ProjectOut(first, n int) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).projectOut(dimOut, first, n)}, nil
}

// Eliminate removes all constraints on n set dimensions starting at first,
// keeping the dimensions (isl_set_eliminate).
func (s Set) Eliminate(first, n int) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).eliminate(dimOut, first, n)}, nil
}

// InsertDims inserts n unconstrained set dimensions at position pos.
func (s Set) InsertDims(pos, n int) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).insertDims(dimOut, pos, n)}, nil
}

// MoveDims moves n set dimensions from src to position dst (after removal).
func (s Set) MoveDims(dst, src, n int) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).moveDims(dimOut, dst, src, n)}, nil
}

// FixDim constrains set dimension pos to equal val.
func (s Set) FixDim(pos int, val int64) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).fixDim(dimOut, pos, val)}, nil
}

// LowerBound constrains set dimension pos to be at least val.
func (s Set) LowerBound(pos int, val int64) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).lowerBound(dimOut, pos, val)}, nil
}

// UpperBound constrains set dimension pos to be at most val.
func (s Set) UpperBound(pos int, val int64) (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).upperBound(dimOut, pos, val)}, nil
}

// Simplify removes redundant constraints, detects implicit equalities and
// drops empty disjuncts (rationally); the set is unchanged.
func (s Set) Simplify() (res Set, err error) {
	defer catch(&err)
	bud := newBudget()
	return Set{s.r.with(bud).reduceAll()}, nil
}
