package fusion

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// tree assembles the schedule tree: the root functions in program order
// under the outermost sequence, the others hidden there and computed
// through the extensions of their hosts' bands.
func (b *callBuilder) tree() (scheduletree.Tree, error) {
	dom, err := b.p.Domains()
	if err != nil {
		return scheduletree.Tree{}, err
	}
	var children []*scheduletree.Node
	for _, f := range b.funcs {
		filter, err := b.filter(f)
		if err != nil {
			return scheduletree.Tree{}, err
		}
		var sub *scheduletree.Node
		if f.host == nil {
			sub, err = b.subtree(f)
		} else {
			sub, err = b.plain(f)
			sub = scheduletree.NewMark(scheduletree.MarkSkipped, sub)
		}
		if err != nil {
			return scheduletree.Tree{}, err
		}
		children = append(children, scheduletree.NewFilter(filter, sub))
	}
	root := scheduletree.NewSequence(children...)
	for i := len(b.funcs) - 1; i >= 0; i-- {
		if f := b.funcs[i]; f.storeDepth == 0 && f.fold != nil {
			root = scheduletree.NewMark(scheduletree.PromoteMark(f.fs.Name), root)
		}
	}
	return scheduletree.NewTree(scheduletree.NewDomain(dom, root))
}

// filter is the instances of f's statements.
func (b *callBuilder) filter(f *callFunc) (presburger.UnionSet, error) {
	var sets []presburger.Set
	for _, s := range f.stmts {
		sets = append(sets, s.Domain)
	}
	return presburger.UnionSetFromSets(sets...)
}

// plain is f's loops without what is computed inside them (the hidden
// original of a function computed elsewhere).
func (b *callBuilder) plain(f *callFunc) (*scheduletree.Node, error) {
	if !f.pure {
		return b.original(f)
	}
	band, err := b.band(f, 0, len(f.loops))
	if err != nil || len(f.loops) == 0 {
		return nil, err
	}
	return scheduletree.NewBand(band, nil), nil
}

// original is the original order of a function with updates.
func (b *callBuilder) original(f *callFunc) (*scheduletree.Node, error) {
	q := *b.p
	q.Stmts = f.stmts
	t, err := scheduler.Original(&q)
	if err != nil {
		return nil, err
	}
	return t.Root().Child(0), nil
}

// subtree is f's loops, split where functions are computed or stored
// inside them, parallel or vector loops begin, with the extensions and
// buffers at those places.
func (b *callBuilder) subtree(f *callFunc) (*scheduletree.Node, error) {
	if !f.pure {
		return b.original(f)
	}
	n := len(f.loops)
	if n == 0 {
		return nil, nil
	}
	cuts := []int{0, n}
	for _, g := range b.funcs {
		if g.host == f {
			cuts = append(cuts, g.level+1)
		}
		if g.storeHost == f && g.storeDepth > 0 {
			cuts = append(cuts, g.storeLevel+1)
		}
	}
	for k, l := range f.loops {
		if l.parallel || l.vector {
			cuts = append(cuts, k)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	return b.segment(f, cuts, 0)
}

// segment builds the band of loops cuts[i]..cuts[i+1]-1 and what is
// below it.
func (b *callBuilder) segment(f *callFunc, cuts []int, i int) (*scheduletree.Node, error) {
	from, to := cuts[i], cuts[i+1]
	var inner *scheduletree.Node
	var err error
	if i+2 < len(cuts) {
		if inner, err = b.segment(f, cuts, i+1); err != nil {
			return nil, err
		}
	}
	k := to - 1
	var kids []*scheduletree.Node
	var ext presburger.UnionMap
	first := true
	for _, g := range b.funcs {
		if g.host != f || g.level != k {
			continue
		}
		for _, s := range g.stmts {
			e, err := presburger.UnionMapFromMaps(g.ext[s.Name])
			if err != nil {
				return nil, err
			}
			if first {
				ext, first = e, false
			} else if ext, err = ext.Union(e); err != nil {
				return nil, err
			}
		}
		filter, err := b.filter(g)
		if err != nil {
			return nil, err
		}
		sub, err := b.subtree(g)
		if err != nil {
			return nil, err
		}
		kids = append(kids, scheduletree.NewFilter(filter, sub))
	}
	if len(kids) > 0 {
		filter, err := b.filter(f)
		if err != nil {
			return nil, err
		}
		kids = append(kids, scheduletree.NewFilter(filter, inner))
		inner = scheduletree.NewExtension(ext, scheduletree.NewSequence(kids...))
	}
	for j := len(b.funcs) - 1; j >= 0; j-- {
		if g := b.funcs[j]; g.storeHost == f && g.storeDepth > 0 && g.storeLevel == k {
			inner = scheduletree.NewMark(scheduletree.PromoteMark(g.fs.Name), inner)
		}
	}
	band, err := b.band(f, from, to)
	if err != nil {
		return nil, err
	}
	node := scheduletree.NewBand(band, inner)
	switch l := f.loops[from]; {
	case l.vector:
		node = scheduletree.NewMark(scheduletree.MarkVector, node)
	case l.parallel:
		node = scheduletree.NewMark(scheduletree.MarkParallel, node)
	}
	return node, nil
}

// band is loops from..to-1 of f as a band over f's statements.
func (b *callBuilder) band(f *callFunc, from, to int) (scheduletree.Band, error) {
	var maps []presburger.Map
	for _, s := range f.stmts {
		m, err := b.bandRel(f, s, from, to)
		if err != nil {
			return scheduletree.Band{}, err
		}
		maps = append(maps, m)
	}
	sched, err := presburger.UnionMapFromMaps(maps...)
	if err != nil {
		return scheduletree.Band{}, err
	}
	band := scheduletree.Band{Schedule: sched}
	for k, l := range f.loops[from:to] {
		band.Coincident = append(band.Coincident, l.parallel || l.vector)
		opt := scheduletree.OptionDefault
		switch {
		case l.unroll:
			opt = scheduletree.OptionUnroll
		case l.blocks && from+k+1 == to && to < len(f.loops) && f.loops[to].vector:
			// Full blocks apart: their vector loop has a constant
			// trip count, as Halide's whole vectors.
			opt = scheduletree.OptionSeparate
		}
		band.Options = append(band.Options, opt)
	}
	return band, nil
}

// checkParallel checks every parallel or vector loop: the function does
// not read its own values, nothing is computed inside a vector loop,
// and what is computed inside a parallel loop is stored inside it too
// (iterations share no storage).
func (b *callBuilder) checkParallel() error {
	for _, f := range b.funcs {
		for k, l := range f.loops {
			if !l.parallel && !l.vector {
				continue
			}
			call := "Parallel"
			if l.vector {
				call = "Vectorize"
			}
			for _, m := range b.flow.May.Maps() {
				if b.byStmt[m.Space().In.Name] == f && b.byStmt[m.Space().Out.Name] == f {
					return scop.Errorf(l.at, "%s of %s.%s: %s reads its own values, so iterations depend on each other", call, f.fs.Name, l.name, f.fs.Name)
				}
			}
			for _, g := range b.funcs {
				if g == f || !b.encloses(f, k, g) {
					continue
				}
				if l.vector {
					return scop.Errorf(l.at, "Vectorize of %s.%s: %s is computed inside the vectorized loop", f.fs.Name, l.name, g.fs.Name)
				}
				if g.storeDepth <= prefixLen(f, k)-1 {
					return scop.Errorf(l.at, "Parallel of %s.%s: %s is computed inside the loop but stored outside it, so its iterations would share %s's storage (store it inside: StoreAt or the default)",
						f.fs.Name, l.name, g.fs.Name, g.fs.Name)
				}
			}
		}
	}
	return nil
}
