package fusion

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"tilefuse/presburger"
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
		win, err := window(rm[0].Space(), a, origin, extent)
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

// window is the map from tile coordinates (sp's input) to the elements
// of a in the box origin(o) + [0, extent).
func window(sp presburger.Space, a string, origin []Affine, extent []int64) (presburger.UnionMap, error) {
	o := make([]string, sp.NIn())
	for i := range o {
		o[i] = fmt.Sprintf("o%d", i)
	}
	e := make([]string, len(extent))
	var conds []string
	for d := range extent {
		e[d] = fmt.Sprintf("e%d", d)
		lo := origin[d].text(o)
		conds = append(conds, fmt.Sprintf("%s <= %s <= %s + %d", lo, e[d], lo, extent[d]-1))
	}
	src := fmt.Sprintf("[%s] -> { [%s] -> %s[%s] : %s }", strings.Join(sp.Params, ", "), strings.Join(o, ", "), a, strings.Join(e, ", "), strings.Join(conds, " and "))
	m, err := presburger.ParseMap(src)
	if err != nil {
		return presburger.UnionMap{}, fmt.Errorf("fusion: read window %s: %w", src, err)
	}
	return presburger.UnionMapFromMaps(m)
}

// text writes the affine function over the tile coordinates named o.
func (f Affine) text(o []string) string {
	terms := []string{fmt.Sprint(f.Const)}
	names := slices.Sorted(maps.Keys(f.Params))
	for _, name := range names {
		terms = append(terms, fmt.Sprintf("%d%s", f.Params[name], name))
	}
	for i, k := range f.Tile {
		if k != 0 {
			terms = append(terms, fmt.Sprintf("%d%s", k, o[i]))
		}
	}
	return "(" + strings.Join(terms, " + ") + ")"
}
