package randprog

import "fmt"

// Shape chooses what GenerateShape draws.
type Shape struct {
	// Parts is the number of parts (0: two to four, chosen by the seed).
	Parts int
	// DataDep adds the parts whose control or subscripts depend on array
	// values (issue 44): guards on an element's value (with an else),
	// scatters and gathers through an index array, and while loops with
	// a data-dependent exit. It changes what a seed generates, so a
	// campaign names it with its seeds.
	DataDep bool
}

// The index array idx (int, extent n + 4) is live-in only: nothing
// writes it, so its values are the inputs' 0..15 (scop.Buffer.Fill) and
// every subscript through it stays inside hist (extent 16).
const (
	indexName = "idx"
	histName  = "hist"
	histLen   = 16
)

// dataDep is one data-dependent part.
func (g *gen) dataDep() {
	switch g.r.Intn(5) {
	case 0:
		g.valueGuard()
	case 1:
		g.scatter()
	case 2:
		g.gather()
	default:
		g.whileLoop()
	}
}

// useIndex declares idx and hist (once) and returns idx's parameter.
func (g *gen) useIndex() string {
	if !g.indexed {
		g.indexed = true
		g.histInt = g.r.Intn(3) == 0
	}
	return g.params[0]
}

// valueCond is a condition on the value of an element some array holds
// at the nest ls (an int array against an int, a double against a
// double), sometimes joined to an affine test; it does not read avoid
// (cparse evaluates an if's condition once per statement of its
// branches, so two branches must not write what it reads).
func (g *gen) valueCond(ls []loop, avoid *array, maxOff int) string {
	var cand []*array
	for _, b := range g.arrays {
		if (!b.local || b.written) && b != avoid {
			cand = append(cand, b)
		}
	}
	b := cand[g.r.Intn(len(cand))]
	op := []string{">", "<", ">=", "!="}[g.r.Intn(4)]
	c := fmt.Sprintf("%s %s %s", g.ref(b, ls, maxOff), op, []string{"1.5", "2.0", "0.75", "3.25"}[g.r.Intn(4)])
	if b.integer {
		c = fmt.Sprintf("%s %s %d", g.ref(b, ls, maxOff), op, 4+g.r.Intn(8))
	}
	if len(ls) > 0 && g.r.Intn(3) == 0 {
		c = fmt.Sprintf("%s && %s > 2", c, ls[g.r.Intn(len(ls))].it)
	}
	return c
}

// valueGuard is a nest whose statement runs where an element's value
// passes a test, with an else branch writing something else.
func (g *gen) valueGuard() {
	a := g.target()
	ls := g.nestFor(a, 0)
	d := g.loops(0, ls)
	g.line(d, "if (%s)", g.valueCond(ls, a, 1))
	w := g.write(a, ls)
	g.stmt(d+1, "%s = %s;", w, g.rhs(a, ls, 1+g.r.Intn(2), 1, ""))
	if g.r.Intn(2) == 0 {
		g.line(d, "else")
		g.stmt(d+1, "%s = %s;", w, g.rhs(a, ls, 1, 1, w))
	}
	a.written = true
}

// scatter writes or accumulates into hist through idx: a may-write
// whose element only the data knows (a histogram when it accumulates).
func (g *gen) scatter() {
	p := g.useIndex()
	ls := []loop{{it: "i", param: p}}
	if g.r.Intn(3) == 0 {
		ls = append(ls, loop{it: "j", param: g.params[g.r.Intn(len(g.params))]})
	}
	// Not under a data-dependent condition: cparse refuses a write
	// through a data-dependent subscript there.
	d := g.loops(0, ls)
	sub := fmt.Sprintf("%s[i]", indexName)
	if g.r.Intn(3) == 0 {
		sub = fmt.Sprintf("(%s[i] + i) %% %d", indexName, histLen)
	}
	e := g.expr(ls, 1, 1, "")
	if g.histInt {
		e = fmt.Sprint(1 + g.r.Intn(3))
	}
	op := []string{"=", "+=", "+="}[g.r.Intn(3)]
	g.stmt(d, "%s[%s] %s %s;", histName, sub, op, e)
}

// gather reads hist through idx into a parameter array.
func (g *gen) gather() {
	p := g.useIndex()
	a := g.target()
	ls := g.nestFor(a, 0)
	d := g.loops(0, ls)
	sub := fmt.Sprintf("%s[2]", indexName)
	for _, l := range ls {
		if l.param == p {
			sub = fmt.Sprintf("%s[%s]", indexName, l.it)
		}
	}
	if a.integer {
		g.stmt(d, "%s = %s * 2 - %d;", g.write(a, ls), sub, g.r.Intn(5))
	} else {
		g.stmt(d, "%s = 0.5 * %s[%s] + %s;", g.write(a, ls), histName, sub, g.expr(ls, 1, 1, ""))
	}
	a.written = true
}

// whileLoop is a while loop with a data-dependent exit over a's last
// dimension (inside a for loop over its first when it has two): a
// counter w stepped by one or two, up or down, bounded like a for loop
// by the dimension's range, and a test on an element's value.
func (g *gen) whileLoop() {
	a := g.target()
	ls := g.nestFor(a, 0)
	outer, last := ls[:len(ls)-1], ls[len(ls)-1]
	d := g.loops(0, outer)
	if len(outer) > 0 {
		g.line(d-1, "{")
	}
	w := fmt.Sprintf("w%d", g.nwhile)
	g.nwhile++
	g.counters = append(g.counters, w)
	step := 1 + g.r.Intn(2)
	up := g.r.Intn(3) != 0
	start, bound, inc := "2", fmt.Sprintf("%s < %s + 2", w, last.param), fmt.Sprintf("%s += %d;", w, step)
	if len(outer) > 0 && outer[0].param == last.param && g.r.Intn(2) == 0 {
		start = outer[0].it // triangular: from the outer iterator
	}
	if !up {
		start, bound, inc = last.param+" + 1", w+" >= 2", fmt.Sprintf("%s -= %d;", w, step)
	}
	if step == 1 {
		inc = w + "++;"
		if !up {
			inc = w + "--;"
		}
	}
	g.stmt(d, "%s = %s;", w, start)
	inner := append(append([]loop(nil), outer...), loop{it: w, param: last.param})
	cond := fmt.Sprintf("%s && %s", bound, g.valueCond(inner, nil, 1))
	if g.r.Intn(2) == 0 {
		// C evaluates this test once more, at the counter's exit value
		// (one or two past the range): no offsets, so it stays in bounds.
		cond = fmt.Sprintf("%s && %s", g.valueCond(inner, nil, 0), bound)
	}
	g.line(d, "while (%s) {", cond)
	bd := d + 1
	if g.r.Intn(4) == 0 {
		g.line(bd, "if (%s)", g.valueCond(inner, nil, 1))
		bd++
	}
	g.stmt(bd, "%s = %s;", g.write(a, inner), g.rhs(a, inner, 1+g.r.Intn(2), 1, ""))
	g.stmt(d+1, "%s", inc)
	g.line(d, "}")
	if len(outer) > 0 {
		g.line(d-1, "}")
	}
	a.written = true
}
