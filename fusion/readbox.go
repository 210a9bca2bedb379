package fusion

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"
)

// readBox over-approximates the extension of s for group g by the
// instances of s that write within the box of the elements g's tiles
// read from s's arrays. Where the exact extension has no box of constant
// size (the ring of a pyramid level, at x = 0 or at floor(C/2) + 1, which
// only the tiles at the image's edges need), the read box has one: the
// tiles read a constant-size window. The extra instances are valid ones
// (they lie in s's domain), and their own producers are derived from
// this extension in turn. ok is false when some read footprint has no
// constant box.
func (pf *post) readBox(s *Space, g int) (ext presburger.UnionMap, ok bool, err error) {
	need, err := pf.need(s, g)
	if err != nil {
		return ext, false, err
	}
	writers, err := pf.writes.IntersectDomain(s.domain)
	if err == nil {
		writers, err = writers.Reverse() // element -> instance of s
	}
	if err != nil {
		return ext, false, err
	}
	first := true
	for _, a := range s.Writes {
		reads, err := onArray(pf.reads, a)
		if err != nil {
			return ext, false, err
		}
		read, err := need.ApplyRange(reads) // o -> elements of a
		if err != nil {
			return ext, false, err
		}
		rm := read.Maps()

		if len(rm) != 1 {
			return ext, false, nil
		}
		origin, extent, ok := box(rm[0], rm[0].Space().NOut())
		if !ok {
			return ext, false, nil
		}
		win, err := window(rm[0].Space(), origin, extent)
		if err != nil {
			return ext, false, err
		}
		e, err := win.ApplyRange(writers)
		if err != nil {
			return ext, false, err
		}
		if first {
			ext, first = e, false
		} else if ext, err = ext.Union(e); err != nil {
			return ext, false, err
		}
	}
	if first {
		return ext, false, nil
	}
	tiles, err := pf.tiles[g].Range()
	if err == nil {
		ext, err = ext.IntersectDomain(tiles)
	}
	return ext, err == nil, err
}

// onArray keeps the maps of an access relation whose elements are in a.
func onArray(acc presburger.UnionMap, a string) (presburger.UnionMap, error) {
	var maps []presburger.Map
	for _, m := range acc.Maps() {
		if m.Space().Out.Name == a {
			maps = append(maps, m)
		}
	}
	if len(maps) == 0 {
		return presburger.UnionMap{}, nil
	}
	return presburger.UnionMapFromMaps(maps...)
}

// window is the map from tile coordinates to the elements of the box
// origin(o) + [0, extent) in sp, the space of the read footprint
// (tile coordinates -> elements of an array): rows over [1, params, o,
// elements] saying origin_d(o) <= e_d <= origin_d(o) + extent_d - 1.
func window(sp presburger.Space, origin []Affine, extent []int64) (presburger.UnionMap, error) {
	params := sp.Params
	nIn := sp.NIn()
	width := 1 + len(params) + nIn + len(extent)
	var rows [][]int64
	for d, o := range origin {
		lower := make([]int64, width) // e_d - origin_d(o) >= 0
		lower[0] = -o.Const
		for i, name := range params {
			lower[1+i] = -o.Params[name]
		}
		for i, k := range o.Tile {
			if i >= nIn {
				return presburger.UnionMap{}, fmt.Errorf("fusion: read window origin over %d tile coordinates, the tiles have %d", len(o.Tile), nIn)
			}
			lower[1+len(params)+i] = -k
		}
		lower[1+len(params)+nIn+d] = 1
		upper := make([]int64, width) // origin_d(o) + extent_d - 1 - e_d >= 0
		for i, v := range lower {
			upper[i] = -v
		}
		upper[0] += extent[d] - 1
		rows = append(rows, lower, upper)
	}
	m, err := presburger.MapFromConstraints(sp, nil, rows)
	if err != nil {
		return presburger.UnionMap{}, err
	}
	return presburger.UnionMapFromMaps(m)
}
