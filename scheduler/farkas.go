package scheduler

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// maxCoef bounds the entries of a coefficient set the scheduler accepts.
const maxCoef = 1 << 24

// coneOf returns the Farkas coefficient set of an edge's dependence
// polyhedron, computed once per edge. Each row h of it says, for an affine
// form f(s, t) = f0 + fp·params + fs·s + ft·t, that
// h·(f0, fp, fs, ft) >= 0 (or = 0) is required for f to be non-negative on
// the polyhedron; together the rows are exactly the forms that are. The
// polyhedron is the rational relaxation of the dependence with its
// existentials projected out rationally, which is larger, so a form
// accepted here is non-negative on every dependent pair (the multipliers
// are eliminated over the rationals, never by integer projection, which
// would wrongly exclude valid forms).
func (s *scheduler) coneOf(e *edge) (*cone, error) {
	if e.cone != nil {
		return e.cone, nil
	}
	coef, err := e.rel.CoefficientsWithin(&s.work)
	s.checkWork()
	if err != nil {
		return nil, fmt.Errorf("scheduler: Farkas coefficients of %s -> %s: %w", e.rel.Space().In.Name, e.rel.Space().Out.Name, err)
	}
	c := &cone{}
	for _, b := range coef.Constraints() {
		if b.NLocal > 0 {
			return nil, fmt.Errorf("scheduler: coefficient set with existentials")
		}
		c.eqs = append(c.eqs, b.Eqs...)
		c.ineqs = append(c.ineqs, b.Ineqs...)
	}
	// The integer programs multiply these rows by small coefficients and
	// add them up in int64: keep far from overflow.
	for _, rows := range [][][]int64{c.eqs, c.ineqs} {
		for _, r := range rows {
			for _, v := range r {
				if v > maxCoef || v < -maxCoef {
					return nil, fmt.Errorf("scheduler: Farkas coefficient %d: %w", v, presburger.ErrOverflow)
				}
			}
		}
	}
	e.cone = c
	return c, nil
}
