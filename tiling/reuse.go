package tiling

import (
	"math/big"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// This file decides whether tiling a band brings reuse (Policy.Reuse):
// whether some access reuses data across the iterations of a band member
// other than the last, over a footprint too large to stay in cache
// between the use and the reuse. Tiling the band bounds that footprint
// by the tile; where every footprint is small already, the untiled loops
// stream as well as any tile would, and tiles only cut the streams the
// hardware prefetcher follows short (a user's two-pass 3x3 blur at
// 3000^2 ran 2.6x slower tiled 32 than in its original order).
//
// Everything is linear algebra over the rationals on the statements'
// iteration vectors, with no sizes: the schedule rows above and in the
// band, and each access's subscripts, as coefficient rows over the
// statement's iterators (parameters and constants apart).
//
//   - An access reuses across member m if a step d leaves the outer rows
//     and the members before m unchanged, moves member m, and takes the
//     access to the same element (A d = 0), to an element of the same row
//     (all subscripts but the last unchanged: spatial reuse), or to the
//     element another access of the statement with the same subscript
//     coefficients reads or writes (A d = the difference of their
//     constants: group reuse, as tmp[i][j] and tmp[i+1][j]).
//   - Its footprint over one iteration of member m is large if the
//     subscripts vary over two or more dimensions while the outer rows
//     and members up to m stay fixed (a plane of the array: sizes times
//     sizes), or over one dimension that is not the last (a column: one
//     cache line per element).
//
// A statement whose schedule or subscripts are not affine without
// divisions is taken to reuse (tiled as before the criterion).

// Reuses reports whether tiling the band at path p of t brings reuse to
// some statement of prog under it, by the criterion above.
func Reuses(prog *scop.Program, t scheduletree.Tree, p scheduletree.Path) (bool, error) {
	n, err := t.At(p)
	if err != nil {
		return false, err
	}
	outer, ok, err := outerRows(t, p)
	if err != nil {
		return false, err
	}
	if !ok {
		return true, nil
	}
	for _, m := range n.Band().Schedule.Maps() {
		members, _, ok := linearRows(m)
		st := prog.Stmt(m.Space().In.Name)
		if !ok || st == nil {
			return true, nil
		}
		accs, ok := stmtAccesses(st)
		if !ok {
			return true, nil
		}
		if reusesAcross(outer[st.Name], members, accs) {
			return true, nil
		}
	}
	return false, nil
}

// access is one access's subscripts as rows over the statement's
// iterators (linear) and over [1, parameters] (offset).
type access struct {
	array          string
	linear, offset [][]int64
}

// stmtAccesses lists the accesses of st; false where one is not affine.
func stmtAccesses(st *scop.Stmt) ([]access, bool) {
	var out []access
	for _, a := range append(append([]scop.Access{}, st.Writes...), st.Reads...) {
		lin, off, ok := linearRows(a.Rel)
		if !ok {
			return nil, false
		}
		out = append(out, access{a.Array, lin, off})
	}
	return out, true
}

// linearRows returns the single-valued map m, affine without divisions,
// as coefficient rows over its input dimensions and over [1, parameters];
// false otherwise.
func linearRows(m presburger.Map) (linear, offset [][]int64, ok bool) {
	pw, err := m.LexMinPw()
	if err != nil || len(pw.Pieces) != 1 || len(pw.Pieces[0].Aff.Divs) > 0 {
		return nil, nil, false
	}
	np, nin := m.Space().NParam(), m.Space().NIn()
	for _, r := range pw.Pieces[0].Aff.Rows {
		if len(r) < 1+np+nin {
			return nil, nil, false
		}
		offset = append(offset, r[:1+np])
		linear = append(linear, r[1+np:1+np+nin])
	}
	return linear, offset, true
}

// reusesAcross applies the criterion to one statement: outer are its
// schedule rows above the band, members the band's rows.
func reusesAcross(outer, members [][]int64, accs []access) bool {
	for m := 0; m+1 < len(members); m++ {
		fixed := append(append([][]int64{}, outer...), members[:m]...)
		upTo := append(append([][]int64{}, fixed...), members[m])
		for i, a := range accs {
			if len(a.linear) == 0 || !largeFootprint(upTo, a) {
				continue
			}
			if moves(fixed, members[m], a.linear[:len(a.linear)-1], nil) {
				return true // temporal or spatial
			}
			for j, b := range accs {
				if j == i || b.array != a.array || !slices.EqualFunc(a.linear, b.linear, slices.Equal[[]int64]) {
					continue
				}
				if delta, ok := constantDifference(a.offset, b.offset); ok && moves(fixed, members[m], a.linear, delta) {
					return true // group
				}
			}
		}
	}
	return false
}

// largeFootprint reports whether a's subscripts vary over a plane, or
// along a dimension other than the last, while the rows fixed stay put.
func largeFootprint(fixed [][]int64, a access) bool {
	base := rank(fixed, nil)
	if rank(append(append([][]int64{}, fixed...), a.linear...), nil)-base >= 2 {
		return true
	}
	return rank(append(append([][]int64{}, fixed...), a.linear[:len(a.linear)-1]...), nil) > base
}

// moves reports whether some rational step d has fixed·d = 0, lin·d =
// rhs (zero when nil) and member·d != 0.
func moves(fixed [][]int64, member []int64, lin [][]int64, rhs []int64) bool {
	sys := append(append([][]int64{}, lin...), fixed...)
	full := make([]int64, len(sys))
	copy(full, rhs)
	r := rank(sys, nil)
	if rank(sys, full) != r {
		return false // no step reaches the other element
	}
	with := append(sys, member)
	// Some solution moves the member unless every solution fixes it at
	// 0: the member is a combination of the system's rows and the
	// system's solutions give it the value 0.
	return rank(with, nil) > r || rank(with, append(full, 0)) > r
}

// constantDifference returns b - a per subscript when the two offsets
// differ in their constants only, and not at all in some subscript.
func constantDifference(a, b [][]int64) ([]int64, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	d := make([]int64, len(a))
	nonzero := false
	for i := range a {
		if len(a[i]) != len(b[i]) || !slices.Equal(a[i][1:], b[i][1:]) {
			return nil, false
		}
		d[i] = b[i][0] - a[i][0]
		nonzero = nonzero || d[i] != 0
	}
	return d, nonzero
}

// rank is the rank over the rationals of rows, augmented by the column
// rhs when it is not nil.
func rank(rows [][]int64, rhs []int64) int {
	m := make([][]*big.Rat, len(rows))
	for i, r := range rows {
		m[i] = make([]*big.Rat, 0, len(r)+1)
		for _, v := range r {
			m[i] = append(m[i], big.NewRat(v, 1))
		}
		if rhs != nil {
			m[i] = append(m[i], big.NewRat(rhs[i], 1))
		}
	}
	rk := 0
	for c := 0; len(m) > 0 && c < len(m[0]); c++ {
		p := rk
		for p < len(m) && m[p][c].Sign() == 0 {
			p++
		}
		if p == len(m) {
			continue
		}
		m[rk], m[p] = m[p], m[rk]
		for r := range m {
			if r == rk || m[r][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(m[r][c], m[rk][c])
			for k := c; k < len(m[r]); k++ {
				m[r][k].Sub(m[r][k], new(big.Rat).Mul(f, m[rk][k]))
			}
		}
		rk++
		if rk == len(m) {
			break
		}
	}
	return rk
}
