package scheduletree

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
)

// Equal reports whether two subtrees have the same shape, kinds, flags,
// marks and options, and equal sets and maps (compared as sets, not as
// text).
func Equal(a, b *Node) (eq bool, err error) {
	defer catch(&err)
	return equalNodes(a, b), nil
}

// Equal reports whether t and u are equal trees (see the function Equal).
func (t Tree) Equal(u Tree) (bool, error) { return Equal(t.root, u.root) }

func equalNodes(a, b *Node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.kind != b.kind || len(a.children) != len(b.children) || a.mark != b.mark {
		return false
	}
	switch a.kind {
	case KindDomain, KindFilter:
		if !must(a.uset.IsEqual(b.uset)) {
			return false
		}
	case KindContext, KindGuard:
		if !equalSets(a.set, b.set) {
			return false
		}
	case KindExtension:
		if !must(a.umap.IsEqual(b.umap)) {
			return false
		}
	case KindExpansion:
		if !must(a.umap.IsEqual(b.umap)) || !must(a.contraction.IsEqual(b.contraction)) {
			return false
		}
	case KindBand:
		x, y := a.band, b.band
		if x.Permutable != y.Permutable || !slices.Equal(x.Coincident, y.Coincident) ||
			!slices.Equal(x.Options, y.Options) || x.Members() != y.Members() ||
			!must(x.Schedule.IsEqual(y.Schedule)) || !equalIsolate(x, y) {
			return false
		}
	}
	for i := range a.children {
		if !equalNodes(a.children[i], b.children[i]) {
			return false
		}
	}
	return true
}

// equalSets compares parameter sets or sets of one space; sets in
// different spaces are different.
func equalSets(a, b presburger.Set) bool {
	sa, sb := a.Space(), b.Space()
	if sa.IsParams != sb.IsParams || sa.Key() != sb.Key() {
		return false
	}
	return must(a.IsEqual(b))
}

// equalIsolate compares the isolate options of two bands.
func equalIsolate(x, y Band) bool {
	for k := 0; k < max(len(x.IsolateOptions), len(y.IsolateOptions)); k++ {
		if x.IsolateOption(k) != y.IsolateOption(k) {
			return false
		}
	}
	if x.Isolate == nil || y.Isolate == nil {
		return x.Isolate == y.Isolate
	}
	return equalSets(*x.Isolate, *y.Isolate)
}
