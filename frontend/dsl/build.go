package dsl

import (
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// Build checks the pipeline and returns it as a polyhedral program. The
// first problem found is returned as a *scop.Error at the position of the
// API call that caused it.
//
// The program has the pipeline's parameters and context, one live-in
// array per input, and one array per function the outputs need (live-out
// for outputs). Each case of a pure definition and each update is one
// statement; see the package documentation for their names and schedule.
func (p *Pipeline) Build() (*scop.Program, error) {
	if p.err != nil {
		return nil, p.err
	}
	order, err := p.order()
	if err != nil {
		return nil, err
	}
	prog, stages, err := p.lower(order)
	if err != nil {
		return nil, err
	}
	if err := prog.Finish(); err != nil {
		return nil, err
	}
	if err := p.checkAccesses(stages); err != nil {
		return nil, err
	}
	prog.Calls = callSchedule(order, stages)
	return prog, nil
}

// edge is a read of function to by function from, at the read's position.
type edge struct {
	from, to *Func
	at       scop.Pos
}

// reads lists the function reads of f's definitions, in order.
func (f *Func) reads() []edge {
	var out []edge
	visit := func(n *node) {
		n.walk(func(m *node) {
			if m.kind == kRead && m.fn != nil {
				out = append(out, edge{from: f, to: m.fn, at: m.pos})
			}
		})
	}
	for _, pc := range f.pure {
		visit(pc.val)
	}
	for _, u := range f.updates {
		for _, c := range u.coords {
			visit(c)
		}
		visit(u.val)
	}
	return out
}

// order is the functions the outputs need, producers first; among
// independent functions, declaration order.
func (p *Pipeline) order() ([]*Func, error) {
	if len(p.outputs) == 0 {
		return nil, scop.Errorf(p.at, "pipeline %s has no outputs (declare them with Output)", p.name)
	}
	for _, f := range p.funcs {
		if len(f.pure) > 0 {
			continue
		}
		for _, g := range p.funcs {
			for _, e := range g.reads() {
				if e.to == f {
					return nil, scop.Errorf(e.at, "%s reads %s, which is never defined%s", g.name, f.name, declPos(f.at))
				}
			}
		}
		return nil, scop.Errorf(f.at, "function %s is never defined", f.name)
	}
	needed := map[*Func]bool{}
	var mark func(f *Func)
	mark = func(f *Func) {
		if needed[f] {
			return
		}
		needed[f] = true
		for _, e := range f.reads() {
			mark(e.to)
		}
	}
	for _, f := range p.outputs {
		mark(f)
	}
	if err := p.findCycle(needed); err != nil {
		return nil, err
	}
	// Kahn's algorithm, taking the first ready function in declaration
	// order each time: stable, and O(n^2) for pipelines of tens of stages.
	done := map[*Func]bool{}
	var order []*Func
	for len(order) < len(needed) {
		for _, f := range p.funcs {
			if needed[f] && !done[f] && p.ready(f, done) {
				done[f] = true
				order = append(order, f)
				break
			}
		}
	}
	return order, nil
}

// ready reports whether every producer of f other than f is done.
func (p *Pipeline) ready(f *Func, done map[*Func]bool) bool {
	for _, e := range f.reads() {
		if e.to != f && !done[e.to] {
			return false
		}
	}
	return true
}

// findCycle reports a cycle of reads between distinct functions (a
// function reading itself is a recurrence, not a cycle).
func (p *Pipeline) findCycle(needed map[*Func]bool) error {
	const (
		unseen = iota
		active
		finished
	)
	state := map[*Func]int{}
	var path []edge
	var visit func(f *Func) error
	visit = func(f *Func) error {
		state[f] = active
		for _, e := range f.reads() {
			if e.to == f {
				continue
			}
			path = append(path, e)
			switch state[e.to] {
			case active:
				return cycleError(path, e.to)
			case unseen:
				if err := visit(e.to); err != nil {
					return err
				}
			}
			path = path[:len(path)-1]
		}
		state[f] = finished
		return nil
	}
	for _, f := range p.funcs {
		if needed[f] && state[f] == unseen {
			if err := visit(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// cycleError names the cycle that closes at f: "a reads b, which reads a".
func cycleError(path []edge, f *Func) error {
	start := 0
	for path[start].from != f {
		start++
	}
	cyc := path[start:]
	var b strings.Builder
	b.WriteString(cyc[0].from.name + " reads " + cyc[0].to.name)
	for _, e := range cyc[1:] {
		b.WriteString(", which reads " + e.to.name)
	}
	return scop.Errorf(cyc[0].at, "cyclic pipeline: %s", b.String())
}
