package draw

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/tiling"
)

// TilesOptions choose what Tiles draws.
type TilesOptions struct {
	// Title is the picture's heading (the source and its sizes, say);
	// the tile sizes of the drawn stage's band follow it.
	Title string
	// Sizes are the tile sizes the compilation used (member k has
	// tiling.SizeOf(Sizes, k)), for the heading; nil leaves them out.
	Sizes []int64
	// Stage is the statement to draw (a tiled one; "out" stands for
	// "out_s0"); empty means the tiled space with the most fused
	// producers (the last such), or the program's last statement.
	Stage string
	// Params are the parameter values; every parameter needs one.
	Params map[string]int64
	// Tile is the tile whose producer footprints are drawn, by its tile
	// coordinates; nil means an interior one (a full tile near the
	// middle of the picture).
	Tile []int64
	// Dims are the two dimensions drawn (rows, then columns), by
	// iterator name; nil means the two a skewed tile member mixes
	// (parallelogram tiles), or else the two innermost.
	Dims []string
	// At fixes the other dimensions (by iterator name); a dimension not
	// given is fixed at its first value.
	At map[string]int64
}

// cell is a drawn point: row and column.
type cell struct{ r, c int64 }

// slicer picks the two drawn dimensions of a statement's points and
// fixes the others.
type slicer struct {
	names    []string
	row, col int // -1: no such dimension (a 1-D statement has no row)
	fixed    map[int]int64
}

func (s slicer) take(p []int64) (cell, bool) {
	for d, v := range s.fixed {
		if p[d] != v {
			return cell{}, false
		}
	}
	c := cell{}
	if s.row >= 0 {
		c.r = p[s.row]
	}
	if s.col >= 0 {
		c.c = p[s.col]
	}
	return c, true
}

func (s slicer) rowName() string {
	if s.row < 0 {
		return ""
	}
	return s.names[s.row]
}

func (s slicer) colName() string {
	if s.col < 0 {
		return ""
	}
	return s.names[s.col]
}

// fixedText describes the fixed dimensions: "t = 0, c = 1".
func (s slicer) fixedText() string {
	var ds []int
	for d := range s.fixed {
		ds = append(ds, d)
	}
	sort.Ints(ds)
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%s = %d", s.names[d], s.fixed[d]))
	}
	return strings.Join(parts, ", ")
}

// livePanel is the tiled stage: its points coloured by tile.
type livePanel struct {
	stage string
	sl    slicer
	pts   []cell
	tile  []int // index into tiles, per point
	tiles [][]int64
}

// producerPanel is a fused producer: its points, the chosen tile's
// footprint, the neighbouring tile's, and their overlap.
type producerPanel struct {
	stage      string
	sl         slicer
	pts        []cell
	fp, nfp    map[cell]bool
	fpAll      int64 // the footprint's instances, all of them (not only the drawn slice)
	overlapAll int64
}

type tilesPicture struct {
	title     string
	live      livePanel
	producers []producerPanel
	liveOut   bool
	chosen    []int64
	neighbour []int64 // nil: none
	notes     []string
}

// Tiles draws a tiled stage of r (a compilation stopped after fusion or
// later, with tiling) at the parameter values opts.Params: its points
// coloured by tile, and for one tile what it needs of each producer
// fused into its tiles (the extension's image of the tile's
// coordinates), with the instances a neighbouring tile needs as well
// shaded: the recomputation.
func Tiles(r *compiler.Result, opts TilesOptions) (string, error) {
	pic, err := tilesModel(r, opts)
	if err != nil {
		return "", err
	}
	return pic.render(), nil
}

func tilesModel(r *compiler.Result, opts TilesOptions) (*tilesPicture, error) {
	tree := r.Tree()
	dom := tree.Domain()
	stage, space, err := pickStage(r, opts.Stage)
	if err != nil {
		return nil, err
	}
	band, err := tileBandOf(r, tree, stage, space)
	if err != nil {
		return nil, err
	}
	prefix, err := tree.PrefixSchedule(band.Child(0))
	if err != nil {
		return nil, err
	}
	var tileMap presburger.Map
	found := false
	for _, m := range prefix.Maps() {
		if m.Space().In.Name == stage {
			tileMap, found = m, true
		}
	}
	stmtDom, ok := dom.ExtractSet(stage)
	if !found || !ok {
		return nil, fmt.Errorf("draw: statement %s has no tile schedule", stage)
	}
	if tileMap, err = tileMap.IntersectDomain(stmtDom); err != nil {
		return nil, err
	}
	if tileMap, err = tileMap.FixParams(opts.Params); err != nil {
		return nil, err
	}
	wrapped, err := tileMap.Wrap()
	if err != nil {
		return nil, err
	}
	n := tileMap.Space().In.Len()
	names := dimNames(tileMap.Space().In.Dims, n)
	var all [][]int64
	if err := wrapped.Foreach(func(p []int64) error {
		all = append(all, slices.Clone(p))
		if len(all) > 200_000 {
			return errors.New("draw: more than 200000 points: give smaller sizes with --size")
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("draw: statement %s has no instances at these sizes", stage)
	}
	sl, err := liveSlicer(all, n, names, opts)
	if err != nil {
		return nil, err
	}
	title := opts.Title
	if len(opts.Sizes) > 0 {
		var ts []string
		for k := range len(all[0]) - n {
			ts = append(ts, strconv.FormatInt(tiling.SizeOf(opts.Sizes, k), 10))
		}
		title += ", tiles " + strings.Join(ts, "×")
	}
	pic := &tilesPicture{title: title, live: livePanel{stage: stage, sl: sl}}
	index := map[string]int{}
	for _, p := range all {
		c, ok := sl.take(p[:n])
		if !ok {
			continue
		}
		t := p[n:]
		k := key(t)
		i, ok := index[k]
		if !ok {
			i = len(pic.live.tiles)
			index[k] = i
			pic.live.tiles = append(pic.live.tiles, slices.Clone(t))
		}
		pic.live.pts = append(pic.live.pts, c)
		pic.live.tile = append(pic.live.tile, i)
	}
	if len(pic.live.pts) == 0 {
		return nil, fmt.Errorf("draw: no point of %s in the slice %s", stage, sl.fixedText())
	}
	// The chosen tile.
	if opts.Tile != nil {
		if _, ok := index[key(opts.Tile)]; !ok || len(opts.Tile) != len(pic.live.tiles[0]) {
			return nil, fmt.Errorf("draw: tile %s has no point in the picture", key(opts.Tile))
		}
		pic.chosen = slices.Clone(opts.Tile)
	} else {
		pic.chosen = interior(&pic.live)
	}
	// The fused producers and the neighbour.
	var exts []presburger.Map
	if space != nil {
		for _, s := range r.Fusion.Spaces {
			for k, g := range s.FusedInto {
				if g != space.Index {
					continue
				}
				for _, m := range s.Extension[k].Maps() {
					if m, err = m.FixParams(opts.Params); err != nil {
						return nil, err
					}
					if m.Space().NIn() != len(pic.chosen) {
						return nil, fmt.Errorf("draw: the extension of %v has %d tile coordinates, the tile band %d", s.Stmts, m.Space().NIn(), len(pic.chosen))
					}
					exts = append(exts, m)
				}
			}
		}
	}
	fpOf := func(t []int64) (map[string]presburger.Set, error) {
		out := map[string]presburger.Set{}
		for _, m := range exts {
			f := m
			var err error
			for k, v := range t {
				if f, err = f.FixDim(presburger.DimIn, k, v); err != nil {
					return nil, err
				}
			}
			rng, err := f.Range()
			if err != nil {
				return nil, err
			}
			name := rng.Space().Out.Name
			if prev, ok := out[name]; ok {
				if rng, err = prev.Union(rng); err != nil {
					return nil, err
				}
			}
			out[name] = rng
		}
		return out, nil
	}
	chosenFP, err := fpOf(pic.chosen)
	if err != nil {
		return nil, err
	}
	var order []string // producers in program order
	for _, st := range r.Program.Stmts {
		if _, ok := chosenFP[st.Name]; ok {
			order = append(order, st.Name)
		}
	}
	// Producer panels without the neighbour first.
	for _, name := range order {
		pd, ok := dom.ExtractSet(name)
		if !ok {
			continue
		}
		if pd, err = pd.FixParams(opts.Params); err != nil {
			return nil, err
		}
		fpPts, err := points(chosenFP[name])
		if err != nil {
			return nil, err
		}
		pp := producerPanel{stage: name, fp: map[cell]bool{}, nfp: map[cell]bool{}, fpAll: int64(len(fpPts))}
		pn := pd.Space().Out.Len()
		pp.sl = producerSlicer(sl, n, pn, dimNames(pd.Space().Out.Dims, pn), fpPts)
		domPts, err := points(pd)
		if err != nil {
			return nil, err
		}
		for _, p := range domPts {
			if c, ok := pp.sl.take(p); ok {
				pp.pts = append(pp.pts, c)
			}
		}
		for _, p := range fpPts {
			if c, ok := pp.sl.take(p); ok {
				pp.fp[c] = true
			}
		}
		pic.producers = append(pic.producers, pp)
	}
	// The neighbour: the next tile along the innermost tile dimension
	// (then outwards) that shares the most producer instances.
	best := -1
	for k := len(pic.chosen) - 1; k >= 0; k-- {
		for _, d := range []int64{1, -1} {
			t := slices.Clone(pic.chosen)
			t[k] += d
			if _, ok := index[key(t)]; !ok {
				continue
			}
			fp, err := fpOf(t)
			if err != nil {
				return nil, err
			}
			// The most shared producer instances, or without any the
			// most points drawn.
			score, drawn := 0, 0
			for i := range pic.live.pts {
				if key(pic.live.tiles[pic.live.tile[i]]) == key(t) {
					drawn++
				}
			}
			for i := range pic.producers {
				pp := &pic.producers[i]
				pts, err := points(fp[pp.stage])
				if err != nil {
					return nil, err
				}
				for _, p := range pts {
					if c, ok := pp.sl.take(p); ok && pp.fp[c] {
						score += 1 << 20
					}
				}
			}
			if score == 0 {
				score = drawn
			}
			if score > best {
				best, pic.neighbour = score, t
			}
		}
	}
	if pic.neighbour != nil && len(pic.producers) > 0 {
		fp, err := fpOf(pic.neighbour)
		if err != nil {
			return nil, err
		}
		for i := range pic.producers {
			pp := &pic.producers[i]
			set, ok := fp[pp.stage]
			if !ok {
				continue
			}
			pts, err := points(set)
			if err != nil {
				return nil, err
			}
			for _, p := range pts {
				if c, ok := pp.sl.take(p); ok {
					pp.nfp[c] = true
				}
			}
			// The overlap, exactly: the intersection of the two
			// footprints, counted over all dimensions.
			if both, err := set.Intersect(chosenFP[pp.stage]); err == nil {
				if n, err := both.Count(); err == nil {
					pp.overlapAll = n
				}
			}
		}
	}
	pic.liveOut = space != nil && space.LiveOut
	return pic, nil
}

// points enumerates a parameter-free set.
func points(s presburger.Set) ([][]int64, error) {
	var out [][]int64
	if s.Space().Out.Len() == 0 && s.NumBasic() == 0 {
		return nil, nil
	}
	err := s.Foreach(func(p []int64) error {
		out = append(out, slices.Clone(p))
		if len(out) > 200_000 {
			return errors.New("draw: more than 200000 points: give smaller sizes with --size")
		}
		return nil
	})
	return out, err
}

func key(t []int64) string {
	parts := make([]string, len(t))
	for i, v := range t {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, ",")
}

func dimNames(dims []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		if i < len(dims) && dims[i] != "" {
			out[i] = dims[i]
		} else {
			out[i] = fmt.Sprintf("i%d", i)
		}
	}
	return out
}

// pickStage resolves the statement to draw and its space (nil when
// post-tiling fusion did not run or found one space).
func pickStage(r *compiler.Result, want string) (string, *fusion.Space, error) {
	var spaces []*fusion.Space
	if r.Fusion != nil {
		spaces = r.Fusion.Spaces
	}
	if want == "" {
		if len(spaces) > 0 {
			var best *fusion.Space
			bestN := -1
			for _, s := range spaces {
				if !s.Tiled || s.TileBand == nil {
					continue
				}
				n := 0
				for _, o := range spaces {
					if slices.Contains(o.FusedInto, s.Index) {
						n++
					}
				}
				if n >= bestN {
					best, bestN = s, n
				}
			}
			if best != nil {
				return best.Stmts[len(best.Stmts)-1], best, nil
			}
		}
		if len(r.Program.Stmts) == 0 {
			return "", nil, errors.New("draw: the program has no statement")
		}
		want = r.Program.Stmts[len(r.Program.Stmts)-1].Name
	}
	name := ""
	for _, st := range r.Program.Stmts {
		if st.Name == want {
			name = want
		}
	}
	if name == "" {
		for _, st := range r.Program.Stmts {
			if st.Name == want+"_s0" {
				name = st.Name
			}
		}
	}
	if name == "" {
		var names []string
		for _, st := range r.Program.Stmts {
			names = append(names, st.Name)
		}
		return "", nil, fmt.Errorf("draw: no statement %q (statements: %s)", want, strings.Join(names, ", "))
	}
	for _, s := range spaces {
		if !slices.Contains(s.Stmts, name) {
			continue
		}
		if s.Fused() {
			var into []string
			for _, g := range s.FusedInto {
				into = append(into, spaces[g].Stmts[len(spaces[g].Stmts)-1])
			}
			return "", nil, fmt.Errorf("draw: %s is fused into the tiles of %s: draw that stage to see its footprint", name, strings.Join(into, ", "))
		}
		return name, s, nil
	}
	return name, nil, nil
}

// tileBandOf finds the tile band above stage's instances.
func tileBandOf(r *compiler.Result, tree scheduletree.Tree, stage string, space *fusion.Space) (scheduletree.Path, error) {
	if space != nil {
		if space.TileBand == nil {
			return nil, fmt.Errorf("draw: %s is not tiled (its band is not permutable)", stage)
		}
		return space.TileBand, nil
	}
	for _, p := range r.TiledBands {
		n, err := tree.At(p)
		if err != nil || n.Kind() != scheduletree.KindBand {
			continue
		}
		for _, m := range n.Band().Schedule.Maps() {
			if m.Space().In.Name == stage {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("draw: %s is not tiled (give --tile, or --fuse post)", stage)
}

// liveSlicer picks the drawn dimensions of the tiled stage: opts.Dims,
// or the two a skewed tile member mixes, or the two innermost; the
// others are fixed at opts.At or at their first value.
func liveSlicer(all [][]int64, n int, names []string, opts TilesOptions) (slicer, error) {
	sl := slicer{names: names, row: -1, col: -1, fixed: map[int]int64{}}
	find := func(name string) (int, error) {
		if i := slices.Index(names, name); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("draw: no dimension %q (dimensions: %s)", name, strings.Join(names, ", "))
	}
	switch {
	case len(opts.Dims) > 0:
		if len(opts.Dims) != 2 || n < 2 {
			return sl, fmt.Errorf("draw: --dims wants two of the dimensions %s", strings.Join(names, ", "))
		}
		var err error
		if sl.row, err = find(opts.Dims[0]); err != nil {
			return sl, err
		}
		if sl.col, err = find(opts.Dims[1]); err != nil {
			return sl, err
		}
		if sl.row == sl.col {
			return sl, errors.New("draw: --dims names one dimension twice")
		}
	case n == 1:
		sl.col = 0
	case n >= 2:
		sl.row, sl.col = n-2, n-1
		if a, b, ok := skewedDims(all, n); ok {
			sl.row, sl.col = a, b
		}
	}
	for d := 0; d < n; d++ {
		if d == sl.row || d == sl.col {
			continue
		}
		v, ok := opts.At[names[d]]
		if !ok {
			v = math.MaxInt64
			for _, p := range all {
				v = min(v, p[d])
			}
		}
		sl.fixed[d] = v
	}
	for name := range opts.At {
		d, err := find(name)
		if err != nil {
			return sl, err
		}
		if d == sl.row || d == sl.col {
			return sl, fmt.Errorf("draw: --at %s: that dimension is drawn", name)
		}
	}
	return sl, nil
}

// skewedDims finds the first tile member whose value depends on two or
// more of the statement's dimensions (a skewed band: parallelogram
// tiles) and returns the first two of them. all holds the points with
// their tile coordinates after the n statement dimensions.
func skewedDims(all [][]int64, n int) (int, int, bool) {
	m := len(all[0]) - n
	for k := 0; k < m; k++ {
		var deps []int
		for d := 0; d < n; d++ {
			seen := map[string]int64{}
			for _, p := range all {
				q := slices.Clone(p[:n])
				q[d] = 0
				kk := key(q)
				if v, ok := seen[kk]; ok && v != p[n+k] {
					deps = append(deps, d)
					break
				}
				seen[kk] = p[n+k]
			}
		}
		if len(deps) >= 2 {
			return deps[0], deps[1], true
		}
	}
	return 0, 0, false
}

// producerSlicer slices a producer of pn dimensions like the live
// stage when their arities agree, else by its two innermost dimensions;
// a fixed value outside the footprint moves to the footprint's first.
func producerSlicer(live slicer, n, pn int, names []string, fp [][]int64) slicer {
	sl := slicer{names: names, row: -1, col: -1, fixed: map[int]int64{}}
	if pn == n {
		sl.row, sl.col = live.row, live.col
	} else if pn >= 2 {
		sl.row, sl.col = pn-2, pn-1
	} else if pn == 1 {
		sl.col = 0
	}
	for d := 0; d < pn; d++ {
		if d == sl.row || d == sl.col {
			continue
		}
		v, ok := live.fixed[d]
		has := false
		first := int64(math.MaxInt64)
		for _, p := range fp {
			has = has || ok && p[d] == v
			first = min(first, p[d])
		}
		if !has && len(fp) > 0 {
			v = first
		}
		sl.fixed[d] = v
	}
	return sl
}

// interior picks a full tile near the middle: among the tiles with the
// most points in the picture, the one whose centre is nearest the
// picture's (the first in tile order on a tie).
func interior(lp *livePanel) []int64 {
	count := make([]int, len(lp.tiles))
	sr := make([]float64, len(lp.tiles))
	sc := make([]float64, len(lp.tiles))
	var r0, r1, c0, c1 int64 = math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64
	for i, p := range lp.pts {
		t := lp.tile[i]
		count[t]++
		sr[t] += float64(p.r)
		sc[t] += float64(p.c)
		r0, r1, c0, c1 = min(r0, p.r), max(r1, p.r), min(c0, p.c), max(c1, p.c)
	}
	mr, mc := float64(r0+r1)/2, float64(c0+c1)/2
	most := slices.Max(count)
	order := make([]int, len(lp.tiles))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return slices.Compare(lp.tiles[order[a]], lp.tiles[order[b]]) < 0 })
	best, bestD := -1, math.Inf(1)
	for _, t := range order {
		if count[t] != most {
			continue
		}
		dr, dc := sr[t]/float64(count[t])-mr, sc[t]/float64(count[t])-mc
		if d := dr*dr + dc*dc; d < bestD-1e-9 {
			best, bestD = t, d
		}
	}
	return slices.Clone(lp.tiles[best])
}
