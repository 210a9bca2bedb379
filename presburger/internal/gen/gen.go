package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Ops are the operations a case can exercise; Expr combines several.
var Ops = []string{"union", "intersect", "subtract", "equal", "subset", "apply", "join",
	"mapset", "reverse", "dom", "ran", "deltas", "params", "sample",
	"lexmin", "lexmax", "coalesce", "gist", "expr"}

// Case is a generated script: definitions, then one printed expression.
type Case struct {
	Op   string
	Seed uint64
	Defs []Def
	Expr *Expr
}

// Def binds Name to a literal.
type Def struct {
	Name string
	Lit  Literal
}

// Literal is an isl set or map: parameters and pieces (one per ';').
type Literal struct {
	Params []string
	Pieces []Piece
}

// Piece is a tuple (or map between tuples) and a conjunction of formulas.
type Piece struct {
	Tuple string
	Conj  []string
}

// Script renders the case as a calculator program.
func (c *Case) Script() string {
	var b strings.Builder
	for _, d := range c.Defs {
		fmt.Fprintf(&b, "%s := %s;\n", d.Name, d.Lit)
	}
	b.WriteString(c.Expr.String() + ";\n")
	return b.String()
}

func (l Literal) String() string {
	var b strings.Builder
	if len(l.Params) > 0 {
		b.WriteString("[" + strings.Join(l.Params, ", ") + "] -> ")
	}
	var pieces []string
	for _, p := range l.Pieces {
		s := p.Tuple
		if len(p.Conj) > 0 {
			s += " : " + strings.Join(p.Conj, " and ")
		}
		pieces = append(pieces, s)
	}
	b.WriteString("{ " + strings.Join(pieces, "; ") + " }")
	return b.String()
}

// New generates the case for op and seed.
func New(op string, seed uint64) *Case {
	g := &generator{r: rand.New(rand.NewPCG(seed, 0x7f4a7c15))}
	c := &Case{Op: op, Seed: seed}
	g.c = c
	g.pickSpaces()
	switch op {
	case "union", "intersect", "subtract", "gist":
		sym := map[string]string{"union": "+", "intersect": "*", "subtract": "-", "gist": "%"}[op]
		m := g.r.IntN(2) == 0
		sp := g.pool(m)
		c.Expr = bin(sym, g.def(m, sp), g.def(m, g.related(m, sp)))
	case "equal", "subset":
		c.Expr = g.comparison(op)
	case "apply":
		sp := g.pool(false)
		s := g.def(false, sp)
		c.Expr = bin("()", g.def(true, g.mapsFrom(sp)), s)
	case "mapset":
		mp := g.pool(true)
		c.Expr = bin("*", g.def(true, mp), g.def(false, g.related(false, domains(mp))))
	case "join":
		mp := g.pool(true)
		c.Expr = bin(".", g.def(true, mp), g.def(true, g.mapsFrom(ranges(mp))))
	case "reverse":
		c.Expr = un("^-1", g.def(true, g.pool(true)))
	case "dom", "ran":
		c.Expr = un(op, g.def(true, g.pool(true)))
	case "deltas":
		c.Expr = un("deltas", g.def(true, g.endoPool()))
	case "params", "sample", "lexmin", "lexmax", "coalesce":
		// isl has no answer for an unbounded optimum; test that rarely.
		g.bounded = (op == "lexmin" || op == "lexmax") && g.r.IntN(10) != 0
		m := g.r.IntN(2) == 0
		c.Expr = un(op, g.def(m, g.pool(m)))
	case "expr":
		// Shared pools make the operands of nested operations meet.
		g.exprMaps = g.pool(true)
		g.exprSets = append(domains(g.exprMaps), g.pool(false)...)
		c.Expr = g.expr(g.r.IntN(2) == 0, 3)
	default:
		panic("gen: unknown op " + op)
	}
	return c
}

type tuple struct {
	name string
	n    int
}

// space is a set space (in == nil) or a map space.
type space struct {
	in  *tuple
	out tuple
}

type generator struct {
	r      *rand.Rand
	c      *Case
	tuples []tuple // the tuples this case draws from, so operands share spaces

	exprMaps, exprSets []space // the spaces of an "expr" case's leaves
	bounded            bool    // bound every named dimension
}

func (g *generator) pickSpaces() {
	names := []string{"A", "B", "C", ""}
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	for _, n := range names[:2+g.r.IntN(2)] {
		g.tuples = append(g.tuples, tuple{name: n, n: g.arity()})
	}
}

// arity is mostly 1 or 2, sometimes 0, 3 or 4.
func (g *generator) arity() int {
	return []int{0, 1, 1, 1, 2, 2, 2, 3, 4}[g.r.IntN(9)]
}

func (g *generator) tuple() tuple { return g.tuples[g.r.IntN(len(g.tuples))] }

// pool returns 1 or 2 spaces of the given kind over the case's tuples.
func (g *generator) pool(isMap bool) []space {
	var sp []space
	for range 1 + g.r.IntN(2) {
		s := space{out: g.tuple()}
		if isMap {
			in := g.tuple()
			s.in = &in
		}
		sp = append(sp, s)
	}
	return sp
}

// related returns sp most of the time, so that binary operations meet in
// the same spaces, and sometimes a fresh pool.
func (g *generator) related(isMap bool, sp []space) []space {
	if g.r.IntN(5) == 0 {
		return g.pool(isMap)
	}
	return sp
}

// endoPool returns map spaces mostly from a tuple to itself (what deltas
// keeps), sometimes between different tuples (which deltas drops).
func (g *generator) endoPool() []space {
	sp := g.pool(true)
	for i := range sp {
		if g.r.IntN(4) != 0 {
			in := sp[i].out
			sp[i].in = &in
		}
	}
	return sp
}

func (g *generator) mapsFrom(doms []space) []space {
	var sp []space
	for _, d := range doms {
		in := d.out
		sp = append(sp, space{in: &in, out: g.tuple()})
	}
	if g.r.IntN(4) == 0 { // a piece whose domain matches nothing
		sp = append(sp, g.pool(true)[0])
	}
	return sp
}

func domains(maps []space) []space {
	var sp []space
	for _, m := range maps {
		sp = append(sp, space{out: *m.in})
	}
	return sp
}

func ranges(maps []space) []space {
	var sp []space
	for _, m := range maps {
		sp = append(sp, space{out: m.out})
	}
	return sp
}

// def adds a literal over the given spaces and returns its name.
func (g *generator) def(isMap bool, sp []space) *Expr {
	prefix := "S"
	if isMap {
		prefix = "M"
	}
	name := fmt.Sprintf("%s%d", prefix, len(g.c.Defs))
	g.c.Defs = append(g.c.Defs, Def{Name: name, Lit: g.literal(sp)})
	return leaf(name)
}

// comparison builds a test that is often true, so both answers occur:
// identities over random operands as well as random pairs.
func (g *generator) comparison(op string) *Expr {
	m := g.r.IntN(2) == 0
	sp := g.pool(m)
	a, b := g.def(m, sp), g.def(m, sp)
	if op == "subset" {
		return []*Expr{bin("<=", a, b), bin("<=", bin("*", a, b), a), bin("<=", a, bin("+", a, b)),
			bin("<=", bin("-", a, b), a), bin("<=", a, bin("-", a, b))}[g.r.IntN(5)]
	}
	return []*Expr{bin("=", a, b), bin("=", a, bin("+", a, a)), bin("=", bin("+", bin("-", a, b), bin("*", a, b)), a),
		bin("=", bin("*", a, b), bin("*", b, a)), bin("=", bin("-", a, b), a)}[g.r.IntN(5)]
}

// expr builds a random well-typed expression of the given kind.
func (g *generator) expr(isMap bool, depth int) *Expr {
	if depth == 0 || g.r.IntN(4) == 0 {
		if isMap {
			return g.def(true, g.exprMaps)
		}
		return g.def(false, g.exprSets)
	}
	d := depth - 1
	if isMap {
		switch g.r.IntN(6) {
		case 0:
			return un("^-1", g.expr(true, d))
		case 1:
			return bin(".", g.expr(true, d), g.expr(true, d))
		case 2:
			return bin("*", g.expr(true, d), g.expr(false, d))
		}
	} else {
		switch g.r.IntN(6) {
		case 0:
			return un("dom", g.expr(true, d))
		case 1:
			return un("ran", g.expr(true, d))
		case 2:
			return bin("()", g.expr(true, d), g.expr(false, d))
		}
	}
	return bin([]string{"+", "-", "*"}[g.r.IntN(3)], g.expr(isMap, d), g.expr(isMap, d))
}
