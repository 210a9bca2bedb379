package deps

import "github.com/tilefuse/tilefuse/presburger"

// Exposed is what a set of instances S reads from outside itself: its
// upwards-exposed data and the writes outside S that produced it.
//
// A read of S is upwards exposed when the write that defines its value in
// the original program lies outside S, or when no write does (live-in).
// Values S produces itself before reading them are not exposed.
type Exposed struct {
	// Data holds the exposed elements.
	Data presburger.UnionSet
	// Producers holds the instances outside S whose values S reads, and
	// From maps each exposed element to them. With may-writes both
	// include every write that may have produced the value.
	Producers presburger.UnionSet
	From      presburger.UnionMap
	// LiveIn holds the exposed elements that may hold values from before
	// the program.
	LiveIn presburger.UnionSet
}

// UpwardsExposed returns the upwards-exposed data of the instances S and
// their producers. Parameters of S are kept, so a tile can be described
// by its coordinates as parameters. For a two-stage blur
//
//	P[i]: tmp[i] = in[i] + in[i+1] + in[i+2]    0 <= i < N + 2
//	C[i]: out[i] = tmp[i] + tmp[i+1] + tmp[i+2]  0 <= i < N
//
// the tile [o] -> { C[i] : 32o <= i < 32o + 32 } exposes the band
// tmp[a] : 32o <= a < 32o + 34 (within the array), produced by the same
// range of P instances: the instances post-tiling fusion recomputes in
// front of the tile. UpwardsExposedBy answers for all tiles at once.
func (f *Flow) UpwardsExposed(instances presburger.UnionSet) (*Exposed, error) {
	var e errs
	keys := e.us(e.um(f.sink.IntersectDomain(instances)).Wrap())
	from := e.um(f.MayFrom.IntersectDomain(keys))
	from = e.um(from.Subtract(e.um(from.IntersectRange(instances))))
	elemFrom := e.um(from.ApplyDomain(e.um(f.sink.RangeMap())))
	liveIn := e.us(e.um(f.MayNoSource.IntersectDomain(instances)).Range())
	x := &Exposed{
		Data:      e.us(e.us(elemFrom.Domain()).Union(liveIn)),
		Producers: e.us(elemFrom.Range()),
		From:      elemFrom,
		LiveIn:    liveIn,
	}
	return x, e.err
}

// GroupExposed is Exposed for many groups of instances at once, each
// answer a relation from the group's coordinates.
type GroupExposed struct {
	// Data and LiveIn map a group to its exposed elements.
	Data, LiveIn presburger.UnionMap
	// Producers maps a group to the instances outside it whose values it
	// reads. For tiles, this is the extension schedule of post-tiling
	// fusion: the producer instances to run in front of each tile.
	Producers presburger.UnionMap
}

// UpwardsExposedBy is UpwardsExposed for every group of the map group
// (instance -> group coordinates, e.g. S[i] -> [floor(i/32)] for tiles of
// S): a read of group o is exposed when its value is defined outside the
// instances of o (possibly in another group) or before the program.
// Instances in no group are ignored as readers, but produce values.
func (f *Flow) UpwardsExposedBy(group presburger.UnionMap) (*GroupExposed, error) {
	var e errs
	keyGroup := e.um(e.um(f.sink.DomainMap()).ApplyRange(group)) // K -> O
	withGroup := e.um(keyGroup.RangeMap())                       // [K -> O] -> O
	from := e.um(e.um(keyGroup.DomainMap()).ApplyRange(f.MayFrom))
	inside := e.um(withGroup.ApplyRange(e.um(group.Reverse())))
	from = e.um(from.Subtract(inside)) // [K -> O] -> P, P outside O
	elem := e.um(f.sink.RangeMap())    // K -> A
	exposed := e.um(e.us(from.Domain()).Unwrap())
	liveIn := e.um(keyGroup.IntersectDomain(e.us(f.MayNoSource.Wrap())))
	liveIn = e.um(e.um(liveIn.ApplyDomain(elem)).Reverse())
	data := e.um(e.um(exposed.ApplyDomain(elem)).Reverse())
	x := &GroupExposed{
		Data:      e.um(data.Union(liveIn)),
		LiveIn:    liveIn,
		Producers: e.um(from.ApplyDomain(withGroup)),
	}
	return x, e.err
}
