package jscop

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Scheduled returns a copy of the program whose statements have the
// JSCoP's schedules: statement k of a group of several gets one more
// time dimension, k, for the order inside Polly's basic block, and every
// schedule is padded with zeros to a common width.
func (m *Mapping) Scheduled() (*scop.Program, error) {
	sched := map[*scop.Stmt]presburger.Map{}
	width, inner := 0, false
	for _, g := range m.Groups {
		inner = inner || len(g) > 1
	}
	for i, g := range m.Groups {
		st := &m.Scop.Statements[i]
		for k, t := range g {
			s, err := st.schedule.ApplyDomain(m.Instances[i][k])
			if err != nil {
				return nil, err
			}
			if inner {
				if s, err = appendConst(s, int64(k)); err != nil {
					return nil, err
				}
			}
			sched[t] = s
			width = max(width, s.Space().NOut())
		}
	}
	q := *m.Program
	q.Stmts = make([]*scop.Stmt, len(m.Program.Stmts))
	for i, t := range m.Program.Stmts {
		s := sched[t]
		var err error
		for s.Space().NOut() < width {
			if s, err = appendConst(s, 0); err != nil {
				return nil, err
			}
		}
		c := *t
		c.Schedule = s
		q.Stmts[i] = &c
	}
	return &q, nil
}

// appendConst adds a last time dimension equal to v.
func appendConst(s presburger.Map, v int64) (presburger.Map, error) {
	n := s.Space().NOut()
	s, err := s.InsertDims(presburger.DimOut, n, 1)
	if err != nil {
		return s, err
	}
	return s.FixDim(presburger.DimOut, n, v)
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

// Export is the JSCoP s with the schedules of tree t: the file Polly's
// -polly-import-jscop reads back. t must schedule the mapped program's
// statements, each instance once (no extension nodes or skipped
// subtrees), and each Polly statement must be one tilefuse statement.
func (m *Mapping) Export(t scheduletree.Tree) (*Scop, error) {
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
	out := *m.Scop
	out.Statements = make([]Statement, len(m.Scop.Statements))
	params := m.Scop.context.Space().Params
	for i, g := range m.Groups {
		st := m.Scop.Statements[i]
		s, err := groupSchedule(g, byName)
		if err != nil {
			return nil, fmt.Errorf("JSCoP statement %s: %v", st.Name, err)
		}
		back, err := m.Instances[i][0].Reverse()
		if err == nil {
			s, err = s.ApplyDomain(back)
		}
		if err != nil {
			return nil, err
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

// flatTree refuses trees that run an instance other than once: JSCoP
// has one schedule map per statement.
func flatTree(t scheduletree.Tree) error {
	var bad string
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		switch {
		case n.Kind() == scheduletree.KindExtension:
			bad = "an extension node at " + p.String() + " (recomputed instances)"
		case n.Kind() == scheduletree.KindMark && n.Mark() == scheduletree.MarkSkipped:
			bad = "a skipped subtree at " + p.String()
		}
		return bad == ""
	})
	if bad != "" {
		return fmt.Errorf("the tree has %s: a JSCoP holds one schedule per statement, each instance run once", bad)
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
