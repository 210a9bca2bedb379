package tune

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// ShapeOf derives the model's Shape from a post-tiling fusion result r of
// program p compiled with the default tile sizes, at the parameter
// values params. ok is false when r has no tiled group the model can
// size (no outer sequence, or a tile band whose extent it cannot bound).
func ShapeOf(r *fusion.Result, p *scop.Program, params map[string]int64) (Shape, error) {
	var s Shape
	for _, sp := range r.Spaces {
		if !sp.Tiled || sp.TileBand == nil || sp.Dead {
			continue
		}
		g, err := group(r, p, sp, params)
		if err != nil {
			return Shape{}, fmt.Errorf("tune: space %v: %w", sp.Stmts, err)
		}
		s.Groups = append(s.Groups, g)
	}
	if len(s.Groups) == 0 {
		return s, fmt.Errorf("tune: no tiled space to model")
	}
	return s, nil
}

// group models the tiled space sp and what is fused into it.
func group(r *fusion.Result, p *scop.Program, sp *fusion.Space, params map[string]int64) (Group, error) {
	g := Group{Name: fmt.Sprint(sp.Stmts)}
	node, err := r.Tree.At(sp.TileBand)
	if err != nil {
		return g, err
	}
	tiles, err := tileCounts(node.Band().Schedule, sp.Domain(), params)
	if err != nil {
		return g, err
	}
	// The reference sizes: the result's inner sizes (the default) on
	// the innermost members, 1 further out (a tile count the candidates
	// do not change).
	inner := r.Inner
	if len(inner) == 0 {
		inner = fusion.DefaultSizes
	}
	g.Ref = fusion.InnerSizes(len(tiles), inner)
	g.Extent = make([]int64, len(tiles))
	for k, c := range tiles {
		g.Extent[k] = c * g.Ref[k]
	}
	global := map[string]bool{}
	own, err := stage(p, sp, params)
	if err != nil {
		return g, err
	}
	own.Buffer = -1
	for _, b := range r.Buffers {
		if b.Group == sp.Index {
			g.Buffers = append(g.Buffers, buffer(b, g.Ref))
		}
	}
	g.Stages = append(g.Stages, own)
	for _, o := range r.Spaces {
		if !slices.Contains(o.FusedInto, sp.Index) {
			continue
		}
		st, err := stage(p, o, params)
		if err != nil {
			return g, err
		}
		st.Ratio = max(o.Recompute, 1)
		st.Buffer = -1
		for i, b := range g.Buffers {
			if slices.Contains(o.Writes, b.Array) {
				st.Buffer = i
			}
		}
		g.Stages = append(g.Stages, st)
		g.FitHalo(len(g.Stages) - 1)
	}
	local := map[string]bool{}
	for _, b := range g.Buffers {
		local[b.Array] = true
	}
	for _, st := range sp.Stmts {
		s := p.Stmt(st)
		if s == nil {
			continue
		}
		for _, a := range append(append([]scop.Access(nil), s.Reads...), s.Writes...) {
			if !local[a.Array] && !global[a.Array] {
				global[a.Array] = true
				if arr := p.Array(a.Array); arr != nil {
					g.GlobalBytes += float64(arr.Type.Size())
				}
			}
		}
	}
	return g, nil
}

// stage counts a space's instances at params and its accesses per
// instance.
func stage(p *scop.Program, sp *fusion.Space, params map[string]int64) (Stage, error) {
	st := Stage{Name: fmt.Sprint(sp.Stmts), Ratio: 1}
	var acc float64
	for _, set := range sp.Domain().Sets() {
		v, err := volume(set, params)
		if err != nil {
			return st, err
		}
		st.Instances += v
		if s := p.Stmt(set.Space().Out.Name); s != nil {
			acc += v * float64(len(s.Reads)+len(s.Writes))
		}
	}
	if st.Instances > 0 {
		st.Accesses = acc / st.Instances
	}
	return st, nil
}

// buffer models b, whose group was tiled by ref.
func buffer(b fusion.Buffer, ref []int64) Buffer {
	out := Buffer{Array: b.Array, Elem: int64(b.Elem.Size())}
	for d, e := range b.Extent {
		dim := BufferDim{Extent: float64(e), Member: -1}
		if d < len(b.Origin) {
			for k, c := range b.Origin[d].Tile {
				if c != 0 && k < len(ref) {
					dim.Member, dim.Scale = k, float64(c)/float64(ref[k])
				}
			}
		}
		out.Dims = append(out.Dims, dim)
	}
	return out
}

// tileCounts returns the number of tiles along each member of a tile
// band with schedule sched over dom, at params.
func tileCounts(sched presburger.UnionMap, dom presburger.UnionSet, params map[string]int64) ([]int64, error) {
	m, err := sched.IntersectDomain(dom)
	if err != nil {
		return nil, err
	}
	rng, err := m.Range()
	if err != nil {
		return nil, err
	}
	var lo, hi []int64
	for _, s := range rng.Sets() {
		b, err := box(s, params)
		if err != nil {
			return nil, err
		}
		if b == nil {
			continue
		}
		if lo == nil {
			lo, hi = make([]int64, len(b)), make([]int64, len(b))
			for k := range b {
				lo[k], hi[k] = b[k][0], b[k][1]
			}
			continue
		}
		for k := range b {
			lo[k], hi[k] = min(lo[k], b[k][0]), max(hi[k], b[k][1])
		}
	}
	if lo == nil {
		return nil, fmt.Errorf("no tiles at these sizes")
	}
	out := make([]int64, len(lo))
	for k := range lo {
		out[k] = hi[k] - lo[k] + 1
	}
	return out, nil
}

// volume is the number of points of s's bounding box at params.
func volume(s presburger.Set, params map[string]int64) (float64, error) {
	b, err := box(s, params)
	if err != nil {
		return 0, err
	}
	if b == nil {
		return 0, nil
	}
	v := 1.0
	for _, d := range b {
		v *= float64(d[1] - d[0] + 1)
	}
	return v, nil
}

// box bounds s at params, one [min, max] per dimension (nil: empty).
func box(s presburger.Set, params map[string]int64) ([][2]int64, error) {
	vals := map[string]int64{}
	for _, n := range s.Space().Params {
		v, ok := params[n]
		if !ok {
			return nil, fmt.Errorf("no value for parameter %s", n)
		}
		vals[n] = v
	}
	f, err := s.FixParams(vals)
	if err != nil {
		return nil, err
	}
	b, err := f.BoxHull()
	if err != nil || b == nil {
		return nil, err
	}
	out := make([][2]int64, len(b))
	for i, d := range b {
		lo, hi, okLo, okHi := d.Range()
		if !okLo || !okHi {
			return nil, fmt.Errorf("unbounded dimension %d", i)
		}
		out[i] = [2]int64{lo, hi}
	}
	return out, nil
}
