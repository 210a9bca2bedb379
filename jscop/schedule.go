package jscop

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Scheduled returns a copy of the program whose statements have the
// JSCoPs' schedules: with several JSCoPs, a first time dimension orders
// them as the program does (Polly runs its static control parts one
// after the other); statement k of a group of several gets one more
// time dimension, k, for the order inside Polly's basic block; and every
// schedule is padded with zeros to a common width.
func (m *Mapping) Scheduled() (*scop.Program, error) {
	sched := map[*scop.Stmt]presburger.Map{}
	width, inner := 0, false
	for _, pt := range m.Parts {
		for _, g := range pt.Groups {
			inner = inner || len(g) > 1
		}
	}
	for rank, pt := range m.inOrder() {
		for i, g := range pt.Groups {
			st := &pt.Scop.Statements[i]
			for k, t := range g {
				s, err := st.schedule.ApplyDomain(pt.Instances[i][k])
				if err != nil {
					return nil, err
				}
				// The program's parameters, in its order, not Polly's.
				u := presburger.UniverseMap(presburger.MapSpace(m.Program.Params, s.Space().In, s.Space().Out))
				if s, err = u.Intersect(s); err != nil {
					return nil, err
				}
				if len(m.Parts) > 1 {
					if s, err = insertConst(s, 0, int64(rank)); err != nil {
						return nil, err
					}
				}
				if inner {
					if s, err = insertConst(s, s.Space().NOut(), int64(k)); err != nil {
						return nil, err
					}
				}
				sched[t] = s
				width = max(width, s.Space().NOut())
			}
		}
	}
	q := *m.Program
	q.Stmts = make([]*scop.Stmt, len(m.Program.Stmts))
	for i, t := range m.Program.Stmts {
		s := sched[t]
		var err error
		for s.Space().NOut() < width {
			if s, err = insertConst(s, s.Space().NOut(), 0); err != nil {
				return nil, err
			}
		}
		c := *t
		c.Schedule = s
		q.Stmts[i] = &c
	}
	return &q, nil
}

// inOrder is the parts in the program's textual order.
func (m *Mapping) inOrder() []*Part {
	out := make([]*Part, len(m.Parts))
	for i := range m.Parts {
		out[i] = &m.Parts[i]
	}
	slices.SortStableFunc(out, func(a, b *Part) int { return a.first(m.Program) - b.first(m.Program) })
	return out
}

// insertConst adds a time dimension equal to v at position at.
func insertConst(s presburger.Map, at int, v int64) (presburger.Map, error) {
	s, err := s.InsertDims(presburger.DimOut, at, 1)
	if err != nil {
		return s, err
	}
	return s.FixDim(presburger.DimOut, at, v)
}

// Tree is the JSCoP's schedule as a schedule tree of the program (as
// scheduler.Original builds one from statement schedules: sequences where
// the times hold constants, bands for the rest, flags from the
// dependences). It is not checked for legality.
func (m *Mapping) Tree() (scheduletree.Tree, error) {
	q, err := m.Scheduled()
	if err != nil {
		return scheduletree.Tree{}, err
	}
	return scheduler.Original(q)
}

// Export is the JSCoPs of the mapping (in the order of its parts) with
// the schedules of tree t: the files Polly's -polly-import-jscop reads
// back. t must schedule the mapped program's statements, each instance
// once (no extension nodes or skipped subtrees), each Polly statement
// must be one tilefuse statement, and t must run each JSCoP's instances
// after all of those of the JSCoPs before it (Polly schedules each
// static control part alone).
func (m *Mapping) Export(t scheduletree.Tree) ([]*Scop, error) {
	if err := flatTree(t); err != nil {
		return nil, err
	}
	um, err := t.Map()
	if err != nil {
		return nil, err
	}
	byName := map[string]presburger.Map{}
	for _, s := range um.Maps() {
		byName[s.Space().In.Name] = s
	}
	if err := m.partsApart(byName); err != nil {
		return nil, err
	}
	var out []*Scop
	for i := range m.Parts {
		s, err := m.Parts[i].export(byName, m.Program.Context)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// export is the part's JSCoP with the schedules byName.
func (pt *Part) export(byName map[string]presburger.Map, ctx presburger.Set) (*Scop, error) {
	out := *pt.Scop
	out.Statements = make([]Statement, len(pt.Scop.Statements))
	params := pt.Scop.context.Space().Params
	for i, g := range pt.Groups {
		st := pt.Scop.Statements[i]
		s, err := groupSchedule(g, byName)
		if err != nil {
			return nil, fmt.Errorf("JSCoP statement %s: %v", st.Name, err)
		}
		back, err := pt.Instances[i][0].Reverse()
		if err == nil {
			s, err = s.ApplyDomain(back)
		}
		if err != nil {
			return nil, err
		}
		if s, err = onlyParams(s, params, ctx); err != nil {
			return nil, fmt.Errorf("JSCoP statement %s: %v", st.Name, err)
		}
		// Polly gives the schedule's parameters its own by position.
		u := presburger.UniverseMap(presburger.MapSpace(params, s.Space().In, s.Space().Out))
		if s, err = u.Intersect(s); err != nil {
			return nil, err
		}
		if got := s.Space().Params; strings.Join(got, ",") != strings.Join(params, ",") {
			return nil, fmt.Errorf("JSCoP statement %s: the schedule has parameters [%s], not Polly's [%s]", st.Name, strings.Join(got, ", "), strings.Join(params, ", "))
		}
		if s, err = s.Coalesce(); err != nil {
			return nil, err
		}
		st.Schedule = s.String()
		st.schedule = s
		out.Statements[i] = st
	}
	return &out, nil
}

// onlyParams is schedule s without the parameters outside keep (a
// program's other static control parts use them): it must not depend on
// them where the program's context ctx holds.
func onlyParams(s presburger.Map, keep []string, ctx presburger.Set) (presburger.Map, error) {
	for i := len(s.Space().Params) - 1; i >= 0; i-- {
		name := s.Space().Params[i]
		if slices.Contains(keep, name) {
			continue
		}
		g, err := s.GistParams(ctx)
		if err != nil {
			return s, err
		}
		for _, c := range g.Constraints() {
			for _, row := range append(c.Eqs, c.Ineqs...) {
				if row[1+i] != 0 {
					return s, fmt.Errorf("the schedule %s depends on the parameter %s, which this static control part does not have", g, name)
				}
			}
		}
		if s, err = g.ProjectOut(presburger.DimParam, i, 1); err != nil {
			return s, err
		}
	}
	return s, nil
}

// partsApart checks that the schedules byName run every instance of each
// part before every instance of the parts after it in the program.
func (m *Mapping) partsApart(byName map[string]presburger.Map) error {
	parts := m.inOrder()
	for i, early := range parts {
		for _, late := range parts[i+1:] {
			for _, a := range stmtsOf(early) {
				for _, b := range stmtsOf(late) {
					ok, err := m.before(byName[a.Name], byName[b.Name])
					if err != nil {
						return err
					}
					if !ok {
						return fmt.Errorf("the tree runs instances of %s (JSCoP %s) no later than some of %s (JSCoP %s), which comes first in %s; Polly schedules each static control part alone and runs them in the program's order", b.Name, late.Scop.Name, a.Name, early.Scop.Name, m.Program.Name)
					}
				}
			}
		}
	}
	return nil
}

func stmtsOf(pt *Part) []*scop.Stmt {
	var out []*scop.Stmt
	for _, g := range pt.Groups {
		out = append(out, g...)
	}
	return out
}

// before reports whether every time of sa (where the program's context
// holds) is lexicographically before every time of sb.
func (m *Mapping) before(sa, sb presburger.Map) (bool, error) {
	if sa.Space().In.Name == "" || sb.Space().In.Name == "" {
		return false, fmt.Errorf("the tree does not schedule every statement")
	}
	timeSpace := presburger.SetSpace(sa.Space().Params, sa.Space().Out)
	notBefore, err := sa.ApplyRange(presburger.LexGE(timeSpace))
	if err != nil {
		return false, err
	}
	rev, err := sb.Reverse()
	if err == nil {
		notBefore, err = notBefore.ApplyRange(rev)
	}
	if err != nil {
		return false, err
	}
	dom, err := sa.Domain()
	if err == nil {
		dom, err = m.withContext(dom)
	}
	if err == nil {
		notBefore, err = notBefore.IntersectDomain(dom)
	}
	if err != nil {
		return false, err
	}
	return notBefore.IsEmpty()
}

// flatTree refuses trees that run an instance other than once: JSCoP
// holds one schedule per statement.
func flatTree(t scheduletree.Tree) error {
	if err := t.RunsOnce(); err != nil {
		return fmt.Errorf("%w: a JSCoP holds one schedule per statement, each instance run once", err)
	}
	return nil
}

// groupSchedule is the schedule of the one statement of a group. A
// Polly statement of several tilefuse statements is refused: whether a
// tree's times for them fit one basic block is not worked out here.
func groupSchedule(g []*scop.Stmt, byName map[string]presburger.Map) (presburger.Map, error) {
	if len(g) > 1 {
		return presburger.Map{}, fmt.Errorf("it executes the statements %s; exporting a schedule for a Polly statement of several tilefuse statements is not supported", names(g))
	}
	s, ok := byName[g[0].Name]
	if !ok {
		return s, fmt.Errorf("the tree does not schedule statement %s", g[0].Name)
	}
	return s, nil
}
