package fusion

import (
	"github.com/tilefuse/tilefuse/presburger"
)

// DefaultMaxRecompute is the default bound on the recomputation a fused
// space may cost: the instances its extension executes over all tiles,
// against its own instances. Stencil borders cost little (Harris's deepest
// producer runs 1.07 times its instances with 32×256 tiles); a coarse
// pyramid level fused into the tiles of a fine one runs 5–15 times its
// instances (its per-tile box barely shrinks with the tile), which costs
// more than the memory traffic it saves, so it keeps its own tiles.
const DefaultMaxRecompute = 1.5

// estimateParam is the value every parameter takes in the recomputation
// estimate when Options.Estimate does not give one: large enough that
// image borders weigh little, as in real use.
const estimateParam = 2048

// recomputation estimates the ratio between the instances extension e
// (tile coordinates -> instances of s) executes over all tiles and s's
// instances, with the parameters fixed at vals. Per statement, each tile
// runs the constant-size box of instances it needs, clipped to the
// bounding box of the statement's domain (so that partial tiles at image
// borders count what they run, not a whole tile), summed over the tiles
// that need any. ok is false when the estimate cannot be made (a
// parameter value outside the program's context, a statement without a
// constant box, a box moved by several tile coordinates at once).
func recomputation(e presburger.UnionMap, dom presburger.UnionSet, vals map[string]int64, box boxFunc) (ratio float64, ok bool) {
	var executed, own float64
	for _, m := range e.Maps() {
		d, found := dom.ExtractSet(m.Space().Out.Name)
		if !found {
			return 0, false
		}
		fd, err := d.FixParams(paramVals(d.Space().Params, vals))
		if err != nil {
			return 0, false
		}
		db, ok := bounds(fd)
		if !ok {
			return 0, false
		}
		nd := 1.0
		for _, b := range db {
			nd *= float64(b[1] - b[0] + 1)
		}
		fm, err := m.FixParams(paramVals(m.Space().Params, vals))
		if err != nil {
			return 0, false
		}
		tiles, err := fm.Domain()
		if err != nil {
			return 0, false
		}
		n, ok := runInstances(m, tiles, db, vals, box)
		if !ok {
			return 0, false
		}
		executed += n
		own += nd
	}
	if own == 0 {
		return 0, false
	}
	return executed / own, true
}

// boxFunc is box, or a memo of it.
type boxFunc func(fp presburger.Map, rank int) (origin []Affine, extent []int64, ok bool)

// maxTileSteps bounds the tile coordinates the estimate walks.
const maxTileSteps = 1 << 16

// runInstances sums, over the tiles in tiles, the instances of m's box
// clipped to the domain bounds db.
func runInstances(m presburger.Map, tiles presburger.Set, db [][2]int64, vals map[string]int64, box boxFunc) (float64, bool) {
	nOut := m.Space().NOut()
	var origin []Affine
	var extent []int64
	if nOut > 0 {
		var ok bool
		if origin, extent, ok = box(m, nOut); !ok {
			return 0, false
		}
	}
	tb, ok := bounds(tiles)
	if !ok {
		return 0, false
	}
	if tb == nil {
		return 0, true
	}
	// by[k] lists the statement dimensions tile coordinate k moves.
	by := make([][]int, len(tb))
	base := make([]int64, nOut)
	for d, o := range origin {
		base[d] = o.Const
		for name, c := range o.Params {
			v, ok := vals[name]
			if !ok {
				v = estimateParam
			}
			base[d] += c * v
		}
		mover := -1
		for k, c := range o.Tile {
			if c == 0 {
				continue
			}
			if mover >= 0 {
				return 0, false
			}
			mover = k
		}
		if mover >= 0 {
			by[mover] = append(by[mover], d)
		}
	}
	clip := func(d int, at int64) float64 {
		lo, hi := max(at, db[d][0]), min(at+extent[d]-1, db[d][1])
		return float64(max(hi-lo+1, 0))
	}
	total := 1.0
	moved := make([]bool, nOut)
	for k, b := range tb {
		stride, _, err := tiles.Stride(k)
		if err != nil || stride <= 0 {
			stride = 1
		}
		if (b[1]-b[0])/stride > maxTileSteps {
			return 0, false
		}
		sum := 0.0
		for o := b[0]; o <= b[1]; o += stride {
			f := 1.0
			for _, d := range by[k] {
				f *= clip(d, base[d]+origin[d].Tile[k]*o)
			}
			sum += f
		}
		for _, d := range by[k] {
			moved[d] = true
		}
		total *= sum
	}
	for d := range nOut {
		if !moved[d] {
			total *= clip(d, base[d])
		}
	}
	return total, true
}

// bounds returns the bounding box of the parameter-free set s, one
// [min, max] per dimension (nil when s is empty).
func bounds(s presburger.Set) ([][2]int64, bool) {
	b, err := s.BoxHull()
	if err != nil {
		return nil, false
	}
	if b == nil {
		return nil, true
	}
	out := make([][2]int64, len(b))
	for i, d := range b {
		lo, hi, okLo, okHi := d.Range()
		if !okLo || !okHi {
			return nil, false
		}
		out[i] = [2]int64{lo, hi}
	}
	return out, true
}

func paramVals(names []string, vals map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(names))
	for _, n := range names {
		if v, ok := vals[n]; ok {
			out[n] = v
		} else {
			out[n] = estimateParam
		}
	}
	return out
}
