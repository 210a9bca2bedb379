package ast

import (
	"strings"
)

// CPrelude defines the helper functions the printed C uses, correct for
// negative operands (divisors are positive constants).
const CPrelude = `static inline int floord(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline int ceild(int a, int b) { return a >= 0 ? (a + b - 1) / b : -(-a / b); }
static inline int floormod(int a, int b) { int r = a % b; return r < 0 ? r + b : r; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
`

// PrintOptions control PrintC.
type PrintOptions struct {
	// Indent is one level of indentation (default two spaces).
	Indent string
	// Prelude prints CPrelude (and <stdlib.h> when buffers are
	// allocated) before the code.
	Prelude bool
	// Stmt prints a statement instance (without the final newline); the
	// default is a call in isl's style, "S_0(c0, c1);". live holds the
	// Alloc of every tile-local buffer live there, for its origin and
	// fold.
	Stmt func(u *User, live map[string]*Alloc) string
	// Depth is the indentation level of the outermost statements.
	Depth int
}

// PrintC writes n as C statements: loops over int iterators, with
// "#pragma omp parallel for" before parallel loops and "#pragma omp simd"
// before vector loops, conditions as if statements, marks as comments.
// Braces appear only around several statements, as in isl's printer.
func PrintC(n Node, opts PrintOptions) string {
	if opts.Indent == "" {
		opts.Indent = "  "
	}
	p := &cPrinter{opts: opts}
	if opts.Prelude {
		if hasAlloc(n) {
			p.b.WriteString("#include <stdlib.h>\n")
		}
		p.b.WriteString(CPrelude + "\n")
	}
	p.stmt(n, opts.Depth)
	return p.b.String()
}

func hasAlloc(n Node) bool {
	found := false
	Walk(n, func(x Node) bool {
		if _, ok := x.(*Alloc); ok {
			found = true
		}
		return !found
	})
	return found
}

type cPrinter struct {
	opts PrintOptions
	b    strings.Builder
	// scalars are the buffers allocated as local variables, which their
	// Free leaves alone.
	scalars map[string]bool
	// live are the Allocs of the live buffers by array; shadowed the
	// ones their Allocs replaced (nil for none), innermost last.
	live     map[string]*Alloc
	shadowed []*Alloc
}

func (p *cPrinter) line(depth int, s string) {
	p.b.WriteString(strings.Repeat(p.opts.Indent, depth))
	p.b.WriteString(s)
	p.b.WriteByte('\n')
}

// body prints the body of a loop or branch: braces around a block.
func (p *cPrinter) body(n Node, depth int, head string) {
	if blk, ok := n.(*Block); ok {
		p.line(depth, head+" {")
		for _, c := range blk.Children {
			p.stmt(c, depth+1)
		}
		p.line(depth, "}")
		return
	}
	p.line(depth, head)
	p.stmt(n, depth+1)
}

func (p *cPrinter) stmt(n Node, depth int) {
	switch n := n.(type) {
	case nil:
	case *Block:
		for _, c := range n.Children {
			p.stmt(c, depth)
		}
	case *For:
		switch {
		case n.Parallel && n.Vector:
			p.line(depth, "#pragma omp parallel for simd")
		case n.Parallel:
			p.line(depth, "#pragma omp parallel for")
		case n.Vector:
			p.line(depth, "#pragma omp simd")
		}
		cond := n.Iter + " " + upperText(n.Upper)
		if n.Unbounded {
			cond = "1"
		}
		head := "for (int " + n.Iter + " = " + n.Lower.String() + "; " + cond + "; " + n.Iter + " += " + itoa(n.Stride) + ")"
		p.body(n.Body, depth, head)
	case *If:
		head := "if (" + n.Cond.String() + ")"
		if n.Else == nil {
			p.body(n.Then, depth, head)
			return
		}
		p.line(depth, head+" {")
		p.stmt(n.Then, depth+1)
		if inner, ok := n.Else.(*If); ok {
			p.b.WriteString(strings.Repeat(p.opts.Indent, depth) + "} else ")
			p.stmtInline(inner, depth)
			return
		}
		p.line(depth, "} else {")
		p.stmt(n.Else, depth+1)
		p.line(depth, "}")
	case *User:
		if p.opts.Stmt != nil {
			p.line(depth, p.opts.Stmt(n, p.live))
			return
		}
		p.line(depth, userCall(n))
	case *Mark:
		p.line(depth, "// "+n.Name)
		if _, ok := n.Body.(*Block); ok {
			p.line(depth, "{")
			p.stmt(n.Body, depth+1)
			p.line(depth, "}")
			return
		}
		p.stmt(n.Body, depth)
	case *Alloc:
		if len(n.Shape) == 0 {
			if p.scalars == nil {
				p.scalars = map[string]bool{}
			}
			p.scalars[n.Array] = true
		}
		if p.live == nil {
			p.live = map[string]*Alloc{}
		}
		p.shadowed = append(p.shadowed, p.live[n.Array])
		p.live[n.Array] = n
		p.line(depth, allocText(n))
	case *Free:
		if !p.scalars[n.Array] {
			p.line(depth, "free("+n.Array+");")
		}
		if k := len(p.shadowed); k > 0 {
			p.live[n.Array], p.shadowed = p.shadowed[k-1], p.shadowed[:k-1]
			if p.live[n.Array] == nil {
				delete(p.live, n.Array)
			}
		}
	}
}

// stmtInline prints an else-if chain after "} else ".
func (p *cPrinter) stmtInline(n *If, depth int) {
	p.b.WriteString("if (" + n.Cond.String() + ") {\n")
	p.stmt(n.Then, depth+1)
	switch e := n.Else.(type) {
	case nil:
		p.line(depth, "}")
	case *If:
		p.b.WriteString(strings.Repeat(p.opts.Indent, depth) + "} else ")
		p.stmtInline(e, depth)
	default:
		p.line(depth, "} else {")
		p.stmt(e, depth+1)
		p.line(depth, "}")
	}
}

// upperText writes "<= u", or "< u + 1" when u ends in a negative
// constant (isl's "c0 < n" for "c0 <= n - 1").
func upperText(u Expr) string {
	if u.Op == OpAdd {
		last := u.Args[len(u.Args)-1]
		if last.Op == OpInt && last.Val < 0 {
			return "< " + Add(u, Int(1)).String()
		}
	}
	if u.Op == OpInt && u.Val < 0 {
		return "< " + itoa(u.Val+1)
	}
	return "<= " + u.String()
}

// userCall is the isl-style call of a statement instance.
func userCall(u *User) string {
	args := make([]string, len(u.Args))
	for i, a := range u.Args {
		args[i] = a.String()
	}
	return u.Stmt + "(" + strings.Join(args, ", ") + ");"
}

// allocText declares a buffer: a local variable for a scalar, else a
// pointer to rows of the inner extents, allocated with malloc.
func allocText(a *Alloc) string {
	t := a.Elem.CName()
	if len(a.Shape) == 0 {
		return t + " " + a.Array + ";"
	}
	var rows strings.Builder
	size := "sizeof(" + t + ")"
	for i, s := range a.Shape {
		if i > 0 {
			rows.WriteString("[" + s.String() + "]")
		}
		size += " * (" + s.String() + ")"
	}
	decl := "(*" + a.Array + ")" + rows.String()
	if len(a.Shape) == 1 {
		decl = "*" + a.Array
	}
	text := t + " " + decl + " = malloc(" + size + ");"
	if a.Origin != nil {
		o := make([]string, len(a.Origin))
		for i, e := range a.Origin {
			o[i] = e.String()
		}
		text += " // from [" + strings.Join(o, ", ") + "]"
	}
	if a.Fold != nil {
		f := make([]string, len(a.Fold))
		for i, k := range a.Fold {
			f[i] = itoa(k)
		}
		sep := " // "
		if a.Origin != nil {
			sep = ", "
		}
		text += sep + "folded [" + strings.Join(f, ", ") + "]"
	}
	return text
}

func itoa(v int64) string { return Int(v).String() }
