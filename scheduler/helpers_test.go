package scheduler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

var modes = []Fuse{FuseMin, FuseSmart, FuseMax}

// kernel parses a PolyBench kernel.
func kernel(t testing.TB, name string) (polybench.Kernel, *scop.Program) {
	t.Helper()
	k, ok := polybench.Lookup(name)
	if !ok {
		t.Fatalf("no kernel %s", name)
	}
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return k, p
}

// program returns a PolyBench kernel or a pipeline by name, with small
// parameter values to execute it at.
func program(t testing.TB, name string) (*scop.Program, map[string]int64) {
	t.Helper()
	for _, e := range pipelines.All() {
		if e.Name == name {
			p, err := e.Build()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			params := map[string]int64{}
			for n := range e.Defaults {
				params[n] = 7
			}
			return p, params
		}
	}
	k, p := kernel(t, name)
	return p, k.Sizes(polybench.Mini)
}

// allPrograms lists the PolyBench kernels and the pipelines.
func allPrograms() []string {
	var names []string
	for _, k := range polybench.Kernels() {
		names = append(names, k.Name)
	}
	for _, e := range pipelines.All() {
		names = append(names, e.Name)
	}
	return names
}

func memoryDeps(t testing.TB, p *scop.Program) *deps.Graph {
	t.Helper()
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	return g
}

func mustSchedule(t testing.TB, p *scop.Program, g *deps.Graph, f Fuse) scheduletree.Tree {
	t.Helper()
	tr, err := Schedule(p, g, Options{Fuse: f})
	if err != nil {
		t.Fatalf("%s %s: %v", p.Name, f, err)
	}
	return tr
}

// sketch prints a tree compactly, one node a line, for test logs.
func sketch(tr scheduletree.Tree) string {
	var b strings.Builder
	var walk func(n *scheduletree.Node, depth int)
	walk = func(n *scheduletree.Node, depth int) {
		ind := strings.Repeat("  ", depth)
		switch n.Kind() {
		case scheduletree.KindLeaf:
			return
		case scheduletree.KindDomain:
			fmt.Fprintf(&b, "%sdomain\n", ind)
		case scheduletree.KindContext:
			fmt.Fprintf(&b, "%scontext %s\n", ind, n.Context())
		case scheduletree.KindBand:
			bd := n.Band()
			fmt.Fprintf(&b, "%sband permutable=%v coincident=%v %s\n", ind, bd.Permutable, bd.Coincident, bd.Schedule)
		case scheduletree.KindFilter:
			fmt.Fprintf(&b, "%sfilter %s\n", ind, n.Filter())
		default:
			fmt.Fprintf(&b, "%s%s\n", ind, n.Kind())
		}
		for _, c := range n.Children() {
			walk(c, depth+1)
		}
	}
	walk(tr.Root(), 0)
	return b.String()
}

// bands returns the band nodes of a tree in depth-first order.
func bands(tr scheduletree.Tree) []scheduletree.Band {
	var out []scheduletree.Band
	tr.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand {
			out = append(out, n.Band())
		}
		return true
	})
	return out
}

// members reads a statement's band schedule back as hyperplanes: per
// member, the iterator coefficients and the constant, by evaluating the
// map at the origin and the unit vectors (parameters 0).
func members(t testing.TB, b scheduletree.Band, stmt string) [][]int64 {
	t.Helper()
	for _, m := range b.Schedule.Maps() {
		if m.Space().In.Name != stmt {
			continue
		}
		n := m.Space().NIn()
		params := make([]int64, m.Space().NParam())
		at := func(inst []int64) []int64 {
			v, err := timeOf(m, params, inst)
			if err != nil || v == nil {
				t.Fatalf("cannot evaluate %s at %v: %v", m, inst, err)
			}
			return v
		}
		base := at(make([]int64, n))
		out := make([][]int64, len(base))
		for k := range out {
			out[k] = make([]int64, n+1)
			out[k][n] = base[k]
		}
		for j := 0; j < n; j++ {
			e := make([]int64, n)
			e[j] = 1
			v := at(e)
			for k := range out {
				out[k][j] = v[k] - base[k]
			}
		}
		return out
	}
	return nil
}

// withSchedule copies p with each statement's schedule replaced by its
// part of sched (the tree's Map), restricted to its domain.
func withSchedule(t testing.TB, p *scop.Program, sched presburger.UnionMap) *scop.Program {
	t.Helper()
	by := map[string]presburger.Map{}
	for _, m := range sched.Maps() {
		by[m.Space().In.Name] = m
	}
	q := *p
	q.Stmts = make([]*scop.Stmt, len(p.Stmts))
	for i, s := range p.Stmts {
		c := *s
		m, ok := by[s.Name]
		if !ok {
			t.Fatalf("the schedule has no map for %s", s.Name)
		}
		var err error
		if c.Schedule, err = m.IntersectDomain(s.Domain); err != nil {
			t.Fatal(err)
		}
		q.Stmts[i] = &c
	}
	return &q
}

// orderRelation is { a -> b : a runs before b } for the instances of dom
// under sched.
func orderRelation(t testing.TB, sched presburger.UnionMap, dom presburger.UnionSet) presburger.UnionMap {
	t.Helper()
	m, err := sched.IntersectDomain(dom)
	if err != nil {
		t.Fatal(err)
	}
	ms := m.Maps()
	if len(ms) == 0 {
		return m
	}
	lt := presburger.LexLT(presburger.SetSpace(ms[0].Space().Params, ms[0].Space().Out))
	ult, err := presburger.UnionMapFromMaps(lt)
	if err != nil {
		t.Fatal(err)
	}
	before, err := m.ApplyRange(ult)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := m.Reverse()
	if err != nil {
		t.Fatal(err)
	}
	if before, err = before.ApplyRange(rev); err != nil {
		t.Fatal(err)
	}
	return before
}
