package deps

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// timeline is an original schedule: one map per statement into a common
// time space, whose lexicographic order is program order. It must be
// injective (one instance per time point), as every original schedule is:
// dataflow maps the latest time back to the one instance that ran then.
type timeline struct {
	space  presburger.Space
	sched  map[string]presburger.Map // by domain tuple key
	gt, ge presburger.Map            // { t -> t' : t' <lex t }, { t -> t' : t' <=lex t }
	gtAt   []presburger.Map          // gt split by the level that decides it
	before map[[2]string]presburger.Map
	// earlier caches, by sink tuple key, sink instance -> every earlier
	// time: the part of precedes shared by all sources.
	earlier map[string]presburger.Map
}

func newTimeline(sched presburger.UnionMap) (*timeline, error) {
	tl := &timeline{sched: map[string]presburger.Map{}, before: map[[2]string]presburger.Map{}, earlier: map[string]presburger.Map{}}
	for i, m := range sched.Maps() {
		sp := m.Space()
		if i == 0 {
			tl.space = presburger.SetSpace(nil, sp.Out)
		} else if sp.Out.Key() != tl.space.Out.Key() {
			return nil, fmt.Errorf("deps: schedules map into different time spaces: %s and %s", tl.space, presburger.SetSpace(nil, sp.Out))
		}
		tl.sched[sp.In.Key()] = m
	}
	tl.gt = presburger.LexGT(tl.space)
	tl.ge = presburger.LexGE(tl.space)
	for k := range tl.space.NOut() {
		tl.gtAt = append(tl.gtAt, presburger.LexGTAt(tl.space, k))
	}
	return tl, nil
}

// of returns the schedule of the statement with instance tuple t.
func (tl *timeline) of(t presburger.Tuple) (presburger.Map, error) {
	s, ok := tl.sched[t.Key()]
	if !ok {
		return presburger.Map{}, fmt.Errorf("deps: no schedule for statement %s", t.Name)
	}
	return s, nil
}

// precedes returns { src[i] -> sink[j] : time(src[i]) <lex time(sink[j]) }.
func (tl *timeline) precedes(src, sink presburger.Tuple) (presburger.Map, error) {
	key := [2]string{src.Key(), sink.Key()}
	if m, ok := tl.before[key]; ok {
		return m, nil
	}
	var e errs
	a := e.m(tl.of(src))
	if e.err != nil {
		return presburger.Map{}, e.err
	}
	// sink instance -> its time -> every earlier time -> the source
	// instance that runs then; reversed.
	earlier, ok := tl.earlier[key[1]]
	if !ok {
		earlier = e.m(e.m(tl.of(sink)).ApplyRange(tl.gt))
		if e.err != nil {
			return presburger.Map{}, e.err
		}
		tl.earlier[key[1]] = earlier
	}
	m := e.m(earlier.ApplyRange(e.m(a.Reverse())))
	m = e.m(m.Reverse())
	if e.err != nil {
		return presburger.Map{}, e.err
	}
	tl.before[key] = m
	return m, nil
}

// lastBefore returns, for each key k of cand (k -> candidate source
// times), the latest candidate time strictly before when(k). The levels
// are taken deepest first: a candidate that agrees with when(k) on a
// longer prefix is always later, so each level only fills the keys that
// deeper ones left without a source. This keeps every lexmax over one
// level's conjunctive constraints instead of the whole disjunctive order.
func (tl *timeline) lastBefore(cand, when presburger.Map) (presburger.Map, error) {
	var e errs
	sp := cand.Space()
	res := presburger.EmptyMap(sp)
	covered := presburger.EmptySet(presburger.SetSpace(sp.Params, sp.In))
	for k := len(tl.gtAt) - 1; k >= 0 && e.err == nil; k-- {
		ck := e.m(cand.Intersect(e.m(when.ApplyRange(tl.gtAt[k]))))
		if e.empty(ck.IsEmpty()) {
			continue
		}
		lk := e.m(ck.LexMax())
		dom := e.s(e.s(lk.Domain()).Subtract(covered))
		lk = e.m(lk.IntersectDomain(dom))
		covered = e.s(covered.Union(dom))
		res = e.m(res.Union(lk))
	}
	return res, e.err
}
