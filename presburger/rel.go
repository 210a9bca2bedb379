package presburger

// rel is a union of basics in one space: the shared implementation of Set
// and Map. Internal operations panic with arith.Overflow (or
// simplex.BudgetExceeded); exported methods recover these into errors.
type rel struct {
	space Space
	parts []*basic
}

func emptyRel(sp Space) rel { return rel{space: sp} }

func universeRel(sp Space) rel {
	return rel{space: sp, parts: []*basic{newUniverse(sp.NParam(), sp.NIn(), sp.NOut())}}
}

func relFromBasic(sp Space, b *basic) rel {
	if b.empty {
		return emptyRel(sp)
	}
	return rel{space: sp, parts: []*basic{b}}
}

func (r rel) clone() rel {
	c := rel{space: r.space, parts: make([]*basic, len(r.parts))}
	for i, b := range r.parts {
		c.parts[i] = b.clone()
	}
	return c
}
