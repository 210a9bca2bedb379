package fusion

import "github.com/tilefuse/tilefuse/presburger"

// boxMemo remembers box's answers: post-tiling fusion asks for the box of
// one extension piece several times (is it boxed, then its recomputation),
// and each answer costs a simple hull. Entries are keyed by the map's
// exact representation (presburger.Map.Identical), so a reused answer is
// the one box would give.
type boxMemo struct{ entries []boxEntry }

type boxEntry struct {
	fp     presburger.Map
	rank   int
	origin []Affine
	extent []int64
	ok     bool
}

// box is box(fp, rank), computed once per representation.
func (bm *boxMemo) box(fp presburger.Map, rank int) (origin []Affine, extent []int64, ok bool) {
	for _, e := range bm.entries {
		if e.rank == rank && e.fp.Identical(fp) {
			return e.origin, e.extent, e.ok
		}
	}
	origin, extent, ok = box(fp, rank)
	bm.entries = append(bm.entries, boxEntry{fp, rank, origin, extent, ok})
	return origin, extent, ok
}

// boxed reports whether each statement's part of extension e lies, for
// every tile, within a box of constant size around an affine origin.
func (bm *boxMemo) boxed(e presburger.UnionMap) bool {
	for _, m := range e.Maps() {
		if _, _, ok := bm.box(m, m.Space().NOut()); !ok && m.Space().NOut() > 0 {
			return false
		}
	}
	return true
}
