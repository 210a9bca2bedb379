package presburger

import "fmt"

// The same columns in another space: a set read as a map (its first
// dimensions the domain) and back, and a parameter set seen in a set space.

// AsMap reads the set's first nIn dimensions as the domain of a map to
// the others (an unnamed tuple each); the columns stay where they are.
func (s Set) AsMap(nIn int) (Map, error) {
	n := s.r.space.NOut()
	if s.r.space.IsMap || s.r.space.IsParams || nIn < 0 || nIn > n {
		return Map{}, fmt.Errorf("presburger: AsMap: cannot split %s after %d dimensions", s.r.space, nIn)
	}
	names := s.r.space.Out.flatNames()
	sp := MapSpace(s.r.space.Params, Tuple{Dims: append([]string(nil), names[:nIn]...)}, Tuple{Dims: append([]string(nil), names[nIn:]...)})
	out := rel{space: sp}
	for _, b := range s.r.parts {
		c := *b
		c.nIn, c.nOut = nIn, n-nIn
		out.parts = append(out.parts, &c)
	}
	return Map{out}, nil
}

// AsSet reads the map as a set of its concatenated input and output
// dimensions (an unnamed flat tuple).
func (m Map) AsSet() Set {
	names := append(append([]string(nil), m.r.space.In.flatNames()...), m.r.space.Out.flatNames()...)
	out := rel{space: SetSpace(m.r.space.Params, Tuple{Dims: names})}
	for _, b := range m.r.parts {
		c := *b
		c.nIn, c.nOut = 0, b.nIn+b.nOut
		out.parts = append(out.parts, &c)
	}
	return Set{out}
}

// InSpace returns the parameter set s as a set of the set space sp whose
// dimensions are unconstrained (parameters aligned to sp's and s's).
func (s Set) InSpace(sp Space) (res Set, err error) {
	defer catch(&err)
	if !s.r.space.IsParams || sp.IsMap || sp.IsParams {
		return Set{}, fmt.Errorf("presburger: InSpace: %s into %s", s.r.space, sp)
	}
	params := alignParams(sp.Params, s.r.space.Params)
	c := s.r.alignTo(params)
	sp = sp.withParams(params)
	np, no := len(params), sp.NOut()
	out := rel{space: sp}
	for _, b := range c.parts {
		out.parts = append(out.parts, b.remap(np, 0, no, seq(0, np)))
	}
	return Set{out}, nil
}
