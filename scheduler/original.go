package scheduler

import (
	"fmt"
	"sort"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Original returns the program's original order as a schedule tree: a
// sequence of filters wherever the statements' schedules hold different
// constants (textual positions), and a band for each run of loop
// dimensions, so that tree.Map() orders the instances exactly as the
// statements' Schedule maps do. Band flags are computed from the
// memory-based dependences: a member is coincident when every dependence
// between instances that agree on the outer dimensions has distance 0 on
// it, and a band is permutable when every member has a non-negative
// distance on all of them.
func Original(p *scop.Program) (scheduletree.Tree, error) {
	g, err := deps.Memory(p)
	if err != nil {
		return scheduletree.Tree{}, err
	}
	var edges []*edge
	at := map[string]int{}
	for i, s := range p.Stmts {
		at[s.Name] = i
	}
	for _, d := range g.Deps {
		rel, err := withContext(p, d.Rel)
		if err != nil {
			return scheduletree.Tree{}, err
		}
		edges = append(edges, &edge{src: at[d.Source], dst: at[d.Sink], rel: rel})
	}
	b, err := newOrigBuilder(p)
	if err != nil {
		return scheduletree.Tree{}, err
	}
	all := make([]int, len(p.Stmts))
	for i := range all {
		all[i] = i
	}
	root, err := b.subtree(all, edges)
	if err != nil {
		return scheduletree.Tree{}, err
	}
	return newTree(p, root)
}

// origBuilder turns the statements' original schedules into tree nodes.
type origBuilder struct {
	p     *scop.Program
	width int
	// konst[s][k] is the value of schedule dimension k of statement s when
	// it is constant on the statement's domain.
	konst [][]*int64
}

func newOrigBuilder(p *scop.Program) (*origBuilder, error) {
	b := &origBuilder{p: p}
	if len(p.Stmts) == 0 {
		return b, nil
	}
	b.width = p.Stmts[0].Schedule.Space().NOut()
	for _, s := range p.Stmts {
		if s.Schedule.Space().NOut() != b.width {
			return nil, fmt.Errorf("scheduler: statement %s has a schedule of %d dimensions, not %d", s.Name, s.Schedule.Space().NOut(), b.width)
		}
		rng, err := s.Times()
		if err != nil {
			return nil, err
		}
		row := make([]*int64, b.width)
		for k := range row {
			if row[k], err = constantDim(rng, k); err != nil {
				return nil, err
			}
		}
		b.konst = append(b.konst, row)
	}
	return b, nil
}

// constantDim returns the value of dimension k of the set when it has one
// value for all parameters (0 for an empty set), else nil.
func constantDim(set presburger.Set, k int) (*int64, error) {
	v, fixed, err := set.DimValue(k)
	if err != nil || !fixed {
		return nil, err
	}
	return &v, nil
}

// subtree is the original order of the statements of group, with flags
// computed from edges.
func (b *origBuilder) subtree(group []int, edges []*edge) (*scheduletree.Node, error) {
	ds := make([]delta, len(edges))
	for i, e := range edges {
		t, err := e.rel.ApplyDomain(b.p.Stmts[e.src].Schedule)
		if err == nil {
			t, err = t.ApplyRange(b.p.Stmts[e.dst].Schedule)
		}
		if err == nil {
			ds[i].set, err = t.Deltas()
		}
		if err != nil {
			return nil, err
		}
		ds[i].src, ds[i].dst = e.src, e.dst
	}
	return b.build(group, 0, ds)
}

// delta is the set of time-space distance vectors of one edge.
type delta struct {
	src, dst int
	set      presburger.Set
}

// within unites the distance vectors of the edges inside group.
func (b *origBuilder) within(group []int, ds []delta) (presburger.Set, error) {
	in := map[int]bool{}
	for _, i := range group {
		in[i] = true
	}
	sp := presburger.SetSpace(b.p.Params, presburger.NewTuple("", make([]string, b.width)...))
	out := presburger.EmptySet(sp)
	for _, d := range ds {
		if in[d.src] && in[d.dst] {
			var err error
			if out, err = out.Union(d.set); err != nil {
				return out, err
			}
		}
	}
	return out, nil
}

// build is the subtree of group from schedule dimension k on.
func (b *origBuilder) build(group []int, k int, ds []delta) (*scheduletree.Node, error) {
	for ; k < b.width; k++ {
		vals, allConst := b.values(group, k)
		if !allConst {
			return b.band(group, k, ds)
		}
		if len(vals) > 1 {
			return b.split(group, k, ds)
		}
	}
	if len(group) <= 1 {
		return nil, nil
	}
	// Equal times for several statements: keep their textual order.
	parts := make([][]int, len(group))
	for i, s := range group {
		parts[i] = []int{s}
	}
	return b.sequence(parts, b.width, ds)
}

// values returns the distinct constants of dimension k over group, and
// whether the dimension is constant for every statement.
func (b *origBuilder) values(group []int, k int) (map[int64][]int, bool) {
	vals := map[int64][]int{}
	for _, s := range group {
		c := b.konst[s][k]
		if c == nil {
			return nil, false
		}
		vals[*c] = append(vals[*c], s)
	}
	return vals, true
}

// split is a sequence over the statements' constants at dimension k.
func (b *origBuilder) split(group []int, k int, ds []delta) (*scheduletree.Node, error) {
	vals, _ := b.values(group, k)
	keys := make([]int64, 0, len(vals))
	for v := range vals {
		keys = append(keys, v)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	parts := make([][]int, len(keys))
	for i, v := range keys {
		parts[i] = vals[v]
	}
	return b.sequence(parts, k+1, ds)
}

func (b *origBuilder) sequence(parts [][]int, k int, ds []delta) (*scheduletree.Node, error) {
	children := make([]*scheduletree.Node, len(parts))
	for i, part := range parts {
		child, err := b.build(part, k, ds)
		if err != nil {
			return nil, err
		}
		sets := make([]presburger.Set, len(part))
		for j, s := range part {
			sets[j] = presburger.UniverseSet(b.p.Stmts[s].Domain.Space())
		}
		f, err := presburger.UnionSetFromSets(sets...)
		if err != nil {
			return nil, err
		}
		children[i] = scheduletree.NewFilter(f, child)
	}
	return scheduletree.NewSequence(children...), nil
}

// band takes the loop dimensions from k on, up to the next dimension
// where the group splits, as one band.
func (b *origBuilder) band(group []int, k int, ds []delta) (*scheduletree.Node, error) {
	var dims []int
	j := k
	for ; j < b.width; j++ {
		vals, allConst := b.values(group, j)
		if allConst && len(vals) > 1 {
			break
		}
		if !allConst {
			dims = append(dims, j)
		}
	}
	maps := make([]presburger.Map, len(group))
	for i, s := range group {
		m, err := keepDims(b.p.Stmts[s].Schedule, dims)
		if err != nil {
			return nil, err
		}
		maps[i] = m
	}
	sched, err := presburger.UnionMapFromMaps(maps...)
	if err != nil {
		return nil, err
	}
	delta, err := b.within(group, ds)
	if err != nil {
		return nil, err
	}
	perm, coinc, err := bandFlags(delta, k, dims)
	if err != nil {
		return nil, err
	}
	child, err := b.build(group, j, ds)
	if err != nil {
		return nil, err
	}
	return scheduletree.NewBand(scheduletree.Band{Schedule: sched, Permutable: perm, Coincident: coinc}, child), nil
}

// keepDims projects the schedule onto the given output dimensions.
func keepDims(m presburger.Map, dims []int) (presburger.Map, error) {
	keep := map[int]bool{}
	for _, d := range dims {
		keep[d] = true
	}
	var err error
	for d := m.Space().NOut() - 1; d >= 0 && err == nil; d-- {
		if !keep[d] {
			m, err = m.ProjectOut(presburger.DimOut, d, 1)
		}
	}
	return m, err
}

// bandFlags computes the flags of a band over the time dimensions dims
// from the distance vectors delta of the dependences inside the band's
// statements: only those with zero distance before dimension k are live
// at the band.
func bandFlags(delta presburger.Set, k int, dims []int) (bool, []bool, error) {
	n := delta.Space().NOut()
	np := delta.Space().NParam()
	var eqs [][]int64
	for d := 0; d < k; d++ {
		row := make([]int64, 1+np+n)
		row[1+np+d] = 1
		eqs = append(eqs, row)
	}
	live, err := restrictSet(delta, eqs, nil)
	if err != nil {
		return false, nil, err
	}
	some := func(d int, sign int64) (bool, error) {
		row := make([]int64, 1+np+n)
		row[0], row[1+np+d] = -1, sign
		s, err := restrictSet(live, nil, [][]int64{row})
		if err != nil {
			return false, err
		}
		empty, err := s.IsEmpty()
		return !empty, err
	}
	perm := true
	coinc := make([]bool, len(dims))
	for i, d := range dims {
		neg, err := some(d, -1)
		if err != nil {
			return false, nil, err
		}
		pos, err := some(d, 1)
		if err != nil {
			return false, nil, err
		}
		perm = perm && !neg
		coinc[i] = !neg && !pos
	}
	return perm, coinc, nil
}

func restrictSet(s presburger.Set, eqs, ineqs [][]int64) (presburger.Set, error) {
	c, err := presburger.SetFromConstraints(s.Space(), eqs, ineqs)
	if err != nil {
		return s, err
	}
	return s.Intersect(c)
}
