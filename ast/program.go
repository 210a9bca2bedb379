package ast

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// PrintProgram writes a complete C function fn that runs the AST n of
// program p: its signature follows p.ArgNames() as scop/charness calls it
// (parameters as int, arrays as arrays of their element type and extents,
// zero-dimensional arrays by value), the program's other arrays are local
// (zero-initialised, as the reference executor's temporaries), and each
// statement instance is the statement's assignment with its iterators
// replaced by the instance's arguments.
func PrintProgram(p *scop.Program, n Node, fn string) (string, error) {
	c := &programPrinter{p: p, declared: map[string]bool{}}
	var sig []string
	for _, name := range p.ArgNames() {
		if isParam(p, name) {
			sig = append(sig, "int "+name)
			c.declared[name] = true
			continue
		}
		a := p.Array(name)
		if a == nil {
			return "", fmt.Errorf("ast: argument %s is neither a parameter nor an array", name)
		}
		decl, err := c.arrayDecl(a)
		if err != nil {
			return "", err
		}
		sig = append(sig, decl)
		c.declared[name] = true
	}
	n = c.avoidClashes(n)
	if err := c.checkNames(n); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n\n")
	b.WriteString(CPrelude + bodyHelpers + "\n")
	fmt.Fprintf(&b, "void %s(%s)\n{\n", fn, strings.Join(sig, ", "))
	var frees []string
	for _, a := range p.Arrays {
		if c.declared[a.Name] {
			continue
		}
		if a.Rank() == 0 {
			fmt.Fprintf(&b, "  %s %s = 0;\n", a.Type.CName(), a.Name)
			continue
		}
		decl, size, err := c.localDecl(a)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "  %s = calloc(%s, sizeof(%s));\n", decl, size, a.Type.CName())
		frees = append(frees, a.Name)
	}
	var stmtErr error
	body := PrintC(n, PrintOptions{Depth: 1, Stmt: func(u *User, live map[string]*Alloc) string {
		s, err := c.stmt(u, live)
		if err != nil && stmtErr == nil {
			stmtErr = err
		}
		return s
	}})
	if stmtErr != nil {
		return "", stmtErr
	}
	b.WriteString(body)
	for _, name := range frees {
		fmt.Fprintf(&b, "  free(%s);\n", name)
	}
	b.WriteString("}\n")
	return b.String(), nil
}

type programPrinter struct {
	p        *scop.Program
	declared map[string]bool
}

func isParam(p *scop.Program, name string) bool {
	for _, x := range p.Params {
		if x == name {
			return true
		}
	}
	return false
}

// extents writes the extents of a, checking that the parameters they use
// are declared before.
func (c *programPrinter) extents(a *scop.Array) ([]string, error) {
	out := make([]string, len(a.Extent))
	for i, e := range a.Extent {
		s, err := (&cBody{}).expr(e)
		if err != nil {
			return nil, err
		}
		var missing error
		scop.Walk(e, func(x scop.Expr) bool {
			if p, ok := x.(*scop.Param); ok && !c.declared[p.Name] && missing == nil {
				missing = fmt.Errorf("ast: extent of %s uses parameter %s, which is not an earlier argument", a.Name, p.Name)
			}
			return true
		})
		if missing != nil {
			return nil, missing
		}
		out[i] = s
	}
	return out, nil
}

// arrayDecl declares an array argument: by value for a scalar.
func (c *programPrinter) arrayDecl(a *scop.Array) (string, error) {
	ext, err := c.extents(a)
	if err != nil {
		return "", err
	}
	s := a.Type.CName() + " " + a.Name
	for _, e := range ext {
		s += "[" + e + "]"
	}
	return s, nil
}

// localDecl declares a pointer to the rows of a local array and its
// number of elements.
func (c *programPrinter) localDecl(a *scop.Array) (string, string, error) {
	ext, err := c.extents(a)
	if err != nil {
		return "", "", err
	}
	decl := a.Type.CName() + " (*" + a.Name + ")"
	for _, e := range ext[1:] {
		decl += "[" + e + "]"
	}
	return decl, "(size_t)(" + strings.Join(ext, ") * (") + ")", nil
}

// avoidClashes renames the iterators when one has the name of a
// parameter or an array: c0, c1, ... become c0_, c1_, ... (adding
// underscores until no name clashes).
func (c *programPrinter) avoidClashes(n Node) Node {
	taken := func(s string) bool { return isParam(c.p, s) || c.p.Array(s) != nil }
	clash := false
	Walk(n, func(x Node) bool {
		if f, ok := x.(*For); ok && taken(f.Iter) {
			clash = true
		}
		return !clash
	})
	if !clash {
		return n
	}
	suffix := "_"
	for {
		ok := true
		Walk(n, func(x Node) bool {
			if f, isFor := x.(*For); isFor && taken(f.Iter+suffix) {
				ok = false
			}
			return ok
		})
		if ok {
			return RenameIterators(n, func(s string) string { return s + suffix })
		}
		suffix += "_"
	}
}

var iterName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// checkNames refuses loop iterators that are not C identifiers or that
// shadow a parameter or an array of the program.
func (c *programPrinter) checkNames(n Node) error {
	var err error
	Walk(n, func(x Node) bool {
		if f, ok := x.(*For); ok && err == nil {
			switch {
			case !iterName.MatchString(f.Iter):
				err = fmt.Errorf("ast: iterator %q is not a C identifier", f.Iter)
			case isParam(c.p, f.Iter) || c.p.Array(f.Iter) != nil:
				err = fmt.Errorf("ast: iterator %s has the name of a parameter or array of %s (use Options.Prefix)", f.Iter, c.p.Name)
			}
		}
		return err == nil
	})
	return err
}

// stmt writes one statement instance.
func (c *programPrinter) stmt(u *User, live map[string]*Alloc) (string, error) {
	s := c.p.Stmt(u.Stmt)
	if s == nil {
		return "", fmt.Errorf("ast: program %s has no statement %s", c.p.Name, u.Stmt)
	}
	if len(u.Args) != len(s.Iters) {
		return "", fmt.Errorf("ast: statement %s has %d iterators, the AST gives %d", s.Name, len(s.Iters), len(u.Args))
	}
	b := &cBody{args: u.Args, live: live}
	lhs, err := b.ref(s.Write)
	if err != nil {
		return "", err
	}
	rhs, err := b.expr(s.Value)
	if err != nil {
		return "", err
	}
	return lhs + " = " + rhs + ";", nil
}
