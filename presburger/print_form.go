package presburger

import (
	"strconv"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// pform is the printing form of one basic: a copy of its constraints
// rewritten into an equivalent system that reads the way isl prints it.
//
// Columns are ordered as isl orders them (parameters, input dimensions,
// output dimensions), except that a local defined as floor(f/d) is placed
// right after the last column f refers to instead of after all variables,
// and undefined locals come last. Every equality is then solved for its
// last column in that order (Gaussian elimination from the back, as isl
// does), and a unit pivot is substituted into every other row, so that
//
//   - a tuple dimension fixed by an equality, x = e, with e over earlier
//     columns, is printed as e inside the tuple ("S[i] -> A[i + 1]");
//   - a tuple dimension bounded by d*x <= f <= d*x + d - 1 is x = floor(f/d)
//     and is printed that way ("[floor(i/32), i]"), a deliberate extension
//     of isl, which prints such dimensions by name with the two bounds;
//   - an equality whose last column is a local floor(g/m) with a multiple of
//     m as coefficient is a modulo constraint ("(i) mod 2 = 0" in isl, "i
//     mod 2 = 0" here).
//
// Locals floor(f/1) and floors of constants are replaced by their values
// first. All rewriting keeps the integer points: equalities are combined
// with integer multipliers and divided only exactly, inequalities are only
// divided by the gcd of their coefficients (rounding the constant down,
// exact over the integers), and a local's definition only changes by an
// equality that holds wherever the local is used. An overflow panics; the
// caller then prints the stored rows as they are.
type pform struct {
	np, nv     int // parameters; parameters and tuple dimensions
	eqs, ineqs [][]int64
	divs       []div
	order      []int  // the columns but the constant, in printing order
	pos        []int  // pos[c] is the index of column c in order
	piv        []int  // per equality: its pivot column, or -1
	used       []bool // per column: a local that is printed
	// defs[k] is the expression of tuple dimension k (0-based, flat) when
	// it is printed as one, else nil. An equality consumed by a definition
	// is not printed as a constraint.
	defs     [][]int64
	consumed []bool
	floorDim map[int]int // the local that defines a dimension -> the dimension
}

// newPform builds the printing form of b; with defs unset no dimension is
// printed as an expression (for the domains of piecewise functions) and
// equalities stay constraints.
func newPform(b *basic, defs bool) *pform {
	n := b.nCol()
	f := &pform{np: b.nParam, nv: b.nVar()}
	for _, e := range b.eqs {
		f.eqs = append(f.eqs, pad(append([]int64(nil), e...), n))
	}
	for _, in := range b.ineqs {
		f.ineqs = append(f.ineqs, pad(append([]int64(nil), in...), n))
	}
	for _, d := range b.divs {
		nd := div{den: d.den, num: make([]int64, n)}
		if d.den != 0 {
			copy(nd.num, d.num)
		}
		f.divs = append(f.divs, nd)
	}
	f.inlineUnitDivs()
	f.computeOrder()
	f.gauss()
	f.inlineUnitDivs() // substitutions may have made some constant
	f.defs = make([][]int64, f.nv-f.np)
	f.floorDim = map[int]int{}
	f.consumed = make([]bool, len(f.eqs))
	if defs {
		f.detectFloors()
		f.extractDefs()
	}
	f.tidy()
	return f
}

// inlineUnitDivs replaces each local floor(f/1) by f, and each local
// floor(c/d) of a constant by its value, in every row.
func (f *pform) inlineUnitDivs() {
	for k, d := range f.divs {
		c := f.divCol(k)
		if d.den == 0 || d.num[c] != 0 {
			continue
		}
		val := d.num
		if d.den != 1 {
			if nonZeros(d.num[1:]) > 0 {
				continue
			}
			val = make([]int64, len(d.num))
			val[0] = arith.FloorDiv(d.num[0], d.den)
		}
		subst := func(row []int64) {
			if v := row[c]; v != 0 {
				row[c] = 0
				for j, w := range val {
					row[j] = arith.AddMul(row[j], v, w)
				}
			}
		}
		for _, e := range f.eqs {
			subst(e)
		}
		for _, in := range f.ineqs {
			subst(in)
		}
		for j := range f.divs {
			if f.divs[j].den != 0 {
				subst(f.divs[j].num)
			}
		}
	}
}

func (f *pform) nCol() int        { return 1 + f.nv + len(f.divs) }
func (f *pform) divCol(k int) int { return 1 + f.nv + k }

// divOf returns the local of column c, or -1 for a variable.
func (f *pform) divOf(c int) int {
	if c > f.nv {
		return c - 1 - f.nv
	}
	return -1
}

// known reports whether column c is a local with a floor definition.
func (f *pform) known(c int) bool {
	k := f.divOf(c)
	return k >= 0 && f.divs[k].den != 0
}

// computeOrder places the variables in column order, each defined local
// right after the last column its definition uses, then the undefined
// locals and whatever depends on them.
func (f *pform) computeOrder() {
	n := f.nCol()
	placed := make([]bool, n)
	f.order = f.order[:0]
	place := func(c int) {
		placed[c] = true
		f.order = append(f.order, c)
	}
	ready := func(k int) bool {
		d := f.divs[k]
		if d.den == 0 {
			return false
		}
		for j := 1; j < n; j++ {
			if d.num[j] != 0 && !placed[j] {
				return false
			}
		}
		return true
	}
	flush := func() {
		for progress := true; progress; {
			progress = false
			for k := range f.divs {
				if c := f.divCol(k); !placed[c] && ready(k) {
					place(c)
					progress = true
				}
			}
		}
	}
	flush()
	for c := 1; c <= f.nv; c++ {
		place(c)
		flush()
	}
	for k := range f.divs {
		if c := f.divCol(k); !placed[c] && f.divs[k].den == 0 {
			place(c)
		}
	}
	flush()
	for k := range f.divs {
		if c := f.divCol(k); !placed[c] {
			place(c)
		}
	}
	f.setPos()
}

func (f *pform) setPos() {
	f.pos = make([]int, f.nCol())
	for i, c := range f.order {
		f.pos[c] = i
	}
}

// last returns the last non-zero column of row in printing order, or -1.
func (f *pform) last(row []int64) int {
	for i := len(f.order) - 1; i >= 0; i-- {
		if c := f.order[i]; row[c] != 0 {
			return c
		}
	}
	return -1
}

func isUnit(v int64) bool { return v == 1 || v == -1 }

// gauss solves each equality for its last column, sweeping the columns
// from the back. A unit pivot is eliminated from all other rows; a pivot
// with a larger coefficient only from the other equalities, and never by
// scaling an equality that has a unit pivot of its own.
func (f *pform) gauss() {
	f.piv = make([]int, len(f.eqs))
	for i := range f.piv {
		f.piv[i] = -1
	}
	for idx := len(f.order) - 1; idx >= 0; idx-- {
		c := f.order[idx]
		r := -1
		for i, e := range f.eqs {
			if f.piv[i] < 0 && e[c] != 0 && (r < 0 || isUnit(e[c]) && !isUnit(f.eqs[r][c])) {
				r = i
			}
		}
		if r < 0 {
			continue
		}
		f.piv[r] = c
		p := f.eqs[r]
		for i := range f.eqs {
			e := f.eqs[i]
			if i == r || e[c] == 0 {
				continue
			}
			if f.piv[i] >= 0 && isUnit(e[f.piv[i]]) && e[c]%p[c] != 0 {
				continue
			}
			f.eqs[i], _ = combine(e, p, c)
			normalizeEq(f.eqs[i])
		}
		if !isUnit(p[c]) {
			continue
		}
		for i, in := range f.ineqs {
			if in[c] != 0 {
				f.ineqs[i], _ = combine(in, p, c)
			}
		}
		for k := range f.divs {
			d := &f.divs[k]
			if d.den != 0 && d.num[c] != 0 && p[f.divCol(k)] == 0 {
				d.num, _ = combine(d.num, p, c)
			}
		}
	}
}

// normalizeEq divides an equality by the gcd of all its entries.
func normalizeEq(e []int64) {
	if g := arith.GCDVec(e); g > 1 {
		for j := range e {
			e[j] /= g
		}
	}
}

// detectFloors finds tuple dimensions x that no equality fixes, with a pair
// f - d*x >= 0 and -f + d*x + d - 1 >= 0 (d >= 2, f over earlier columns),
// that is x = floor(f/d). The pair is replaced by a new local floor(f/d)
// that takes the place of x in every row, and x is defined as that local.
func (f *pform) detectFloors() {
	isPiv := map[int]bool{}
	for _, c := range f.piv {
		isPiv[c] = true
	}
	for x := f.np + 1; x <= f.nv; x++ {
		if isPiv[x] {
			continue
		}
		lo, hi := f.floorPair(x)
		if lo < 0 {
			continue
		}
		num := append([]int64(nil), f.ineqs[lo]...)
		d := -num[x]
		num[x] = 0
		var rest [][]int64
		for i, in := range f.ineqs {
			if i != lo && i != hi {
				rest = append(rest, in)
			}
		}
		f.ineqs = rest
		col := f.addDiv(num, d)
		subst := func(row []int64) {
			if row[x] != 0 {
				row[col], row[x] = row[x], 0
			}
		}
		for _, e := range f.eqs {
			subst(e)
		}
		for _, in := range f.ineqs {
			subst(in)
		}
		for k := range f.divs {
			if f.divs[k].den != 0 {
				subst(f.divs[k].num)
			}
		}
		def := make([]int64, f.nCol())
		def[col] = 1
		f.defs[x-1-f.np] = def
		f.floorDim[col] = x - 1 - f.np
	}
}

// floorPair returns the indices of the two inequalities that make x =
// floor(f/d), or -1, -1.
func (f *pform) floorPair(x int) (int, int) {
	for i, lo := range f.ineqs {
		d := lo[x]
		if d >= -1 || d == minInt64 {
			continue
		}
		d = -d
		if f.last(lo) != x || !f.onlyDefined(lo) {
			continue
		}
		for j, hi := range f.ineqs {
			if j == i || hi[x] != d {
				continue
			}
			match := true
			for c := 1; c < len(lo) && match; c++ {
				if c != x {
					s, ok := arith.AddOK(lo[c], hi[c])
					match = ok && s == 0
				}
			}
			if s, ok := arith.AddOK(lo[0], hi[0]); match && ok && s == d-1 {
				return i, j
			}
		}
	}
	return -1, -1
}

const minInt64 = -1 << 63

// onlyDefined reports whether row uses no undefined local.
func (f *pform) onlyDefined(row []int64) bool {
	for k := range f.divs {
		if row[f.divCol(k)] != 0 && f.divs[k].den == 0 {
			return false
		}
	}
	return true
}

// addDiv appends the local floor(num/den), placed in the order right after
// the last column num uses, and returns its column.
func (f *pform) addDiv(num []int64, den int64) int {
	col := f.nCol()
	grow := func(row []int64) []int64 { return append(row, 0) }
	for i := range f.eqs {
		f.eqs[i] = grow(f.eqs[i])
	}
	for i := range f.ineqs {
		f.ineqs[i] = grow(f.ineqs[i])
	}
	for k := range f.divs {
		f.divs[k].num = grow(f.divs[k].num)
	}
	for k, d := range f.defs {
		if d != nil {
			f.defs[k] = grow(d)
		}
	}
	f.divs = append(f.divs, div{num: grow(num), den: den})
	at := 0
	for i, c := range f.order {
		if num[c] != 0 {
			at = i + 1
		}
	}
	f.order = append(f.order[:at], append([]int{col}, f.order[at:]...)...)
	f.setPos()
	return col
}

// extractDefs turns each equality solved for a tuple dimension with a unit
// coefficient into the definition of that dimension, provided no other row
// still uses the dimension.
func (f *pform) extractDefs() {
	for i, c := range f.piv {
		if c <= f.np || c > f.nv || !isUnit(f.eqs[i][c]) || f.defs[c-1-f.np] != nil {
			continue
		}
		if f.usedElsewhere(c, i) {
			continue
		}
		e := f.eqs[i]
		def := make([]int64, len(e))
		for j, v := range e {
			if j == c {
				continue
			}
			if e[c] == 1 {
				def[j] = arith.Neg(v)
			} else {
				def[j] = v
			}
		}
		f.defs[c-1-f.np] = def
		f.consumed[i] = true
	}
}

// usedElsewhere reports whether column c appears in a row other than
// equality skip or in a local's definition.
func (f *pform) usedElsewhere(c, skip int) bool {
	for i, e := range f.eqs {
		if i != skip && e[c] != 0 {
			return true
		}
	}
	for _, in := range f.ineqs {
		if in[c] != 0 {
			return true
		}
	}
	for _, d := range f.divs {
		if d.den != 0 && d.num[c] != 0 {
			return true
		}
	}
	for _, d := range f.defs {
		if d != nil && d[c] != 0 {
			return true
		}
	}
	return false
}

// tidy divides inequalities by the gcd of their coefficients (rounding the
// constant down, exact over the integers), drops rows that always hold and
// duplicates, and marks the locals that are printed.
func (f *pform) tidy() {
	seen := map[string]bool{}
	var ineqs [][]int64
	for _, in := range f.ineqs {
		g := arith.GCDVec(in[1:])
		if g == 0 {
			if in[0] >= 0 {
				continue
			}
		} else if g > 1 {
			for j := 1; j < len(in); j++ {
				in[j] /= g
			}
			in[0] = arith.FloorDiv(in[0], g)
		}
		if k := printRowKey(in); !seen[k] {
			seen[k] = true
			ineqs = append(ineqs, in)
		}
	}
	f.ineqs = ineqs
	for i, e := range f.eqs {
		if !f.consumed[i] {
			normalizeEq(e)
			if f.last(e) < 0 && e[0] == 0 {
				f.consumed[i] = true // 0 = 0
			}
		}
	}
	// A local is printed when a printed row or a printed local uses it;
	// locals only refer to earlier ones in the order.
	f.used = make([]bool, f.nCol())
	mark := func(row []int64) {
		for c := f.nv + 1; c < len(row); c++ {
			if row[c] != 0 {
				f.used[c] = true
			}
		}
	}
	for i, e := range f.eqs {
		if !f.consumed[i] {
			mark(e)
		}
	}
	for _, in := range f.ineqs {
		mark(in)
	}
	for _, d := range f.defs {
		if d != nil {
			mark(d)
		}
	}
	for i := len(f.order) - 1; i >= 0; i-- {
		c := f.order[i]
		if k := f.divOf(c); k >= 0 && f.used[c] && f.divs[k].den != 0 {
			mark(f.divs[k].num)
		}
	}
}

// printRowKey identifies a row for deduplication.
func printRowKey(r []int64) string {
	b := make([]byte, 0, 4*len(r))
	for _, v := range r {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ',')
	}
	return string(b)
}
