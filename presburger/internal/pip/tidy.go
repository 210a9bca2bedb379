package pip

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// tidy simplifies a piece's region without changing it: duplicate and
// redundant inequalities go, implicit equalities become equalities, and
// divs nothing refers to are dropped. Redundancy is rational and is judged
// with the divs' defining constraints present, which always hold.
func tidy(p *Piece, nParam int, b *simplex.Budget) {
	w := 1 + nParam + len(p.Divs)
	c := &context{nParam: nParam, divs: p.Divs}
	defs := c.divIneqs()

	var eqs, ineqs [][]int64
	for _, e := range p.Eqs {
		eqs = addUnique(eqs, normEq(e))
	}
	for _, r := range p.Ineqs {
		ineqs = addUnique(ineqs, normAff(r))
	}
	// One pass: a redundant inequality goes (the set, and so any equality
	// it held with, is unchanged); an irredundant implicit equality becomes
	// an equality.
	redundant, implicit, empty := simplex.Reduce(eqs, append(slices.Clone(ineqs), defs...), w-1, b)
	if empty {
		panic("pip: internal error: empty region")
	}
	var rest [][]int64
	for i, r := range ineqs {
		switch {
		case redundant[i]:
		case implicit[i]:
			eqs = addUnique(eqs, normEq(r))
		default:
			rest = append(rest, r)
		}
	}
	ineqs = rest
	p.Eqs, p.Ineqs = eqs, ineqs
	dropUnusedDivs(p, nParam)
	canonDivs(p, nParam)
}

// canonDivs rewrites each div q = floor(N/d) of a piece in a canonical form
// without changing the piece: numerator coefficients in (-d/2, d/2] and
// constant in [0, d), by q = q' + L for an integer affine L, and negated
// (q = -floor((-N + d - 1)/d)) when the solution uses it negatively. So
// the Gomory cut's ceil((i - 31)/32) comes out as floor(i/32).
func canonDivs(p *Piece, nParam int) {
	for i := range p.Divs {
		col := 1 + nParam + i
		shiftDiv(p, i, col)
		var sum int64
		for _, r := range p.Sol {
			sum = arith.Add(sum, r[col])
		}
		if sum >= 0 {
			continue
		}
		d := &p.Divs[i]
		num := negate(d.Num)
		num[0] = arith.Add(num[0], d.Den-1)
		d.Num = num
		forRows(p, i, func(r []int64) { r[col] = arith.Neg(r[col]) })
		shiftDiv(p, i, col)
	}
}

// shiftDiv brings the numerator of div i into the canonical ranges,
// compensating in every row that uses it.
func shiftDiv(p *Piece, i, col int) {
	d := &p.Divs[i]
	num := clone(d.Num)
	l := make([]int64, len(num)) // q_old = q_new + l·[1, p, earlier divs]
	for j, a := range num {
		var k int64
		if j == 0 {
			k = arith.FloorDiv(a, d.Den)
		} else {
			k = arith.FloorDiv(arith.Add(arith.Mul(2, a), d.Den-1), arith.Mul(2, d.Den))
		}
		num[j] = arith.Sub(a, arith.Mul(k, d.Den))
		l[j] = k
	}
	d.Num = num
	forRows(p, i, func(r []int64) { addScaled(r, r[col], l) })
}

// forRows applies f to every row of p that may use div i: constraints,
// solution and the numerators of later divs (copied first: they may be
// shared).
func forRows(p *Piece, i int, f func([]int64)) {
	for _, rows := range [][][]int64{p.Eqs, p.Ineqs, p.Sol} {
		for k, r := range rows {
			rows[k] = clone(r)
			f(rows[k])
		}
	}
	for k := i + 1; k < len(p.Divs); k++ {
		p.Divs[k].Num = clone(p.Divs[k].Num)
		f(p.Divs[k].Num)
	}
}

// normEq divides an equality by the gcd of its entries and makes its first
// non-zero entry positive.
func normEq(e []int64) []int64 {
	out := clone(e)
	arith.DivGCD(out)
	for _, x := range out {
		if x != 0 {
			if x < 0 {
				for i := range out {
					out[i] = arith.Neg(out[i])
				}
			}
			break
		}
	}
	return out
}

func addUnique(rows [][]int64, r []int64) [][]int64 {
	for _, s := range rows {
		if slices.Equal(s, r) {
			return rows
		}
	}
	return append(rows, r)
}

// dropUnusedDivs removes divs that no constraint, solution or used div
// refers to.
func dropUnusedDivs(p *Piece, nParam int) {
	for i := len(p.Divs) - 1; i >= 0; i-- {
		col := 1 + nParam + i
		used := false
		for _, rows := range [][][]int64{p.Eqs, p.Ineqs, p.Sol} {
			for _, r := range rows {
				used = used || r[col] != 0
			}
		}
		for _, d := range p.Divs[i+1:] {
			used = used || d.Num[col] != 0
		}
		if used {
			continue
		}
		del := func(rows [][]int64) {
			for k, r := range rows {
				rows[k] = slices.Delete(clone(r), col, col+1)
			}
		}
		del(p.Eqs)
		del(p.Ineqs)
		del(p.Sol)
		for k := i + 1; k < len(p.Divs); k++ {
			p.Divs[k].Num = slices.Delete(clone(p.Divs[k].Num), col, col+1)
		}
		p.Divs = slices.Delete(p.Divs, i, i+1)
	}
}
