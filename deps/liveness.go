package deps

import (
	"errors"
	"maps"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
)

// LiveIn returns the array elements the program may read before writing
// them: the values it needs from outside.
func (f *Flow) LiveIn() (presburger.UnionSet, error) { return f.MayNoSource.Range() }

// LastWrites are the writes whose values remain when the program ends.
type LastWrites struct {
	// Must maps each certainly final write instance to the element it
	// writes; May ⊇ Must adds may-writes after the last must-write, and
	// the must-writes they may overwrite.
	Must, May presburger.UnionMap
}

// LastWrites returns, for every element of the named arrays (all written
// arrays when none is named), the last write to it in the original
// schedule.
func (f *Flow) LastWrites(arrays ...string) (*LastWrites, error) {
	return f.lastWrites(func(name string) bool { return len(arrays) == 0 || slices.Contains(arrays, name) })
}

// LiveOut returns the last writes to the arrays the program marks
// live-out: the values it leaves behind.
func (f *Flow) LiveOut() (*LastWrites, error) {
	if f.liveOut == nil {
		return nil, errors.New("deps: LiveOut needs a Flow built by Dataflow")
	}
	return f.lastWrites(func(name string) bool { return slices.Contains(f.liveOut, name) })
}

func (f *Flow) lastWrites(want func(array string) bool) (*LastWrites, error) {
	keys := map[string]presburger.Space{} // array key -> array -> time space
	for _, src := range []*sources{f.must, f.may} {
		for key, m := range src.inTime {
			if sp := m.Space(); want(sp.Out.Name) {
				keys[key] = presburger.MapSpace(sp.Params, sp.Out, sp.In)
			}
		}
	}
	var res results
	var e errs
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		mustLast, mayAfter := presburger.EmptyMap(keys[key]), presburger.EmptyMap(keys[key])
		if wt, ok := f.must.inTime[key]; ok {
			mustLast = e.m(e.m(wt.Reverse()).LexMax())
		}
		if wt, ok := f.may.inTime[key]; ok {
			mayAfter = e.m(e.m(wt.Reverse()).Subtract(e.m(mustLast.ApplyRange(f.tl.ge))))
		}
		if e.err == nil {
			e.keep(f.resolve(mustLast, mayAfter, f.must.writers(key), f.may.writers(key), &res))
		}
	}
	writes := func(from []presburger.Map) presburger.UnionMap {
		m := e.um(presburger.UnionMapFromMaps(from...))
		return e.um(e.um(m.Reverse()).Coalesce())
	}
	return &LastWrites{Must: writes(res.mustFrom), May: writes(res.mayFrom)}, e.err
}

// writers returns the positions of every write to array (a tuple key).
func (s *sources) writers(array string) []int {
	if x, ok := s.near[array]; ok {
		return x.all
	}
	return nil
}
