package scheduler

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// scheduler holds the state of one Schedule call.
type scheduler struct {
	p     *scop.Program
	np    int
	opt   Options
	stmts []*stmt
	orig  *origBuilder // for groups Pluto cannot schedule
	// parallelAbove counts the bands with a coincident member around the
	// node being scheduled.
	parallelAbove int
	// work is what is left of the scheduling budget (Options.MaxWork).
	work presburger.RowsWork
}

// Schedule computes a Pluto-style schedule tree for p respecting the
// memory-based dependences g (see the package documentation), within the
// scheduling budget (Options.MaxWork; a *BudgetError past it).
func Schedule(p *scop.Program, g *deps.Graph, opt Options) (t scheduletree.Tree, err error) {
	if g == nil {
		return scheduletree.Tree{}, fmt.Errorf("scheduler: no dependence graph")
	}
	s := &scheduler{p: p, np: len(p.Params), opt: opt}
	s.work = presburger.RowsWork{Ops: math.MaxInt64, Entries: opt.maxWork()}
	defer s.recoverWork(&err)
	at := map[string]int{}
	group := make([]int, len(p.Stmts))
	for i, st := range p.Stmts {
		at[st.Name] = i
		group[i] = i
		s.stmts = append(s.stmts, &stmt{name: st.Name, dim: st.Domain.Space().NOut(), space: st.Domain.Space()})
	}
	edges, err := buildEdges(p, g, at)
	if err != nil {
		return scheduletree.Tree{}, err
	}
	root, err := s.node(group, edges)
	if err != nil {
		return scheduletree.Tree{}, err
	}
	return newTree(p, root)
}

// node schedules the statements of group, whose pairs in edges are not
// yet ordered by the levels above.
func (s *scheduler) node(group []int, edges []*edge) (*scheduletree.Node, error) {
	return s.nodeWith(group, edges, map[string]bool{})
}

// nodeWith is node with cache holding the answers of hyperplaneExists for
// group and edges at the current ranks.
func (s *scheduler) nodeWith(group []int, edges []*edge, cache map[string]bool) (*scheduletree.Node, error) {
	needRank := false
	for _, i := range group {
		needRank = needRank || !s.stmts[i].full()
	}
	comps := sccs(group, edgePairs(edges))
	if !needRank {
		switch {
		case len(edges) == 0:
			return s.leaf(group)
		case len(comps) == 1:
			return s.original(group, edges)
		}
		return s.sequence(comps, edges)
	}
	parts, err := s.partition(comps, edges, cache)
	if err != nil {
		return nil, fmt.Errorf("scheduler: fusion of %s: %w", s.names(group), err)
	}
	if len(parts) > 1 {
		return s.sequence(parts, edges)
	}
	b, err := s.findBand(group, edges, comps, cache)
	if err != nil {
		return nil, fmt.Errorf("scheduler: band of %s: %w", s.names(group), err)
	}
	if len(b.members) == 0 {
		if b.over && s.opt.Fuse == FuseMax && len(comps) > 1 {
			// The fused band is too expensive to find: schedule the
			// group by FuseSmart's rules instead (nothing has changed,
			// the feasibility answers stand).
			return s.withFuse(FuseSmart, func() (*scheduletree.Node, error) { return s.nodeWith(group, edges, cache) })
		}
		if len(comps) > 1 {
			return s.sequence(comps, edges)
		}
		return s.original(group, edges)
	}
	if s.opt.Fuse == FuseSmart && len(comps) > 1 && !s.opt.KeepOrder && s.localitySplit(comps, b) {
		for _, i := range group {
			s.stmts[i].basis = s.stmts[i].basis[:b.outer[i]]
		}
		return s.sequence(comps, edges)
	}
	rest, err := s.refine(edges, b)
	if err != nil {
		return nil, fmt.Errorf("scheduler: dependences left by the band of %s: %w", s.names(group), err)
	}
	parallel := slices.Contains(b.coincident, true)
	if parallel {
		s.parallelAbove++
	}
	child, err := s.node(group, rest)
	if parallel {
		s.parallelAbove--
	}
	if err != nil {
		return nil, err
	}
	if !s.opt.KeepOrder {
		s.innermostForLocality(group, b)
	}
	band, err := s.bandNode(group, b)
	if err != nil {
		return nil, err
	}
	return scheduletree.NewBand(band, child), nil
}

// withFuse runs f with the fusion heuristic set to fuse.
func (s *scheduler) withFuse(fuse Fuse, f func() (*scheduletree.Node, error)) (*scheduletree.Node, error) {
	saved := s.opt.Fuse
	s.opt.Fuse = fuse
	defer func() { s.opt.Fuse = saved }()
	return f()
}

// names lists the statements of group for messages.
func (s *scheduler) names(group []int) string {
	const most = 4
	var out []string
	for k, i := range group {
		if k == most {
			out = append(out, fmt.Sprintf("... (%d statements)", len(group)))
			break
		}
		out = append(out, s.stmts[i].name)
	}
	return strings.Join(out, ", ")
}

// original falls back to the original order for group, which orders every
// pair of edges (all come from the original order) after the equal outer
// levels; it is used where no hyperplane separates a cycle.
func (s *scheduler) original(group []int, edges []*edge) (*scheduletree.Node, error) {
	if s.orig == nil {
		b, err := newOrigBuilder(s.p)
		if err != nil {
			return nil, err
		}
		s.orig = b
	}
	return s.orig.subtree(group, edges)
}

// leaf ends a branch; several statements left at one point of the outer
// schedule, with no dependence between them, keep their textual order.
func (s *scheduler) leaf(group []int) (*scheduletree.Node, error) {
	if len(group) <= 1 {
		return nil, nil
	}
	parts := make([][]int, len(group))
	for i, g := range group {
		parts[i] = []int{g}
	}
	return s.sequence(parts, nil)
}

// sequence orders parts (a topological order of the dependences between
// them); each part is scheduled with the edges inside it.
func (s *scheduler) sequence(parts [][]int, edges []*edge) (*scheduletree.Node, error) {
	children := make([]*scheduletree.Node, len(parts))
	for k, part := range parts {
		in := map[int]bool{}
		for _, i := range part {
			in[i] = true
		}
		var sub []*edge
		for _, e := range edges {
			if in[e.src] && in[e.dst] {
				sub = append(sub, e)
			}
		}
		child, err := s.node(part, sub)
		if err != nil {
			return nil, err
		}
		filter, err := s.filter(part)
		if err != nil {
			return nil, err
		}
		children[k] = scheduletree.NewFilter(filter, child)
	}
	return scheduletree.NewSequence(children...), nil
}

// filter is the union of the statements' universes.
func (s *scheduler) filter(part []int) (presburger.UnionSet, error) {
	sets := make([]presburger.Set, len(part))
	for k, i := range part {
		sets[k] = presburger.UniverseSet(s.stmts[i].space)
	}
	return presburger.UnionSetFromSets(sets...)
}

func edgePairs(edges []*edge) [][2]int {
	out := make([][2]int, len(edges))
	for i, e := range edges {
		out[i] = [2]int{e.src, e.dst}
	}
	return out
}

// newTree puts the domain (and the context, when it says anything) above
// root.
func newTree(p *scop.Program, root *scheduletree.Node) (scheduletree.Tree, error) {
	dom, err := p.Domains()
	if err != nil {
		return scheduletree.Tree{}, err
	}
	universe, err := p.Context.IsEqual(presburger.UniverseSet(p.Context.Space()))
	if err != nil {
		return scheduletree.Tree{}, err
	}
	if !universe {
		root = scheduletree.NewContext(p.Context, root)
	}
	return scheduletree.NewTree(scheduletree.NewDomain(dom, root))
}
