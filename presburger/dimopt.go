package presburger

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// The bound of one dimension of a set (DimMin, DimMax) first projects the
// other dimensions out. That leaves locals whose only role was to tie the
// projected dimensions together: copies of a local's own definition
// constraints (a dimension t = floor(i/64) becomes the local e with
// 64e <= i <= 64e + 63 stored beside its definition), existentials that
// Fourier-Motzkin removes exactly, and locals bounded by unit multiples
// only. Left in place, each is one more integer variable for the
// parametric search, which optimises it too and needs cuts and case
// splits for nothing. Once they are gone, the usual loop bound has a
// single bound with a unit coefficient on the optimising side, and then
// the optimum is read off without the search.

// onlyDim projects the set r onto its dimension pos, in one pass.
func (r rel) onlyDim(pos int) rel {
	np := r.space.NParam()
	vm := make([]int, np+r.space.NOut())
	for i := range vm {
		switch {
		case i < np:
			vm[i] = i
		case i == np+pos:
			vm[i] = np
		default:
			vm[i] = -1
		}
	}
	names := r.kindNames(DimOut)
	return r.transform(reshape(r.space, DimOut, names[pos:pos+1]), vm)
}

// dropLocals removes such locals from every piece of r, exactly.
func (r rel) dropLocals() rel {
	out := rel{space: r.space}
	for _, b := range r.parts {
		c := b.clone()
		if c.dropDivCopies() {
			c.simplify()
		}
		for !c.empty && (c.eliminateByShadows() || c.eliminateUnitDivs()) {
			c.simplify()
		}
		if !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}

// dropDivCopies removes the stored inequalities that a defined local's
// definition implies (the same row as one of its two defining constraints,
// with a constant at least as large) and reports whether there were any.
func (b *basic) dropDivCopies() bool {
	var defs [][]int64
	for k := range b.divs {
		if b.divs[k].den != 0 {
			lo, hi := b.divConstraints(k)
			defs = append(defs, lo, hi)
		}
	}
	if len(defs) == 0 {
		return false
	}
	keep := b.ineqs[:0:0]
	for _, in := range b.ineqs {
		implied := false
		for _, d := range defs {
			if in[0] >= d[0] && equalPadded(in[1:], d[1:]) {
				implied = true
				break
			}
		}
		if !implied {
			keep = append(keep, in)
		}
	}
	dropped := len(keep) < len(b.ineqs)
	b.ineqs = keep
	return dropped
}

// eliminateUnitDivs removes the defined locals e = floor(f/m) that only
// stored inequalities use, each with coefficient 1 or -1: e + r >= 0 is
// f + m*r >= 0 and r - e >= 0 is m*r + m - 1 - f >= 0 (r is integral), so
// the rewriting is exact. It reports whether it removed one.
func (b *basic) eliminateUnitDivs() bool {
	for k := len(b.divs) - 1; k >= 0; k-- {
		d := b.divs[k]
		c := b.divCol(k)
		if d.den == 0 || b.inEq(c) || b.usedByDiv(k) {
			continue
		}
		unit := true
		for _, in := range b.ineqs {
			if in[c] < -1 || in[c] > 1 {
				unit = false
				break
			}
		}
		if !unit {
			continue
		}
		for i, in := range b.ineqs {
			if in[c] == 0 {
				continue
			}
			row := make([]int64, len(in))
			for j, v := range in {
				if j != c {
					row[j] = arith.AddMul(arith.Mul(in[c], d.num[j]), d.den, v)
				}
			}
			if in[c] < 0 {
				row[0] = arith.Add(row[0], d.den-1)
			}
			b.ineqs[i] = row
		}
		b.removeDiv(k)
		return true
	}
	return false
}

// unitBound returns the optimum of the one dimension x of the set r when r
// is a single basic without locals or equalities on x, with exactly one
// bound on x in the optimising direction, of coefficient 1: for the
// maximum, x <= f(p) with f affine in the parameters. The maximum is then
// f(p) wherever f(p) satisfies the bounds of the other side (a smaller x
// would not satisfy them either), and symmetrically for the minimum. ok is
// false when r does not have this form.
func (r rel) unitBound(max bool) (pw PwMultiAff, ok bool) {
	if len(r.parts) != 1 || r.space.NOut() != 1 || r.space.NIn() != 0 {
		return pw, false
	}
	b := r.parts[0]
	np := b.nParam
	x := 1 + np // the column of the dimension, the last one
	if b.empty || len(b.divs) > 0 {
		return pw, false
	}
	for _, e := range b.eqs {
		if e[x] != 0 {
			return pw, false
		}
	}
	side := int64(1) // the sign of x in the bound sought: x + h >= 0 for the minimum
	if max {
		side = -1
	}
	k := -1
	for i, in := range b.ineqs {
		switch {
		case in[x] == side && k < 0:
			k = i
		case in[x] != 0 && (in[x] > 0) == (side > 0):
			return pw, false
		}
	}
	if k < 0 {
		return pw, false
	}
	// side*x + h >= 0 with the unit coefficient: the optimum is -side*h.
	f := make([]int64, 1+np)
	for j := range f {
		f[j] = arith.Mul(-side, b.ineqs[k][j])
	}
	dom := newUniverse(np, 0, 0)
	dom.bud = b.bud
	for _, e := range b.eqs {
		dom.eqs = append(dom.eqs, slices.Clone(e[:x]))
	}
	for i, in := range b.ineqs {
		if i == k {
			continue
		}
		row := slices.Clone(in[:x])
		for j := range row {
			row[j] = arith.AddMul(row[j], in[x], f[j])
		}
		dom.ineqs = append(dom.ineqs, row)
	}
	pw = PwMultiAff{Space: r.space}
	if dom.simplify(); !dom.isEmpty() {
		pw.Pieces = []PwPiece{{Domain: Set{relFromBasic(ParamSpace(r.space.Params), dom)}, Aff: MultiAff{Rows: [][]int64{f}}}}
	}
	return pw, true
}
