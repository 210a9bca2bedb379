package presburger

import (
	"fmt"
	"strconv"
	"strings"
)

// namer assigns printable, unique names to the variables of a space.
type namer struct {
	sp    Space
	vars  []string // params, in, out
	taken map[string]bool
}

func newNamer(sp Space) *namer {
	n := &namer{sp: sp, taken: map[string]bool{}}
	for _, p := range sp.Params {
		n.vars = append(n.vars, p)
		n.taken[p] = true
	}
	var dims []string
	if sp.IsMap {
		dims = append(dims, sp.In.flatNames()...)
	}
	if !sp.IsParams {
		dims = append(dims, sp.Out.flatNames()...)
	}
	for _, d := range dims {
		if d == "" || n.taken[d] {
			d = n.fresh("i")
		}
		n.taken[d] = true
		n.vars = append(n.vars, d)
	}
	return n
}

// fresh returns an unused name prefixN and reserves it.
func (n *namer) fresh(prefix string) string {
	for k := 0; ; k++ {
		s := prefix + strconv.Itoa(k)
		if !n.taken[s] {
			n.taken[s] = true
			return s
		}
	}
}

// header prints the tuples ("S[i] -> A[j]") or nothing for a param space.
func (n *namer) header() string {
	if n.sp.IsParams {
		return ""
	}
	dims := n.vars[len(n.sp.Params):]
	if n.sp.IsMap {
		k := n.sp.In.Len()
		return tupleString(n.sp.In, dims[:k]) + " -> " + tupleString(n.sp.Out, dims[k:])
	}
	return tupleString(n.sp.Out, dims)
}

// tupleString prints a tuple with the given flat dimension names.
func tupleString(t Tuple, names []string) string {
	if names == nil {
		names = t.flatNames()
	}
	if t.Nest != nil {
		k := t.Nest[0].Len()
		return t.Name + "[" + tupleString(t.Nest[0], names[:k]) + " -> " + tupleString(t.Nest[1], names[k:]) + "]"
	}
	return t.Name + "[" + strings.Join(names, ", ") + "]"
}

// String prints r in isl notation; isl reads it back as an equal object.
func (r rel) String() string {
	var b strings.Builder
	if len(r.space.Params) > 0 {
		b.WriteString("[" + strings.Join(r.space.Params, ", ") + "] -> ")
	}
	b.WriteString("{ ")
	if !r.writeBody(&b) {
		// An empty set keeps its space, as isl prints it.
		b.WriteString(newNamer(r.space).header() + " : false")
	}
	b.WriteString(" }")
	return b.String()
}

// writeBody writes "S[i] : c1 or c2"; it writes nothing and returns false
// for an empty rel.
func (r rel) writeBody(b *strings.Builder) bool {
	var parts []*basic
	for _, p := range r.parts {
		if !p.empty {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return false
	}
	n := newNamer(r.space)
	b.WriteString(n.header())
	var conds []string
	universe := false
	for _, p := range parts {
		c := p.formula(n)
		if c == "" {
			universe = true
			break
		}
		conds = append(conds, c)
	}
	switch {
	case universe && r.space.IsParams:
		b.WriteString(" : true")
	case universe:
	case len(conds) == 1:
		b.WriteString(" : " + conds[0])
	default:
		b.WriteString(" : (" + strings.Join(conds, ") or (") + ")")
	}
	return true
}

// formula prints the constraints of b ("" for the universe) using the
// variable names of n; locals are printed as an exists clause.
func (b *basic) formula(n *namer) string {
	names := append([]string{""}, n.vars...)
	var decls []string
	for k, d := range b.divs {
		name := n.fresh("e")
		names = append(names, name)
		if d.den != 0 {
			decls = append(decls, fmt.Sprintf("%s = floor((%s)/%d)", name, affineString(d.num, names, true), d.den))
		} else {
			decls = append(decls, name)
		}
		_ = k
	}
	var cons []string
	for _, e := range b.eqs {
		cons = append(cons, constraintString(e, names, "="))
	}
	for _, in := range b.ineqs {
		cons = append(cons, constraintString(in, names, ">="))
	}
	// Release local names so sibling disjuncts reuse e0, e1, ...
	for _, nm := range names[1+len(n.vars):] {
		delete(n.taken, nm)
	}
	body := strings.Join(cons, " and ")
	if len(decls) == 0 {
		return body
	}
	if body == "" {
		body = "true"
	}
	return "exists (" + strings.Join(decls, ", ") + ": " + body + ")"
}

// constraintString prints row op 0 with positive terms on the left.
func constraintString(row []int64, names []string, op string) string {
	pos := make([]int64, len(row))
	neg := make([]int64, len(row))
	for j, v := range row {
		if v > 0 {
			pos[j] = v
		} else if v < 0 {
			neg[j] = -v
		}
	}
	return affineString(pos, names, false) + " " + op + " " + affineString(neg, names, false)
}

// affineString prints Σ row[j]·names[j] with row[0] the constant; "0" if empty.
// With parens, a sum that is not a single term is left as is (the caller
// wraps it).
func affineString(row []int64, names []string, _ bool) string {
	var b strings.Builder
	first := true
	for j := 1; j < len(row); j++ {
		v := row[j]
		if v == 0 {
			continue
		}
		writeTerm(&b, v, names[j], first)
		first = false
	}
	if row[0] != 0 || first {
		c := row[0]
		switch {
		case first:
			b.WriteString(strconv.FormatInt(c, 10))
		case c > 0:
			b.WriteString(" + " + strconv.FormatInt(c, 10))
		default:
			b.WriteString(" - " + strconv.FormatUint(uint64(-(c+1))+1, 10))
		}
	}
	return b.String()
}

func writeTerm(b *strings.Builder, v int64, name string, first bool) {
	abs := strconv.FormatUint(absU(v), 10)
	switch {
	case first && v < 0:
		b.WriteString("-")
	case !first && v < 0:
		b.WriteString(" - ")
	case !first:
		b.WriteString(" + ")
	}
	if absU(v) != 1 {
		b.WriteString(abs + "*")
	}
	b.WriteString(name)
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}
