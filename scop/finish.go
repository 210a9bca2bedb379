package scop

import (
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// Finish checks the program and derives every statement's access
// relations. Front ends call it last; the first problem found is returned
// as an *Error at its source position.
func (p *Program) Finish() error {
	if err := p.checkNames(); err != nil {
		return err
	}
	if err := p.checkArrays(); err != nil {
		return err
	}
	schedDim := -1
	for _, s := range p.Stmts {
		if err := p.checkStmt(s, &schedDim); err != nil {
			return err
		}
		if err := p.deriveAccesses(s); err != nil {
			return err
		}
	}
	return p.checkDefined()
}

func (p *Program) checkNames() error {
	seen := map[string]string{}
	claim := func(name, what string, at Pos) error {
		if name == "" {
			return Errorf(at, "%s without a name", what)
		}
		if prev, ok := seen[name]; ok {
			return Errorf(at, "%s %s has the same name as %s %s", what, name, prev, name)
		}
		seen[name] = what
		return nil
	}
	for _, n := range p.Params {
		if err := claim(n, "parameter", Pos{}); err != nil {
			return err
		}
	}
	for _, a := range p.Arrays {
		if err := claim(a.Name, "array", a.At); err != nil {
			return err
		}
	}
	for _, s := range p.Stmts {
		if err := claim(s.Name, "statement", s.At); err != nil {
			return err
		}
	}
	for _, n := range p.Args {
		if !contains(p.Params, n) && p.Array(n) == nil {
			return Errorf(Pos{}, "argument %s is neither a parameter nor an array", n)
		}
	}
	sp := p.Context.Space()
	if !sp.IsParams || !sameNames(sp.Params, p.Params) {
		return Errorf(Pos{}, "context %s is not a parameter set over %v", p.Context, p.Params)
	}
	return nil
}

func (p *Program) checkArrays() error {
	for _, a := range p.Arrays {
		if !a.Type.valid() || a.Type == Bool {
			return Errorf(a.At, "array %s has no valid element type", a.Name)
		}
		for _, e := range a.Extent {
			if err := p.checkExtent(e); err != nil {
				return Errorf(e.Position(), "extent of array %s: %v", a.Name, msgOf(err))
			}
		}
	}
	return nil
}

// checkExtent accepts integer expressions of constants and parameters.
func (p *Program) checkExtent(e Expr) error {
	var bad error
	Walk(e, func(x Expr) bool {
		switch x := x.(type) {
		case *Param:
			if !contains(p.Params, x.Name) {
				bad = Errorf(x.At, "unknown parameter %s", x.Name)
			}
		case *Iter, *Read, *Call, *Select:
			bad = Errorf(x.Position(), "%s is not a constant or parameter expression", x)
		}
		return bad == nil
	})
	if bad != nil {
		return bad
	}
	_, err := AffineText(e)
	return err
}

func (p *Program) checkStmt(s *Stmt, schedDim *int) error {
	dsp := s.Domain.Space()
	if dsp.IsMap || dsp.IsParams || dsp.Out.Name != s.Name || dsp.Out.Nest != nil || dsp.NOut() != len(s.Iters) {
		return Errorf(s.At, "statement %s: domain %s is not a set S[%s] named after the statement", s.Name, s.Domain, strings.Join(s.Iters, ", "))
	}
	for _, q := range dsp.Params {
		if !contains(p.Params, q) {
			return Errorf(s.At, "statement %s: domain uses unknown parameter %s", s.Name, q)
		}
	}
	ssp := s.Schedule.Space()
	if !ssp.IsMap || ssp.In.Name != s.Name || ssp.NIn() != len(s.Iters) {
		return Errorf(s.At, "statement %s: schedule %s does not start from its domain", s.Name, s.Schedule)
	}
	if *schedDim >= 0 && ssp.NOut() != *schedDim {
		return Errorf(s.At, "statement %s: schedule has %d dimensions, earlier statements %d", s.Name, ssp.NOut(), *schedDim)
	}
	*schedDim = ssp.NOut()
	c := checker{p: p, s: s}
	a := p.Array(s.Write.Array)
	if a == nil {
		return Errorf(s.At, "statement %s writes unknown array %s", s.Name, s.Write.Array)
	}
	if err := c.ref(s.Write, s.At); err != nil {
		return err
	}
	if err := c.expr(s.Value); err != nil {
		return err
	}
	if t := s.Value.Type(); t != a.Type {
		return Errorf(s.Value.Position(), "type mismatch: %s value assigned to %s array %s", t, a.Type, a.Name)
	}
	return nil
}

// checkDefined rejects reads of arrays that nothing defines.
func (p *Program) checkDefined() error {
	written := map[string]bool{}
	for _, s := range p.Stmts {
		written[s.Write.Array] = true
	}
	for _, s := range p.Stmts {
		for _, r := range stmtReads(s) {
			a := p.Array(r.Array)
			if !a.LiveIn && !written[a.Name] {
				return Errorf(r.At, "%s is read but never written, and is not live-in", a.Name)
			}
		}
	}
	return nil
}

// stmtReads lists every read of s: in the value and in the write's
// subscripts.
func stmtReads(s *Stmt) []*Read {
	var out []*Read
	for _, x := range s.Write.Index {
		out = append(out, Reads(x)...)
	}
	return append(out, Reads(s.Value)...)
}

func (p *Program) deriveAccesses(s *Stmt) error {
	s.Reads, s.Writes = nil, nil
	w, err := p.access(s, s.Write, true)
	if err != nil {
		return err
	}
	s.Writes = []Access{w}
	for _, r := range stmtReads(s) {
		acc, err := p.access(s, r.Ref, false)
		if err != nil {
			return err
		}
		s.Reads = append(s.Reads, acc)
	}
	return nil
}

// access builds the relation of one reference. Affine subscripts give
// exact relations. A subscript that reads memory ranges over the whole
// extent: allowed in reads, and in writes marked MayWrite.
func (p *Program) access(s *Stmt, r Ref, write bool) (Access, error) {
	may := write && s.MayWrite
	a := p.Array(r.Array)
	taken := map[string]bool{}
	for _, n := range append(append([]string{}, p.Params...), s.Iters...) {
		taken[n] = true
	}
	var idx, cons []string
	for i, x := range r.Index {
		text, err := AffineText(x)
		if err == nil {
			idx = append(idx, text)
			continue
		}
		if len(Reads(x)) == 0 {
			return Access{}, Errorf(x.Position(), "non-affine subscript %s of %s: %v", x, r.Array, msgOf(err))
		}
		if write && !s.MayWrite {
			return Access{}, Errorf(x.Position(), "data-dependent subscript %s of %s in a write not marked may-write", x, r.Array)
		}
		v := freshName(fmt.Sprintf("e%d", i), taken)
		ext, err := AffineText(a.Extent[i])
		if err != nil {
			return Access{}, err
		}
		idx = append(idx, v)
		cons = append(cons, fmt.Sprintf("0 <= %s < %s", v, ext))
		may = true
	}
	text := fmt.Sprintf("[%s] -> { %s[%s] -> %s[%s]", strings.Join(p.Params, ", "), s.Name, strings.Join(s.Iters, ", "), r.Array, strings.Join(idx, ", "))
	if len(cons) > 0 {
		text += " : " + strings.Join(cons, " and ")
	}
	text += " }"
	m, err := presburger.ParseMap(text)
	if err != nil {
		return Access{}, Errorf(s.At, "statement %s: access %s: %v", s.Name, r, err)
	}
	if m, err = m.IntersectDomain(s.Domain); err != nil {
		return Access{}, Errorf(s.At, "statement %s: access %s: %v", s.Name, r, err)
	}
	return Access{Array: r.Array, Rel: m, May: may}, nil
}

func freshName(base string, taken map[string]bool) string {
	name := base
	for taken[name] {
		name += "'"
	}
	taken[name] = true
	return name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// msgOf strips the position from an *Error's text.
func msgOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Msg
	}
	return err.Error()
}
