// Package randprog generates random static-control programs as C source
// that frontend/cparse accepts, for a differential campaign of the
// compiler against the reference executor (issue 17 item 6).
//
// A program is one C function of size parameters (n, m and, for time
// loops, T) and double arrays whose extents are affine in them. Its body
// is a sequence of parts, each one of: a plain loop nest with one or two
// statements; a stencil (reads with constant offsets in every dimension);
// a reduction into a lower-dimensional array or into one element; a
// time loop around one or two stencils (Jacobi style, two arrays, or
// Gauss-Seidel style, in place); a scalar accumulator (a local double
// reset, accumulated and stored, in an imperfect nest). Loops have
// rectangular, parametric or triangular bounds; statements may be
// guarded by affine or modulo conditions (i % 2 == 0) and read with
// floor subscripts (i / 2). Local arrays are intermediates: each is
// written in full before any read, so that no uninitialised value is
// ever read. Array parameters are live-in and, when written, live-out.
//
// Every subscript stays in bounds: a loop over parameter P runs its
// iterator within [2, P + 1] and the dimensions of extent P + 4 are read
// at offsets -2..2. Generate is deterministic in its seed; parameter
// values are small (3..8, sometimes 0..2, T in 0..3), so that every
// program runs in microseconds.
package randprog

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// Program is one generated program.
type Program struct {
	Seed int64
	// Func is the C function's name; Source the translation unit.
	Func, Source string
	// Params gives every size parameter its value for the run.
	Params map[string]int64
}

// array is a double array: a parameter (live-out when written) or a
// local intermediate; dims holds the parameter of each dimension's
// extent (P + 4).
type array struct {
	name    string
	integer bool // int elements (else double)
	dims    []string
	local   bool
	written bool
	// extent, when positive, is the one dimension's constant extent
	// (hist) instead of dims'.
	extent int
}

// loop is one level of a nest: its iterator and the parameter bounding it.
type loop struct {
	it, param string
}

type gen struct {
	r      *rand.Rand
	params []string // size parameters the program uses (n, m)
	time   bool     // whether T is used
	arrays []*array
	locals []string // local scalars
	body   strings.Builder
	iters  map[string]bool
	nstmt  int

	// Data-dependent parts (Shape.DataDep): whether idx and hist are
	// used, hist's element type, the while loops' counters.
	indexed  bool
	histInt  bool
	nwhile   int
	counters []string
}

// Generate returns the program of seed.
func Generate(seed int64) *Program { return GenerateParts(seed, 0) }

// GenerateParts is Generate with parts parts (0: two to four, chosen by
// the seed); larger programs stress the scheduler and fusion more, and
// cost more to compile.
func GenerateParts(seed int64, parts int) *Program {
	return GenerateShape(seed, Shape{Parts: parts})
}

// GenerateShape is the program of seed with shape sh.
func GenerateShape(seed int64, sh Shape) *Program {
	parts := sh.Parts
	g := &gen{r: rand.New(rand.NewSource(seed)), iters: map[string]bool{}}
	g.params = []string{"n"}
	if g.r.Intn(2) == 0 {
		g.params = append(g.params, "m")
	}
	// Arrays: two to four parameters, maybe a local intermediate.
	na := 2 + g.r.Intn(3)
	for i := 0; i < na; i++ {
		g.arrays = append(g.arrays, &array{name: string(rune('A' + i)), dims: g.dims(), integer: i > 0 && g.r.Intn(5) == 0})
	}
	if g.r.Intn(3) == 0 {
		a := &array{name: "tmp", dims: g.dims(), local: true}
		g.arrays = append(g.arrays, a)
		g.initLocal(a)
	}
	nparts := 2 + g.r.Intn(3)
	if parts > 0 {
		nparts = parts
	}
	kinds, drawn := 10, false
	if sh.DataDep {
		kinds = 14
	}
	for i := 0; i < nparts; i++ {
		switch k := g.r.Intn(kinds); {
		case k >= 10:
			g.dataDep()
			drawn = true
		case k < 3:
			g.nest()
		case k < 4:
			g.stencil()
		case k < 5:
			g.pipeline()
		case k < 7:
			g.reduction()
		case k < 9:
			g.timeLoop()
		default:
			g.scalar()
		}
	}
	if sh.DataDep && !drawn {
		g.dataDep() // at least one part of the kind asked for
	}
	fn := fmt.Sprintf("rp%d", seed)
	if seed < 0 {
		fn = fmt.Sprintf("rpm%d", -seed)
	}
	params := map[string]int64{}
	var sig []string
	for _, p := range g.params {
		params[p] = int64(3 + g.r.Intn(6))
		if g.r.Intn(6) == 0 {
			// Degenerate sizes: empty and one-iteration loops, partial tiles.
			params[p] = int64(g.r.Intn(3))
		}
		sig = append(sig, "int "+p)
	}
	if g.time {
		params["T"] = int64(g.r.Intn(4))
		sig = append(sig, "int T")
	}
	if g.indexed {
		g.arrays = append(g.arrays, &array{name: indexName, integer: true, dims: []string{g.params[0]}},
			&array{name: histName, integer: g.histInt, extent: histLen})
	}
	var decls []string
	for _, a := range g.arrays {
		if a.local {
			decls = append(decls, fmt.Sprintf("  double %s%s;\n", a.name, g.shape(a)))
		} else {
			sig = append(sig, a.ctype()+" "+a.name+g.shape(a))
		}
	}
	for _, s := range g.locals {
		decls = append(decls, fmt.Sprintf("  double %s;\n", s))
	}
	if len(g.counters) > 0 {
		decls = append(decls, fmt.Sprintf("  int %s;\n", strings.Join(g.counters, ", ")))
	}
	var its []string
	for it := range g.iters {
		its = append(its, it)
	}
	sort.Strings(its)
	var src strings.Builder
	fmt.Fprintf(&src, "/* randprog seed %d */\n%s\nvoid %s(%s)\n{\n", seed, macros, fn, strings.Join(sig, ", "))
	if len(its) > 0 {
		fmt.Fprintf(&src, "  int %s;\n", strings.Join(its, ", "))
	}
	for _, d := range decls {
		src.WriteString(d)
	}
	src.WriteString("#pragma scop\n")
	src.WriteString(g.body.String())
	src.WriteString("#pragma endscop\n}\n")
	return &Program{Seed: seed, Func: fn, Source: src.String(), Params: params}
}

// macros make the source C that gcc takes (cparse reads max and min as
// isl's).
const macros = "#define max(x, y) ((x) > (y) ? (x) : (y))\n#define min(x, y) ((x) < (y) ? (x) : (y))"

func (g *gen) dims() []string {
	d := make([]string, 1+g.r.Intn(2))
	for i := range d {
		d[i] = g.params[g.r.Intn(len(g.params))]
	}
	return d
}

func (g *gen) shape(a *array) string {
	if a.extent > 0 {
		return fmt.Sprintf("[%d]", a.extent)
	}
	var b strings.Builder
	for _, p := range a.dims {
		fmt.Fprintf(&b, "[%s + 4]", p)
	}
	return b.String()
}

// line writes one line of the body at depth d.
func (g *gen) line(d int, format string, args ...any) {
	g.body.WriteString(strings.Repeat("  ", d+1))
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteByte('\n')
}

// initLocal writes a in full (from a parameter array when one has a
// compatible shape), so that later reads of a see defined values.
func (g *gen) initLocal(a *array) {
	its := []string{"i", "j", "k"}
	var idx []string
	for d, p := range a.dims {
		it := its[d]
		g.iters[it] = true
		g.line(d, "for (%s = 0; %s < %s + 4; %s++)", it, it, p, it)
		idx = append(idx, it)
	}
	src := "1.0"
	for _, b := range g.arrays {
		if !b.local && !b.integer && sameDims(a.dims, b.dims) {
			src = fmt.Sprintf("0.5 * %s%s", b.name, brackets(idx))
			break
		}
	}
	g.stmt(len(a.dims), "%s%s = %s + %d.0;", a.name, brackets(idx), src, g.r.Intn(3))
	a.written = true
}

func (a *array) ctype() string {
	if a.integer {
		return "int"
	}
	return "double"
}

func sameDims(a, b []string) bool {
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

func brackets(idx []string) string {
	var b strings.Builder
	for _, x := range idx {
		b.WriteString("[" + x + "]")
	}
	return b.String()
}

func (g *gen) stmt(d int, format string, args ...any) {
	g.nstmt++
	g.line(d, format, args...)
}

// loops opens a nest of depth len(ls) with random bound shapes, from
// depth d0 of the text; it returns the depth of the body.
func (g *gen) loops(d0 int, ls []loop) int {
	for k, l := range ls {
		g.iters[l.it] = true
		lo, hi := "2", l.param+" + 2"
		cond := ""
		// Triangular: bounded by an outer iterator of the same parameter.
		var tri []string
		for _, o := range ls[:k] {
			if o.param == l.param {
				tri = append(tri, o.it)
			}
		}
		switch c := g.r.Intn(10); {
		case c < 2 && len(tri) > 0:
			o := tri[g.r.Intn(len(tri))]
			if g.r.Intn(2) == 0 {
				cond = fmt.Sprintf("%s <= %s", l.it, o) // j in [2, i]
			} else {
				lo = o // j in [i, P + 1]
			}
		case c == 2:
			lo = "3"
		case c == 3:
			hi = l.param + " + 1"
		case c == 4 && len(tri) > 0:
			// A max/min bound mixing a constant and an outer iterator.
			o := tri[g.r.Intn(len(tri))]
			if g.r.Intn(2) == 0 {
				lo = fmt.Sprintf("max(2, %s - 1)", o)
			} else {
				hi = fmt.Sprintf("min(%s + 2, %s + 2)", o, l.param)
			}
		case c == 7 && len(tri) > 0:
			// Banded: both bounds follow an outer iterator.
			o := tri[g.r.Intn(len(tri))]
			lo, hi = fmt.Sprintf("max(2, %s - 1)", o), fmt.Sprintf("min(%s + 2, %s + 2)", o, l.param)
		case c == 8 && len(tri) > 0:
			// A C division in a bound.
			lo = fmt.Sprintf("(%s + 1) / 2 + 1", tri[g.r.Intn(len(tri))])
		case c == 5:
			// Counting down.
			g.line(d0+k, "for (%s = %s + 1; %s >= 2; %s--)", l.it, l.param, l.it, l.it)
			continue
		case c == 6:
			// A stride.
			g.line(d0+k, "for (%s = %d; %s < %s; %s += 2)", l.it, 2+g.r.Intn(2), l.it, hi, l.it)
			continue
		}
		if cond == "" {
			cond = fmt.Sprintf("%s < %s", l.it, hi)
		} else {
			cond = fmt.Sprintf("%s && %s < %s", cond, l.it, hi)
		}
		g.line(d0+k, "for (%s = %s; %s; %s++)", l.it, lo, cond, l.it)
	}
	return d0 + len(ls)
}

// nestFor builds loops matching the dimensions of a (each dimension
// gets an iterator of its parameter), plus extra reduction levels.
func (g *gen) nestFor(a *array, extra int) []loop {
	names := []string{"i", "j", "k", "l"}
	var ls []loop
	for _, p := range a.dims {
		ls = append(ls, loop{it: names[len(ls)], param: p})
	}
	for e := 0; e < extra && len(ls) < 3; e++ {
		ls = append(ls, loop{it: names[len(ls)], param: g.params[g.r.Intn(len(g.params))]})
	}
	return ls
}

// ref reads array b in the nest ls: each dimension takes an iterator of
// its parameter (with an offset in -2..2, or a floor division by 2 or
// 3), or a constant when none is there.
func (g *gen) ref(b *array, ls []loop, maxOff int) string {
	var idx []string
	used := map[string]bool{}
	for _, p := range b.dims {
		var cand []string
		for _, l := range ls {
			if l.param == p && !used[l.it] {
				cand = append(cand, l.it)
			}
		}
		if len(cand) == 0 {
			for _, l := range ls {
				if l.param == p {
					cand = append(cand, l.it)
				}
			}
		}
		if len(cand) == 0 {
			idx = append(idx, fmt.Sprint(g.r.Intn(4)))
			continue
		}
		it := cand[g.r.Intn(len(cand))]
		used[it] = true
		switch c := g.r.Intn(10); {
		case c == 0:
			idx = append(idx, fmt.Sprintf("%s / %d", it, 2+g.r.Intn(2)))
		case c == 1:
			idx = append(idx, fmt.Sprintf("(%s + 1) / 2 + 1", it))
		default:
			off := 0
			if maxOff > 0 {
				off = g.r.Intn(2*maxOff+1) - maxOff
			}
			idx = append(idx, offset(it, off))
		}
	}
	return b.name + brackets(idx)
}

func offset(it string, off int) string {
	switch {
	case off > 0:
		return fmt.Sprintf("%s + %d", it, off)
	case off < 0:
		return fmt.Sprintf("%s - %d", it, -off)
	}
	return it
}

// write is the subscript of a written element: the iterators of the
// dimensions, in order, unshifted (or shifted by at most 1).
func (g *gen) write(a *array, ls []loop) string {
	var idx []string
	for d := range a.dims {
		off := 0
		if g.r.Intn(6) == 0 {
			off = g.r.Intn(3) - 1
		}
		idx = append(idx, offset(ls[d].it, off))
	}
	return a.name + brackets(idx)
}

// expr combines reads into a bounded double expression.
func (g *gen) expr(ls []loop, reads int, maxOff int, self string) string {
	var terms []string
	for i := 0; i < reads; i++ {
		b := g.arrays[g.r.Intn(len(g.arrays))]
		terms = append(terms, g.ref(b, ls, maxOff))
	}
	if self != "" {
		terms = append(terms, self)
	}
	w := []string{"0.25", "0.5", "0.125", "0.3"}[g.r.Intn(4)]
	e := fmt.Sprintf("%s * (%s)", w, strings.Join(terms, " + "))
	switch g.r.Intn(5) {
	case 0:
		e += fmt.Sprintf(" + %d.5", g.r.Intn(3))
	case 1:
		e = fmt.Sprintf("%s - 0.1 * %s", e, terms[0])
	case 2:
		if len(ls) > 0 {
			e = fmt.Sprintf("%s + 0.01 * %s", e, ls[g.r.Intn(len(ls))].it)
		}
	case 3:
		if len(ls) > 0 {
			// A select on the iterators.
			e = fmt.Sprintf("(%s %% 2 == 0 ? 0.5 : -0.25) * %s + %s", ls[g.r.Intn(len(ls))].it, terms[0], e)
		}
	}
	return e
}

// rhs is the value assigned to dst: expr's for a double, an integer
// expression (sums, small multiples, / and % by constants) for an int.
func (g *gen) rhs(dst *array, ls []loop, reads int, maxOff int, self string) string {
	if !dst.integer {
		return g.expr(ls, reads, maxOff, self)
	}
	var ints []*array
	for _, b := range g.arrays {
		if b.integer {
			ints = append(ints, b)
		}
	}
	var terms []string
	for i := 0; i < reads; i++ {
		terms = append(terms, g.ref(ints[g.r.Intn(len(ints))], ls, maxOff))
	}
	if self != "" {
		terms = append(terms, self)
	}
	if len(ls) > 0 && g.r.Intn(2) == 0 {
		terms = append(terms, fmt.Sprintf("%d * %s", 1+g.r.Intn(3), ls[g.r.Intn(len(ls))].it))
	}
	e := strings.Join(terms, " + ")
	switch g.r.Intn(4) {
	case 0:
		e = fmt.Sprintf("(%s) / %d", e, 2+g.r.Intn(3))
	case 1:
		e = fmt.Sprintf("(%s) %% %d - %d", e, 3+g.r.Intn(5), g.r.Intn(3))
	case 2:
		e = fmt.Sprintf("%s - %d", e, g.r.Intn(20))
	}
	return e
}

// weigh scales a sum of terms: by a double weight, or for an int
// destination by a division.
func weigh(dst *array, w string, terms []string) string {
	if dst.integer {
		return fmt.Sprintf("(%s) / %d", strings.Join(terms, " + "), len(terms))
	}
	return fmt.Sprintf("%s * (%s)", w, strings.Join(terms, " + "))
}

// guard maybe opens an if statement; it returns the depth of the body.
func (g *gen) guard(d int, ls []loop) int {
	if len(ls) == 0 || g.r.Intn(4) != 0 {
		return d
	}
	it := ls[g.r.Intn(len(ls))].it
	var c string
	switch g.r.Intn(6) {
	case 5:
		// Parametric.
		l := ls[g.r.Intn(len(ls))]
		if len(ls) > 1 && g.r.Intn(2) == 0 {
			c = fmt.Sprintf("%s + %s <= %s + 3", ls[0].it, ls[1].it, l.param)
		} else {
			c = fmt.Sprintf("%s < %s", l.it, l.param)
		}
	case 0:
		c = fmt.Sprintf("%s %% 2 == 0", it)
	case 1:
		c = fmt.Sprintf("(%s + 1) %% 3 != 1", it)
	case 2:
		c = fmt.Sprintf("%s > 3", it)
	case 3:
		if len(ls) > 1 {
			c = fmt.Sprintf("%s <= %s + 1", ls[0].it, ls[1].it)
		} else {
			c = fmt.Sprintf("%s / 2 != 2", it)
		}
	default:
		c = fmt.Sprintf("%s %% 3 == 0 || %s == 2", it, it)
	}
	g.line(d, "if (%s)", c)
	return d + 1
}

// target picks a parameter array to write (preferring unwritten ones).
func (g *gen) target() *array {
	var cand []*array
	for _, a := range g.arrays {
		if !a.local && !a.written {
			cand = append(cand, a)
		}
	}
	if len(cand) == 0 {
		for _, a := range g.arrays {
			if !a.local || a.written {
				cand = append(cand, a)
			}
		}
	}
	return cand[g.r.Intn(len(cand))]
}

// nest is a plain nest with one or two statements.
func (g *gen) nest() {
	a := g.target()
	ls := g.nestFor(a, 0)
	d := g.loops(0, ls)
	two := g.r.Intn(3) == 0
	if two {
		g.line(d-1, "{") // braces at the innermost loop's depth
	}
	bd := g.guard(d, ls)
	self := ""
	if g.r.Intn(2) == 0 {
		self = g.write(a, ls)
	}
	g.stmt(bd, "%s = %s;", g.write(a, ls), g.rhs(a, ls, 1+g.r.Intn(2), 1, self))
	a.written = true
	if two {
		b := g.arrays[g.r.Intn(len(g.arrays))]
		if len(b.dims) <= len(ls) && sameDims(b.dims, paramsOf(ls[:len(b.dims)])) && (!b.local || b.written) {
			g.stmt(d, "%s += %s;", g.write(b, ls), g.rhs(b, ls, 1, 1, ""))
			b.written = true
		}
		g.line(d-1, "}")
	}
}

func paramsOf(ls []loop) []string {
	var ps []string
	for _, l := range ls {
		ps = append(ps, l.param)
	}
	return ps
}

// stencil reads neighbours with offsets up to 2 from another array.
func (g *gen) stencil() {
	a := g.target()
	src := g.arrays[g.r.Intn(len(g.arrays))]
	if g.r.Intn(5) != 0 {
		// Mostly a neighbour of the same shape, so that the offsets apply.
		for _, b := range g.arrays {
			if sameDims(b.dims, a.dims) && b != a && (!b.local || b.written) {
				src = b
				break
			}
		}
	}
	g.stencilFrom(a, src)
}

// pipeline is a producer-consumer chain through a new local array (the
// intermediates post-tiling fusion fuses): the local is initialised in
// full, its interior computed by a stencil of a parameter array, and a
// parameter array by a stencil of the local (sometimes through a second
// local).
func (g *gen) pipeline() {
	var params []*array
	nlocal := 0
	for _, a := range g.arrays {
		if a.local {
			nlocal++
		} else if !a.integer {
			params = append(params, a)
		}
	}
	if nlocal >= 3 || len(params) == 0 {
		g.stencil()
		return
	}
	src := params[g.r.Intn(len(params))]
	prev := src
	for k := 0; k < 1+g.r.Intn(2) && nlocal < 3; k++ {
		t := &array{name: fmt.Sprintf("tmp%d", nlocal), dims: append([]string(nil), src.dims...), local: true}
		nlocal++
		g.arrays = append(g.arrays, t)
		g.initLocal(t)
		g.stencilFrom(t, prev)
		prev = t
	}
	out := g.target()
	for _, a := range g.arrays {
		if !a.local && !a.written && sameDims(a.dims, prev.dims) {
			out = a
			break
		}
	}
	g.stencilFrom(out, prev)
}

// stencilFrom writes a from neighbours of src, offsets up to 2.
func (g *gen) stencilFrom(a, src *array) {
	ls := g.nestFor(a, 0)
	d := g.loops(0, ls)
	d = g.guard(d, ls)
	var terms []string
	for i := 0; i < 3+g.r.Intn(3); i++ {
		terms = append(terms, g.ref(src, ls, 2))
	}
	g.stmt(d, "%s = %s;", g.write(a, ls), weigh(a, "0.2", terms))
	a.written = true
}

// reduction accumulates over extra loops into a (a lower-dimensional
// array than the nest) or into one element.
func (g *gen) reduction() {
	a := g.target()
	ls := g.nestFor(a, 1+g.r.Intn(2))
	if len(ls) == len(a.dims) { // no room for a reduction level
		ls = ls[:len(ls)-1]
		if len(ls) == 0 {
			g.nest()
			return
		}
		// Accumulate into one element instead: a[c][c'] += ... over ls.
		idx := make([]string, len(a.dims))
		for i := range idx {
			idx[i] = fmt.Sprint(g.r.Intn(4))
		}
		d := g.loops(0, ls)
		d = g.guard(d, ls)
		g.stmt(d, "%s%s += %s;", a.name, brackets(idx), g.rhs(a, ls, 1+g.r.Intn(2), 1, ""))
		a.written = true
		return
	}
	d := g.loops(0, ls)
	d = g.guard(d, ls)
	op := []string{"+=", "-=", "*="}[g.r.Intn(3)]
	e := g.rhs(a, ls, 1+g.r.Intn(2), 1, "")
	if op == "*=" {
		e = "1.0 + 0.001 * " + g.ref(g.arrays[g.r.Intn(len(g.arrays))], ls, 0)
	}
	g.stmt(d, "%s %s %s;", g.write(a, ls), op, e)
	a.written = true
}

// timeLoop is an outer T loop around one or two stencils.
func (g *gen) timeLoop() {
	g.time = true
	g.iters["t"] = true
	a := g.target()
	var b *array
	for _, c := range g.arrays {
		if c != a && sameDims(c.dims, a.dims) && (!c.local || c.written) {
			b = c
			break
		}
	}
	g.line(0, "for (t = 0; t < T; t++) {")
	one := func(dst, src *array) {
		ls := g.nestFor(dst, 0)
		d := g.loops(1, ls)
		d = g.guard(d, ls)
		var terms []string
		for i := 0; i < 2+g.r.Intn(3); i++ {
			terms = append(terms, g.ref(src, ls, 1))
		}
		w := "0.2"
		if g.r.Intn(2) == 0 {
			w = "0.33"
		}
		g.stmt(d, "%s = %s;", g.write(dst, ls), weigh(dst, w, terms))
		dst.written = true
	}
	if b == nil || g.r.Intn(3) == 0 {
		one(a, a) // Gauss-Seidel: in place
	} else {
		one(b, a)
		one(a, b)
	}
	g.line(0, "}")
}

// scalar resets a local scalar, accumulates into it and stores it.
func (g *gen) scalar() {
	s := fmt.Sprintf("s%d", len(g.locals))
	g.locals = append(g.locals, s)
	a := g.target()
	if len(a.dims) > 1 {
		// Store into one row: the outer loops run over a's dimensions
		// but the first.
		a = g.oneDim()
	}
	ls := g.nestFor(a, 1)
	outer, inner := ls[:1], ls[1:]
	g.loops(0, outer)
	g.line(1, "{")
	g.stmt(1, "%s = %s;", s, []string{"0.0", "1.0", g.ref(a, outer, 0)}[g.r.Intn(3)])
	d := g.loops(1, inner)
	d = g.guard(d, ls)
	g.stmt(d, "%s += %s;", s, g.expr(ls, 1+g.r.Intn(2), 1, ""))
	g.stmt(1, "%s = %s;", g.write(a, outer), []string{s, "0.5 * " + s, s + " + " + g.ref(a, outer, 1)}[g.r.Intn(3)])
	g.line(1, "}")
	a.written = true
}

// oneDim returns a one-dimensional parameter array, adding one.
func (g *gen) oneDim() *array {
	for _, a := range g.arrays {
		if !a.local && len(a.dims) == 1 {
			return a
		}
	}
	n := 0
	for _, b := range g.arrays {
		if !b.local {
			n++
		}
	}
	a := &array{name: string(rune('A' + n)), dims: []string{g.params[0]}}
	g.arrays = append(g.arrays, a)
	return a
}
