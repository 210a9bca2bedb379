package deps

import "github.com/tilefuse/tilefuse/presburger"

// errs keeps the first error of a chain of presburger operations, so that
// a formula reads as one expression per line instead of a ladder of
// checks. After an error the remaining operations run on zero values and
// fail fast; only the first error is reported.
type errs struct{ err error }

func (e *errs) keep(err error) {
	if e.err == nil && err != nil {
		e.err = err
	}
}

func (e *errs) m(v presburger.Map, err error) presburger.Map { e.keep(err); return v }

func (e *errs) s(v presburger.Set, err error) presburger.Set { e.keep(err); return v }

func (e *errs) um(v presburger.UnionMap, err error) presburger.UnionMap { e.keep(err); return v }

func (e *errs) us(v presburger.UnionSet, err error) presburger.UnionSet { e.keep(err); return v }

func (e *errs) empty(v bool, err error) bool {
	e.keep(err)
	return v || err != nil
}

func (e *errs) ms(v []presburger.Map, err error) []presburger.Map { e.keep(err); return v }
