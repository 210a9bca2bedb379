package presburger

import (
	"sort"
	"strings"
)

// UnionSet is a union of sets in different spaces, keyed by tuple (isl_union_set).
type UnionSet struct{ u union }

// UnionMap is a union of maps in different spaces (isl_union_map).
type UnionMap struct{ u union }

// union holds one rel per space, sorted by key, all over the same parameters.
type union struct {
	params []string
	rels   []rel
}

// newUnion groups rels by space, unions those of the same space and aligns
// all of them to a common parameter list.
func newUnion(params []string, rels []rel) union {
	for _, r := range rels {
		params = alignParams(params, r.space.Params)
	}
	byKey := map[string]int{}
	var out []rel
	var keys []string
	for _, r := range rels {
		r = r.alignTo(params)
		key := r.space.Key()
		if i, ok := byKey[key]; ok {
			out[i] = out[i].union(r)
			continue
		}
		byKey[key] = len(out)
		out = append(out, r)
		keys = append(keys, key)
	}
	// Sorted by key, each built once.
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return keys[order[i]] < keys[order[j]] })
	sorted := make([]rel, len(out))
	for i, k := range order {
		sorted[i] = out[k]
	}
	return union{params: append([]string(nil), params...), rels: sorted}
}

func unionSetFromRels(params []string, rels []rel) UnionSet { return UnionSet{newUnion(params, rels)} }
func unionMapFromRels(params []string, rels []rel) UnionMap { return UnionMap{newUnion(params, rels)} }

// find returns the rel of sp's key, or false.
func (u union) find(sp Space) (rel, bool) {
	for _, r := range u.rels {
		if r.space.sameKey(sp) {
			return r, true
		}
	}
	return rel{}, false
}

// findSet returns the set of tuple t, or false.
func (u union) findSet(t Tuple) (rel, bool) {
	return u.find(Space{Out: t})
}

func (u union) String() string {
	var b strings.Builder
	if len(u.params) > 0 {
		b.WriteString("[" + strings.Join(u.params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	first := true
	for _, r := range u.rels {
		var body strings.Builder
		r.writeBody(&body)
		if body.Len() == 0 {
			continue
		}
		if !first {
			b.WriteString("; ")
		}
		first = false
		b.WriteString(body.String())
	}
	b.WriteString(" }")
	return b.String()
}

func (u union) unionWith(v union) union {
	return newUnion(u.params, append(append([]rel(nil), u.rels...), v.rels...))
}

// pairwise applies op to the rels of u and v that share a space; rels of u
// without a partner are kept when keep is set.
func (u union) pairwise(v union, keep bool, op func(a, b rel) rel) union {
	params := alignParams(u.params, v.params)
	var out []rel
	for _, a := range u.rels {
		if b, ok := v.find(a.space); ok {
			a, b = align(a.alignTo(params), b.alignTo(params))
			out = append(out, op(a, b))
		} else if keep {
			out = append(out, a)
		}
	}
	return newUnion(params, out)
}

func (u union) isEmpty() bool {
	for _, r := range u.rels {
		if !r.isEmpty() {
			return false
		}
	}
	return true
}

func (u union) isSubset(v union) bool {
	return u.pairwise(v, true, rel.subtract).isEmpty()
}

func (u union) mapEach(op func(rel) rel) union {
	var out []rel
	for _, r := range u.rels {
		out = append(out, op(r))
	}
	return newUnion(u.params, out)
}

func (u union) sample() union {
	for _, r := range u.rels {
		if s := r.sample(); len(s.parts) > 0 {
			return newUnion(u.params, []rel{s})
		}
	}
	return union{params: u.params}
}

func (u union) params_() rel {
	out := emptyRel(ParamSpace(u.params))
	for _, r := range u.rels {
		out = out.union(r.params())
	}
	return out
}

// Sets returns the sets of the union, one per space, sorted by space.
func (s UnionSet) Sets() []Set {
	var out []Set
	for _, r := range s.u.rels {
		out = append(out, Set{r})
	}
	return out
}

// Maps returns the maps of the union, one per space, sorted by space.
func (m UnionMap) Maps() []Map {
	var out []Map
	for _, r := range m.u.rels {
		out = append(out, Map{r})
	}
	return out
}

// UnionSetFromSets builds a union set from sets.
func UnionSetFromSets(sets ...Set) (res UnionSet, err error) {
	defer catch(&err)
	var rels []rel
	for _, s := range sets {
		rels = append(rels, s.r)
	}
	return unionSetFromRels(nil, rels), nil
}

// UnionMapFromMaps builds a union map from maps.
func UnionMapFromMaps(maps ...Map) (res UnionMap, err error) {
	defer catch(&err)
	var rels []rel
	for _, m := range maps {
		rels = append(rels, m.r)
	}
	return unionMapFromRels(nil, rels), nil
}
