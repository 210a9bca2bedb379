package fusion

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Buffer is an intermediate array promoted to a tile-local buffer: it is
// written only by spaces fused into the tiles of one tiled space, and read
// only by them and that space, so each tile computes and consumes its own
// part of the array and the array never goes to main memory. The buffer
// holds Extent[d] elements in dimension d from Origin[d], an affine
// function of the tile coordinates and the parameters.
type Buffer struct {
	Array  string
	Elem   scop.ElemType
	Group  int // the tiled space whose tiles hold it
	Extent []int64
	Origin []Affine
	// Size, when set, replaces Extent with sizes affine in the parameters
	// (a call schedule's storage at the root).
	Size []Affine
	// Fold, when set, holds per dimension the ring a folded dimension
	// keeps (0: not folded): element idx lives at (idx - Origin) mod
	// Fold, and the dimension's extent is the fold.
	Fold []int64
}

// Affine is Const + Σ Params[name]·name + Σ Tile[i]·o_i over the tile
// coordinates o.
type Affine struct {
	Const  int64
	Params map[string]int64
	Tile   []int64
}

// Bytes is the buffer's size.
func (b Buffer) Bytes() int64 {
	n := int64(b.Elem.Size())
	for _, e := range b.Extent {
		n *= e
	}
	return n
}

// buffers finds the promotable arrays of every group.
func (pf *post) buffers(p *scop.Program) ([]Buffer, error) {
	var out []Buffer
	for _, a := range p.Arrays {
		if a.LiveIn || a.LiveOut || a.Rank() == 0 {
			continue
		}
		g, ok := pf.promotable(a.Name)
		if !ok {
			continue
		}
		fp, ok, err := pf.footprint(p, a.Name, g)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		origin, extent, ok := box(fp, a.Rank())
		if !ok {
			continue
		}
		out = append(out, Buffer{Array: a.Name, Elem: a.Type, Group: g, Extent: extent, Origin: origin})
	}
	return out, nil
}

// promotable returns the group whose tiles alone write and read array a.
func (pf *post) promotable(a string) (int, bool) {
	g := -1
	for _, s := range pf.spaces {
		writes, reads := slices.Contains(s.Writes, a), slices.Contains(s.Reads, a)
		if s.Dead || (!writes && !reads) {
			continue
		}
		var in int
		switch {
		case s.Fused() && len(s.FusedInto) == 1:
			in = s.FusedInto[0]
		case !s.Fused() && !writes:
			in = s.Index // the tiled space reading it
		default:
			return 0, false
		}
		if g >= 0 && in != g {
			return 0, false
		}
		g = in
	}
	return g, g >= 0
}

// footprint maps the tile coordinates of group g to the elements of a
// its fused spaces write.
func (pf *post) footprint(p *scop.Program, a string, g int) (fp presburger.Map, ok bool, err error) {
	var all presburger.UnionMap
	first := true
	for _, s := range pf.spaces {
		k := slices.Index(s.FusedInto, g)
		if k < 0 || !slices.Contains(s.Writes, a) {
			continue
		}
		for _, name := range s.Stmts {
			for _, w := range p.Stmt(name).Writes {
				if w.Array != a {
					continue
				}
				wu, err := presburger.UnionMapFromMaps(w.Rel)
				if err != nil {
					return fp, false, err
				}
				f, err := s.Extension[k].ApplyRange(wu)
				if err != nil {
					return fp, false, err
				}
				if first {
					all, first = f, false
				} else if all, err = all.Union(f); err != nil {
					return fp, false, err
				}
			}
		}
	}
	if first {
		return fp, false, nil
	}
	maps := all.Maps()
	if len(maps) != 1 {
		return fp, false, nil
	}
	return maps[0], true, nil
}

// hullEntries bounds the work of a footprint's convex hull (tableau
// entries its pivots update): a tile's footprint needs a few thousand; a
// hull whose eliminations multiply the constraints is given up, and the
// footprint has no box (its space is not fused, which costs speed, not
// correctness).
const hullEntries = 1 << 20

// box finds, for each of the rank dimensions of the footprint fp (tile
// coordinates -> elements), an origin among the lower bounds of the
// footprint's simple hull and the smallest constant extent that an upper
// bound gives it; ok is false when some dimension has none.
func box(fp presburger.Map, rank int) (origin []Affine, extent []int64, ok bool) {
	if fp.Space().NOut() != rank || rank == 0 {
		return nil, nil, false
	}
	h, err := fp.SimpleHull()
	if err != nil {
		return nil, nil, false
	}
	cs := h.Constraints()
	if len(cs) == 1 && cs[0].NLocal > 0 {
		// Existentials (a producer read at a stride, a tile of a
		// sampled level) bound the elements only through locals: their
		// rational projection, the convex hull, bounds them directly.
		if ch, err := fp.ConvexHullWithin(hullEntries); err == nil {
			cs = ch.Constraints()
		}
	}
	if len(cs) != 1 {
		return nil, nil, false
	}
	if origin, extent, ok = boxOf(cs[0], fp.Space().Params, rank); ok {
		return origin, extent, true
	}
	// The simple hull keeps only the pieces' own constraints: pieces
	// that fix an element (a ring at x = 0 and at x = floor(C/2) + 1)
	// state none relative to the tile, which their convex hull does.
	ch, err := fp.ConvexHullWithin(hullEntries)
	if err != nil {
		return nil, nil, false
	}
	if cs := ch.Constraints(); len(cs) == 1 {
		return boxOf(cs[0], fp.Space().Params, rank)
	}
	return nil, nil, false
}

// boxOf is box on the constraints c of the footprint's hull.
func boxOf(c presburger.Constraints, params []string, rank int) (origin []Affine, extent []int64, ok bool) {
	first := 1 + c.NParam + c.NIn
	for _, b := range dimBounds(c, rank) {
		best := int64(-1)
		var bestLow []int64
		for _, l := range b.lower {
			for _, u := range b.upper {
				if !sameVar(l, u) {
					continue
				}
				if n := u[0] - l[0] + 1; n > 0 && (best < 0 || n < best) {
					best, bestLow = n, l
				}
			}
		}
		if best < 0 {
			return nil, nil, false
		}
		origin, extent = append(origin, boundAffine(bestLow, params, first)), append(extent, best)
	}
	return origin, extent, true
}

// boundAffine reads a bound row (1, params, tile coordinates).
func boundAffine(row []int64, params []string, first int) Affine {
	a := Affine{Const: row[0], Params: map[string]int64{}, Tile: trim(row[1+len(params) : first])}
	for i, name := range params {
		if v := row[1+i]; v != 0 {
			a.Params[name] = v
		}
	}
	return a
}

// dimBound holds a dimension's lower and upper bounds, rows over (1, params,
// tile coordinates).
type dimBound struct{ lower, upper [][]int64 }

// dimBounds reads, for each of the rank element dimensions of c (rows
// over [1, params, o, a, locals]), the rows that bound it alone: a row
// whose only element column is a_d, with coefficient ±1 after division,
// and no locals.
func dimBounds(c presburger.Constraints, rank int) []dimBound {
	first := 1 + c.NParam + c.NIn
	var rows [][]int64
	rows = append(rows, c.Ineqs...)
	for _, e := range c.Eqs {
		neg := make([]int64, len(e))
		for i, v := range e {
			neg[i] = -v
		}
		rows = append(rows, e, neg)
	}
	out := make([]dimBound, rank)
	for d := 0; d < rank; d++ {
		for _, r := range rows {
			k := r[first+d]
			if k == 0 || !onlyColumn(r, first, first+rank, first+d) || nonzero(r[first+rank:]) {
				continue
			}
			// k·a_d + rest >= 0: a_d >= ceil(-rest/k) (k > 0) or a_d <=
			// floor(rest/-k) (k < 0); kept when the division leaves the
			// parameter and tile coefficients integral (a sampled level,
			// 2·a >= 32·o - 2, gives a >= 16·o - 1).
			rest := append([]int64(nil), r[:first]...)
			if k > 0 {
				for i := range rest {
					rest[i] = -rest[i]
				}
			} else {
				k = -k
			}
			if !divisibleFrom(rest, 1, k) {
				continue
			}
			for i := 1; i < len(rest); i++ {
				rest[i] /= k
			}
			if r[first+d] > 0 {
				rest[0] = ceilDiv(rest[0], k)
				out[d].lower = append(out[d].lower, rest)
			} else {
				rest[0] = floorDiv(rest[0], k)
				out[d].upper = append(out[d].upper, rest)
			}
		}
	}
	return out
}

// onlyColumn reports whether r[from:to] is zero but at column k.
func onlyColumn(r []int64, from, to, k int) bool {
	for i := from; i < to; i++ {
		if i != k && r[i] != 0 {
			return false
		}
	}
	return true
}

func nonzero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return true
		}
	}
	return false
}

// sameVar reports whether two bounds differ only in their constant.
func sameVar(l, u []int64) bool { return slices.Equal(l[1:], u[1:]) }

func trim(v []int64) []int64 {
	for len(v) > 0 && v[len(v)-1] == 0 {
		v = v[:len(v)-1]
	}
	return append([]int64(nil), v...)
}

// divisibleFrom reports whether v[from:] are all multiples of k.
func divisibleFrom(v []int64, from int, k int64) bool {
	for _, x := range v[from:] {
		if x%k != 0 {
			return false
		}
	}
	return true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }
