package scop

import (
	"fmt"
	"strings"
)

// String is the program in a readable text form: parameters, context,
// arrays, then each statement with its domain, schedule, body and access
// relations in isl notation.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "program %s\n", p.Name)
	fmt.Fprintf(&b, "params   [%s]\n", strings.Join(p.Params, ", "))
	fmt.Fprintf(&b, "context  %s\n", p.Context)
	for _, a := range p.Arrays {
		fmt.Fprintf(&b, "array    %s\n", a)
	}
	for _, s := range p.Stmts {
		fmt.Fprintf(&b, "statement %s\n", s.Name)
		fmt.Fprintf(&b, "  domain    %s\n", s.Domain)
		fmt.Fprintf(&b, "  schedule  %s\n", s.Schedule)
		fmt.Fprintf(&b, "  body      %s\n", s.Body())
		for _, a := range s.Writes {
			fmt.Fprintf(&b, "  %-9s %s\n", a.kind("write"), a.Rel)
		}
		for _, a := range s.Reads {
			fmt.Fprintf(&b, "  %-9s %s\n", a.kind("read"), a.Rel)
		}
	}
	return b.String()
}

// String is the array's declaration: name, type, extents and flags.
func (a *Array) String() string {
	var b strings.Builder
	b.WriteString(a.Name + " " + a.Type.String())
	for _, e := range a.Extent {
		b.WriteString("[" + e.String() + "]")
	}
	if a.LiveIn {
		b.WriteString(" live-in")
	}
	if a.LiveOut {
		b.WriteString(" live-out")
	}
	return b.String()
}

// Body is the statement's assignment in C-like text.
func (s *Stmt) Body() string {
	return s.Write.String() + " = " + s.Value.String()
}

func (a Access) kind(base string) string {
	if a.May {
		return "may-" + base
	}
	return base
}
