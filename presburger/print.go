package presburger

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// The printer writes sets and maps the way isl 0.25 prints them, so that
// isl and our parser both read the text back as an equal object:
//
//	[N] -> { S[i, j] -> A[i + j] : 0 <= i < N and 0 <= j <= i }
//	{ S[i, j] -> [0, i, 0, j, 0] }
//	{ S[i, j] -> [floor(i/32), floor(j/32), i, j] }
//	[N] -> { S[i, j] : j mod 2 = 0 and 0 <= i < N and 0 <= j <= i }
//
// As in isl: a tuple dimension fixed by an equality over earlier variables
// is printed as that expression, "name = expression" when the dimension has
// a name of its own; disjuncts that fix different dimensions are separate
// "tuple : constraints" pieces; equalities come first, then inequalities
// sorted by their last variable, the lower and upper bound of a variable
// chained ("0 <= i < N") and strict when the bound is off by one; an
// equality on a multiple of a local floor(g/m) is a modulo constraint;
// affine expressions have the constant first and implicit products
// ("-1 + 2N"); unnamed dimensions are i0, i1, ... (o0, o1, ... in the range
// of a map) and a name used twice gets primes (i'); locals with a floor
// definition are written inline, the others in an "exists (e0, ...: ...)"
// clause; in a disjunction, constraints shared by all disjuncts are
// written once ("0 <= i < N and (i <= 4 or j >= 8)").
//
// Beyond isl, for readability: a local may be part of a tuple expression
// ("[floor(i/32), i mod 32]", isl writes "[o0, o1] : ..." with bounds), a
// dimension bounded by d*x <= f <= d*x + d - 1 is printed as floor(f/d),
// modulo terms are also used in inequalities ("i mod 4 >= 1") and in
// expressions where they save terms, without parentheses around a single
// variable ("i mod 2 = 0", isl: "(i) mod 2 = 0"); a dimension fixed by an
// equality whose name clashes is printed as the bare expression ("S[i] ->
// S[i]", isl: "S[i] -> S[i' = i]"); and only constraints that are the same
// in all disjuncts are factored out, where isl also relaxes their constants.

// namer assigns printable, unique names to the variables of a space.
type namer struct {
	sp    Space
	vars  []string // params, then the flat dimensions (in, out)
	named []bool   // per flat dimension: printed under its own name
	taken map[string]bool
}

func newNamer(sp Space) *namer {
	n := &namer{sp: sp, taken: map[string]bool{}}
	for _, p := range sp.Params {
		n.vars = append(n.vars, n.unique(p))
	}
	if sp.IsParams {
		return n
	}
	add := func(names []string, prefix string) {
		for k, d := range names {
			base := d
			if d == "" {
				base = prefix + strconv.Itoa(k)
			}
			name := n.unique(base)
			n.vars = append(n.vars, name)
			n.named = append(n.named, d != "" && name == d)
		}
	}
	if sp.IsMap {
		add(sp.In.flatNames(), "i")
		add(sp.Out.flatNames(), "o")
	} else {
		add(sp.Out.flatNames(), "i")
	}
	return n
}

// unique returns base, with primes appended until it is unused, and
// reserves it.
func (n *namer) unique(base string) string {
	name := base
	for n.taken[name] {
		name += "'"
	}
	n.taken[name] = true
	return name
}

// header prints the tuples ("S[i] -> A[o0]") or nothing for a param space.
func (n *namer) header() string { return n.tuples(nil) }

// tuples prints the tuples with dimension k written as defs[k] when that
// is not empty ("name = expression" for a dimension with a name).
func (n *namer) tuples(defs []string) string {
	if n.sp.IsParams {
		return ""
	}
	dims := n.vars[len(n.sp.Params):]
	entries := make([]string, len(dims))
	for k, d := range dims {
		entries[k] = d
		if k < len(defs) && defs[k] != "" {
			if n.named[k] {
				entries[k] = d + " = " + defs[k]
			} else {
				entries[k] = defs[k]
			}
		}
	}
	if n.sp.IsMap {
		k := n.sp.In.Len()
		return tupleString(n.sp.In, entries[:k]) + " -> " + tupleString(n.sp.Out, entries[k:])
	}
	return tupleString(n.sp.Out, entries)
}

// tupleString prints a tuple with the given flat dimension entries.
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

func paramsPrefix(params []string) string {
	if len(params) == 0 {
		return ""
	}
	return "[" + strings.Join(params, ", ") + "] -> "
}

// String prints r in isl notation; isl reads it back as an equal object.
func (r rel) String() string {
	var b strings.Builder
	b.WriteString(paramsPrefix(r.space.Params))
	b.WriteString("{ ")
	if !r.writeBody(&b) {
		// An empty set keeps its space (isl prints "{  }").
		b.WriteString(newNamer(r.space).header() + " : false")
	}
	b.WriteString(" }")
	return b.String()
}

// writeBody writes the pieces "S[i] : c1 or c2; S[0] : c3" of r; it writes
// nothing and returns false for an empty rel.
func (r rel) writeBody(b *strings.Builder) bool {
	n := newNamer(r.space)
	var ds []*pdisj
	for _, p := range r.parts {
		if !p.empty {
			if d := p.printForm(n, true); !d.empty {
				ds = append(ds, d)
			}
		}
	}
	if len(ds) == 0 {
		return false
	}
	// Group the disjuncts that print the same tuples, in order of first
	// appearance, as isl groups them by their defining equalities.
	var groups [][]*pdisj
	index := map[string]int{}
	for _, d := range ds {
		key := strings.Join(d.defs, "\x00")
		if i, ok := index[key]; ok {
			groups[i] = append(groups[i], d)
			continue
		}
		index[key] = len(groups)
		groups = append(groups, []*pdisj{d})
	}
	for i, g := range groups {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(n.tuples(g[0].defs))
		if cond := disjunction(g); cond != "" {
			b.WriteString(" : " + cond)
		} else if r.space.IsParams {
			b.WriteString(" : true")
		}
	}
	return true
}

// condition prints the constraints of r without tuple definitions, as the
// domain of a piece of a function: "" for the universe, "false" if empty.
func (r rel) condition(n *namer) string {
	var ds []*pdisj
	for _, p := range r.parts {
		if !p.empty {
			if d := p.printForm(n, false); !d.empty {
				ds = append(ds, d)
			}
		}
	}
	if len(ds) == 0 {
		return "false"
	}
	return disjunction(ds)
}

// pdisj is one disjunct ready to print.
type pdisj struct {
	defs   []string // per flat dimension: its expression, or ""
	atoms  []atom   // its constraints, sorted
	exists []string // names of its existentially quantified locals
	raw    string   // when set, the whole condition (overflow fallback)
	empty  bool     // a constraint reduced to a false constant
}

// atom is one printed constraint "term op rhs".
type atom struct {
	term, op, rhs string
	local         bool // uses an existential, so belongs inside exists
	key           atomKey
}

type atomKey struct {
	ineq, pos, mod int
	coef           uint64
	lower          int
	rest           []int64
}

func (a atom) text() string { return a.term + " " + a.op + " " + a.rhs }

func (a atom) lower() bool { return a.op == ">=" || a.op == ">" }

func compareAtoms(a, b atom) int {
	x, y := a.key, b.key
	if c := slices.Compare([]int{x.ineq, x.pos, x.mod}, []int{y.ineq, y.pos, y.mod}); c != 0 {
		return c
	}
	if x.coef != y.coef {
		if x.coef < y.coef {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.term, b.term); c != 0 {
		return c
	}
	if x.lower != y.lower {
		return x.lower - y.lower
	}
	if c := slices.Compare(x.rest, y.rest); c != 0 {
		return c
	}
	return strings.Compare(a.text(), b.text())
}

// conjunction prints sorted atoms joined by "and", chaining a lower bound
// with the upper bound of the same term that follows it ("0 <= i < N").
func conjunction(atoms []atom) string {
	var parts []string
	for i := 0; i < len(atoms); i++ {
		a := atoms[i]
		if i+1 < len(atoms) {
			c := atoms[i+1]
			if a.key.ineq == 1 && c.key.ineq == 1 && a.term == c.term && a.lower() && !c.lower() {
				op := "<="
				if a.op == ">" {
					op = "<"
				}
				parts = append(parts, a.rhs+" "+op+" "+a.term+" "+c.op+" "+c.rhs)
				i++
				continue
			}
		}
		parts = append(parts, a.text())
	}
	return strings.Join(parts, " and ")
}

// body prints the constraints of one disjunct, wrapped in its exists clause.
func (d *pdisj) body(atoms []atom) string {
	if d.raw != "" {
		return d.raw
	}
	s := conjunction(atoms)
	if len(d.exists) > 0 {
		return "exists (" + strings.Join(d.exists, ", ") + ": " + s + ")"
	}
	return s
}

// disjunction prints the condition of disjuncts that share their tuples:
// "" if one of them is the universe. Constraints common to all of them
// (outside exists clauses) are printed once, as isl does:
// "0 <= i <= 10 and (i <= 2 or i >= 8)".
func disjunction(ds []*pdisj) string {
	for _, d := range ds {
		if d.raw == "" && len(d.atoms) == 0 {
			return ""
		}
	}
	if len(ds) == 1 {
		return ds[0].body(ds[0].atoms)
	}
	var hull []atom
	common := map[string]bool{}
	if ds[0].raw == "" {
		for _, a := range ds[0].atoms {
			if a.local {
				continue
			}
			t := a.text()
			all := true
			for _, d := range ds[1:] {
				all = all && d.raw == "" && slices.ContainsFunc(d.atoms, func(b atom) bool { return !b.local && b.text() == t })
			}
			if all && !common[t] {
				common[t] = true
				hull = append(hull, a)
			}
		}
	}
	var alts []string
	for _, d := range ds {
		var rest []atom
		for _, a := range d.atoms {
			if a.local || !common[a.text()] {
				rest = append(rest, a)
			}
		}
		if d.raw == "" && len(rest) == 0 {
			return conjunction(hull) // this disjunct is the hull itself
		}
		s := d.body(rest)
		if d.raw != "" || len(d.exists) == 0 && len(rest) > 1 {
			s = "(" + s + ")"
		}
		alts = append(alts, s)
	}
	or := strings.Join(alts, " or ")
	if len(hull) == 0 {
		return or
	}
	return conjunction(hull) + " and (" + or + ")"
}

// printForm prepares b for printing with the names of n; with defs set,
// tuple dimensions may be printed as expressions. If the rewriting
// overflows, b is printed as it is stored.
func (b *basic) printForm(n *namer, defs bool) (d *pdisj) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(arith.Overflow); !ok {
				panic(r)
			}
			d = &pdisj{defs: make([]string, len(n.vars)-len(n.sp.Params)), raw: b.formula(n)}
			if d.raw == "" {
				d.raw = "true"
			}
		}
	}()
	f := newPform(b, defs)
	return f.render(n)
}

// renderer prints the rows of a pform.
type renderer struct {
	f     *pform
	names []string // per column; "" for the constant
	plain []bool   // per column: an identifier (implicit product "2i")
	local []bool   // per column: an existential or depends on one
}

func (f *pform) render(n *namer) *pdisj {
	nc := f.nCol()
	r := &renderer{f: f, names: make([]string, nc), plain: make([]bool, nc), local: make([]bool, nc)}
	for c := 1; c <= f.nv; c++ {
		r.names[c], r.plain[c] = n.vars[c-1], true
	}
	d := &pdisj{defs: make([]string, f.nv-f.np)}
	k := 0
	for _, c := range f.order {
		dv := f.divOf(c)
		if dv < 0 || !f.used[c] {
			continue
		}
		if f.divs[dv].den == 0 {
			name := n.unique("e" + strconv.Itoa(k))
			k++
			d.exists = append(d.exists, name)
			r.names[c], r.plain[c], r.local[c] = name, true, true
			continue
		}
		num := f.divs[dv].num
		for j, v := range num {
			if v != 0 && j > 0 {
				if r.names[j] == "" {
					panic(arith.Overflow{Op: "print"}) // a cyclic definition
				}
				r.local[c] = r.local[c] || r.local[j]
			}
		}
		r.names[c] = r.floor(num, f.divs[dv].den)
		if dim, ok := f.floorDim[c]; ok && n.named[dim] {
			// "x = floor(i/32)" in the tuple, x in the constraints.
			d.defs[dim] = r.names[c]
			r.names[c], r.plain[c] = n.vars[f.np+dim], true
		}
	}
	for _, name := range d.exists {
		delete(n.taken, name) // sibling disjuncts reuse e0, e1, ...
	}
	for k, def := range f.defs {
		if def != nil && d.defs[k] == "" {
			d.defs[k] = r.expr(def, false)
		}
	}
	add := func(row []int64, eq bool) {
		if l := f.last(row); l < 0 {
			// A constant: always true, or the disjunct is empty.
			d.empty = d.empty || eq && row[0] != 0 || !eq && row[0] < 0
			return
		}
		d.atoms = append(d.atoms, r.atom(row, eq))
	}
	for i, e := range f.eqs {
		if !f.consumed[i] {
			add(e, true)
		}
	}
	for _, in := range f.ineqs {
		add(in, false)
	}
	slices.SortStableFunc(d.atoms, compareAtoms)
	return d
}

// floor prints floor(num/den) ("floor(i/2)", "floor((i + j)/4)").
func (r *renderer) floor(num []int64, den int64) string {
	return "floor(" + r.paren(num) + "/" + strconv.FormatInt(den, 10) + ")"
}

// paren prints row, in parentheses unless it is a single variable.
func (r *renderer) paren(row []int64) string {
	s := r.expr(row, false)
	if c := singleColumn(row); c > 0 && r.plain[c] {
		return s
	}
	return "(" + s + ")"
}

// expr prints row (negated when neg is set) with the terms in printing
// order. A multiple of a local floor(g/m) is written with a modulo term
// when that saves terms: "-i - 3*floor((-i)/3)" is "(-i) mod 3".
func (r *renderer) expr(row []int64, neg bool) string {
	f := r.f
	var mods []int64 // per column: coefficient of its modulo term
	for i := len(f.order) - 1; i >= 0; i-- {
		c := f.order[i]
		k := f.divOf(c)
		if c >= len(row) || k < 0 || f.divs[k].den < 2 || row[c] == 0 || row[c]%f.divs[k].den != 0 {
			continue
		}
		// t*m*floor(g/m) = t*g - t*(g mod m)
		t := row[c] / f.divs[k].den
		cand := append([]int64(nil), row...)
		cand[c] = 0
		for j, v := range f.divs[k].num {
			cand[j] = arith.AddMul(cand[j], t, v)
		}
		if nonZeros(cand)+1 < nonZeros(row) {
			if mods == nil {
				mods = make([]int64, len(row))
			}
			row, mods[c] = cand, arith.Neg(t)
		}
	}
	if mods == nil {
		return affineText(row, f.order, r.names, r.plain, neg)
	}
	// Print the modulo terms as extra columns right after their locals.
	names := append([]string(nil), r.names[:len(row)]...)
	plain := append([]bool(nil), r.plain[:len(row)]...)
	var order []int
	for _, c := range f.order {
		if c >= len(row) {
			continue
		}
		order = append(order, c)
		if mods[c] != 0 {
			k := f.divOf(c)
			name := r.paren(f.divs[k].num) + " mod " + strconv.FormatInt(f.divs[k].den, 10)
			if mods[c] != 1 || neg {
				name = "(" + name + ")"
			}
			row = append(row, mods[c])
			names = append(names, name)
			plain = append(plain, false)
			order = append(order, len(row)-1)
		}
	}
	return affineText(row, order, names, plain, neg)
}

func nonZeros(row []int64) int {
	n := 0
	for _, v := range row {
		if v != 0 {
			n++
		}
	}
	return n
}

// affineText prints Σ row[c]·names[c] over the columns in order, negated
// when neg is set, in isl style: the constant first, implicit products for
// identifiers and "*" otherwise, "-1 + 2N - 3*floor(i/2)"; "0" if empty.
func affineText(row []int64, order []int, names []string, plain []bool, neg bool) string {
	var b strings.Builder
	first := true
	write := func(v int64, name string, plain bool) {
		minus := (v < 0) != neg
		switch {
		case first && minus:
			b.WriteString("-")
		case !first && minus:
			b.WriteString(" - ")
		case !first:
			b.WriteString(" + ")
		}
		first = false
		mag := absU(v)
		if name == "" {
			b.WriteString(strconv.FormatUint(mag, 10))
			return
		}
		if mag != 1 {
			b.WriteString(strconv.FormatUint(mag, 10))
			if !plain {
				b.WriteString("*")
			}
		}
		b.WriteString(name)
	}
	if row[0] != 0 {
		write(row[0], "", true)
	}
	for _, c := range order {
		if c < len(row) && row[c] != 0 {
			write(row[c], names[c], plain[c])
		}
	}
	if first {
		return "0"
	}
	return b.String()
}

// term prints mag times column c.
func (r *renderer) term(mag uint64, c int) string {
	switch {
	case mag == 1:
		return r.names[c]
	case r.plain[c]:
		return strconv.FormatUint(mag, 10) + r.names[c]
	}
	return strconv.FormatUint(mag, 10) + "*" + r.names[c]
}

// atom prints the constraint row = 0 (eq) or row >= 0, which is not a
// constant, with its last column isolated on the left.
func (r *renderer) atom(row []int64, eq bool) atom {
	f := r.f
	l := f.last(row)
	a := atom{}
	for j, v := range row {
		if v != 0 && r.local[j] {
			a.local = true
		}
	}
	coef := row[l]
	q := append([]int64(nil), row...)
	q[l] = 0
	isMod := false
	if k := f.divOf(l); k >= 0 && f.divs[k].den >= 2 && coef%f.divs[k].den == 0 {
		// coef*floor(g/m) = (coef/m)*(g - g mod m): the row is
		// q + t*g - t*(g mod m) with t = coef/m.
		m := f.divs[k].den
		g := f.divs[k].num
		t := coef / m
		for j := range q {
			q[j] = arith.AddMul(q[j], t, g[j])
		}
		isMod = true
		coef = arith.Neg(t)
		mod := r.paren(g) + " mod " + strconv.FormatInt(m, 10)
		if mag := absU(coef); mag != 1 {
			a.term = strconv.FormatUint(mag, 10) + "*(" + mod + ")"
		} else {
			a.term = mod
		}
	} else {
		a.term = r.term(absU(coef), l)
	}
	// Now row ~ q + coef*T with T the printed term.
	var neg bool
	switch {
	case eq:
		a.op, neg = "=", coef > 0
	case coef < 0:
		a.op = "<="
		if !isMod && q[0] == -1 {
			a.op, q[0] = "<", 0
		}
	default:
		a.op, neg = ">=", true
		if !isMod && q[0] == -1 {
			a.op, q[0] = ">", 0
		}
	}
	a.rhs = r.expr(q, neg)
	a.key = atomKey{pos: f.pos[l], coef: absU(coef), lower: 1}
	if !eq {
		a.key.ineq = 1
	}
	if isMod {
		a.key.mod = 1
	}
	if a.lower() {
		a.key.lower = 0
	}
	for _, c := range f.order {
		a.key.rest = append(a.key.rest, row[c])
	}
	a.key.rest = append(a.key.rest, row[0])
	return a
}

// formula prints the constraints of b as stored ("" for the universe),
// locals in an exists clause with their definitions. It is the fallback
// when rewriting b for printing overflows, and does no arithmetic.
func (b *basic) formula(n *namer) string {
	names := append([]string{""}, n.vars...)
	var decls, fresh []string
	for k, d := range b.divs {
		name := n.unique("e" + strconv.Itoa(k))
		fresh = append(fresh, name)
		names = append(names, name)
		if d.den != 0 {
			decls = append(decls, name+" = floor(("+rawAffine(d.num, names)+")/"+strconv.FormatInt(d.den, 10)+")")
		} else {
			decls = append(decls, name)
		}
	}
	for _, name := range fresh {
		delete(n.taken, name)
	}
	var cons []string
	for _, e := range b.eqs {
		cons = append(cons, rawConstraint(e, names, "="))
	}
	for _, in := range b.ineqs {
		cons = append(cons, rawConstraint(in, names, ">="))
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

// rawConstraint prints row op 0 with positive terms on the left.
func rawConstraint(row []int64, names []string, op string) string {
	pos := make([]int64, len(row))
	neg := make([]int64, len(row))
	for j, v := range row {
		if v > 0 {
			pos[j] = v
		} else if v < 0 {
			neg[j] = v
		}
	}
	return rawAffine(pos, names) + " " + op + " " + rawSum(neg, names, true)
}

// rawAffine prints Σ row[j]·names[j] with row[0] the constant; "0" if empty.
func rawAffine(row []int64, names []string) string { return rawSum(row, names, false) }

// rawSum prints the sum of the terms of row, negated when neg is set.
func rawSum(row []int64, names []string, neg bool) string {
	var b strings.Builder
	first := true
	for j := 1; j < len(row); j++ {
		if v := row[j]; v != 0 {
			writeTerm(&b, (v < 0) != neg, absU(v), names[j], first)
			first = false
		}
	}
	if c := row[0]; c != 0 {
		writeTerm(&b, (c < 0) != neg, absU(c), "", first)
		first = false
	}
	if first {
		return "0"
	}
	return b.String()
}

func writeTerm(b *strings.Builder, minus bool, mag uint64, name string, first bool) {
	switch {
	case first && minus:
		b.WriteString("-")
	case !first && minus:
		b.WriteString(" - ")
	case !first:
		b.WriteString(" + ")
	}
	if name == "" || mag != 1 {
		b.WriteString(strconv.FormatUint(mag, 10))
		if name != "" {
			b.WriteString("*")
		}
	}
	b.WriteString(name)
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}
