package presburger

import "slices"

// Identical reports whether m and n have the same representation: the
// same space, names included, and the same disjuncts with the same
// constraints and locals in the same order. Every operation is a
// function of the representation, so it gives identical results on
// identical arguments: callers may reuse a result instead of computing
// it again. (Equal maps may well not be identical; see IsEqual.)
func (m Map) Identical(n Map) bool { return m.r.identical(n.r) }

// Identical reports whether s and t have the same representation; see
// Map.Identical.
func (s Set) Identical(t Set) bool { return s.r.identical(t.r) }

func (r rel) identical(s rel) bool {
	return r.space.identical(s.space) && slices.EqualFunc(r.parts, s.parts, (*basic).identical)
}

func (s Space) identical(t Space) bool {
	return s.IsMap == t.IsMap && s.IsParams == t.IsParams && slices.Equal(s.Params, t.Params) &&
		s.In.identical(t.In) && s.Out.identical(t.Out)
}

func (t Tuple) identical(u Tuple) bool {
	if t.Name != u.Name || !slices.Equal(t.Dims, u.Dims) || (t.Nest == nil) != (u.Nest == nil) {
		return false
	}
	return t.Nest == nil || t.Nest[0].identical(u.Nest[0]) && t.Nest[1].identical(u.Nest[1])
}

func (b *basic) identical(c *basic) bool {
	if b == c {
		return true
	}
	if b.nParam != c.nParam || b.nIn != c.nIn || b.nOut != c.nOut || b.empty != c.empty ||
		!slices.EqualFunc(b.divs, c.divs, func(x, y div) bool { return x.den == y.den && slices.Equal(x.num, y.num) }) {
		return false
	}
	return slices.EqualFunc(b.eqs, c.eqs, slices.Equal) && slices.EqualFunc(b.ineqs, c.ineqs, slices.Equal)
}
