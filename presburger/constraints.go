package presburger

import "fmt"

// The constraints of a basic set or map as integer rows, and sets and maps
// built from rows: how an affine scheduler (package scheduler) states its
// problems to the library.

// Constraints is one basic set or map as integer rows over the columns
// [1, params, in, out, locals] (NIn is 0 for a set): an equality row r
// means r·(1, x) = 0 and an inequality row r·(1, x) >= 0. The definitions
// of the locals (floor divisions) are included as inequalities, so the rows
// alone describe the basic set, with the locals existentially quantified.
type Constraints struct {
	NParam, NIn, NOut, NLocal int
	Eqs, Ineqs                [][]int64
}

// Constraints returns the rows of every non-empty basic set of s.
func (s Set) Constraints() []Constraints { return s.r.constraints() }

// Constraints returns the rows of every non-empty basic map of m.
func (m Map) Constraints() []Constraints { return m.r.constraints() }

func (r rel) constraints() []Constraints {
	var out []Constraints
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		eqs, ineqs := b.system()
		out = append(out, Constraints{
			NParam: b.nParam, NIn: b.nIn, NOut: b.nOut, NLocal: len(b.divs),
			Eqs: copyRows(eqs), Ineqs: copyRows(ineqs),
		})
	}
	return out
}

// SetFromConstraints returns the basic set of sp given by rows over
// [1, params, dims] (no locals).
func SetFromConstraints(sp Space, eqs, ineqs [][]int64) (Set, error) {
	if sp.IsMap || sp.IsParams {
		return Set{}, fmt.Errorf("presburger: SetFromConstraints: %s is not a set space", sp)
	}
	r, err := relFromRows(sp, eqs, ineqs)
	return Set{r}, err
}

// MapFromConstraints returns the basic map of sp given by rows over
// [1, params, in, out] (no locals).
func MapFromConstraints(sp Space, eqs, ineqs [][]int64) (Map, error) {
	if !sp.IsMap {
		return Map{}, fmt.Errorf("presburger: MapFromConstraints: %s is not a map space", sp)
	}
	r, err := relFromRows(sp, eqs, ineqs)
	return Map{r}, err
}

func relFromRows(sp Space, eqs, ineqs [][]int64) (res rel, err error) {
	defer catch(&err)
	b := newUniverse(sp.NParam(), sp.NIn(), sp.NOut())
	for _, rows := range [][][]int64{eqs, ineqs} {
		for _, row := range rows {
			if len(row) != b.nCol() {
				return rel{}, fmt.Errorf("presburger: constraint row of length %d in %s, want %d", len(row), sp, b.nCol())
			}
		}
	}
	b.eqs, b.ineqs = copyRows(eqs), copyRows(ineqs)
	return relFromBasic(sp, b.simplify()), nil
}
