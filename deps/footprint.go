package deps

import (
	"slices"
	"sort"

	"github.com/tilefuse/tilefuse/presburger"
)

// pruneByFootprint makes Memory pair only accesses whose footprints may
// overlap (tests turn it off to compare with every pair).
var pruneByFootprint = true

// footprint over-approximates the elements an access touches: one
// interval per array dimension, bounded where the box hull has a bound
// (constant, or affine in the parameters).
type footprint struct {
	box []presburger.DimBox
}

// footprintOf returns the box of the elements a touches; ok is false
// when there is none to use (the relation's box hull failed), and then a
// must be paired with every access.
func footprintOf(a access) (footprint, bool) {
	elems, err := a.rel.Range()
	if err != nil {
		return footprint{}, false
	}
	box, err := elems.BoxHull()
	if err != nil {
		return footprint{}, false
	}
	return footprint{box: box}, true
}

// disjoint reports whether no element lies in both boxes for any value of
// the parameters: in some dimension an upper bound of one lies below a
// lower bound of the other. A nil box (an empty access) is disjoint from
// every box.
func (f footprint) disjoint(g footprint) bool {
	if f.box == nil || g.box == nil {
		return true
	}
	for d := range min(len(f.box), len(g.box)) {
		if below(f.box[d].Upper, g.box[d].Lower) || below(g.box[d].Upper, f.box[d].Lower) {
			return true
		}
	}
	return false
}

// below reports whether some upper bound u and lower bound l satisfy
// floor(u) < ceil(l) for every parameter value: they differ only in their
// constants (same parameter coefficients, denominator 1).
func below(upper, lower []presburger.Bound) bool {
	for _, u := range upper {
		for _, l := range lower {
			if u.Den == 1 && l.Den == 1 && slices.Equal(u.Coef, l.Coef) && u.Const < l.Const {
				return true
			}
		}
	}
	return false
}

// constRange returns the constant bounds of dimension d of f, with ok
// false when one side has none.
func (f footprint) constRange(d int) (lo, hi int64, ok bool) {
	if d < 0 || d >= len(f.box) {
		return 0, 0, false
	}
	lo, hi, hasLo, hasHi := f.box[d].Range()
	return lo, hi, hasLo && hasHi
}

// overlapping calls visit(i, j) for every pair of an access in src and
// one in sink, to one array, whose footprints may overlap, in the order
// of src then sink. The accesses of each array are swept along the
// dimension where most of them have constant bounds; those without are
// compared with all.
func overlapping(src, sink []access, visit func(i, j int) error) error {
	if !pruneByFootprint {
		for i, a := range src {
			for j, b := range sink {
				if a.array == b.array {
					if err := visit(i, j); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	fps := func(as []access) ([]footprint, []bool) {
		fs, ok := make([]footprint, len(as)), make([]bool, len(as))
		for i, a := range as {
			fs[i], ok[i] = footprintOf(a)
		}
		return fs, ok
	}
	srcFp, srcOk := fps(src)
	sinkFp, sinkOk := fps(sink)
	bySrc := map[string][]int{}
	for i, a := range src {
		bySrc[a.array] = append(bySrc[a.array], i)
	}
	bySink := map[string][]int{}
	for j, b := range sink {
		bySink[b.array] = append(bySink[b.array], j)
	}
	var pairs [][2]int
	for array, is := range bySrc {
		js := bySink[array]
		if len(js) == 0 {
			continue
		}
		pairs = append(pairs, candidates(is, js, srcFp, srcOk, sinkFp, sinkOk)...)
	}
	sort.Slice(pairs, func(x, y int) bool {
		if pairs[x][0] != pairs[y][0] {
			return pairs[x][0] < pairs[y][0]
		}
		return pairs[x][1] < pairs[y][1]
	})
	for _, p := range pairs {
		if err := visit(p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

// candidates returns the pairs (i, j) of is × js whose footprints may
// overlap: a sweep over the constant intervals of one dimension, then the
// full box test.
func candidates(is, js []int, srcFp []footprint, srcOk []bool, sinkFp []footprint, sinkOk []bool) [][2]int {
	// The dimension with the most constant intervals.
	dims := 0
	for _, i := range is {
		if srcOk[i] {
			dims = max(dims, len(srcFp[i].box))
		}
	}
	best, bestN := -1, 0
	for d := range dims {
		n := 0
		for _, i := range is {
			if _, _, ok := srcFp[i].constRange(d); ok && srcOk[i] {
				n++
			}
		}
		for _, j := range js {
			if _, _, ok := sinkFp[j].constRange(d); ok && sinkOk[j] {
				n++
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	type event struct {
		lo, hi int64
		idx    int
		sink   bool
	}
	var events []event
	var wideSrc, wideSink []int // no constant interval: paired with all
	for _, i := range is {
		if lo, hi, ok := srcFp[i].constRange(best); ok && srcOk[i] {
			events = append(events, event{lo, hi, i, false})
		} else if !srcOk[i] || srcFp[i].box != nil {
			wideSrc = append(wideSrc, i)
		}
	}
	for _, j := range js {
		if lo, hi, ok := sinkFp[j].constRange(best); ok && sinkOk[j] {
			events = append(events, event{lo, hi, j, true})
		} else if !sinkOk[j] || sinkFp[j].box != nil {
			wideSink = append(wideSink, j)
		}
	}
	var out [][2]int
	add := func(i, j int) {
		if srcOk[i] && sinkOk[j] && srcFp[i].disjoint(sinkFp[j]) {
			return
		}
		out = append(out, [2]int{i, j})
	}
	// Sweep by lower bound: each interval meets the active ones (those
	// not yet ended) of the other side.
	sort.Slice(events, func(x, y int) bool { return events[x].lo < events[y].lo })
	var activeSrc, activeSink []event
	for _, ev := range events {
		keep := func(act []event) []event {
			k := act[:0]
			for _, a := range act {
				if a.hi >= ev.lo {
					k = append(k, a)
				}
			}
			return k
		}
		activeSrc, activeSink = keep(activeSrc), keep(activeSink)
		if ev.sink {
			for _, a := range activeSrc {
				add(a.idx, ev.idx)
			}
			activeSink = append(activeSink, ev)
		} else {
			for _, a := range activeSink {
				add(ev.idx, a.idx)
			}
			activeSrc = append(activeSrc, ev)
		}
	}
	for _, i := range wideSrc {
		for _, j := range js {
			add(i, j)
		}
	}
	for _, j := range wideSink {
		for _, ev := range events {
			if !ev.sink {
				add(ev.idx, j)
			}
		}
	}
	return out
}

// boxOf is footprintOf for any relation into an array.
func boxOf(m presburger.Map) (footprint, bool) { return footprintOf(access{rel: m}) }

// footIndex finds, among a list of accesses to one array, those whose
// footprints may overlap a given one: the accesses with a constant
// interval in one dimension sorted by its lower bound (with the running
// maximum of the upper bounds, so that a query stops where no earlier
// interval reaches it), the others always tested.
type footIndex struct {
	all           []int // every access, ascending
	dim           int
	sorted        []int // by lower bound on dim
	lo, hi, maxHi []int64
	wide          []int
	fp            []footprint // by access
	ok            []bool
}

// newFootIndex indexes the accesses at positions all (ascending) of the
// footprints fp (ok false: unknown, overlapping everything).
func newFootIndex(all []int, fp []footprint, ok []bool) *footIndex {
	x := &footIndex{all: all, fp: fp, ok: ok, dim: -1}
	dims := 0
	for _, i := range all {
		dims = max(dims, len(fp[i].box))
	}
	bestN := 0
	for d := range dims {
		n := 0
		for _, i := range all {
			if _, _, c := fp[i].constRange(d); c && ok[i] {
				n++
			}
		}
		if n > bestN {
			x.dim, bestN = d, n
		}
	}
	for _, i := range all {
		if _, _, c := fp[i].constRange(x.dim); c && ok[i] {
			x.sorted = append(x.sorted, i)
		} else if !ok[i] || fp[i].box != nil {
			x.wide = append(x.wide, i)
		}
	}
	sort.SliceStable(x.sorted, func(a, b int) bool {
		la, _, _ := fp[x.sorted[a]].constRange(x.dim)
		lb, _, _ := fp[x.sorted[b]].constRange(x.dim)
		return la < lb
	})
	for k, i := range x.sorted {
		lo, hi, _ := fp[i].constRange(x.dim)
		x.lo, x.hi = append(x.lo, lo), append(x.hi, hi)
		if k > 0 {
			hi = max(hi, x.maxHi[k-1])
		}
		x.maxHi = append(x.maxHi, hi)
	}
	return x
}

// near returns, ascending, the indexed accesses whose footprints may
// overlap q (every one when q is unknown or pruning is off).
func (x *footIndex) near(q footprint, qok bool) []int {
	if !pruneByFootprint || !qok {
		return x.all
	}
	var out []int
	test := func(i int) {
		if !x.ok[i] || !q.disjoint(x.fp[i]) {
			out = append(out, i)
		}
	}
	if lo, hi, c := q.constRange(x.dim); c {
		p := sort.Search(len(x.lo), func(k int) bool { return x.lo[k] > hi })
		for k := p - 1; k >= 0 && x.maxHi[k] >= lo; k-- {
			if x.hi[k] >= lo {
				test(x.sorted[k])
			}
		}
	} else {
		for _, i := range x.sorted {
			test(i)
		}
	}
	for _, i := range x.wide {
		test(i)
	}
	sort.Ints(out)
	return out
}
