package fusion

import (
	"github.com/tilefuse/tilefuse/presburger"
)

// outerParallel reports whether the outer member of sched (instances of
// s -> tile coordinates) separates no two instances of s that touch one
// element, one of them writing it: its tiles then run in parallel even
// when the band's members carry dependences (they stay inside a tile).
func (pf *post) outerParallel(s *Space, sched presburger.UnionMap) (bool, error) {
	var outer []presburger.Map
	for _, m := range sched.Maps() {
		n := m.Space().NOut()
		if n == 0 {
			return false, nil
		}
		o, err := m.ProjectOut(presburger.DimOut, 1, n-1)
		if err != nil {
			return false, err
		}
		outer = append(outer, o)
	}
	t0, err := presburger.UnionMapFromMaps(outer...)
	if err != nil {
		return false, err
	}
	inv, err := t0.Reverse()
	if err != nil {
		return false, err
	}
	same, err := t0.ApplyRange(inv) // instance -> instances in its tile
	if err != nil {
		return false, err
	}
	w, err := pf.writes.IntersectDomain(s.domain)
	if err != nil {
		return false, err
	}
	for _, acc := range []presburger.UnionMap{w, pf.reads} {
		a, err := acc.IntersectDomain(s.domain)
		if err != nil {
			return false, err
		}
		back, err := a.Reverse()
		if err != nil {
			return false, err
		}
		touch, err := w.ApplyRange(back) // writer -> instances touching its element
		if err != nil {
			return false, err
		}
		if ok, err := touch.IsSubset(same); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}
