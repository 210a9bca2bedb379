package scheduletree

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// opError carries a presburger error out of a chain of operations; exported
// functions recover it with catch. It keeps the set algebra readable.
type opError struct{ err error }

func must[T any](v T, err error) T {
	if err != nil {
		panic(opError{err})
	}
	return v
}

func catch(err *error) {
	if r := recover(); r != nil {
		oe, ok := r.(opError)
		if !ok {
			panic(r)
		}
		*err = oe.err
	}
}

// universe returns the union of the universes of the spaces of s, without
// parameters (a universe constrains none). Spaces where s is empty are
// left out, as isl's unions drop empty parts.
func universe(s presburger.UnionSet) presburger.UnionSet {
	var sets []presburger.Set
	for _, x := range s.Sets() {
		if !must(x.IsEmpty()) {
			sets = append(sets, presburger.UniverseSet(presburger.SetSpace(nil, x.Space().Out)))
		}
	}
	return unionSet(sets)
}

func unionSet(sets []presburger.Set) presburger.UnionSet {
	return must(presburger.UnionSetFromSets(sets...))
}

func unionMap(maps []presburger.Map) presburger.UnionMap {
	return must(presburger.UnionMapFromMaps(maps...))
}

// fromDomain returns { x -> [] : x in s } (isl_union_map_from_domain).
func fromDomain(s presburger.UnionSet) presburger.UnionMap {
	var maps []presburger.Map
	for _, x := range s.Sets() {
		sp := x.Space()
		m := presburger.UniverseMap(presburger.MapSpace(sp.Params, sp.Out, presburger.Tuple{}))
		maps = append(maps, must(m.IntersectDomain(x)))
	}
	return unionMap(maps)
}

// constOn returns { x -> vals : x in s }.
func constOn(s presburger.UnionSet, vals ...int64) presburger.UnionMap {
	return appendConst(fromDomain(s), vals...)
}

// appendConst appends output dimensions fixed to vals to every map of m.
func appendConst(m presburger.UnionMap, vals ...int64) presburger.UnionMap {
	if len(vals) == 0 {
		return m
	}
	var maps []presburger.Map
	for _, x := range m.Maps() {
		n := x.Space().NOut()
		x = must(x.InsertDims(presburger.DimOut, n, len(vals)))
		for i, v := range vals {
			x = must(x.FixDim(presburger.DimOut, n+i, v))
		}
		maps = append(maps, x)
	}
	return unionMap(maps)
}

// flatRangeProduct returns x -> [a, b] for x -> a in m and x -> b in n,
// over the statements in both (isl_union_map_flat_range_product).
func flatRangeProduct(m, n presburger.UnionMap) presburger.UnionMap {
	var maps []presburger.Map
	for _, a := range m.Maps() {
		for _, b := range n.Maps() {
			if a.Space().In.Key() != b.Space().In.Key() {
				continue
			}
			na, nb := a.Space().NOut(), b.Space().NOut()
			a2 := must(a.InsertDims(presburger.DimOut, na, nb))
			b2 := must(b.InsertDims(presburger.DimOut, 0, na))
			p := must(unionMap([]presburger.Map{a2}).Intersect(unionMap([]presburger.Map{b2})))
			maps = append(maps, p.Maps()...)
		}
	}
	return unionMap(maps)
}

// rangeDim returns the output dimension of the maps of m (all equal in a
// schedule), 0 for an empty union.
func rangeDim(m presburger.UnionMap) int {
	if ms := m.Maps(); len(ms) > 0 {
		return ms[0].Space().NOut()
	}
	return 0
}

// names writes "p0, p1, ..." with n names.
func names(prefix string, n int) string {
	list := make([]string, n)
	for i := range list {
		list[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return strings.Join(list, ", ")
}

// tuple writes "[p0, p1, ...]" with n names.
func tuple(prefix string, n int) string { return "[" + names(prefix, n) + "]" }

// applyText applies the map written in isl notation to the range of m.
func applyText(m presburger.UnionMap, text string) presburger.UnionMap {
	f := must(presburger.ParseUnionMap(text))
	return must(m.ApplyRange(f))
}

// isEmpty reports whether m is empty for all parameter values.
func isEmpty(m presburger.UnionMap) bool { return must(m.IsEmpty()) }

// emptyUnionMap returns an empty union map.
func emptyUnionMap() presburger.UnionMap { return unionMap(nil) }
