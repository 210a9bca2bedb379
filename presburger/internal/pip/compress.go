package pip

import (
	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// lattice is the integer solution set of the problem's equalities:
// x = x0·[1, p, divs] + v·y over free integers y. v is in column echelon
// form with positive leading entries, so x and y have the same
// lexicographic order and the optimum can be searched over y.
type lattice struct {
	x0 [][]int64 // per variable, an affine form over [1, p, divs]
	v  [][]int64 // nVar × len(y)
}

// compress solves the equalities over the integers (Hermite-style column
// operations, as isl does before optimising). Divisibility conditions on
// the parameters become divs of c and conditions, rows over [1, p, divs]
// that must be non-negative; where one fails there is no solution.
// Without this, Gomory cuts would have to discover the lattice, which can
// take long chains of cuts with exploding denominators.
func compress(nParam, nVar int, eqs [][]int64, c *context) (lat lattice, conds [][]int64) {
	m := len(eqs)
	a := make([][]int64, m) // x part, transformed in place: a := a·u
	for i, e := range eqs {
		a[i] = clone(e[1+nParam:])
	}
	u := identity(nVar)
	var zval [][]int64 // value of the pivot coordinates z_0..z_{col-1}
	col := 0
	for i := range m {
		// N = -(r_i + Σ_{j<col} a_ij·z_j) over [1, p, divs].
		n := make([]int64, c.width())
		for k, x := range eqs[i][:1+nParam] {
			n[k] = arith.Neg(x)
		}
		for j := range col {
			addScaled(n, arith.Neg(a[i][j]), zval[j])
		}
		if !pivotRow(a, u, i, col) {
			conds = append(conds, n, negate(n))
			continue
		}
		h := a[i][col]
		z := make([]int64, len(n))
		rem := make([]int64, len(n))
		for k, x := range n {
			z[k] = arith.FloorDiv(x, h)
			rem[k] = arith.Mod(x, h)
		}
		switch {
		case allZero(rem):
		case isConst(rem):
			conds = append(conds, []int64{-1}) // never divisible
		default:
			// z = floor(N/h) + q with q = floor(rem/h), provided h | rem.
			q, added := c.div(rem, h)
			if added {
				z = append(z, 0)
				rem = append(rem, 0)
			}
			qc := 1 + nParam + q
			z[qc] = arith.Add(z[qc], 1)
			cond := negate(rem)
			cond[qc] = arith.Add(cond[qc], h)
			conds = append(conds, cond)
		}
		zval = append(zval, z)
		col++
	}
	w := c.width()
	lat.x0 = make([][]int64, nVar)
	for j := range nVar {
		lat.x0[j] = make([]int64, w)
		for l := range col {
			addScaled(lat.x0[j], u[j][l], zval[l])
		}
	}
	lat.v = make([][]int64, nVar)
	for j := range nVar {
		lat.v[j] = clone(u[j][col:])
	}
	echelon(lat.v)
	for i, r := range conds {
		conds[i] = pad(r, w)
	}
	return lat, conds
}

// pivotRow makes a[i][col] the only non-zero entry of row i among columns
// col.. by unimodular column operations (applied to u as well), with a
// positive pivot. It reports false when the row is zero there.
func pivotRow(a, u [][]int64, i, col int) bool {
	n := len(a[i])
	for {
		// Pick the smallest non-zero entry and reduce the others by it.
		best := -1
		for j := col; j < n; j++ {
			if a[i][j] != 0 && (best < 0 || arith.Abs(a[i][j]) < arith.Abs(a[i][best])) {
				best = j
			}
		}
		if best < 0 {
			return false
		}
		swapCols(a, u, col, best)
		done := true
		for j := col + 1; j < n; j++ {
			if a[i][j] == 0 {
				continue
			}
			f := arith.FloorDiv(a[i][j], a[i][col])
			subCol(a, u, j, col, f)
			if a[i][j] != 0 {
				done = false
			}
		}
		if done {
			if a[i][col] < 0 {
				negCol(a, u, col)
			}
			return true
		}
	}
}

// echelon brings v to column echelon form with positive leading entries by
// unimodular column operations.
func echelon(v [][]int64) {
	if len(v) == 0 {
		return
	}
	k := len(v[0])
	col := 0
	for i := range v {
		if col == k {
			return
		}
		if pivotRow(v, nil, i, col) {
			col++
		}
	}
}

func swapCols(a, u [][]int64, j, l int) {
	for _, m := range [][][]int64{a, u} {
		for _, r := range m {
			r[j], r[l] = r[l], r[j]
		}
	}
}

// subCol sets column j -= f·column l.
func subCol(a, u [][]int64, j, l int, f int64) {
	for _, m := range [][][]int64{a, u} {
		for _, r := range m {
			r[j] = arith.Sub(r[j], arith.Mul(f, r[l]))
		}
	}
}

func negCol(a, u [][]int64, j int) {
	for _, m := range [][][]int64{a, u} {
		for _, r := range m {
			r[j] = arith.Neg(r[j])
		}
	}
}

func identity(n int) [][]int64 {
	u := make([][]int64, n)
	for i := range u {
		u[i] = make([]int64, n)
		u[i][i] = 1
	}
	return u
}

// addScaled sets dst += f·src over the first len(src) entries.
func addScaled(dst []int64, f int64, src []int64) {
	if f == 0 {
		return
	}
	for k, x := range src {
		if x != 0 {
			dst[k] = arith.Add(dst[k], arith.Mul(f, x))
		}
	}
}

func negate(v []int64) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = arith.Neg(x)
	}
	return out
}

// pad returns v extended with zeros to length w.
func pad(v []int64, w int) []int64 {
	out := make([]int64, w)
	copy(out, v)
	return out
}

// nY is the number of free integer variables y.
func (lat lattice) nY() int {
	if len(lat.v) == 0 {
		return 0
	}
	return len(lat.v[0])
}

// substitute rewrites a constraint over [1, p, x] as one over
// [1, p, divs] (of width w) and y.
func (lat lattice) substitute(r []int64, nParam, w int) (ctx, vars []int64) {
	ctx = pad(r[:1+nParam], w)
	vars = make([]int64, lat.nY())
	for j, a := range r[1+nParam:] {
		addScaled(ctx, a, lat.x0[j])
		addScaled(vars, a, lat.v[j])
	}
	return ctx, vars
}

// prefix returns the number of leading variables y that x_0..x_{n-1}
// depend on (v is in column echelon form: column l first appears in the
// row of its leading entry).
func (lat lattice) prefix(n int) int {
	k := 0
	for l := range lat.nY() {
		lead := len(lat.v)
		for j := range lat.v {
			if lat.v[j][l] != 0 {
				lead = j
				break
			}
		}
		if lead < n {
			k++
		}
	}
	return k
}

// fixY returns the equality over [1, p, divs (w columns), x (nVar)] that,
// with those for y_0..y_{k-1}, fixes y_k (k = len(vals)-1) to vals[k]
// given y_l = vals[l] for l < k (rows over [1, p, divs]). With r the
// leading row of column k of v, x_r = x0_r + Σ_{l<=k} v[r][l]·y_l: the
// later columns vanish in row r.
func (lat lattice) fixY(vals [][]int64, w, nVar int) []int64 {
	k := len(vals) - 1
	r := 0
	for lat.v[r][k] == 0 {
		r++
	}
	eq := make([]int64, w+nVar)
	addScaled(eq, -1, pad(lat.x0[r], w))
	for l, v := range vals {
		addScaled(eq, arith.Neg(lat.v[r][l]), pad(v, w))
	}
	eq[w+r] = 1
	return eq
}

// solution maps the optimum over y_0..y_{len(y)-1} (rows over
// [1, p, divs]) back to x_0..x_{n-1}, which depend on no other y.
func (lat lattice) solution(y [][]int64, w, n int) [][]int64 {
	x := make([][]int64, n)
	for j := range x {
		x[j] = pad(lat.x0[j], w)
		for l, yl := range y {
			addScaled(x[j], lat.v[j][l], yl)
		}
	}
	return x
}
