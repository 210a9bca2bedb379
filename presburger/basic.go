package presburger

import (
	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// basic is a conjunction of affine constraints over the columns
// [1, params, in, out, locals]. Column 0 is the constant. A local is an
// existentially quantified integer; when den > 0 it is defined as
// floor(num/den) and its two defining inequalities are implied (they are not
// stored among ineqs, see divConstraints). A local with den == 0 is a plain
// existential whose constraints are all stored explicitly.
type basic struct {
	nParam, nIn, nOut int
	divs              []div
	eqs, ineqs        [][]int64
	empty             bool // known to be empty
	bud               *opBudget
}

// div defines a local as floor(num/den); num has one entry per column (its own
// and later columns are zero). den == 0 marks an undefined existential.
type div struct {
	num []int64
	den int64
}

func newUniverse(nParam, nIn, nOut int) *basic {
	return &basic{nParam: nParam, nIn: nIn, nOut: nOut}
}

func newEmpty(nParam, nIn, nOut int) *basic {
	b := newUniverse(nParam, nIn, nOut)
	b.empty = true
	return b
}

func (b *basic) nVar() int        { return b.nParam + b.nIn + b.nOut }
func (b *basic) nCol() int        { return 1 + b.nVar() + len(b.divs) }
func (b *basic) divCol(k int) int { return 1 + b.nVar() + k }

func copyRows(rows [][]int64) [][]int64 {
	n := 0
	for _, r := range rows {
		n += len(r)
	}
	buf := make([]int64, n)
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = cutRow(&buf, r)
	}
	return out
}

// cutRow returns a copy of r taken from the front of *buf: copies made
// together share one allocation. Its capacity is its length, so appending
// to it never reaches the next one. An empty row stays nil.
func cutRow(buf *[]int64, r []int64) []int64 {
	if len(r) == 0 {
		return nil
	}
	out := (*buf)[:len(r):len(r)]
	*buf = (*buf)[len(r):]
	copy(out, r)
	return out
}

func (b *basic) clone() *basic {
	c := *b
	n := 0
	for _, d := range b.divs {
		n += len(d.num)
	}
	buf := make([]int64, n)
	c.eqs = copyRows(b.eqs)
	c.ineqs = copyRows(b.ineqs)
	c.divs = make([]div, len(b.divs))
	for i, d := range b.divs {
		c.divs[i] = div{num: cutRow(&buf, d.num), den: d.den}
	}
	return &c
}

// pad extends row with zeros to n entries.
func pad(row []int64, n int) []int64 {
	if len(row) >= n {
		return row
	}
	return append(row, make([]int64, n-len(row))...)
}

func (b *basic) addEq(row []int64) {
	b.eqs = append(b.eqs, pad(append([]int64(nil), row...), b.nCol()))
}

func (b *basic) addIneq(row []int64) {
	b.ineqs = append(b.ineqs, pad(append([]int64(nil), row...), b.nCol()))
}

// addDiv appends a local; den == 0 adds an undefined existential. It returns
// the new column index.
func (b *basic) addDiv(num []int64, den int64) int {
	n := b.nCol()
	for i := range b.eqs {
		b.eqs[i] = append(b.eqs[i], 0)
	}
	for i := range b.ineqs {
		b.ineqs[i] = append(b.ineqs[i], 0)
	}
	for i := range b.divs {
		b.divs[i].num = append(b.divs[i].num, 0)
	}
	d := div{den: den, num: make([]int64, n+1)}
	if den != 0 {
		copy(d.num, num)
	}
	b.divs = append(b.divs, d)
	return n
}

// divConstraints returns the two inequalities defining local k:
// num - den*e >= 0 and -num + den*e + den - 1 >= 0.
func (b *basic) divConstraints(k int) (lo, hi []int64) {
	n := b.nCol()
	buf := make([]int64, 2*n)
	return b.divConstraintsIn(k, buf[:n:n], buf[n:])
}

// divConstraintsIn is divConstraints writing into lo and hi (nCol entries).
func (b *basic) divConstraintsIn(k int, lo, hi []int64) ([]int64, []int64) {
	d := b.divs[k]
	c := b.divCol(k)
	clear(lo)
	copy(lo, d.num)
	lo[c] = arith.Sub(lo[c], d.den)
	for j := range lo {
		hi[j] = arith.Neg(lo[j])
	}
	hi[0] = arith.Add(hi[0], d.den-1)
	return lo, hi
}

// system returns all constraints, div definitions included, for the solvers.
func (b *basic) system() (eqs, ineqs [][]int64) {
	nDef := 0
	for _, d := range b.divs {
		if d.den != 0 {
			nDef++
		}
	}
	ineqs = make([][]int64, len(b.ineqs), len(b.ineqs)+2*nDef)
	copy(ineqs, b.ineqs)
	n := b.nCol()
	buf := make([]int64, 2*n*nDef)
	for k := range b.divs {
		if b.divs[k].den != 0 {
			lo, hi := b.divConstraintsIn(k, buf[:n:n], buf[n:2*n:2*n])
			buf = buf[2*n:]
			ineqs = append(ineqs, lo, hi)
		}
	}
	return b.eqs, ineqs
}

// divKnown reports whether local k has a definition that only depends on
// variables and other known locals.
func (b *basic) divKnown(k int) bool {
	d := b.divs[k]
	if d.den == 0 {
		return false
	}
	for j := range b.divs {
		if j != k && d.num[b.divCol(j)] != 0 && !b.divKnown(j) {
			return false
		}
	}
	return true
}

// allDivsKnown reports whether every local has a known definition.
func (b *basic) allDivsKnown() bool {
	for k := range b.divs {
		if !b.divKnown(k) {
			return false
		}
	}
	return true
}

// evalDivs computes the local values at a point given as [1, vars...];
// ok is false if a local is undefined.
func (b *basic) evalDivs(vals []int64) ([]int64, bool) {
	full := append(append([]int64(nil), vals...), make([]int64, len(b.divs))...)
	// Locals may reference later locals only through earlier definitions; loop
	// until stable (at most len(divs) passes, the dependency graph is acyclic).
	done := make([]bool, len(b.divs))
	for pass := 0; pass <= len(b.divs); pass++ {
		progress := false
		for k, d := range b.divs {
			if done[k] || d.den == 0 {
				continue
			}
			ready := true
			for j := range b.divs {
				if d.num[b.divCol(j)] != 0 && !done[j] {
					ready = false
				}
			}
			if !ready {
				continue
			}
			full[b.divCol(k)] = arith.FloorDiv(dot(d.num, full), d.den)
			done[k], progress = true, true
		}
		if !progress {
			break
		}
	}
	for k := range done {
		if !done[k] {
			return full, false
		}
	}
	return full, true
}

func dot(a, b []int64) int64 {
	var s int64
	for i := range a {
		if a[i] != 0 {
			s = arith.AddMul(s, a[i], b[i])
		}
	}
	return s
}

// holds reports whether all stored constraints hold at the full column vector.
func (b *basic) holds(full []int64) bool {
	for _, e := range b.eqs {
		if dot(e, full) != 0 {
			return false
		}
	}
	for _, in := range b.ineqs {
		if dot(in, full) < 0 {
			return false
		}
	}
	return true
}

// remap builds a basic over a new variable layout. varMap[i] is the new
// variable index (0-based, excluding the constant) of old variable i, or -1 to
// turn it into an undefined local. Locals keep their order after any new
// locals created from variables.
func (b *basic) remap(nParam, nIn, nOut int, varMap []int) *basic {
	nv := nParam + nIn + nOut
	var toLocal []int
	for i, m := range varMap {
		if m < 0 {
			toLocal = append(toLocal, i)
		}
	}
	colMap := make([]int, b.nCol())
	colMap[0] = 0
	for i, m := range varMap {
		if m >= 0 {
			colMap[1+i] = 1 + m
		}
	}
	for k, i := range toLocal {
		colMap[1+i] = 1 + nv + k
	}
	for k := range b.divs {
		colMap[b.divCol(k)] = 1 + nv + len(toLocal) + k
	}
	n := 1 + nv + len(toLocal) + len(b.divs)
	buf := make([]int64, n*(len(b.eqs)+len(b.ineqs)+len(b.divs)+len(toLocal)))
	move := func(row []int64) []int64 {
		out := buf[:n:n]
		buf = buf[n:]
		for j, v := range row {
			out[colMap[j]] = v
		}
		return out
	}
	c := &basic{nParam: nParam, nIn: nIn, nOut: nOut, empty: b.empty, bud: b.bud,
		divs: make([]div, len(toLocal), len(toLocal)+len(b.divs)),
		eqs:  make([][]int64, 0, len(b.eqs)), ineqs: make([][]int64, 0, len(b.ineqs))}
	for _, d := range b.divs {
		nd := div{den: d.den}
		if d.den != 0 {
			nd.num = move(d.num)
		}
		c.divs = append(c.divs, nd)
	}
	for k := range c.divs {
		if c.divs[k].num == nil {
			c.divs[k].num, buf = buf[:n:n], buf[n:]
		}
	}
	for _, e := range b.eqs {
		c.eqs = append(c.eqs, move(e))
	}
	for _, in := range b.ineqs {
		c.ineqs = append(c.ineqs, move(in))
	}
	if len(toLocal) > 0 {
		c.forgetDependentDivs()
	}
	return c
}

// forgetDependentDivs turns every defined local whose definition depends on
// an undefined one into an undefined local, making its constraints explicit.
func (b *basic) forgetDependentDivs() {
	for changed := true; changed; {
		changed = false
		for k := range b.divs {
			if b.divs[k].den != 0 && !b.divKnown(k) {
				b.forgetDiv(k)
				changed = true
			}
		}
	}
}

// forgetDiv drops the definition of local k, keeping its constraints.
func (b *basic) forgetDiv(k int) {
	lo, hi := b.divConstraints(k)
	b.ineqs = append(b.ineqs, lo, hi)
	b.divs[k] = div{num: make([]int64, b.nCol())}
}

// intersectBasic returns the conjunction of a and b (same variable layout):
// a's rows widened by b's locals, then b's rows with its locals moved after
// a's. Every row comes from one allocation.
func intersectBasic(a, b *basic) *basic {
	c := *a
	c.empty = a.empty || b.empty
	if c.bud == nil {
		c.bud = b.bud
	}
	off := len(a.divs)
	nv := a.nVar()
	n := 1 + nv + off + len(b.divs)
	rows := len(a.divs) + len(a.eqs) + len(a.ineqs) + len(b.divs) + len(b.eqs) + len(b.ineqs)
	buf := make([]int64, rows*n)
	widen := func(row []int64) []int64 {
		out := buf[:n:n]
		buf = buf[n:]
		copy(out, row)
		return out
	}
	move := func(row []int64) []int64 {
		out := buf[:n:n]
		buf = buf[n:]
		copy(out, row[:1+nv])
		copy(out[1+nv+off:], row[1+nv:])
		return out
	}
	c.divs = make([]div, 0, len(a.divs)+len(b.divs))
	for _, d := range a.divs {
		c.divs = append(c.divs, div{num: widen(d.num), den: d.den})
	}
	for _, d := range b.divs {
		if d.den == 0 {
			c.divs = append(c.divs, div{num: widen(nil)})
			continue
		}
		c.divs = append(c.divs, div{num: move(d.num), den: d.den})
	}
	c.eqs = make([][]int64, 0, len(a.eqs)+len(b.eqs))
	for _, e := range a.eqs {
		c.eqs = append(c.eqs, widen(e))
	}
	for _, e := range b.eqs {
		c.eqs = append(c.eqs, move(e))
	}
	c.ineqs = make([][]int64, 0, len(a.ineqs)+len(b.ineqs))
	for _, in := range a.ineqs {
		c.ineqs = append(c.ineqs, widen(in))
	}
	for _, in := range b.ineqs {
		c.ineqs = append(c.ineqs, move(in))
	}
	return &c
}
