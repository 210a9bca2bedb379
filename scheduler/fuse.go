package scheduler

import (
	"fmt"
	"strings"
)

// partition splits the strongly connected components comps (in
// topological order) into consecutive runs, each to be scheduled under
// its own filter of a sequence:
//
//   - FuseMin: one run per component.
//   - FuseMax: the whole group if a common hyperplane exists; otherwise
//     runs grown greedily, a component joining the run before it while a
//     common hyperplane for the run still exists.
//   - FuseSmart: as FuseMax, but a component joins only if the run's
//     first common hyperplane can be coincident, or if no component of
//     the run (the new one included) could have a coincident hyperplane
//     on its own: fusion never costs an outer parallel loop.
//
// cache holds the answers of hyperplaneExists for these edges at the
// current ranks.
func (s *scheduler) partition(comps [][]int, edges []*edge, cache map[string]bool) ([][]int, error) {
	if len(comps) == 1 {
		return comps, nil
	}
	if s.opt.Fuse == FuseMin {
		if s.opt.Siblings {
			return s.mergeSiblings(comps, edges, cache)
		}
		return comps, nil
	}
	all := concat(comps)
	if ok, err := s.mergeable(all, comps, edges, cache); err != nil || ok {
		return [][]int{all}, err
	}
	return s.growRuns(comps, edges, cache, func(_, _ []int) bool { return true })
}

// growRuns splits comps into runs greedily: a component joins the run
// before it when may allows the pair and mergeable the run with it.
func (s *scheduler) growRuns(comps [][]int, edges []*edge, cache map[string]bool, may func(run, c []int) bool) ([][]int, error) {
	var parts [][]int
	cur, curComps := comps[0], comps[:1]
	for _, c := range comps[1:] {
		if may(cur, c) {
			try := append(append([]int(nil), cur...), c...)
			tryComps := append(append([][]int(nil), curComps...), c)
			ok, err := s.mergeable(try, tryComps, edges, cache)
			if err != nil {
				return nil, err
			}
			if ok {
				cur, curComps = try, tryComps
				continue
			}
		}
		parts = append(parts, cur)
		cur, curComps = c, [][]int{c}
	}
	return append(parts, cur), nil
}

// mergeable decides whether the components in comps (together group) may
// share their next band.
func (s *scheduler) mergeable(group []int, comps [][]int, edges []*edge, cache map[string]bool) (bool, error) {
	sub := within(group, edges)
	if s.opt.Fuse == FuseMax {
		return s.hyperplaneExists(group, sub, false, cache)
	}
	if ok, err := s.hyperplaneExists(group, sub, true, cache); err != nil || ok {
		return ok, err
	}
	// The components' own questions are small (and cached): ask them
	// before the group's.
	if lose, err := s.anyParallel(comps, edges, cache); err != nil || lose {
		return false, err
	}
	return s.hyperplaneExists(group, sub, false, cache)
}

// anyParallel reports whether some component that still needs a
// hyperplane could get a coincident one on its own.
func (s *scheduler) anyParallel(comps [][]int, edges []*edge, cache map[string]bool) (bool, error) {
	for _, c := range comps {
		open := false
		for _, i := range c {
			open = open || !s.stmts[i].full()
		}
		if !open {
			continue
		}
		ok, err := s.hyperplaneExists(c, within(c, edges), true, cache)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// hyperplaneExists reports whether group has a next hyperplane that is
// legal for edges and independent for every statement below full rank;
// with zero, one that gives every edge distance 0 (coincident). The
// problem splits into the connected components of the edges, each solved
// (and remembered in cache, valid while the ranks do not change) apart.
func (s *scheduler) hyperplaneExists(group []int, edges []*edge, zero bool, cache map[string]bool) (bool, error) {
	for _, part := range connected(group, edges) {
		open := false
		for _, i := range part {
			open = open || !s.stmts[i].full()
		}
		if !open {
			continue // all-zero coefficients will do
		}
		key := fmt.Sprint(zero, part)
		ok, known := cache[key]
		if !known {
			var err error
			if ok, err = s.feasible(part, within(part, edges), zero); err != nil {
				return false, err
			}
			cache[key] = ok
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

func (s *scheduler) feasible(group []int, edges []*edge, zero bool) (bool, error) {
	_, sol, _, err := s.solve(problem{group: group, edges: edges, zero: zero, anyPoint: true})
	return sol != nil, err
}

// connected splits group into the connected components of edges.
func connected(group []int, edges []*edge) [][]int {
	parent := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		if parent[x] != x {
			parent[x] = find(parent[x])
		}
		return parent[x]
	}
	for _, i := range group {
		parent[i] = i
	}
	for _, e := range edges {
		a, b := find(e.src), find(e.dst)
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	var roots []int
	parts := map[int][]int{}
	for _, i := range group {
		r := find(i)
		if parts[r] == nil {
			roots = append(roots, r)
		}
		parts[r] = append(parts[r], i)
	}
	out := make([][]int, len(roots))
	for k, r := range roots {
		out[k] = parts[r]
	}
	return out
}

// within returns the edges with both ends in group.
func within(group []int, edges []*edge) []*edge {
	in := map[int]bool{}
	for _, i := range group {
		in[i] = true
	}
	var out []*edge
	for _, e := range edges {
		if in[e.src] && in[e.dst] {
			out = append(out, e)
		}
	}
	return out
}

func concat(parts [][]int) []int {
	var out []int
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// mergeSiblings is FuseMin's partition with Options.Siblings: a
// component joins the run before it when they are siblings (one
// statement each, one array, one domain, no dependence between them) and
// FuseSmart's rule allows it (fusion costs no coincident member).
func (s *scheduler) mergeSiblings(comps [][]int, edges []*edge, cache map[string]bool) ([][]int, error) {
	return s.growRuns(comps, edges, cache, func(run, c []int) bool { return s.siblings(run, c, edges) })
}

// siblings reports whether the single-statement component c updates the
// array every statement of run writes, over the same domain (as text,
// the statement's name aside: two updates of one function over one
// reduction domain), with no dependence between them. A border
// statement (a[0] = 0 before a loop over a) is no sibling of the loop.
func (s *scheduler) siblings(run, c []int, edges []*edge) bool {
	if len(c) != 1 {
		return false
	}
	key := func(i int) string {
		st := s.p.Stmt(s.stmts[i].name)
		if st == nil {
			return ""
		}
		return st.Write.Array + " " + strings.ReplaceAll(st.Domain.String(), st.Name+"[", "[")
	}
	k := key(c[0])
	for _, i := range run {
		if k == "" || key(i) != k {
			return false
		}
	}
	for _, e := range edges {
		for _, i := range run {
			if e.src == i && e.dst == c[0] || e.src == c[0] && e.dst == i {
				return false
			}
		}
	}
	return true
}
