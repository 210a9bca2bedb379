package presburger

import (
	"math"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// simplify normalises b in place without any simplex work: rows are reduced
// by their gcd, equalities are put in echelon form (eliminating existentials
// where exact), parallel inequalities are merged, local definitions are
// detected from constraints, and unused or trivially eliminable locals are
// removed. It returns b for chaining.
func (b *basic) simplify() *basic {
	b.simplified()
	return b
}

// simplified is simplify reporting whether it changed b (other than by
// flipping the sign of an equality).
func (b *basic) simplified() (changedAny bool) {
	for round := 0; round < 8 && !b.empty; round++ {
		changed := b.normalizeRows()
		if b.empty {
			break
		}
		if b.gauss() {
			changed = true
		}
		if b.empty {
			break
		}
		if b.mergeParallel() {
			changed = true
		}
		if b.empty {
			break
		}
		if b.detectDivs() {
			changed = true
		}
		if b.dropUnusedDivs() {
			changed = true
		}
		if b.eliminateExistentials() {
			changed = true
		}
		if b.mergeEqualDivs() {
			changed = true
		}
		if !changed {
			break
		}
		changedAny = true
	}
	if b.empty {
		b.eqs, b.ineqs, b.divs = nil, nil, nil
		return true
	}
	return b.sortDivs() || changedAny
}

// normalizeRows divides rows by the gcd of their coefficients (flooring the
// constant of inequalities), drops trivial rows and detects contradictions.
func (b *basic) normalizeRows() bool {
	changed := false
	eqs := b.eqs[:0]
	for _, e := range b.eqs {
		g := arith.GCDVec(e[1:])
		if g == 0 {
			if e[0] != 0 {
				b.empty = true
				return true
			}
			changed = true
			continue
		}
		if e[0]%g != 0 {
			b.empty = true
			return true
		}
		if g != 1 {
			for j := range e {
				e[j] /= g
			}
			changed = true
		}
		if firstNonZero(e[1:]) < 0 {
			for j := range e {
				e[j] = -e[j]
			}
		}
		eqs = append(eqs, e)
	}
	b.eqs = eqs
	ineqs := b.ineqs[:0]
	for _, in := range b.ineqs {
		g := arith.GCDVec(in[1:])
		if g == 0 {
			if in[0] < 0 {
				b.empty = true
				return true
			}
			changed = true
			continue
		}
		if g != 1 {
			in[0] = arith.FloorDiv(in[0], g)
			for j := 1; j < len(in); j++ {
				in[j] /= g
			}
			changed = true
		}
		ineqs = append(ineqs, in)
	}
	b.ineqs = ineqs
	for k := range b.divs {
		d := &b.divs[k]
		if d.den == 0 {
			continue
		}
		// floor(g*n/(g*d)) = floor(n/d) only when g divides the constant too.
		g := arith.GCD(arith.GCDVec(d.num), d.den)
		if g > 1 {
			for j := range d.num {
				d.num[j] /= g
			}
			d.den /= g
		}
	}
	return changed
}

func firstNonZero(v []int64) int64 {
	for _, x := range v {
		if x != 0 {
			return x
		}
	}
	return 0
}

// combine returns m*row - f*piv scaled so that column c vanishes; the
// multiplier applied to row is returned as well (always positive).
func combine(row, piv []int64, c int) ([]int64, int64) {
	p := piv[c]
	m := arith.AbsInt(p)
	f := row[c]
	if p < 0 {
		f = arith.Neg(f)
	}
	g := arith.GCD(m, f)
	m, f = m/g, f/g
	out := make([]int64, len(row))
	for j := range row {
		out[j] = arith.Sub(arith.Mul(m, row[j]), arith.Mul(f, piv[j]))
	}
	return out, m
}

// pivotColumn chooses the column to eliminate with equality e: an undefined
// local with a unit coefficient if any, else the last column (locals, then
// output dims, ...), which keeps parameters in the remaining rows.
func (b *basic) pivotColumn(e []int64) int {
	for k := len(b.divs) - 1; k >= 0; k-- {
		c := b.divCol(k)
		if b.divs[k].den == 0 && (e[c] == 1 || e[c] == -1) {
			return c
		}
	}
	for c := len(e) - 1; c >= 1; c-- {
		if e[c] != 0 {
			return c
		}
	}
	return -1
}

// gauss brings the equalities into echelon form and substitutes each pivot
// into the other rows and local definitions. An undefined local that an
// equality fixes with a unit coefficient is removed altogether.
func (b *basic) gauss() bool {
	changed := false
	for i := 0; i < len(b.eqs); i++ {
		e := b.eqs[i]
		c := b.pivotColumn(e)
		if c < 0 {
			continue
		}
		for j := range b.eqs {
			if j != i && b.eqs[j][c] != 0 {
				b.eqs[j], _ = combine(b.eqs[j], e, c)
				changed = true
			}
		}
		for j := range b.ineqs {
			if b.ineqs[j][c] != 0 {
				b.ineqs[j], _ = combine(b.ineqs[j], e, c)
				changed = true
			}
		}
		for k := range b.divs {
			d := &b.divs[k]
			if d.den != 0 && d.num[c] != 0 && b.divCol(k) != c && b.onlyKnown(e, c) && !b.wouldCycle(e, k) {
				var m int64
				d.num, m = combine(d.num, e, c)
				d.den = arith.Mul(d.den, m)
				changed = true
			}
		}
		k := c - 1 - b.nVar()
		if k >= 0 && b.divs[k].den == 0 && (e[c] == 1 || e[c] == -1) {
			// The local is determined by the equality: drop both.
			b.eqs = append(b.eqs[:i], b.eqs[i+1:]...)
			b.removeDiv(k)
			i = -1
			changed = true
			if b.normalizeRows(); b.empty {
				return true
			}
		}
	}
	return changed
}

// wouldCycle reports whether substituting row into the definition of local k
// would make k depend on itself.
func (b *basic) wouldCycle(row []int64, k int) bool {
	for m := range b.divs {
		if row[b.divCol(m)] != 0 && (m == k || b.dependsOn(m, k)) {
			return true
		}
	}
	return false
}

// removeDiv deletes local k; its column must be zero in every row.
func (b *basic) removeDiv(k int) {
	c := b.divCol(k)
	cut := func(row []int64) []int64 { return append(row[:c], row[c+1:]...) }
	for i := range b.eqs {
		b.eqs[i] = cut(b.eqs[i])
	}
	for i := range b.ineqs {
		b.ineqs[i] = cut(b.ineqs[i])
	}
	b.divs = append(b.divs[:k], b.divs[k+1:]...)
	for i := range b.divs {
		b.divs[i].num = cut(b.divs[i].num)
	}
}

// mergeParallel keeps the tightest of parallel inequalities, turns opposite
// pairs that pin a value into equalities and detects contradictions. Rows
// are compared pairwise: systems here have tens of rows. Only rows whose
// directions agree up to sign interact, and those have equal direction
// hashes; comparing the hashes first skips the column scans of the rest.
func (b *basic) mergeParallel() bool {
	n := len(b.ineqs)
	var keepBuf [64]bool
	var hashBuf [64]uint64
	keep, hash := keepBuf[:0], hashBuf[:0]
	if n > len(keepBuf) {
		keep, hash = make([]bool, 0, n), make([]uint64, 0, n)
	}
	keep, hash = keep[:n], hash[:n]
	for i := range keep {
		keep[i] = true
		hash[i] = directionHash(b.ineqs[i])
	}
	changed := false
	for i := 0; i < n; i++ {
		for j := i + 1; j < n && keep[i]; j++ {
			if !keep[j] || hash[j] != hash[i] {
				continue
			}
			a, c := b.ineqs[i], b.ineqs[j]
			same, opp := parallel(a, c)
			switch {
			case same:
				if c[0] < a[0] {
					a[0] = c[0]
				}
				keep[j], changed = false, true
			case opp:
				s := arith.Add(a[0], c[0])
				if s < 0 {
					b.empty = true
					return true
				}
				if s == 0 {
					b.eqs = append(b.eqs, a)
					keep[i], keep[j], changed = false, false, true
				}
			}
		}
	}
	if !changed {
		return false
	}
	out := b.ineqs[:0]
	for i, in := range b.ineqs {
		if keep[i] {
			out = append(out, in)
		}
	}
	b.ineqs = out
	return true
}

// directionHash hashes the non-constant part of row up to sign, as
// parallel compares it (negation wraps): the row times the sign of its
// first coefficient other than 0 and MinInt64 (whose negation is itself),
// so that parallel rows hash alike.
func directionHash(row []int64) uint64 {
	sign := int64(1)
	for _, v := range row[1:] {
		if v != 0 && v != math.MinInt64 {
			if v < 0 {
				sign = -1
			}
			break
		}
	}
	const prime = 1099511628211 // FNV-1a, a word at a time
	h := uint64(14695981039346656037)
	for _, v := range row[1:] {
		h = (h ^ uint64(sign*v)) * prime
	}
	return h
}

// parallel reports whether the non-constant parts of a and c are equal or
// opposite.
func parallel(a, c []int64) (same, opp bool) {
	same, opp = true, true
	for k := 1; k < len(a); k++ {
		if a[k] != c[k] {
			same = false
		}
		if a[k] != -c[k] {
			opp = false
		}
		if !same && !opp {
			return false, false
		}
	}
	return same, opp
}

func rowKey(v []int64) string {
	buf := make([]byte, 0, 8*len(v))
	for _, x := range v {
		u := uint64(x)
		for s := 0; s < 64; s += 8 {
			buf = append(buf, byte(u>>s))
		}
	}
	return string(buf)
}

// onlyKnown reports whether row references no undefined local other than
// column skip.
func (b *basic) onlyKnown(row []int64, skip int) bool {
	for k := range b.divs {
		c := b.divCol(k)
		if c != skip && row[c] != 0 && !b.divKnown(k) {
			return false
		}
	}
	return true
}

// detectDivs gives undefined locals the floor definition that their
// constraints imply: a*e + h = 0 gives e = -h/a, and g - a*e >= 0 with
// -g + s + a*e >= 0 (s < a) gives e = floor(g/a).
func (b *basic) detectDivs() bool {
	changed := false
	for k := range b.divs {
		if b.divs[k].den != 0 {
			continue
		}
		c := b.divCol(k)
		if b.defineFromEq(k, c) || b.defineFromPair(k, c) {
			changed = true
		}
	}
	return changed
}

func (b *basic) defineFromEq(k, c int) bool {
	for _, e := range b.eqs {
		if e[c] == 0 || !b.onlyKnown(e, c) || b.refersLater(e, k) {
			continue
		}
		num := make([]int64, len(e))
		a := e[c]
		for j := range e {
			if j != c {
				num[j] = e[j]
				if a > 0 {
					num[j] = arith.Neg(e[j])
				}
			}
		}
		b.divs[k] = div{num: num, den: arith.AbsInt(a)}
		return true
	}
	return false
}

// refersLater reports whether row uses local columns of a div that depends on
// local k (which would make a definition of k cyclic).
func (b *basic) refersLater(row []int64, k int) bool {
	for j := range b.divs {
		if j != k && row[b.divCol(j)] != 0 && b.dependsOn(j, k) {
			return true
		}
	}
	return false
}

// dependsOn reports whether the definition of local j uses local k.
func (b *basic) dependsOn(j, k int) bool {
	d := b.divs[j]
	if d.den == 0 {
		return false
	}
	for i := range b.divs {
		if d.num[b.divCol(i)] != 0 && (i == k || b.dependsOn(i, k)) {
			return true
		}
	}
	return false
}

func (b *basic) defineFromPair(k, c int) bool {
	for iu, up := range b.ineqs {
		a := -up[c]
		if a <= 0 || !b.onlyKnown(up, c) || b.refersLater(up, k) {
			continue
		}
		for il, lo := range b.ineqs {
			if il == iu || !opposite(up, lo) {
				continue
			}
			s := arith.Add(up[0], lo[0])
			if s >= a {
				continue
			}
			num := append([]int64(nil), up...)
			num[c] = 0
			b.divs[k] = div{num: num, den: a}
			// up is implied by the definition; lo too when s == a-1.
			drop := map[int]bool{iu: true, il: s == a-1}
			out := b.ineqs[:0]
			for i, in := range b.ineqs {
				if !drop[i] {
					out = append(out, in)
				}
			}
			b.ineqs = out
			return true
		}
	}
	return false
}

// opposite reports whether a and b have opposite non-constant coefficients.
func opposite(a, b []int64) bool {
	for j := 1; j < len(a); j++ {
		if a[j] != -b[j] {
			return false
		}
	}
	return true
}

// used reports whether local k appears in a constraint or another definition.
func (b *basic) used(k int) bool {
	c := b.divCol(k)
	for _, e := range b.eqs {
		if e[c] != 0 {
			return true
		}
	}
	for _, in := range b.ineqs {
		if in[c] != 0 {
			return true
		}
	}
	for j, d := range b.divs {
		if j != k && d.den != 0 && d.num[c] != 0 {
			return true
		}
	}
	return false
}

// dropUnusedDivs removes locals that nothing refers to: a defined local
// always exists, and an unconstrained existential is always satisfiable.
func (b *basic) dropUnusedDivs() bool {
	changed := false
	for k := len(b.divs) - 1; k >= 0; k-- {
		if !b.used(k) {
			b.removeDiv(k)
			changed = true
		}
	}
	return changed
}

// splitBounds partitions rows by the sign of their coefficient in column c:
// lower bounds, upper bounds and rows without c.
func splitBounds(rows [][]int64, c int) (lows, ups, rest [][]int64) {
	for _, in := range rows {
		switch {
		case in[c] > 0:
			lows = append(lows, in)
		case in[c] < 0:
			ups = append(ups, in)
		default:
			rest = append(rest, in)
		}
	}
	return lows, ups, rest
}

// maxFMGrowth bounds the constraints one exact elimination may add.
const maxFMGrowth = 16

// eliminateExistentials removes undefined locals by Fourier-Motzkin where that
// is exact over the integers: every pair of a lower bound a*e >= L and an
// upper bound c*e <= U has a == 1 or c == 1 (then c*L <= a*U is equivalent).
// A local bounded on one side only is simply dropped with its bounds.
func (b *basic) eliminateExistentials() bool {
	changed := false
	for k := len(b.divs) - 1; k >= 0; k-- {
		if b.divs[k].den != 0 || b.usedInEqOrDiv(k) {
			continue
		}
		c := b.divCol(k)
		lows, ups, rest := splitBounds(b.ineqs, c)
		if len(lows)*len(ups) > len(lows)+len(ups)+maxFMGrowth {
			continue
		}
		exact := true
		for _, l := range lows {
			for _, u := range ups {
				if l[c] != 1 && u[c] != -1 {
					exact = false
				}
			}
		}
		if !exact {
			continue
		}
		for _, l := range lows {
			for _, u := range ups {
				row, _ := combine(l, u, c)
				rest = append(rest, row)
			}
		}
		b.ineqs = rest
		b.removeDiv(k)
		changed = true
	}
	return changed
}

func (b *basic) usedInEqOrDiv(k int) bool {
	c := b.divCol(k)
	for _, e := range b.eqs {
		if e[c] != 0 {
			return true
		}
	}
	for j, d := range b.divs {
		if j != k && d.den != 0 && d.num[c] != 0 {
			return true
		}
	}
	return false
}

// mergeEqualDivs merges known locals with the same definition.
func (b *basic) mergeEqualDivs() bool {
	for i := range b.divs {
		if !b.divKnown(i) {
			continue
		}
		for j := i + 1; j < len(b.divs); j++ {
			if b.divs[j].den != b.divs[i].den || !slices.Equal(b.divs[j].num, b.divs[i].num) {
				continue
			}
			ci, cj := b.divCol(i), b.divCol(j)
			move := func(row []int64) {
				row[ci] = arith.Add(row[ci], row[cj])
				row[cj] = 0
			}
			for _, e := range b.eqs {
				move(e)
			}
			for _, in := range b.ineqs {
				move(in)
			}
			for k := range b.divs {
				if k != j && b.divs[k].den != 0 {
					move(b.divs[k].num)
				}
			}
			b.removeDiv(j)
			return true
		}
	}
	return false
}

// sortDivs orders locals so that each definition only refers to earlier
// locals (undefined ones first), as the printed exists clause requires. It
// reports whether the order changed.
func (b *basic) sortDivs() bool {
	n := len(b.divs)
	order := make([]int, 0, n)
	placed := make([]bool, n)
	for len(order) < n {
		progress := false
		for k := 0; k < n; k++ {
			if placed[k] {
				continue
			}
			ready := true
			if b.divs[k].den != 0 {
				for j := 0; j < n; j++ {
					if j != k && b.divs[k].num[b.divCol(j)] != 0 && !placed[j] {
						ready = false
					}
				}
			}
			if ready {
				order = append(order, k)
				placed[k] = true
				progress = true
			}
		}
		if !progress {
			panic("presburger: cyclic local definitions")
		}
	}
	sorted := true
	for i, k := range order {
		if i != k {
			sorted = false
		}
	}
	if sorted {
		return false
	}
	nv := b.nVar()
	perm := make([]int, b.nCol()) // old column -> new column
	for j := 0; j <= nv; j++ {
		perm[j] = j
	}
	for newK, oldK := range order {
		perm[b.divCol(oldK)] = 1 + nv + newK
	}
	move := func(row []int64) []int64 {
		out := make([]int64, len(row))
		for j, v := range row {
			out[perm[j]] = v
		}
		return out
	}
	divs := make([]div, n)
	for newK, oldK := range order {
		d := b.divs[oldK]
		divs[newK] = div{den: d.den, num: move(d.num)}
	}
	b.divs = divs
	for i := range b.eqs {
		b.eqs[i] = move(b.eqs[i])
	}
	for i := range b.ineqs {
		b.ineqs[i] = move(b.ineqs[i])
	}
	return true
}
