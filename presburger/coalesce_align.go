package presburger

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// alignAll returns the basics extended to one common list of local
// definitions: each local is matched with an identical definition (over the
// common columns) or appended, and every basic receives all of them. All
// locals must be defined, each definition referring to earlier locals only.
// The basics keep their sets (a defined local is a function of the
// variables); ok is false when the locals do not qualify.
func alignAll(parts []*basic) (out []*basic, owned [][]bool, ok bool) {
	nv := parts[0].nVar()
	var common []div
	maps := make([][]int, len(parts))
	for pi, b := range parts {
		maps[pi] = make([]int, len(b.divs))
		for k, d := range b.divs {
			if d.den == 0 {
				return nil, nil, false
			}
			num, ok := translateNum(d.num, b, maps[pi][:k], 1+nv+len(common))
			if !ok {
				return nil, nil, false
			}
			found := -1
			for t, cd := range common {
				if cd.den == d.den && equalPadded(cd.num, num) {
					found = t
					break
				}
			}
			if found < 0 {
				common = append(common, div{num: num, den: d.den})
				found = len(common) - 1
			}
			maps[pi][k] = found
		}
	}
	n := 1 + nv + len(common)
	for pi, b := range parts {
		c := &basic{nParam: b.nParam, nIn: b.nIn, nOut: b.nOut, divs: make([]div, len(common)),
			eqs: make([][]int64, len(b.eqs)), ineqs: make([][]int64, len(b.ineqs))}
		buf := make([]int64, n*(len(common)+len(b.eqs)+len(b.ineqs)))
		row := func() []int64 {
			r := buf[:n:n]
			buf = buf[n:]
			return r
		}
		for k, cd := range common {
			c.divs[k] = div{num: row(), den: cd.den}
			copy(c.divs[k].num, cd.num)
		}
		for k, e := range b.eqs {
			c.eqs[k] = translateInto(row(), e, b, maps[pi])
		}
		for k, in := range b.ineqs {
			c.ineqs[k] = translateInto(row(), in, b, maps[pi])
		}
		out = append(out, c)
		own := make([]bool, len(common))
		for _, t := range maps[pi] {
			own[t] = true
		}
		owned = append(owned, own)
	}
	return out, owned, true
}

// alignMerged aligns two basics with alignAll; owned[k][t] reports whether
// local t of the k-th result comes from the k-th basic (rather than from
// the other).
func alignMerged(a, b *basic) (a2, b2 *basic, owned [][]bool, ok bool) {
	out, owned, ok := alignAll([]*basic{a, b})
	if !ok {
		return nil, nil, nil, false
	}
	return out[0], out[1], owned, true
}

// translateNum rewrites row (over src's columns) to n columns, moving src's
// local m to common local mapping[m]; ok is false when row uses a local
// beyond the mapping or mapped to -1.
func translateNum(row []int64, src *basic, mapping []int, n int) ([]int64, bool) {
	nv := src.nVar()
	out := make([]int64, n)
	copy(out, row[:1+nv])
	for m := range src.divs {
		v := row[src.divCol(m)]
		if v == 0 {
			continue
		}
		if m >= len(mapping) || mapping[m] < 0 {
			return nil, false
		}
		c := 1 + nv + mapping[m]
		out[c] = arith.Add(out[c], v)
	}
	return out, true
}

// translateInto is translateNum for a row whose locals all map, written
// into out.
func translateInto(out, row []int64, src *basic, mapping []int) []int64 {
	nv := src.nVar()
	copy(out, row[:1+nv])
	for m := range src.divs {
		if v := row[src.divCol(m)]; v != 0 {
			c := 1 + nv + mapping[m]
			out[c] = arith.Add(out[c], v)
		}
	}
	return out
}

// equalPadded compares two rows, the shorter one extended with zeros.
func equalPadded(a, b []int64) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	for j := range a {
		var y int64
		if j < len(b) {
			y = b[j]
		}
		if a[j] != y {
			return false
		}
	}
	return true
}

// alignPositional aligns two basics with the same number of locals: locals
// with identical definitions are matched, the others paired in order, and
// every pair whose definitions differ becomes a plain existential in both
// (its defining constraints made explicit). Both keep their sets.
func alignPositional(a, b *basic) (a2, b2 *basic, ok bool) {
	n := len(a.divs)
	if len(b.divs) != n {
		return nil, nil, false
	}
	nCol := a.nCol()
	mapB := make([]int, n)
	usedA := make([]bool, n)
	for k := range mapB {
		mapB[k] = -1
	}
	for k, d := range b.divs {
		if d.den == 0 {
			continue
		}
		num, ok := translateNum(d.num, b, mapB, nCol)
		if !ok {
			continue
		}
		for t := range a.divs {
			if !usedA[t] && a.divs[t].den == d.den && equalPadded(a.divs[t].num, num) {
				mapB[k], usedA[t] = t, true
				break
			}
		}
	}
	t := 0
	for k := range mapB {
		if mapB[k] >= 0 {
			continue
		}
		for usedA[t] {
			t++
		}
		mapB[k], usedA[t] = t, true
	}
	b2 = &basic{nParam: b.nParam, nIn: b.nIn, nOut: b.nOut, divs: make([]div, n)}
	for k, d := range b.divs {
		nd := div{den: d.den, num: make([]int64, nCol)}
		if d.den != 0 {
			nd.num, _ = translateNum(d.num, b, mapB, nCol)
		}
		b2.divs[mapB[k]] = nd
	}
	for _, e := range b.eqs {
		row, _ := translateNum(e, b, mapB, nCol)
		b2.eqs = append(b2.eqs, row)
	}
	for _, in := range b.ineqs {
		row, _ := translateNum(in, b, mapB, nCol)
		b2.ineqs = append(b2.ineqs, row)
	}
	a2 = a.clone()
	for t := 0; t < n; t++ {
		da, db := a2.divs[t], b2.divs[t]
		if da.den != 0 && da.den == db.den && equalPadded(da.num, db.num) {
			continue
		}
		if da.den != 0 {
			a2.forgetDiv(t)
		}
		if db.den != 0 {
			b2.forgetDiv(t)
		}
	}
	return a2, b2, true
}

// sameRows reports whether a and b have the same layout, locals and
// constraints, row for row.
func sameRows(a, b *basic) bool {
	if a.nParam != b.nParam || a.nIn != b.nIn || a.nOut != b.nOut || a.empty != b.empty ||
		len(a.divs) != len(b.divs) || len(a.eqs) != len(b.eqs) || len(a.ineqs) != len(b.ineqs) {
		return false
	}
	for k, d := range a.divs {
		if d.den != b.divs[k].den || !slices.Equal(d.num, b.divs[k].num) {
			return false
		}
	}
	for k, e := range a.eqs {
		if !slices.Equal(e, b.eqs[k]) {
			return false
		}
	}
	for k, in := range a.ineqs {
		if !slices.Equal(in, b.ineqs[k]) {
			return false
		}
	}
	return true
}
