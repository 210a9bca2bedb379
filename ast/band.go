package ast

import (
	"fmt"
	"sort"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// band generates member j of the band node n and what is below it.
func (g *gen) band(n *scheduletree.Node, j int, stmts []stmt, st *state) (result, error) {
	b := n.Band()
	if j == b.Members() {
		return g.node(n.Child(0), stmts, st)
	}
	ext := make([]stmt, 0, len(stmts))
	for _, s := range stmts {
		f, err := g.member(n, j, s)
		if err != nil {
			return result{}, err
		}
		m, err := extend(s.sched, f, st.depth)
		if err != nil {
			return result{}, err
		}
		ext = append(ext, stmt{s.name, m})
	}
	lv := dimension{coincident: j < len(b.Coincident) && b.Coincident[j], band: n, j: j}
	if j < len(b.Options) {
		lv.opt = b.Options[j]
	}
	return g.level(ext, st, lv, func(stmts []stmt, st *state) (result, error) {
		return g.band(n, j+1, stmts, st)
	})
}

// member returns member j of the band's schedule for statement s.
func (g *gen) member(n *scheduletree.Node, j int, s stmt) (presburger.Map, error) {
	key := memberKey{n, j, s.name}
	if m, ok := g.members[key]; ok {
		return m, nil
	}
	for _, m := range n.Band().Schedule.Maps() {
		if m.Space().In.Key() != s.sched.Space().In.Key() {
			continue
		}
		k := m.Space().NOut()
		m, err := m.ProjectOut(presburger.DimOut, j+1, k-j-1)
		if err == nil {
			m, err = m.ProjectOut(presburger.DimOut, 0, j)
		}
		g.members[key] = m
		return m, err
	}
	return presburger.Map{}, fmt.Errorf("ast: band %s has no schedule for statement %s", n.Band().Schedule, s.name)
}

// extend appends the dimension f(i) to the schedule S[i] -> [c0..c(d-1)].
func extend(sched, f presburger.Map, d int) (presburger.Map, error) {
	a, err := sched.InsertDims(presburger.DimOut, d, 1)
	if err != nil {
		return a, err
	}
	b, err := f.InsertDims(presburger.DimOut, 0, d)
	if err != nil {
		return b, err
	}
	return a.Intersect(b)
}

// leaf generates the statement instances reaching a leaf: each statement
// gets one more dimension per iterator (instances with the same schedule
// may run in any order), degenerate where the schedule fixes it, and the
// User node takes its arguments from them.
func (g *gen) leaf(stmts []stmt, st *state) (result, error) {
	sorted := append([]stmt(nil), stmts...)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].name < sorted[b].name })
	var rs []result
	for _, s := range sorted {
		r, err := g.instance(s, 0, st)
		if err != nil {
			return result{}, err
		}
		if r.node != nil {
			rs = append(rs, r)
		}
	}
	return g.blockResult(rs)
}

// instance generates iterator k of statement s and those after it.
func (g *gen) instance(s stmt, k int, st *state) (result, error) {
	n := s.sched.Space().NIn()
	if k == n {
		args := make([]Expr, n)
		for i := range args {
			args[i] = g.expr(dimAff(st.depth-n+i), st)
		}
		return g.final(s, st, &User{Stmt: s.name, Args: args})
	}
	sp := s.sched.Space()
	row := make([]int64, 2+sp.NParam()+n)
	row[1+sp.NParam()+k], row[len(row)-1] = 1, -1
	f, err := presburger.MapFromConstraints(presburger.MapSpace(sp.Params, sp.In, presburger.NewTuple("", "x")), [][]int64{row}, nil)
	if err != nil {
		return result{}, err
	}
	m, err := extend(s.sched, f, st.depth)
	if err != nil {
		return result{}, err
	}
	return g.level([]stmt{{s.name, m}}, st, dimension{j: -1}, func(stmts []stmt, st *state) (result, error) {
		return g.instance(stmts[0], k+1, st)
	})
}

// final guards a statement instance with what the loops around it do not
// ensure. The guard of each loop checks that the outer values belong to
// the projection of the instances, so only the innermost loop can admit
// values outside them: its bounds over-approximate holes that are not a
// stride. Usually nothing is left.
func (g *gen) final(s stmt, st *state, u *User) (result, error) {
	g.grow()
	p, err := s.sched.Range()
	if err != nil {
		return result{}, err
	}
	guard, err := gistGuard(p, st.build)
	if err != nil {
		return result{}, err
	}
	if len(guard.Forms()) == 0 {
		return result{}, nil
	}
	if trivial, err := g.implied(guard, st.build); err != nil || trivial {
		return result{node: u}, err
	}
	if _, exact, err := g.testable(guard); err != nil || !exact {
		if err == nil {
			guard, err = guard.ExplicitLocals()
		}
		if err == nil {
			guard, err = guard.Gist(st.build)
		}
		if err != nil {
			return result{}, err
		}
		if isUniverse(guard) {
			return result{node: u}, nil
		}
	}
	cond, common, err := g.guardCond(guard, st)
	if err != nil || cond.IsConst(1) {
		return result{node: u}, err
	}
	return result{g.newIf(cond, guard, st, u), common}, nil
}
