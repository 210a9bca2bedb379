package gen

import (
	"fmt"
	"strings"
)

// literal builds a literal with a few pieces over the given spaces. A
// literal's pieces are all sets or all maps, as isl requires.
func (g *generator) literal(sp []space) Literal {
	l := Literal{Params: g.params()}
	for range 1 + g.r.IntN(3) {
		l.Pieces = append(l.Pieces, g.piece(sp[g.r.IntN(len(sp))], l.Params))
	}
	return l
}

// params picks 0 to 2 of N and M.
func (g *generator) params() []string {
	switch g.r.IntN(6) {
	case 0, 1, 2:
		return nil
	case 3:
		return []string{"N"}
	case 4:
		return []string{"M"}
	}
	return []string{"N", "M"}
}

func (g *generator) piece(s space, params []string) Piece {
	var vars []string // named dimensions, usable in formulas
	tupleText := func(t tuple, prefix string, in []string) string {
		var dims []string
		for i := range t.n {
			switch {
			case g.r.IntN(10) == 0:
				dims = append(dims, fmt.Sprint(g.r.IntN(7)-3))
			case len(in) > 0 && g.r.IntN(4) == 0:
				dims = append(dims, g.affine(append(in, params...), 2, 3))
			default:
				v := fmt.Sprintf("%s%d", prefix, i)
				dims = append(dims, v)
				vars = append(vars, v)
			}
		}
		return t.name + "[" + strings.Join(dims, ", ") + "]"
	}
	var p Piece
	if s.in != nil {
		p.Tuple = tupleText(*s.in, "i", nil)
		in := append([]string(nil), vars...)
		p.Tuple += " -> " + tupleText(s.out, "o", in)
	} else {
		p.Tuple = tupleText(s.out, "i", nil)
	}
	for _, v := range vars {
		if g.bounded || g.r.IntN(5) != 0 {
			p.Conj = append(p.Conj, g.bounds(v, params))
		}
	}
	all := append(vars, params...)
	if len(all) > 0 {
		for range g.r.IntN(3) {
			p.Conj = append(p.Conj, g.formula(all, 1))
		}
	}
	return p
}

// bounds gives lo <= v <= hi with small constants or parameters.
func (g *generator) bounds(v string, params []string) string {
	lo := g.r.IntN(8) - 5
	loText, hiText := fmt.Sprint(lo), fmt.Sprint(lo+2+g.r.IntN(9))
	if len(params) > 0 && g.r.IntN(3) == 0 {
		hiText = params[g.r.IntN(len(params))]
		if k := g.r.IntN(5) - 2; k > 0 {
			hiText += fmt.Sprintf(" + %d", k)
		} else if k < 0 {
			hiText += fmt.Sprintf(" - %d", -k)
		}
	}
	op := []string{" <= ", " < "}[g.r.IntN(2)]
	return loText + " <= " + v + op + hiText
}

// coef is mostly small, sometimes up to ±20, never zero.
func (g *generator) coef() int {
	for {
		var c int
		if g.r.IntN(10) < 8 {
			c = g.r.IntN(7) - 3
		} else {
			c = g.r.IntN(41) - 20
		}
		if c != 0 {
			return c
		}
	}
}

// affine returns an affine expression over up to maxTerms of vars plus a
// constant of at most maxConst in absolute value.
func (g *generator) affine(vars []string, maxTerms, maxConst int) string {
	var b strings.Builder
	n := 1 + g.r.IntN(maxTerms)
	used := map[string]bool{}
	for range n {
		v := vars[g.r.IntN(len(vars))]
		if used[v] {
			continue
		}
		used[v] = true
		writeTerm(&b, g.coef(), v)
	}
	if c := g.r.IntN(2*maxConst+1) - maxConst; c != 0 || b.Len() == 0 {
		writeTerm(&b, c, "")
	}
	return b.String()
}

// writeTerm appends c*v in isl style: "3i0", "- i0", "+ 5".
func writeTerm(b *strings.Builder, c int, v string) {
	abs := c
	if c < 0 {
		abs = -c
	}
	switch {
	case b.Len() == 0 && c < 0:
		b.WriteString("-")
	case b.Len() > 0 && c < 0:
		b.WriteString(" - ")
	case b.Len() > 0:
		b.WriteString(" + ")
	}
	if abs != 1 || v == "" {
		fmt.Fprint(b, abs)
	}
	b.WriteString(v)
}

// formula returns one random conjunct; depth bounds nesting of or/not.
func (g *generator) formula(vars []string, depth int) string {
	k := g.r.IntN(10)
	if depth == 0 && k >= 8 {
		k = 0
	}
	switch k {
	case 0, 1, 2:
		return g.affine(vars, 3, 10) + []string{" >= ", " <= ", " > ", " < "}[g.r.IntN(4)] + g.affine(vars, 1, 5)
	case 3:
		return g.affine(vars, 2, 5) + " = " + g.affine(vars, 1, 5)
	case 4:
		d := 2 + g.r.IntN(4)
		return fmt.Sprintf("(%s) mod %d %s %d", g.affine(vars, 2, 5), d, []string{"=", "<=", ">="}[g.r.IntN(3)], g.r.IntN(d))
	case 5:
		return fmt.Sprintf("floor((%s)/%d) %s %s", g.affine(vars, 2, 5), 2+g.r.IntN(5),
			[]string{">=", "<=", "="}[g.r.IntN(3)], g.affine(vars, 1, 5))
	case 6, 7:
		return g.exists(vars)
	case 8:
		return "(" + g.formula(vars, depth-1) + " or " + g.formula(vars, depth-1) + ")"
	}
	return "not (" + g.formula(vars, depth-1) + ")"
}

// exists returns a conjunct with one or two local variables: a stride, a
// floor-defined local, or two locals tied by a linear combination.
func (g *generator) exists(vars []string) string {
	v := vars[g.r.IntN(len(vars))]
	d := 2 + g.r.IntN(4)
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf("exists (e0 : %s = %de0 + %d)", v, d, g.r.IntN(d))
	case 1:
		return fmt.Sprintf("exists (e0 = floor((%s)/%d) : %s <= %de0 + %d)",
			g.affine(vars, 2, 5), d, g.affine(vars, 2, 5), d, g.r.IntN(2*d))
	}
	return fmt.Sprintf("exists (e0, e1 : %s = %de0 + %de1 and 0 <= e0 <= %d and 0 <= e1 <= %d)",
		v, d, 1+g.r.IntN(5), g.r.IntN(4), g.r.IntN(4))
}
