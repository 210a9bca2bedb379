package delicm

import (
	"slices"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// sameDataflow reports whether q, p with the accesses to scalar w of the
// statements named renamed made accesses to an element, has p's
// dataflow up to the renaming: every read sees the same write instance
// (or the same value from before the program), and every live-out
// element has the same last write. A read is keyed by its instance and
// element ([S[x] -> A[a]]); a renamed read's key [S[x] -> w[]] becomes
// [S[x] -> A[g(x)]].
func sameDataflow(p, q *scop.Program, pf, qf *deps.Flow, w string, renamed []string) (bool, error) {
	var oldReads, newReads []presburger.Map
	for i, s := range p.Stmts {
		if !slices.Contains(renamed, s.Name) {
			continue
		}
		for k, r := range s.Reads {
			if r.Array == w {
				oldReads = append(oldReads, r.Rel)
				newReads = append(newReads, q.Stmts[i].Reads[k].Rel)
			}
		}
	}
	var e errs
	oldU := e.um(presburger.UnionMapFromMaps(oldReads...))
	newU := e.um(presburger.UnionMapFromMaps(newReads...))
	keys := e.us(oldU.Wrap())
	// [S[x] -> w[]] -> S[x] -> [S[x] -> A[g(x)]]
	rekey := e.um(e.um(oldU.DomainMap()).ApplyRange(e.um(e.um(newU.DomainMap()).Reverse())))
	if e.err != nil {
		return false, e.err
	}
	for _, pair := range [][2]presburger.UnionMap{{pf.MustFrom, qf.MustFrom}, {pf.MayFrom, qf.MayFrom}} {
		moved := e.um(pair[0].IntersectDomain(keys))
		want := e.um(e.um(pair[0].Subtract(moved)).Union(e.um(moved.ApplyDomain(rekey))))
		if e.err != nil || !e.equal(want, pair[1]) {
			return false, e.err
		}
	}
	for _, pair := range [][2]presburger.UnionMap{{pf.MustNoSource, qf.MustNoSource}, {pf.MayNoSource, qf.MayNoSource}} {
		// A renamed read that saw a value from before the program would
		// see the element's instead.
		if !e.empty(pair[0].Intersect(oldU)) || !e.equal(pair[0], pair[1]) {
			return false, e.err
		}
	}
	pl, err := pf.LiveOut()
	if err != nil {
		return false, err
	}
	ql, err := qf.LiveOut()
	if err != nil {
		return false, err
	}
	return e.equal(pl.Must, ql.Must) && e.equal(pl.May, ql.May), e.err
}

// errs keeps the first error of a chain of presburger operations.
type errs struct{ err error }

func (e *errs) keep(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *errs) um(v presburger.UnionMap, err error) presburger.UnionMap { e.keep(err); return v }
func (e *errs) us(v presburger.UnionSet, err error) presburger.UnionSet { e.keep(err); return v }

// equal and empty are false once an error is kept.
func (e *errs) equal(a, b presburger.UnionMap) bool {
	if e.err != nil {
		return false
	}
	ok, err := a.IsEqual(b)
	e.keep(err)
	return ok && err == nil
}

func (e *errs) empty(v presburger.UnionMap, err error) bool {
	e.keep(err)
	if e.err != nil {
		return false
	}
	ok, err := v.IsEmpty()
	e.keep(err)
	return ok && err == nil
}
