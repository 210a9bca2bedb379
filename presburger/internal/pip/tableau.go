package pip

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// tab is the parametric tableau. Its unknowns are the shifted variables
// y'_j = y_j + M (M the big parameter) and the slacks of the constraints
// and cuts; all of them are non-negative. Row i stands for
//
//	unknown = (m·M + c·[1, p, divs] + Σ_k a_k·col_k) / den
//
// and is stored flat as [den, m, c..., a...] with den > 0 and the entries
// reduced by their gcd. Column coefficients are plain numbers, so pivoting
// keeps every constant affine in the parameters. The sample point has every
// column at zero.
type tab struct {
	nCtx   int // length of c: 1 + nParam + nDiv
	rows   [][]int64
	rowVar []int  // variable j of a row holding y'_j, or -1
	known  []bool // the row's constant is known non-negative on the region
	colVar []int  // variable j of a column holding y'_j, or -1
	nVar   int
	b      *simplex.Budget
}

func (t *tab) nCol() int { return len(t.colVar) }

// ai indexes the coefficient of column k in a row.
func (t *tab) ai(k int) int { return 2 + t.nCtx + k }

func newTab(nParam, nVar int, b *simplex.Budget) *tab {
	t := &tab{nCtx: 1 + nParam, nVar: nVar, b: b, colVar: make([]int, nVar)}
	for j := range nVar {
		t.colVar[j] = j
	}
	return t
}

func (t *tab) clone() *tab {
	u := *t
	u.rows = make([][]int64, len(t.rows))
	for i, r := range t.rows {
		u.rows[i] = slices.Clone(r)
	}
	u.rowVar = slices.Clone(t.rowVar)
	u.known = slices.Clone(t.known)
	u.colVar = slices.Clone(t.colVar)
	return &u
}

// spend charges n operations to the budget.
// An interrupt (simplex.Interrupt: a watched context that ended) stops
// the search too.
func spend(b *simplex.Budget, n int64) {
	b.Spend(n)
}

// constant returns the constant part c of row i (aliasing the row).
func (t *tab) constant(i int) []int64 { return t.rows[i][2 : 2+t.nCtx] }

// appendRow adds a restricted row for the constraint
// ctx·[1, p, divs] + Σ_j vars[j]·y_j >= 0, expressed in the current columns
// (y_j = y'_j - M).
func (t *tab) appendRow(ctx, vars []int64) int {
	r := make([]int64, 2+t.nCtx+t.nCol())
	r[0] = 1
	copy(r[2:], ctx)
	varRow := t.varRows()
	for j, a := range vars {
		if a == 0 {
			continue
		}
		r[1] = arith.Sub(r[1], arith.Mul(a, r[0]))
		if k := slices.Index(t.colVar, j); k >= 0 {
			r[t.ai(k)] = arith.Add(r[t.ai(k)], arith.Mul(a, r[0]))
			continue
		}
		// r += a·row(y'_j) over the common denominator.
		v := t.rows[varRow[j]]
		g := arith.GCD(r[0], v[0])
		lincomb(r, r, v[0]/g, v, arith.Mul(a, r[0]/g), r[0], v[0]/g)
	}
	t.appendRaw(r)
	return len(t.rows) - 1
}

// varRows maps each variable to its row, or -1 when it is a column.
func (t *tab) varRows() []int {
	vr := make([]int, t.nVar)
	for j := range vr {
		vr[j] = -1
	}
	for i, v := range t.rowVar {
		if v >= 0 {
			vr[v] = i
		}
	}
	return vr
}

// pivot exchanges the unknown of row p with that of column k.
func (t *tab) pivot(p, k int) {
	spend(t.b, 1)
	t.b.SpendEntries(int64(len(t.rows)) * int64(len(t.rows[p])))
	rp := t.rows[p]
	a := rp[t.ai(k)]
	d := rp[0]
	// u_p = (rest + a·y_k)/d  ⇒  y_k = (d·u_p - rest)/a.
	for j := 1; j < len(rp); j++ {
		rp[j] = arith.Neg(rp[j])
	}
	rp[t.ai(k)] = d
	rp[0] = a
	if a < 0 {
		for j := range rp {
			rp[j] = arith.Neg(rp[j])
		}
	}
	arith.DivGCD(rp)
	e := rp[0]
	col := t.ai(k)
	for i, ri := range t.rows {
		b := ri[col]
		if i == p || b == 0 {
			continue
		}
		// u_i = (rest_i + b·y_k)/d_i, y_k = rp/e: u_i = (e·rest_i + b·rp)/(d_i·e).
		ri[col] = 0
		lincomb(ri, ri, e, rp, b, ri[0], e)
		t.known[i] = false
	}
	t.known[p] = false
	t.rowVar[p], t.colVar[k] = t.colVar[k], t.rowVar[p]
}

// addCtxCol appends a zero coefficient for a new div to every constant.
func (t *tab) addCtxCol() {
	at := 2 + t.nCtx
	for i, r := range t.rows {
		t.rows[i] = slices.Insert(r, at, 0)
	}
	t.nCtx++
}

// lexCol picks the pivot column for a row whose constant is negative: among
// columns with a positive entry, the one whose column of variable values
// divided by that entry is lexicographically smallest. This keeps every
// column lexicographically positive, so the sample stays the lexicographic
// minimum (dual simplex). It returns -1 when no entry is positive.
func (t *tab) lexCol(r int) int {
	row := t.rows[r]
	varRow := t.varRows()
	best := -1
	for k := range t.nCol() {
		if row[t.ai(k)] <= 0 {
			continue
		}
		if best < 0 || t.lexLess(varRow, k, row[t.ai(k)], best, row[t.ai(best)]) {
			best = k
		}
	}
	return best
}

// lexLess reports whether column k scaled by 1/ak is lexicographically
// smaller than column l scaled by 1/al (ak, al > 0).
func (t *tab) lexLess(varRow []int, k int, ak int64, l int, al int64) bool {
	for j := range t.nVar {
		var vk, vl int64
		if i := varRow[j]; i >= 0 {
			vk, vl = t.rows[i][t.ai(k)], t.rows[i][t.ai(l)]
		} else {
			if t.colVar[k] == j {
				vk = 1
			}
			if t.colVar[l] == j {
				vl = 1
			}
		}
		if c := cmpProd(vk, al, vl, ak); c != 0 {
			return c < 0
		}
	}
	// Columns are linearly independent in the variables; equal ratios
	// cannot happen, but stay deterministic.
	return k < l
}

// appendRaw adds a restricted row given in the tableau's own layout.
func (t *tab) appendRaw(r []int64) {
	t.rows = append(t.rows, r)
	t.rowVar = append(t.rowVar, -1)
	t.known = append(t.known, false)
}

// applyElim rewrites every row constant with a region equality so that it
// no longer uses the equality's unit column; values on the region are
// unchanged.
func (t *tab) applyElim(el *elim) {
	if el == nil {
		return
	}
	for _, r := range t.rows {
		el.apply(r[2 : 2+t.nCtx])
		arith.DivGCD(r)
	}
}

// large reports whether some row's denominator or constant has grown past
// the point where products start to overflow int64 and where the integer
// searches on the region, which see the constants, slow down.
func (t *tab) large() bool {
	for _, r := range t.rows {
		if r[0] > 1<<16 {
			return true
		}
		for _, x := range r[2 : 2+t.nCtx] {
			if x > 1<<24 || x < -(1<<24) {
				return true
			}
		}
	}
	return false
}
