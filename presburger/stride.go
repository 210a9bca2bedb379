package presburger

// This file holds the lattice machinery on equalities (integer solutions by
// Hermite column reduction), the residue classes built on it (Stride), and
// the normalizations of inequalities and locals that rely on it.

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Stride returns the residue class of set dimension pos: every point of s
// has that coordinate ≡ offset (mod stride), with stride as large as the
// equalities of s show (explicit and implicit ones, locals included, after
// tightening the inequalities on the lattice of the equalities). Stride 0
// means the coordinate takes the single value offset; stride 1 means no
// stride was found. Parameters are treated like free variables, so only
// parameter-free offsets are found: { [i] : i = N + 4e } has stride 1. The
// empty set reports stride 0, offset 0. Offsets lie in [0, stride).
// This is isl_set_dim_residue_class.
func (s Set) Stride(pos int) (stride, offset int64, err error) {
	defer catch(&err)
	bud := newBudget()
	if pos < 0 || pos >= s.r.with(bud).space.NOut() {
		panic(internalError{fmt.Errorf("presburger: stride: dimension %d out of range (%d)", pos, s.r.with(bud).space.NOut())})
	}
	col := 1 + s.r.with(bud).space.NParam() + s.r.with(bud).space.NIn() + pos
	first := true
	for _, b := range s.r.with(bud).parts {
		c := prepareBasic(b)
		if c == nil {
			continue
		}
		st, off, ok := c.residueClass(col)
		if !ok {
			continue
		}
		if first {
			stride, offset, first = st, off, false
			continue
		}
		stride = arith.GCD(arith.GCD(stride, st), arith.Sub(off, offset))
	}
	if stride > 0 {
		offset = arith.Mod(offset, stride)
	}
	return stride, offset, nil
}

// residueClass returns the stride and offset of column col over the
// integer solutions of the equalities of b (stride 0: a single value); ok
// is false when the equalities have no integer solution.
func (b *basic) residueClass(col int) (stride, offset int64, ok bool) {
	x0, gens, ok := eqLattice(b.eqs, b.nSolverVars())
	if !ok {
		return 0, 0, false
	}
	for _, g := range gens {
		stride = arith.GCD(stride, g[col-1])
	}
	offset = x0[col-1]
	if stride > 0 {
		offset = arith.Mod(offset, stride)
	}
	return stride, offset, true
}

// eqLattice returns the integer solutions z of the equalities (rows
// [c, a_1..a_n] meaning c + a·z = 0) as z = x0 + Σ t_k·gens[k] with t
// integral, or ok=false when there is none. It brings the coefficient
// matrix to column echelon form by unimodular column operations (extended
// gcd), as a Hermite normal form computation.
func eqLattice(eqs [][]int64, n int) (x0 []int64, gens [][]int64, ok bool) {
	x0, gens, _, ok = eqLatticeInv(eqs, n)
	return x0, gens, ok
}

// comb2 returns p*x + q*y, or panics with arith.Overflow; without checks
// when every operand fits in 31 bits (the usual case).
func comb2(p, x, q, y int64) int64 {
	if (uint64(p+1<<30)|uint64(x+1<<30)|uint64(q+1<<30)|uint64(y+1<<30))>>31 == 0 {
		return p*x + q*y
	}
	return arith.Add(arith.Mul(p, x), arith.Mul(q, y))
}

// eqLatticeInv is eqLattice that also returns, for each generator k, the
// integer row inv[k] with t_k = inv[k]·z for every solution z.
func eqLatticeInv(eqs [][]int64, n int) (x0 []int64, gens, inv [][]int64, ok bool) {
	m := len(eqs)
	buf := make([]int64, (m+2*n)*n) // one allocation for the matrices
	rows := func(k int) [][]int64 {
		out := make([][]int64, k)
		for i := range out {
			out[i], buf = buf[:n:n], buf[n:]
		}
		return out
	}
	a := rows(m) // A·U, updated in place
	for i, e := range eqs {
		copy(a[i], e[1:1+n])
	}
	u := rows(n)    // u[j][c]: row j, column c
	uinv := rows(n) // the inverse of u
	for j := range u {
		u[j][j] = 1
		uinv[j][j] = 1
	}
	// colOp replaces columns (c1, c2) by (p*c1 + q*c2, r*c1 + s*c2), a
	// unimodular operation (ps - qr = ±1), and updates the inverse.
	colOp := func(c1, c2 int, p, q, r, s int64) {
		for _, rows := range [2][][]int64{a, u} {
			for _, row := range rows {
				x, y := row[c1], row[c2]
				row[c1] = comb2(p, x, q, y)
				row[c2] = comb2(r, x, s, y)
			}
		}
		det := comb2(p, s, arith.Neg(q), r)
		r1, r2 := uinv[c1], uinv[c2]
		for j := range r1 {
			x, y := r1[j], r2[j]
			r1[j] = arith.Mul(det, comb2(s, x, arith.Neg(r), y))
			r2[j] = arith.Mul(det, comb2(p, y, arith.Neg(q), x))
		}
	}
	rank := 0
	pivRow := make([]int, 0, n)
	for i := 0; i < m && rank < n; i++ {
		for c := rank + 1; c < n; c++ {
			if a[i][c] == 0 {
				continue
			}
			p, q := a[i][rank], a[i][c]
			if p == 0 {
				colOp(rank, c, 0, 1, 1, 0) // swap
				continue
			}
			g, s, t := extGCD(p, q)
			colOp(rank, c, s, t, arith.Neg(q/g), p/g)
		}
		if a[i][rank] != 0 {
			pivRow = append(pivRow, i)
			rank++
		}
	}
	w := make([]int64, rank)
	for c := 0; c < rank; c++ {
		i := pivRow[c]
		rhs := eqs[i][0]
		for c2 := 0; c2 < c; c2++ {
			rhs = arith.AddMul(rhs, a[i][c2], w[c2])
		}
		if rhs%a[i][c] != 0 {
			return nil, nil, nil, false
		}
		w[c] = arith.Neg(rhs / a[i][c])
	}
	for i := range eqs {
		v := eqs[i][0]
		for c := 0; c < rank; c++ {
			v = arith.AddMul(v, a[i][c], w[c])
		}
		if v != 0 {
			return nil, nil, nil, false
		}
	}
	x0 = make([]int64, n)
	for j := range x0 {
		for c := 0; c < rank; c++ {
			x0[j] = arith.AddMul(x0[j], u[j][c], w[c])
		}
	}
	for c := rank; c < n; c++ {
		g := make([]int64, n)
		for j := range g {
			g[j] = u[j][c]
		}
		gens = append(gens, g)
		inv = append(inv, uinv[c])
	}
	return x0, gens, inv, true
}

// tightenOnLattice tightens the constant of every inequality of b (a
// local's definition constraints through a tightened copy) using the
// integer solutions of its equalities, as isl's reduce_coefficients does:
// on z = x0 + V·t an inequality reads c0' + c'·t >= 0 where c'·t is a
// multiple of g = gcd(c'), so c0' mod g can be subtracted from its constant
// without losing an integer point. It marks b empty when the equalities
// have no integer solution or an inequality fails on the whole lattice, and
// reports whether it changed b.
func (b *basic) tightenOnLattice() bool {
	if len(b.eqs) == 0 || b.empty {
		return false
	}
	n := b.nSolverVars()
	x0, gens, ok := eqLattice(b.eqs, n)
	if !ok {
		b.empty = true
		return true
	}
	changed := false
	var extra [][]int64
	// have reports whether r is a stored inequality as it was before the
	// tightening below (which changes constants only) or an extra one.
	cst := make([]int64, len(b.ineqs))
	for i, in := range b.ineqs {
		cst[i] = in[0]
	}
	have := func(r []int64) bool {
		for i, in := range b.ineqs {
			if r[0] == cst[i] && slices.Equal(in[1:], r[1:]) {
				return true
			}
		}
		for _, in := range extra {
			if slices.Equal(in, r) {
				return true
			}
		}
		return false
	}
	_, all := b.system()
	for i, in := range all {
		if i >= len(b.ineqs) {
			// A local's definition constraint: add a tightened copy.
			in = append([]int64(nil), in...)
		}
		c0 := in[0]
		for j := 0; j < n; j++ {
			c0 = arith.AddMul(c0, in[1+j], x0[j])
		}
		var g int64
		for _, gen := range gens {
			var v int64
			for j := 0; j < n; j++ {
				v = arith.AddMul(v, in[1+j], gen[j])
			}
			g = arith.GCD(g, v)
		}
		if g == 0 {
			if c0 < 0 {
				b.empty = true
				return true
			}
			continue
		}
		if r := arith.Mod(c0, g); r != 0 {
			in[0] = arith.Sub(in[0], r)
			if i < len(b.ineqs) {
				changed = true
			} else if !have(in) {
				extra = append(extra, in)
				changed = true
			}
		}
	}
	b.ineqs = append(b.ineqs, extra...)
	return changed
}

// reduceCoefficients rewrites every stored inequality of b whose
// coefficients have a common factor g > 1 on the lattice of the equalities
// (z = x0 + V·t): c0' + c'·t >= 0 becomes floor(c0'/g) + (c'/g)·t >= 0,
// expressed back in the columns through t = inv·z (isl's
// reduce_coefficients). The integer points of b do not change; its rational
// relaxation shrinks, which exposes adjacency in strided sets, e.g.
// i <= 10 and i >= 13 on i = 3e + 1 become e <= 3 and e >= 4. It reports
// whether b changed.
func (b *basic) reduceCoefficients() bool {
	if len(b.eqs) == 0 || b.empty {
		return false
	}
	n := b.nSolverVars()
	x0, gens, inv, ok := eqLatticeInv(b.eqs, n)
	if !ok || len(gens) == 0 {
		return false
	}
	changed := false
	for i, in := range b.ineqs {
		c0 := in[0]
		for j := 0; j < n; j++ {
			c0 = arith.AddMul(c0, in[1+j], x0[j])
		}
		cp := make([]int64, len(gens))
		var g int64
		for k, gen := range gens {
			for j := 0; j < n; j++ {
				cp[k] = arith.AddMul(cp[k], in[1+j], gen[j])
			}
			g = arith.GCD(g, cp[k])
		}
		if g <= 1 {
			continue
		}
		row := make([]int64, 1+n)
		row[0] = arith.FloorDiv(c0, g)
		for k := range gens {
			f := cp[k] / g
			if f == 0 {
				continue
			}
			for j := 0; j < n; j++ {
				row[1+j] = arith.AddMul(row[1+j], f, inv[k][j])
			}
		}
		b.ineqs[i] = row
		changed = true
	}
	return changed
}

// normalizeLocals repeats lattice tightening (which may reveal implicit
// equalities) and the elimination of fixed locals until nothing changes.
func (b *basic) normalizeLocals() *basic {
	b.normalizeLocalsClean(false, nil)
	return b
}

// normalizeLocalsClean is normalizeLocals reporting whether b ends clean,
// and with which tableau of it (see reduceClean), given how it starts.
func (b *basic) normalizeLocalsClean(clean bool, tab *simplex.Tableau) (bool, *simplex.Tableau) {
	for round := 0; round < 4 && !b.empty; round++ {
		changed := b.tightenOnLattice()
		if b.empty {
			break
		}
		if b.eliminateFixedDivs() {
			changed = true
		}
		if !changed && b.eliminateDivsExactly() {
			changed = true
		}
		if !changed {
			break
		}
		clean, tab = b.reduceClean()
	}
	if b.empty {
		b.simplify()
	}
	return clean, tab
}

// eliminateFixedDivs turns every defined local that an equality determines
// with a unit coefficient, or whose definition is constant, into a plain
// existential, which simplify then eliminates (its definition constraints
// become constraints on the other columns), as isl does. Locals used by other
// definitions are kept.
func (b *basic) eliminateFixedDivs() bool {
	changed := false
	for k := range b.divs {
		d := b.divs[k]
		if d.den == 0 || b.usedByDiv(k) {
			continue
		}
		col := b.divCol(k)
		fixed := false
		switch {
		case isZeroRow(d.num[1:]):
			row := make([]int64, b.nCol())
			row[0], row[col] = arith.Neg(arith.FloorDiv(d.num[0], d.den)), 1
			b.eqs = append(b.eqs, row)
			fixed = true
		case d.den == 1:
			row := negRow(d.num, 0)
			row[col] = 1
			b.eqs = append(b.eqs, row)
			fixed = true
		}
		for _, e := range b.eqs {
			if e[col] == 1 || e[col] == -1 {
				fixed = true
			}
		}
		if fixed {
			b.forgetDiv(k)
			changed = true
		}
	}
	if b.dropOneSidedDivs() {
		changed = true
	}
	if changed {
		b.simplify()
	}
	return changed
}

// dropOneSidedDivs removes defined locals that the stored inequalities only
// bound from one side (and no equality or other definition uses): if every
// other constraint improves as the local grows, the local may as well be the
// largest integer its definition allows, so only the definition's upper
// bound matters (and symmetrically). The local then becomes a plain
// existential with that one bound, eliminated exactly by Fourier-Motzkin
// when every pair of bounds has a unit coefficient (the only case handled).
func (b *basic) dropOneSidedDivs() bool {
	changed := false
	for k := len(b.divs) - 1; k >= 0; k-- {
		d := b.divs[k]
		if d.den == 0 || b.usedByDiv(k) || b.inEq(b.divCol(k)) {
			continue
		}
		col := b.divCol(k)
		pos, neg, unit := false, false, true
		for _, in := range b.ineqs {
			v := in[col]
			switch {
			case v > 0:
				pos = true
			case v < 0:
				neg = true
			}
			if v != 0 && v != 1 && v != -1 {
				unit = false
			}
		}
		if pos == neg || (!unit && d.den != 1) {
			continue
		}
		lo, hi := b.divConstraints(k)
		b.divs[k] = div{num: make([]int64, b.nCol())}
		if pos {
			b.ineqs = append(b.ineqs, lo) // num - den*e >= 0
		} else {
			b.ineqs = append(b.ineqs, hi) // den*e - num + den - 1 >= 0
		}
		changed = true
	}
	return changed
}

// eliminateDivsExactly removes a defined local that no equality or other
// definition uses when its rational elimination (Fourier-Motzkin over all
// constraints, its definition included) is exact over the integers, which
// is checked by subtraction: the shadow contains the projection, and the
// shadow minus b must have no integer point. It reports whether a local was
// removed.
func (b *basic) eliminateDivsExactly() bool {
	for k := len(b.divs) - 1; k >= 0; k-- {
		if b.divs[k].den == 0 || b.usedByDiv(k) || b.inEq(b.divCol(k)) {
			continue
		}
		r := b.shadowWithout(k)
		if r == nil {
			continue
		}
		exact := false
		if !attempt(func() { exact = subsetBasic(r, b) }) || !exact {
			continue
		}
		*b = *r
		return true
	}
	return false
}

// shadowWithout returns b with local k eliminated by Fourier-Motzkin over
// the rationals (its definition constraints included), or nil when that
// would create too many constraints.
func (b *basic) shadowWithout(k int) *basic {
	c := b.divCol(k)
	lo, hi := b.divConstraints(k)
	lows, ups, rest := splitBounds(append(append([][]int64(nil), b.ineqs...), lo, hi), c)
	if len(lows)*len(ups) > len(lows)+len(ups)+maxFMGrowth {
		return nil
	}
	r := b.clone()
	for _, l := range lows {
		for _, u := range ups {
			row, _ := combine(l, u, c)
			rest = append(rest, row)
		}
	}
	r.ineqs = copyRows(rest)
	r.divs[k] = div{num: make([]int64, r.nCol())}
	r.removeDiv(k)
	return r.simplify()
}

// usedByDiv reports whether another local's definition uses local k.
func (b *basic) usedByDiv(k int) bool {
	c := b.divCol(k)
	for j, d := range b.divs {
		if j != k && d.den != 0 && d.num[c] != 0 {
			return true
		}
	}
	return false
}
