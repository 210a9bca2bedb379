package fusion

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// place computes, for each statement of f, the instances each iteration
// of the loop f is computed in needs (ext) and the loops around each
// instance (full). The functions reading f were placed before it.
func (b *callBuilder) place(f *callFunc) error {
	for i := len(f.stmts) - 1; i >= 0; i-- {
		s := f.stmts[i]
		if f.host == nil {
			m, err := b.loopRel(f, s, 0)
			if err != nil {
				return err
			}
			f.full[s.Name] = m
			continue
		}
		e, err := b.need(f, s)
		if err != nil {
			return err
		}
		if e, err = b.slide(f, e); err != nil {
			return err
		}
		f.ext[s.Name] = e
		if f.full[s.Name], err = b.withLoops(f, s, e); err != nil {
			return err
		}
	}
	return nil
}

// need maps each prefix of f's loop to the instances of s that the
// executions of s's consumers under that prefix read.
func (b *callBuilder) need(f *callFunc, s *scop.Stmt) (presburger.Map, error) {
	d := f.depth
	e, err := b.parseMap(fmt.Sprintf("{ [%s] -> %s : false }", prefixVars(d), stmtTuple(s)))
	if err != nil {
		return e, err
	}
	at := f.fs.Compute.At
	for _, m := range b.flow.May.Maps() {
		if m.Space().In.Name != s.Name {
			continue
		}
		t := m.Space().Out.Name
		c := b.byStmt[t]
		switch {
		case t == s.Name:
			return e, scop.Errorf(at, "ComputeAt of %s: %s reads its own values (a recurrence); compute it at the root", f.fs.Name, f.fs.Name)
		case !b.encloses(f.host, f.level, c):
			return e, scop.Errorf(at, "ComputeAt of %s: its consumer %s is not computed inside the loop %s.%s", f.fs.Name, c.fs.Name, f.host.fs.Name, f.host.loops[f.level].name)
		}
		full, ok := c.full[t]
		if !ok {
			return e, scop.Errorf(at, "ComputeAt of %s: its consumer %s comes before it", f.fs.Name, c.fs.Name)
		}
		n := full.Space().NIn()
		exec, err := full.ProjectOut(presburger.DimIn, d, n-d)
		if err != nil {
			return e, err
		}
		src, err := m.Reverse()
		if err != nil {
			return e, err
		}
		got, err := exec.ApplyRange(src)
		if err != nil {
			return e, err
		}
		if e, err = e.Union(got); err != nil {
			return e, err
		}
	}
	return e.Coalesce()
}

// slide subtracts, when f's storage is outside the loop f is computed in
// and the loops between run serially, the instances that earlier
// iterations of those loops computed: the sliding window.
func (b *callBuilder) slide(f *callFunc, e presburger.Map) (presburger.Map, error) {
	if f.storeDepth >= f.depth || !b.serialBetween(f) {
		return e, nil
	}
	dom, err := e.Domain()
	if err != nil {
		return e, err
	}
	var earlier presburger.Map
	for level := f.storeDepth; level < f.depth; level++ {
		m := presburger.LexGTAt(dom.Space(), level)
		if level == f.storeDepth {
			earlier = m
		} else if earlier, err = earlier.Union(m); err != nil {
			return e, err
		}
	}
	done, err := earlier.ApplyRange(e)
	if err != nil {
		return e, err
	}
	if e, err = e.Subtract(done); err != nil {
		return e, err
	}
	f.sliding = true
	return e.Coalesce()
}

// serialBetween reports whether the loops between f's storage and its
// computation all run serially (Halide slides only over those).
func (b *callBuilder) serialBetween(f *callFunc) bool {
	path := b.prefixLoops(f)
	for _, l := range path[f.storeDepth:f.depth] {
		if l.parallel || l.vector {
			return false
		}
	}
	return true
}

// prefixLoops lists the loops around f's computation, outermost first.
func (b *callBuilder) prefixLoops(f *callFunc) []loop {
	if f.host == nil {
		return nil
	}
	return append(b.prefixLoops(f.host), f.host.loops[:f.level+1]...)
}

// withLoops extends e (prefix -> instances of s) with f's own loops.
func (b *callBuilder) withLoops(f *callFunc, s *scop.Stmt, e presburger.Map) (presburger.Map, error) {
	if len(f.loops) == 0 {
		return e, nil
	}
	wide, err := e.InsertDims(presburger.DimIn, f.depth, len(f.loops))
	if err != nil {
		return e, err
	}
	rel, err := b.loopRel(f, s, f.depth)
	if err != nil {
		return e, err
	}
	return wide.Intersect(rel)
}

// loopRel is { [q, m] -> s[i] : m = f's loops at i } on s's domain, with
// d free prefix dimensions q.
func (b *callBuilder) loopRel(f *callFunc, s *scop.Stmt, d int) (presburger.Map, error) {
	var ins, cons []string
	if d > 0 {
		ins = append(ins, prefixVars(d))
	}
	for k, l := range f.loops {
		v := fmt.Sprintf("tf_m%d", k)
		ins = append(ins, v)
		cons = append(cons, v+" = "+l.memberText(s.Iters))
	}
	text := fmt.Sprintf("{ [%s] -> %s", strings.Join(ins, ", "), stmtTuple(s))
	if len(cons) > 0 {
		text += " : " + strings.Join(cons, " and ")
	}
	m, err := b.parseMap(text + " }")
	if err != nil {
		return m, err
	}
	return m.IntersectRange(s.Domain)
}

// bandRel is s's members from..to of f's loops: { s[i] -> [m] }.
func (b *callBuilder) bandRel(f *callFunc, s *scop.Stmt, from, to int) (presburger.Map, error) {
	var outs []string
	for _, l := range f.loops[from:to] {
		outs = append(outs, l.memberText(s.Iters))
	}
	m, err := b.parseMap(fmt.Sprintf("{ %s -> [%s] }", stmtTuple(s), strings.Join(outs, ", ")))
	if err != nil {
		return m, err
	}
	return m.IntersectDomain(s.Domain)
}

func (b *callBuilder) parseMap(body string) (presburger.Map, error) {
	m, err := presburger.ParseMap(fmt.Sprintf("[%s] -> %s", strings.Join(b.p.Params, ", "), body))
	if err != nil {
		return m, fmt.Errorf("fusion: building %s: %w", body, err)
	}
	return m, nil
}

func prefixVars(d int) string {
	vs := make([]string, d)
	for i := range vs {
		vs[i] = fmt.Sprintf("tf_q%d", i)
	}
	return strings.Join(vs, ", ")
}

func stmtTuple(s *scop.Stmt) string {
	return s.Name + "[" + strings.Join(s.Iters, ", ") + "]"
}
