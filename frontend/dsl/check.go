package dsl

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// checkAccesses proves that every affine read stays inside what it reads
// (an image's extents, the points a function's definition covers), that
// updates write inside their function's domain, and that a definition
// reading its own function reads only points computed before. Reads and
// writes at data-dependent coordinates cannot be checked here.
func (p *Pipeline) checkAccesses(stages []*stage) error {
	for _, st := range stages {
		var err error
		visit := func(n *node) {
			n.walk(func(m *node) {
				if err == nil && m.kind == kRead {
					err = p.checkRead(st, m)
				}
			})
		}
		for _, c := range st.coords {
			visit(c)
		}
		visit(st.val)
		if err == nil && st.coords != nil {
			w := &node{kind: kRead, fn: st.f, args: st.coords, pos: st.at}
			err = p.checkPoints(st, w, "writes", p.covered(w), "outside "+st.f.name+"'s domain")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *Pipeline) checkRead(st *stage, r *node) error {
	where := "outside "
	if r.fn != nil {
		where += r.fn.name + "'s domain"
	} else {
		where += "the extents of " + r.img.name
	}
	if err := p.checkPoints(st, r, "reads", p.covered(r), where); err != nil {
		return err
	}
	if r.fn != st.f || st.coords != nil {
		return nil
	}
	// A pure definition reads itself: only points earlier in loop order.
	var later []string
	for i := range st.iters {
		var eq []string
		for j := range i {
			eq = append(eq, fmt.Sprintf("%s = %s", coordName(j), st.iters[j]))
		}
		eq = append(eq, fmt.Sprintf("%s < %s", coordName(i), st.iters[i]))
		later = append(later, "("+strings.Join(eq, " and ")+")")
	}
	earlier := "false"
	if len(later) > 0 {
		earlier = strings.Join(later, " or ")
	}
	return p.checkPoints(st, r, "reads", earlier, "before computing it")
}

// covered is the condition, on the coordinates named coordName(i), that
// an access of r's array stays within what is defined.
func (p *Pipeline) covered(r *node) string {
	var cons []string
	if r.img != nil {
		for i, e := range r.img.extents {
			hi, _ := affText(e, nil)
			cons = append(cons, fmt.Sprintf("0 <= %s < %s", coordName(i), hi))
		}
		return conj(cons)
	}
	names := map[any]string{}
	for i, d := range r.fn.dims {
		names[d.v.d] = coordName(i)
	}
	for i, d := range r.fn.dims {
		lo, _ := affText(d.iv.lo, nil)
		hi, _ := affText(d.iv.hi, nil)
		cons = append(cons, fmt.Sprintf("%s <= %s < %s", lo, coordName(i), hi))
	}
	var cases []string
	for _, pc := range r.fn.pure {
		if pc.cond == nil {
			return conj(cons)
		}
		c, _ := condText(pc.cond, names)
		cases = append(cases, c)
	}
	return conj(append(cons, "("+strings.Join(cases, " or ")+")"))
}

// coordName names the i-th coordinate of an access; the prime keeps it
// apart from every DSL name.
func coordName(i int) string { return fmt.Sprintf("c%d'", i) }

// checkPoints reports an access of st whose affine coordinates can lie
// outside ok (a condition on the coordinates) for parameters in the
// context, with the first such access, in lexicographic order of the
// parameters and iterators, as an example.
func (p *Pipeline) checkPoints(st *stage, r *node, verb, ok, what string) error {
	var dims, cons []string
	for _, d := range p.params {
		dims = append(dims, d.name)
	}
	dims = append(dims, st.iters...)
	for i, c := range r.args {
		if c.hasRead() {
			return nil
		}
		a, _ := affText(c, nil)
		dims = append(dims, coordName(i))
		cons = append(cons, fmt.Sprintf("%s = %s", coordName(i), a))
	}
	text := fmt.Sprintf("{ [%s] : %s and %s and %s and not (%s) }",
		strings.Join(dims, ", "), p.contextText(), st.dom, conj(cons), ok)
	bad, err := presburger.ParseSet(text)
	if err != nil {
		return scop.Errorf(r.pos, "checking %s: %v", st.label, err)
	}
	empty, err := bad.IsEmpty()
	if err != nil || empty {
		return nil // cannot tell (an overflow, say): leave it to the executor
	}
	msg := fmt.Sprintf("%s %s %s %s", st.label, verb, exprText(r), what)
	return scop.Errorf(r.pos, "%s%s", msg, p.example(st, r, bad))
}

// example describes the least point of bad: ": blurx(1, 0) at x = 1,
// y = 1 when R = 1, C = 1".
func (p *Pipeline) example(st *stage, r *node, bad presburger.Set) string {
	pt, ok := leastPoint(bad)
	if !ok {
		return ""
	}
	np, ni := len(p.params), len(st.iters)
	coords := make([]string, len(r.args))
	for i := range r.args {
		coords[i] = fmt.Sprint(pt[np+ni+i])
	}
	name := exprText(r)
	name = name[:strings.Index(name, "(")]
	s := fmt.Sprintf(": %s(%s)", name, strings.Join(coords, ", "))
	var at []string
	for i, v := range st.shown {
		at = append(at, fmt.Sprintf("%s = %d", v, pt[np+i]))
	}
	if len(at) > 0 {
		s += " at " + strings.Join(at, ", ")
	}
	var when []string
	for i, d := range p.params {
		when = append(when, fmt.Sprintf("%s = %d", d.name, pt[i]))
	}
	if len(when) > 0 {
		s += " when " + strings.Join(when, ", ")
	}
	return s
}

// leastPoint is the lexicographic minimum of s, or any point of s when
// it has none (s unbounded below).
func leastPoint(s presburger.Set) ([]int64, bool) {
	if m, err := s.LexMin(); err == nil {
		if pt, ok, err := m.SamplePoint(); err == nil && ok {
			return pt, true
		}
	}
	pt, ok, err := s.SamplePoint()
	return pt, ok && err == nil
}
