package deps

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Flow is the exact value-based dataflow of a program: for every read,
// the write that defined the value it sees (isl's compute_flow with the
// original schedule). A key of the analysis is a sink access pair
// [T[j] -> A[a]]: instance T[j] reads element A[a].
type Flow struct {
	// Must relates each write to the reads that certainly see its value.
	// May adds the reads that may see it, where may-writes intervene or
	// are the latest; as in isl, May ⊇ Must. Both are source -> sink.
	Must, May presburger.UnionMap
	// MustFrom and MayFrom are Must and May with the element:
	// [T[j] -> A[a]] -> S[i].
	MustFrom, MayFrom presburger.UnionMap
	// MustNoSource holds the reads (T[j] -> A[a]) that no write precedes:
	// they see values from before the program. MayNoSource ⊇ MustNoSource
	// adds those that only may-writes precede.
	MustNoSource, MayNoSource presburger.UnionMap

	sink      presburger.UnionMap
	must, may *sources
	tl        *timeline
	liveOut   []string // nil unless built by Dataflow
}

// Dataflow computes the dataflow of p: the sinks are its reads, the
// sources its writes (must-writes kill earlier values, may-writes do not).
func Dataflow(p *scop.Program) (*Flow, error) {
	var e errs
	sched := e.um(p.Schedule())
	reads := e.um(p.ReadRelation())
	must := e.um(p.MustWriteRelation())
	all := e.um(p.MayWriteRelation())
	if e.err != nil {
		return nil, e.err
	}
	// Only the inexact writes need the may treatment.
	mayOnly := e.um(all.Subtract(must))
	if e.err != nil {
		return nil, e.err
	}
	f, err := ComputeFlow(reads, must, mayOnly, sched)
	if err != nil {
		return nil, err
	}
	f.liveOut = []string{} // known, even when empty
	for _, a := range p.Arrays {
		if a.LiveOut {
			f.liveOut = append(f.liveOut, a.Name)
		}
	}
	return f, nil
}

// ComputeFlow is isl_union_access_info_compute_flow: sink, mustSource and
// maySource are access relations (instance -> element), schedule maps
// every instance into one time space and must be injective. A may-source
// never kills an earlier value; a source given as both must and may acts
// as a must-source.
func ComputeFlow(sink, mustSource, maySource, schedule presburger.UnionMap) (*Flow, error) {
	tl, err := newTimeline(schedule)
	if err != nil {
		return nil, err
	}
	f := &Flow{sink: sink, tl: tl}
	if f.must, err = tl.sources(mustSource); err != nil {
		return nil, err
	}
	if f.may, err = tl.sources(maySource); err != nil {
		return nil, err
	}
	// The answer for a read depends only on the read: the disjuncts
	// (usually one per reference) are analysed apart, which keeps each
	// lexmax over few pieces, and in parallel.
	var pieces []presburger.Map
	for _, m := range sink.Maps() {
		pieces = append(pieces, m.Basics()...)
	}
	parts := make([]results, len(pieces))
	err = forEach(len(pieces), func(i int) error {
		if err := f.sinkFlow(pieces[i], &parts[i]); err != nil {
			return fmt.Errorf("deps: dataflow to %s: %w", pieces[i].Space(), err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var res results
	for _, p := range parts {
		res.mustFrom = append(res.mustFrom, p.mustFrom...)
		res.mayFrom = append(res.mayFrom, p.mayFrom...)
		res.mustNo = append(res.mustNo, p.mustNo...)
		res.mayNo = append(res.mayNo, p.mayNo...)
	}
	// Coalescing keeps the level-by-level pieces from piling up in what
	// the scheduler and fusion read.
	var e errs
	union := func(maps []presburger.Map) presburger.UnionMap {
		return e.um(e.um(presburger.UnionMapFromMaps(maps...)).Coalesce())
	}
	// Without may-sources the may answers are the must answers, computed
	// the same way: identical pieces give identical unions, made once.
	f.MustFrom, f.MustNoSource = union(res.mustFrom), union(res.mustNo)
	f.MayFrom, f.MayNoSource = f.MustFrom, f.MustNoSource
	if !identical(res.mayFrom, res.mustFrom) {
		f.MayFrom = union(res.mayFrom)
	}
	if !identical(res.mayNo, res.mustNo) {
		f.MayNoSource = union(res.mayNo)
	}
	keyToInstance := e.um(sink.DomainMap())
	f.Must = e.um(e.um(e.um(f.MustFrom.ApplyDomain(keyToInstance)).Reverse()).Coalesce())
	f.May = f.Must
	if !identical(res.mayFrom, res.mustFrom) {
		f.May = e.um(e.um(e.um(f.MayFrom.ApplyDomain(keyToInstance)).Reverse()).Coalesce())
	}
	return f, e.err
}

// identical reports whether a and b are the same maps, representation
// included (presburger.Map.Identical).
func identical(a, b []presburger.Map) bool {
	return slices.EqualFunc(a, b, presburger.Map.Identical)
}

// onceFastPath takes single-assignment arrays' sources without a lexmax
// (tests compare both ways).
var onceFastPath = true

// sources is a set of write accesses, also seen from the time space.
type sources struct {
	acc    []presburger.Map          // S[i] -> A[a], one per statement and array
	back   []presburger.Map          // acc[k]'s writer: time -> instance
	timed  []presburger.Map          // acc[k] from the time space: [t] -> A[a]
	inTime map[string]presburger.Map // array key -> { [t] -> A[a] }
	// near[key] finds the writes to the array whose elements may be
	// those of a read: a read's candidate sources are only those.
	near map[string]*footIndex
	// once[key]: no element of the array is written at two times (a
	// single-assignment array, as every image of a pipeline is).
	once map[string]bool
}

func (tl *timeline) sources(u presburger.UnionMap) (*sources, error) {
	s := &sources{inTime: map[string]presburger.Map{}, near: map[string]*footIndex{}}
	var e errs
	byArray := map[string][]int{}
	var fp []footprint
	var fpOk []bool
	for k, m := range u.Maps() {
		s.acc = append(s.acc, m)
		sched := e.m(tl.of(m.Space().In))
		s.back = append(s.back, e.m(e.m(sched.IntersectDomain(e.s(m.Domain()))).Reverse()))
		t := e.m(m.ApplyDomain(e.m(tl.of(m.Space().In))))
		s.timed = append(s.timed, t)
		key := m.Space().Out.Key()
		byArray[key] = append(byArray[key], k)
		f, ok := boxOf(m)
		fp, fpOk = append(fp, f), append(fpOk, ok)
	}
	s.once = map[string]bool{}
	for key, ks := range byArray {
		s.inTime[key] = e.m(unionAll(s.timed, ks))
		x := newFootIndex(ks, fp, fpOk)
		s.near[key] = x
		// [t] -> [t'] writing one element: only t = t' when the array is
		// written once per element. Writes with disjoint footprints
		// never write one element.
		once := true
		for _, k := range ks {
			if !once || e.err != nil {
				break
			}
			for _, l := range x.near(fp[k], fpOk[k]) {
				same := e.m(s.timed[k].ApplyRange(e.m(s.timed[l].Reverse())))
				id := e.m(e.s(same.Domain()).Identity())
				if e.err != nil {
					break
				}
				ok, err := same.IsSubset(id)
				if err != nil {
					return nil, err
				}
				if !ok {
					once = false
					break
				}
			}
		}
		s.once[key] = once
	}
	return s, e.err
}

// writersNear returns the writes to array (a tuple key) whose elements
// may be read by r, and their union from the time space (ok false when
// there are none).
func (s *sources) writersNear(array string, r presburger.Map) (ks []int, wt presburger.Map, ok bool, err error) {
	x, found := s.near[array]
	if !found {
		return nil, presburger.Map{}, false, nil
	}
	ks = x.near(boxOf(r))
	if len(ks) == 0 {
		return nil, presburger.Map{}, false, nil
	}
	if len(ks) == len(x.all) {
		return ks, s.inTime[array], true, nil
	}
	wt, err = unionAll(s.timed, ks)
	return ks, wt, err == nil, err
}

// unionAll returns the union of ms[k] for k in ks (not empty), pairwise
// in halves: a chain of unions would copy the growing result each time.
func unionAll(ms []presburger.Map, ks []int) (presburger.Map, error) {
	if len(ks) == 1 {
		return ms[ks[0]], nil
	}
	a, err := unionAll(ms, ks[:len(ks)/2])
	if err != nil {
		return a, err
	}
	b, err := unionAll(ms, ks[len(ks)/2:])
	if err != nil {
		return b, err
	}
	return a.Union(b)
}

// results collects the per-key answers of every sink.
type results struct {
	mustFrom, mayFrom []presburger.Map // key -> source instance
	mustNo, mayNo     []presburger.Map // unwrapped keys
}

// sinkFlow finds the sources of the sink access r: T[j] -> A[a].
func (f *Flow) sinkFlow(r presburger.Map, res *results) error {
	var e errs
	sched := e.m(f.tl.of(r.Space().In))
	when := e.m(e.m(r.DomainMap()).ApplyRange(sched))
	elem := e.m(r.RangeMap())
	if e.err != nil {
		return e.err
	}
	array := r.Space().Out.Key()
	mustLast := presburger.EmptyMap(when.Space())
	mustKs, wt, ok, err := f.must.writersNear(array, r)
	e.keep(err)
	if ok {
		cand := e.m(elem.ApplyRange(e.m(wt.Reverse())))
		if f.must.once[array] && onceFastPath {
			// One write per element: the candidate is the only one, and
			// the last before the read when it is before at all.
			mustLast = e.m(cand.Intersect(e.m(when.ApplyRange(f.tl.gt))))
		} else {
			mustLast = e.m(f.tl.lastBefore(cand, when))
		}
	}
	mayAfter := presburger.EmptyMap(when.Space())
	mayKs, wt, ok, err := f.may.writersNear(array, r)
	e.keep(err)
	if ok {
		cand := e.m(elem.ApplyRange(e.m(wt.Reverse())))
		cand = e.m(cand.Intersect(e.m(when.ApplyRange(f.tl.gt))))
		mayAfter = e.m(cand.Subtract(e.m(mustLast.ApplyRange(f.tl.ge))))
	}
	if e.err != nil {
		return e.err
	}
	// No must-source: the value may be older than the program; neither
	// kind of source: it is.
	mayNo := e.s(e.s(r.Wrap()).Subtract(e.s(mustLast.Domain())))
	mustNo := e.s(mayNo.Subtract(e.s(mayAfter.Domain())))
	res.mustNo = append(res.mustNo, e.m(mustNo.Unwrap()))
	res.mayNo = append(res.mayNo, e.m(mayNo.Unwrap()))
	if e.err != nil {
		return e.err
	}
	return f.resolve(mustLast, mayAfter, mustKs, mayKs, res)
}

// resolve turns the latest must-source time and the later may-source
// times of each key into source instances, among the must-writes mustKs
// and the may-writes mayKs (positions in f.must.acc and f.may.acc).
func (f *Flow) resolve(mustLast, mayAfter presburger.Map, mustKs, mayKs []int, res *results) error {
	var e errs
	mustDom, mayDom := e.s(mustLast.Domain()), e.s(mayAfter.Domain())
	// A must-source followed by a may-source may be overwritten.
	certain := e.m(mustLast.IntersectDomain(e.s(mustDom.Subtract(mayDom))))
	from := e.ms(f.tl.instances(certain, mustKs, f.must))
	res.mustFrom = append(res.mustFrom, from...)
	if !certain.Identical(mustLast) {
		from = e.ms(f.tl.instances(mustLast, mustKs, f.must))
	}
	res.mayFrom = append(res.mayFrom, from...)
	res.mayFrom = append(res.mayFrom, e.ms(f.tl.instances(mayAfter, mayKs, f.may))...)
	return e.err
}

// instances maps key -> time to key -> the source instance that ran at
// that time, over the sources at positions ks of src.acc (ascending).
func (tl *timeline) instances(last presburger.Map, ks []int, src *sources) ([]presburger.Map, error) {
	var out []presburger.Map
	var e errs
	if e.empty(last.IsEmpty()) {
		return nil, e.err
	}
	for _, i := range ks {
		m := e.m(last.ApplyRange(src.back[i]))
		if !e.empty(m.IsEmpty()) {
			out = append(out, m)
		}
	}
	return out, e.err
}
