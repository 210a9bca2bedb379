package transpose

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// build returns p with a copy per group: the copy arrays and their
// statements added, the planned reads redirected, and every schedule
// given a leading dimension that runs the copies first.
func build(p *scop.Program, groups []*group) (*scop.Program, []Copy, error) {
	q := *p
	q.Arrays = append([]*scop.Array(nil), p.Arrays...)
	taken := map[string]bool{}
	for _, n := range p.Params {
		taken[n] = true
	}
	for _, a := range p.Arrays {
		taken[a.Name] = true
	}
	for _, s := range p.Stmts {
		taken[s.Name] = true
	}
	timeDim := 0
	if len(p.Stmts) > 0 {
		timeDim = p.Stmts[0].Schedule.Space().NOut()
	}
	redirect := map[*scop.Read]*scop.Read{}
	var copyStmts []*scop.Stmt
	var copies []Copy
	for _, g := range groups {
		a := g.array
		if timeDim < a.Rank() {
			return nil, nil, fmt.Errorf("the program's time has %d dimensions, fewer than %s's %d", timeDim, a.Name, a.Rank())
		}
		c := &scop.Array{Name: fresh(a.Name+"_t", taken), Type: a.Type, At: a.At}
		for _, from := range g.perm {
			c.Extent = append(c.Extent, a.Extent[from])
		}
		st, err := copyStmt(p, a, c, g, freshStmt(len(p.Stmts), taken), timeDim)
		if err != nil {
			return nil, nil, err
		}
		q.Arrays = append(q.Arrays, c)
		copyStmts = append(copyStmts, st)
		cp := Copy{Array: a.Name, Copy: c.Name, Stmt: st.Name, Perm: g.perm}
		for _, u := range g.uses {
			r := *u.read
			r.Ref = scop.Ref{Array: c.Name, Index: permuted(u.read.Index, g.perm)}
			redirect[u.read] = &r
			cp.Reads = append(cp.Reads, fmt.Sprintf("%s: %s", u.stmt.Name, u.read))
		}
		copies = append(copies, cp)
	}
	later, err := presburger.ParseMap(fmt.Sprintf("%s{ [%s] -> [1, %[2]s] }", paramPrefix(p), timeNames(p, timeDim)))
	if err != nil {
		return nil, nil, err
	}
	q.Stmts = copyStmts
	for _, s := range p.Stmts {
		c := *s
		c.Value = scop.Rewrite(s.Value, func(e scop.Expr) scop.Expr {
			if r, ok := e.(*scop.Read); ok && redirect[r] != nil {
				return redirect[r]
			}
			return nil
		})
		if c.Schedule, err = s.Schedule.ApplyRange(later); err != nil {
			return nil, nil, err
		}
		q.Stmts = append(q.Stmts, &c)
	}
	if err := q.Finish(); err != nil {
		return nil, nil, err
	}
	return &q, copies, nil
}

// copyStmt is the statement c[perm(e)] = a[e] over the group's
// footprint, at time [0, e, 0...].
func copyStmt(p *scop.Program, a, c *scop.Array, g *group, name string, timeDim int) (*scop.Stmt, error) {
	fp, err := g.footprint()
	if err != nil {
		return nil, err
	}
	iters := make([]string, a.Rank())
	taken := map[string]bool{}
	for _, n := range p.Params {
		taken[n] = true
	}
	idx := make([]scop.Expr, a.Rank())
	for d := range iters {
		iters[d] = fresh(fmt.Sprintf("e%d", d), taken)
		idx[d] = &scop.Iter{At: a.At, Name: iters[d], Index: d, T: scop.I64}
	}
	rename, err := presburger.ParseMap(fmt.Sprintf("%s{ %s[%s] -> %s[%[3]s] }", paramPrefix(p), a.Name, strings.Join(iters, ", "), name))
	if err != nil {
		return nil, err
	}
	dom, err := fp.Apply(rename)
	if err != nil {
		return nil, err
	}
	times := append([]string{"0"}, iters...)
	for len(times) < timeDim+1 {
		times = append(times, "0")
	}
	sched, err := presburger.ParseMap(fmt.Sprintf("%s{ %s[%s] -> [%s] }", paramPrefix(p), name, strings.Join(iters, ", "), strings.Join(times, ", ")))
	if err != nil {
		return nil, err
	}
	return &scop.Stmt{
		Name: name, Iters: iters, Domain: dom, Schedule: sched, At: a.At,
		Write: scop.Ref{Array: c.Name, Index: permuted(idx, g.perm)},
		Value: &scop.Read{At: a.At, Ref: scop.Ref{Array: a.Name, Index: idx}, T: a.Type},
	}, nil
}

// permuted returns index[perm[0]], index[perm[1]], ...
func permuted(index []scop.Expr, perm []int) []scop.Expr {
	out := make([]scop.Expr, len(perm))
	for d, from := range perm {
		out[d] = index[from]
	}
	return out
}

// fresh returns base, or base with a number appended, not yet taken, and
// takes it.
func fresh(base string, taken map[string]bool) string {
	name := base
	for k := 2; taken[name]; k++ {
		name = fmt.Sprintf("%s%d", base, k)
	}
	taken[name] = true
	return name
}

// freshStmt returns the first statement name S<k>, k >= from, not yet
// taken, and takes it.
func freshStmt(from int, taken map[string]bool) string {
	for k := from; ; k++ {
		if name := fmt.Sprintf("S%d", k); !taken[name] {
			taken[name] = true
			return name
		}
	}
}

// paramPrefix is "[n, m] -> " for p's parameters ("" when none).
func paramPrefix(p *scop.Program) string {
	if len(p.Params) == 0 {
		return ""
	}
	return "[" + strings.Join(p.Params, ", ") + "] -> "
}

// timeNames names n time dimensions t0, t1, ... apart from p's
// parameters.
func timeNames(p *scop.Program, n int) string {
	taken := map[string]bool{}
	for _, name := range p.Params {
		taken[name] = true
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fresh(fmt.Sprintf("t%d", i), taken)
	}
	return strings.Join(names, ", ")
}
