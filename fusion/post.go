package fusion

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// Options configure Post.
type Options struct {
	// Sizes are the tile sizes of the tiled spaces' bands (member k gets
	// tiling.SizeOf(Sizes, k)); empty means DefaultSizes.
	Sizes []int64
	// Inner, when Sizes is empty, sizes the innermost members of each
	// tiled band in place of DefaultSizes (the last size on the innermost
	// member); the outer members keep their defaults (1, or whole when
	// small). Bands of different depths then get the same tiles of
	// their image rows and columns, which Sizes, listed from the
	// outermost member, cannot say.
	Inner []int64
	// Parallel is m, the number of leading parallel tile members a tiled
	// space must keep: 1 for the CPU, 2 for a GPU mapping. A producer
	// whose band has fewer leading coincident members is not fused.
	Parallel int
	// MaxRecompute bounds the estimated recomputation of a fused space
	// (its extensions' instances over all tiles against its own
	// instances): a space above it keeps its own tiles. Zero means
	// DefaultMaxRecompute; a negative value, no bound.
	MaxRecompute float64
	// Estimate gives parameter values for that estimate (the sizes the
	// code will run at, when known); a parameter it lacks takes 2048.
	Estimate map[string]int64
	// Check, for a program of one computation space (tiled as a whole by
	// package tiling), is tiling.Policy.Check: with it the tiles' point
	// loops are distributed for vectorization where the check accepts
	// the tree (a time-tiled stencil's statements).
	Check func(scheduletree.Tree) (bool, error)
}

// DefaultSizes are the tile sizes of the innermost members of a tiled
// space's band on the CPU (m = 1) when none are given: 16 rows by 1024
// columns of a row-major image; members further out (the channels of an
// image) get tiles of 1, so that the outer tile loop, the parallel one,
// has many iterations. A one-member band gets 1024. Long rows keep each
// tile's innermost loops long (few vector prologues and epilogues per
// element, streams the prefetchers follow) and few rows keep its buffers
// small; against the former default of 32 x 256, measured on the PolyMage
// suite (2 threads, interleaved, two runs): unsharp_mask 1.23-1.26x,
// camera_pipe 1.10-1.14x, bilateral_grid 1.09x, pyramid_blending
// 1.06-1.09x, local_laplacian 1.07-1.08x faster; harris, interpolate,
// histeq and producer_consumer within 2%; blur bimodal either way.
// Post raises the rows for producers that call the C library (taller.go)
// and narrows the columns for compute-dense tiles whose buffers then fit
// L1 (narrow.go).
var DefaultSizes = []int64{16, 1024}

// DefaultBandSizes are the default sizes for a GPU mapping (m = 2), whose
// blocks hold the tile-local buffers in shared memory, and for a program
// with no intermediate space, one space tiled as a whole by package tiling
// or several live-out ones (the loop nests of PolyBench): 32 by 256.
var DefaultBandSizes = []int64{32, 256}

// defaultInner is the default inner sizes for m leading parallel tile
// members and the computation spaces sp: DefaultBandSizes where every
// space is live-out, so that nothing can be fused (PolyBench's loop nests:
// trmm ran 3.4x slower at 16 x 1024 than at 32 x 256, 1.29 against 0.38 s
// at LARGE).
func defaultInner(m int, sp []*Space) []int64 {
	if m >= 2 {
		return DefaultBandSizes
	}
	for _, s := range sp {
		if !s.LiveOut {
			return DefaultSizes
		}
	}
	return DefaultBandSizes
}

// InnerSizes are the tile sizes of a band of n members that inner sizes
// its innermost members: inner on the innermost members, 1 on the others.
func InnerSizes(n int, inner []int64) []int64 {
	out := make([]int64, n)
	for k := range out {
		out[k] = 1
		if i := len(inner) - (n - k); i >= 0 {
			out[k] = inner[i]
		}
	}
	return out
}

// maxWhole is the largest constant extent of an outer band member that
// the default sizes keep whole in one tile.
const maxWhole = 8

// wholeSmallMembers gives an outer band member (one that defaultSizes
// tiles by 1) whose values span a constant range of at most maxWhole its
// whole range as tile size: the colour channels of an image then share a
// tile, so that the producers all channels read (an image's red, green
// and blue planes, its luminance) are computed once per tile, not once
// per channel. sched is the band's schedule over dom.
func wholeSmallMembers(sizes []int64, sched presburger.UnionMap, dom presburger.UnionSet) {
	if len(sizes) <= 2 {
		return
	}
	sched, err := sched.IntersectDomain(dom)
	if err != nil {
		return
	}
	times, err := sched.Range()
	if err != nil || len(times.Sets()) != 1 {
		return
	}
	box, err := times.Sets()[0].BoxHull()
	if err != nil || len(box) != len(sizes) {
		return
	}
	for k := range sizes[:len(sizes)-2] {
		if lo, hi, okLo, okHi := box[k].Range(); okLo && okHi && hi >= lo && hi-lo+1 <= maxWhole {
			sizes[k] = hi - lo + 1
		}
	}
}

// Result is what Post did.
type Result struct {
	Tree scheduletree.Tree
	// Spaces are the computation spaces in program order, each with its
	// decision; empty when the tree has no outer sequence (one space,
	// tiled as a whole by package tiling's policy).
	Spaces []*Space
	// TileBands are the paths of the tile bands in Tree.
	TileBands []scheduletree.Path
	// Buffers are the intermediate arrays promoted to tile-local buffers
	// (a "promote[A]" mark below their group's tile band).
	Buffers []Buffer
	// Inner are the sizes of the tiled bands' innermost members where
	// Options.Sizes gave none (Options.Inner or the default for m).
	Inner []int64
	// Taller says why the default rows were raised (see maxLibraryRows);
	// empty when they were not.
	Taller string
	// Narrower says why the default columns were narrowed (see
	// l1Bytes); empty when they were not.
	Narrower string
}

// Post applies post-tiling fusion to the conservative tree t of program
// p (each computation space its own child of the outer sequence, as the
// scheduler's min fusion gives): see the package documentation.
func Post(t scheduletree.Tree, p *scop.Program, flow *deps.Flow, opts Options) (*Result, error) {
	sizes := opts.Sizes
	seq, ok := outerSequence(t)
	if !ok {
		if len(sizes) == 0 {
			sizes = DefaultBandSizes
			if len(opts.Inner) > 0 {
				sizes = opts.Inner
			}
		}
		tt, tiled, err := tiling.Apply(t, tiling.Policy{Sizes: sizes, Check: opts.Check})
		return &Result{Tree: tt, TileBands: tiled}, err
	}
	pf, err := decideAll(t, seq, p, flow, opts, opts.Inner)
	if err != nil {
		return nil, err
	}
	// With the default sizes, the rows and columns follow the fused
	// producers' costs and buffers.
	defaults := len(sizes) == 0 && len(opts.Inner) == 0 && opts.Parallel <= 1
	redo := func(inner []int64) (*post, error) { return decideAll(t, seq, p, flow, opts, inner) }
	var taller, narrower string
	if defaults {
		if pf, taller, err = tallerForLibrary(p, pf, redo); err != nil {
			return nil, err
		}
	}
	bufs, err := pf.buffers(p)
	if err != nil {
		return nil, err
	}
	if defaults {
		if pf, bufs, narrower, err = narrowForL1(p, pf, bufs, redo); err != nil {
			return nil, err
		}
	}
	pf.promoted = bufs
	if err := pf.rebuild(); err != nil {
		return nil, err
	}
	sp := pf.spaces
	r := &Result{Tree: pf.t, Spaces: sp, Buffers: bufs, Inner: pf.inner, Taller: taller, Narrower: narrower}
	for _, s := range sp {
		if s.TileBand != nil {
			r.TileBands = append(r.TileBands, s.TileBand)
		}
	}
	return r, nil
}

// decideAll finds the computation spaces of t (whose outer sequence is
// at seq) and decides, from the last to the first, which are fused into
// which tiles, the tiled bands' innermost members getting inner (the
// default for the target when empty).
func decideAll(t scheduletree.Tree, seq scheduletree.Path, p *scop.Program, flow *deps.Flow, opts Options, inner []int64) (*post, error) {
	sp, err := spaces(t, seq, p)
	if err != nil {
		return nil, err
	}
	linkConsumers(sp, flow.May)
	if len(inner) == 0 {
		inner = defaultInner(opts.Parallel, sp)
	}
	pf := &post{t: t, seq: seq, spaces: sp, flow: flow, sizes: opts.Sizes, inner: inner, m: opts.Parallel, tiles: map[int]presburger.UnionMap{},
		maxRecompute: opts.MaxRecompute, estimate: opts.Estimate}
	if pf.writes, err = p.MayWriteRelation(); err != nil {
		return nil, err
	}
	if pf.reads, err = p.ReadRelation(); err != nil {
		return nil, err
	}
	if pf.maxRecompute == 0 {
		pf.maxRecompute = DefaultMaxRecompute
	}
	for i := len(sp) - 1; i >= 0; i-- {
		if err := pf.decide(sp[i]); err != nil {
			return nil, fmt.Errorf("fusion: space %d (%v): %w", i, sp[i].Stmts, err)
		}
	}
	return pf, nil
}

type post struct {
	t      scheduletree.Tree
	seq    scheduletree.Path
	spaces []*Space
	flow   *deps.Flow
	sizes  []int64
	inner  []int64
	m      int
	// maxRecompute and estimate: see Options.
	maxRecompute float64
	estimate     map[string]int64
	// tiles[i] maps the instances of tiled space i to its tile
	// coordinates.
	tiles map[int]presburger.UnionMap
	// reverse flow: sink instance -> source instance.
	from *presburger.UnionMap
	// promoted are the tile-local buffers.
	promoted []Buffer
	// writes and reads are the program's access relations (may-writes
	// and reads, may-reads included).
	writes, reads presburger.UnionMap
	boxes         boxMemo
}

// groups returns, for space s, the tiled spaces whose tiles must compute
// its values: the tiled consumers themselves and the groups of fused ones.
func (pf *post) groups(s *Space) []int {
	var out []int
	for _, c := range s.consumers {
		cs := pf.spaces[c]
		if cs.Fused() {
			for _, g := range cs.FusedInto {
				out = appendNewInt(out, g)
			}
		} else {
			out = appendNewInt(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// decide fuses s into the tiles of its consumers' groups, or tiles it.
func (pf *post) decide(s *Space) error {
	if !s.LiveOut && len(s.consumers) == 0 {
		return pf.kill(s, "no later space reads its values and none lives after the program")
	}
	reason := pf.fusable(s)
	var exts []presburger.UnionMap
	var groups []int // those whose tiles need some of s's instances
	if reason == "" {
		for _, g := range pf.groups(s) {
			e, err := pf.extension(s, g)
			if err != nil {
				return err
			}
			if empty, err := e.IsEmpty(); err != nil {
				return err
			} else if empty {
				// Only instances that no tile runs (dead ones of a fused
				// consumer) read s here.
				continue
			}
			if !pf.boxes.boxed(e) {
				// A border ring (x = 0 or x = floor(C/2) + 1) needed at
				// some tiles only: take the ring instances that write
				// within the box of what the tiles read instead.
				if r, ok, err := pf.readBox(s, g); err != nil {
					return err
				} else if ok && pf.boxes.boxed(r) {
					e = r
				}
			}
			if !pf.boxes.boxed(e) {
				// Each tile would recompute a region that grows with the
				// image (a pyramid level whose hull lost the tile): the
				// recomputation would cost more than the locality gains.
				reason = fmt.Sprintf("the instances a tile of space %d needs fit no box of constant size", g)
				break
			}
			if same, err := tileIndependent(e); err != nil {
				return err
			} else if same {
				// A lookup table or a matrix that every tile reads whole:
				// fusing would recompute all of it in every tile.
				reason = fmt.Sprintf("every tile of space %d needs the same instances (computed once instead)", g)
				break
			}
			if r, ok := recomputation(e, s.domain, pf.estimate, pf.boxes.box); ok {
				s.Recompute = max(s.Recompute, r)
				if pf.maxRecompute > 0 && r > pf.maxRecompute {
					reason = fmt.Sprintf("the tiles of space %d would compute its instances %.1f times (estimated; the limit is %.1f)", g, r, pf.maxRecompute)
					break
				}
			}
			exts, groups = append(exts, e), append(groups, g)
		}
		if reason == "" && len(exts) == 0 {
			return pf.kill(s, "the instances that read its values are never executed")
		}
	}
	if reason == "" && len(exts) > 1 {
		// Algorithm 3: fuse a shared intermediate into several groups only
		// when no instance would be computed twice.
		reason = pf.disjoint(groups, exts)
	}
	if reason == "" {
		s.FusedInto, s.Extension = groups, exts
		return nil
	}
	s.Reason = reason
	return pf.tile(s)
}

// kill removes s, dead code: nothing that runs reads its values and none
// lives after the program (a pyramid level's border ring that no finer
// level reads). Removing it also frees its arrays for tile-local buffers,
// and its producers from a consumer.
func (pf *post) kill(s *Space, why string) error {
	s.Dead, s.Reason = true, why
	for _, o := range pf.spaces[:s.Index] {
		o.consumers = slices.DeleteFunc(o.consumers, func(c int) bool { return c == s.Index })
	}
	return nil
}

// fusable returns why s cannot be fused, or "".
func (pf *post) fusable(s *Space) string {
	switch {
	case s.LiveOut:
		return "its values live after the program"
	case len(s.consumers) == 0:
		return "no later space reads its values"
	case !s.band:
		return "it has no band"
	case pf.m > s.Coincident:
		return fmt.Sprintf("m > n: the tiles keep %d parallel dimensions and its band has %d leading coincident members", pf.m, s.Coincident)
	}
	if self, err := pf.selfFlow(s); err != nil {
		return err.Error()
	} else if self {
		// The extension would have to be closed under the space's own
		// dataflow (a transitive closure, which Presburger arithmetic
		// cannot express in general).
		return "its instances read values it computes itself"
	}
	for _, a := range s.Writes {
		// An update (A[i] += ...) applied again in an overlapping tile
		// would read what it wrote there: a recomputed space must not read
		// the elements it writes, whoever computed their values.
		if r, err := overlap(s.written, s.read, a); err != nil {
			return err.Error()
		} else if r {
			return fmt.Sprintf("it reads elements of %s it writes (an update, which recomputation would apply twice)", a)
		}
	}
	for _, c := range s.consumers {
		if _, tiled := pf.tiles[c]; !tiled && !pf.spaces[c].Fused() {
			return fmt.Sprintf("its consumer, space %d, has no tiles", c)
		}
	}
	// Moving s to the position of its groups must not reorder it with
	// another space touching its data: none between s and the last group
	// may write what s reads, or write or read what s writes unless it is
	// a consumer fused along.
	// The elements decide: spaces writing other parts of one array (the
	// channels of an image, one space each) do not conflict.
	last := slices.Max(pf.groups(s))
	for _, o := range pf.spaces[s.Index+1 : last+1] {
		if o.Dead {
			continue
		}
		for _, a := range o.Writes {
			r, err := overlap(o.written, s.read, a)
			if err != nil {
				return err.Error()
			}
			w, err := overlap(o.written, s.written, a)
			if err != nil {
				return err.Error()
			}
			if r || w {
				return fmt.Sprintf("space %d writes %s in between", o.Index, a)
			}
		}
		if slices.Contains(s.consumers, o.Index) {
			continue
		}
		for _, a := range o.Reads {
			if r, err := overlap(o.read, s.written, a); err != nil {
				return err.Error()
			} else if r {
				return fmt.Sprintf("space %d reads %s in between", o.Index, a)
			}
		}
	}
	return ""
}

// selfFlow reports whether some instance of s reads a value another
// instance of s wrote.
func (pf *post) selfFlow(s *Space) (bool, error) {
	f, err := pf.flow.May.IntersectDomain(s.domain)
	if err == nil {
		f, err = f.IntersectRange(s.domain)
	}
	if err != nil {
		return false, err
	}
	empty, err := f.IsEmpty()
	return !empty, err
}

// sourceOf returns the reverse value flow: sink instance -> the source
// instances whose values it reads.
func (pf *post) sourceOf() (presburger.UnionMap, error) {
	if pf.from == nil {
		r, err := pf.flow.May.Reverse()
		if err != nil {
			return r, err
		}
		pf.from = &r
	}
	return *pf.from, nil
}

// extension returns the map from the tile coordinates of group g to the
// instances of s its tiles need: what the tiled space and the spaces
// fused into it read from s.
func (pf *post) extension(s *Space, g int) (presburger.UnionMap, error) {
	from, err := pf.sourceOf()
	if err != nil {
		return from, err
	}
	from, err = from.IntersectRange(s.domain)
	if err != nil {
		return from, err
	}
	need, err := pf.need(s, g)
	if err != nil {
		return need, err
	}
	e, err := need.ApplyRange(from)
	if err != nil {
		return e, err
	}
	return hull(e, s.domain)
}

// need maps the tile coordinates of group g to the instances its tiles
// run that may read from s: the tiled space's and those of s's consumers
// fused into g.
func (pf *post) need(s *Space, g int) (presburger.UnionMap, error) {
	need, err := pf.tiles[g].Reverse() // o -> instances of g
	if err != nil {
		return need, err
	}
	for _, c := range s.consumers {
		cs := pf.spaces[c]
		if k := slices.Index(cs.FusedInto, g); k >= 0 {
			if need, err = need.Union(cs.Extension[k]); err != nil {
				return need, err
			}
		}
	}
	return need, nil
}

// hull over-approximates each statement's part of the extension e by one
// convex piece (its simple hull) within the statement's domain dom. An
// extension may hold more instances than the tiles need: they are valid
// instances, and what they read is derived from the hull in turn, so
// they compute right values; the hull only keeps the pieces of deep
// producer chains (pyramids of up- and down-sampling) from multiplying.
func hull(e presburger.UnionMap, dom presburger.UnionSet) (presburger.UnionMap, error) {
	var maps []presburger.Map
	for _, m := range e.Maps() {
		h, err := m.SimpleHull()
		if err != nil {
			return e, err
		}
		if h, err = dropLocals(h); err != nil {
			return e, err
		}
		maps = append(maps, h)
	}
	if len(maps) == 0 {
		return e, nil
	}
	u, err := presburger.UnionMapFromMaps(maps...)
	if err != nil {
		return e, err
	}
	return u.IntersectRange(dom)
}

// dropLocals replaces a hull that keeps existential variables (the
// instances of a producer read at 2y-1..2y+1: exists e = floor((x+1)/2)
// ...) by its convex hull, their rational projection, when that still
// fits a box of constant size per tile. Code generation would otherwise
// test the existentials' floor divisions at every point of the
// producer's loops, which keeps them from vectorizing; the convex hull
// only adds instances between the needed ones, valid ones within the
// box.
func dropLocals(h presburger.Map) (presburger.Map, error) {
	locals := false
	for _, c := range h.Constraints() {
		locals = locals || c.NLocal > 0
	}
	if !locals {
		return h, nil
	}
	c, err := h.ConvexHullWithin(hullEntries)
	if err != nil {
		return h, err
	}
	if _, _, ok := box(c, c.Space().NOut()); !ok {
		return h, nil
	}
	return c, nil
}

// disjoint returns "" when no instance of s is in two groups' images.
func (pf *post) disjoint(groups []int, exts []presburger.UnionMap) string {
	imgs := make([]presburger.UnionSet, len(exts))
	for i, e := range exts {
		r, err := e.Range()
		if err != nil {
			return err.Error()
		}
		imgs[i] = r
		for j := 0; j < i; j++ {
			both, err := imgs[j].Intersect(r)
			if err != nil {
				return err.Error()
			}
			if empty, err := both.IsEmpty(); err != nil || !empty {
				return fmt.Sprintf("the tiles of spaces %d and %d need overlapping instances", groups[j], groups[i])
			}
		}
	}
	return ""
}

// tile gives s its own tiles: its band, when permutable, is tiled.
func (pf *post) tile(s *Space) error {
	s.Tiled = true
	if !s.band {
		return nil
	}
	b := s.subtree.Band()
	if !b.Permutable {
		return nil
	}
	sizes := InnerSizes(b.Members(), pf.inner)
	if pf.m <= 1 {
		// (A GPU mapping takes the outer point members for threads: a
		// whole channel member would take threads from the rows.)
		wholeSmallMembers(sizes, b.Schedule, s.domain)
	}
	if len(pf.sizes) > 0 {
		for k := range sizes {
			sizes[k] = tiling.SizeOf(pf.sizes, k)
		}
	}
	sub, err := scheduletree.NewTree(scheduletree.NewDomain(s.domain, s.subtree))
	if err != nil {
		return err
	}
	if sub, err = sub.TileBand(scheduletree.Path{0}, sizes); err != nil {
		return err
	}
	s.subtree = sub.Root().Child(0)
	sched := s.subtree.Band().Schedule
	if sched, err = sched.IntersectDomain(s.domain); err != nil {
		return err
	}
	pf.tiles[s.Index] = sched
	if tb := s.subtree.Band(); !tb.Coincident[0] {
		return pf.markOuterParallel(s, sched)
	}
	return nil
}

// markOuterParallel flags the outer member of s's tile band coincident
// when outerParallel proves it.
func (pf *post) markOuterParallel(s *Space, sched presburger.UnionMap) error {
	ok, err := pf.outerParallel(s, sched)
	if err != nil || !ok {
		return err
	}
	b := s.subtree.Band()
	b.Coincident[0] = true
	s.subtree = scheduletree.NewBand(b, s.subtree.Child(0))
	return nil
}

// rebuild writes the decisions into the tree: a tiled space with fused
// producers gets, below its tile band, an extension with their
// instances and a sequence of their subtrees before its point band;
// fused spaces' own subtrees are hidden.
func (pf *post) rebuild() error {
	n, err := pf.t.At(pf.seq)
	if err != nil {
		return err
	}
	children := n.Children()
	for _, s := range pf.spaces {
		f := children[s.Index]
		if s.Fused() || s.Dead {
			children[s.Index] = scheduletree.NewFilter(f.Filter(), scheduletree.NewMark(scheduletree.MarkSkipped, s.subtree))
			continue
		}
		sub := s.subtree
		if _, tiled := pf.tiles[s.Index]; tiled {
			sub, err = pf.fuseInto(s)
			if err != nil {
				return err
			}
		}
		children[s.Index] = scheduletree.NewFilter(f.Filter(), sub)
		if _, tiled := pf.tiles[s.Index]; tiled {
			s.TileBand = pf.seq.Child(s.Index).Child(0)
		}
	}
	pf.t, err = pf.t.Replace(pf.seq, scheduletree.NewSequence(children...))
	return err
}

// fuseInto returns the tiled subtree of s with its fused producers.
func (pf *post) fuseInto(s *Space) (*scheduletree.Node, error) {
	var filters []*scheduletree.Node
	ext := presburger.UnionMap{}
	first := true
	for _, o := range pf.spaces[:s.Index] {
		k := slices.Index(o.FusedInto, s.Index)
		if k < 0 {
			continue
		}
		var err error
		if first {
			ext, first = o.Extension[k], false
		} else if ext, err = ext.Union(o.Extension[k]); err != nil {
			return nil, err
		}
		filters = append(filters, scheduletree.NewFilter(o.filter, o.subtree))
	}
	tileBand := s.subtree
	if len(filters) == 0 {
		return tileBand, nil
	}
	point := tileBand.Child(0)
	filters = append(filters, scheduletree.NewFilter(s.filter, point))
	body := scheduletree.NewExtension(ext, scheduletree.NewSequence(filters...))
	for i := len(pf.promoted) - 1; i >= 0; i-- {
		if b := pf.promoted[i]; b.Group == s.Index {
			body = scheduletree.NewMark(scheduletree.PromoteMark(b.Array), body)
		}
	}
	return scheduletree.NewBand(tileBand.Band(), body), nil
}

// tileIndependent reports whether every tile of e (tile -> instances)
// needs the same instances: e is the product of its domain and range.
func tileIndependent(e presburger.UnionMap) (bool, error) {
	for _, m := range e.Maps() {
		dom, err := m.Domain()
		if err != nil {
			return false, err
		}
		rng, err := m.Range()
		if err != nil {
			return false, err
		}
		prod := presburger.UniverseMap(m.Space())
		if prod, err = prod.IntersectDomain(dom); err == nil {
			prod, err = prod.IntersectRange(rng)
		}
		if err != nil {
			return false, err
		}
		if ok, err := prod.IsSubset(m); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}
