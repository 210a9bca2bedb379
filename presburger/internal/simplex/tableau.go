package simplex

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// unknown is a variable or a constraint of the tableau. Variables are
// unknowns 0..nVar-1 (free, unrestricted in sign); constraint k is unknown
// nVar+k (an inequality is restricted to be >= 0; an equality is pinned to 0
// by killing its column).
type unknown struct {
	isRow      bool
	pos        int  // row or column index
	restricted bool // value must stay >= 0
	eq         bool // added by AddEq
}

type undoKind uint8

const (
	undoAdd   undoKind = iota // a constraint was appended
	undoKill                  // column col was killed (fixed at zero)
	undoEmpty                 // the tableau was marked empty
)

type undoEntry struct {
	kind undoKind
	col  int
}

// Tableau is an exact rational simplex tableau in the style of isl and MLIR's
// Presburger library. Every unknown is either a row (basic) or a column
// (non-basic). Row i stands for
//
//	unknown = (rows[i][1] + Σ_j rows[i][2+j]·col_j) / rows[i][0]
//
// with a positive per-row denominator rows[i][0]. The current sample point
// has every column at zero, so a row's sample value is rows[i][1]/rows[i][0].
// The tableau is kept feasible: every restricted row has a non-negative
// constant. Columns killed by an equality ("dead") are fixed at zero and never
// pivot. Pivoting follows Bland's rule (smallest unknown index enters, ties in
// the ratio test go to the smallest unknown index), which cannot cycle; the
// Budget is a backstop anyway.
//
// Every change that adds or pins a constraint is recorded in an undo log, so
// Rollback can return to any Snapshot. Rollback removes constraints but keeps
// the current basis (any feasible basis is as good as another).
type Tableau struct {
	nVar   int
	budget *Budget
	rows   [][]int64
	rowVar []int // unknown of each row
	colVar []int // unknown of each column
	dead   []bool
	unk    []unknown
	nCon   int
	empty  bool
	undo   []undoEntry
	// scratch is a row-sized buffer for row arithmetic.
	scratch []int64
	// free holds the rows of removed unknowns for appendRow to reuse:
	// every optimisation appends and removes an objective row. slab is
	// room for new rows, allocated a few rows at a time.
	free [][]int64
	slab []int64
	// arena is the row memory a released tableau keeps for its next use.
	arena []int64
}

// Snapshot marks a state of a Tableau to return to with Rollback.
type Snapshot struct{ n int }

// NewTableau returns an empty-constraint tableau over nVar free variables.
// A nil budget means a fresh budget of DefaultBudget operations.
func NewTableau(nVar int, b *Budget) *Tableau {
	t, _ := tableauPool.Get().(*Tableau)
	if t == nil {
		t = &Tableau{}
	}
	t.reset(nVar, b)
	return t
}

// tableauPool holds the tableaux given back by Release: the short-lived
// tableaux of feasibility and redundancy tests are most of the library's
// allocation, and a reused one keeps its slices and its row memory.
var tableauPool sync.Pool

// reset empties t for nVar free variables, keeping its memory.
func (t *Tableau) reset(nVar int, b *Budget) {
	t.nVar, t.budget, t.nCon, t.empty = nVar, orDefault(b), 0, false
	t.rows, t.rowVar, t.undo, t.free = t.rows[:0], t.rowVar[:0], t.undo[:0], t.free[:0]
	t.colVar = resize(t.colVar, nVar)
	t.dead = resize(t.dead, nVar)
	t.unk = resize(t.unk, nVar)
	t.scratch = resize(t.scratch, 2+nVar)
	for j := range nVar {
		t.colVar[j] = j
		t.dead[j] = false
		t.unk[j] = unknown{pos: j}
	}
	t.slab = t.arena
}

// resize returns s with length n, reallocated only when too small.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Release gives t back for reuse by NewTableau: the caller must not use t,
// or any row or sample taken from it, afterwards.
func (t *Tableau) Release() {
	// The rows carved so far, with the room Reserve made, become one arena.
	if need := (len(t.rows) + len(t.free)) * (2 + t.nVar); cap(t.arena) < need {
		t.arena = make([]int64, need)
	}
	t.arena = t.arena[:cap(t.arena)]
	t.budget = nil
	tableauPool.Put(t)
}

// NumVars returns the number of variables of the tableau.
func (t *Tableau) NumVars() int { return t.nVar }

// Empty reports whether the constraints are rationally infeasible.
func (t *Tableau) Empty() bool { return t.empty }

// Snapshot returns the current state, to return to with Rollback.
func (t *Tableau) Snapshot() Snapshot { return Snapshot{len(t.undo)} }

// Rollback undoes every constraint added since s was taken.
func (t *Tableau) Rollback(s Snapshot) {
	for len(t.undo) > s.n {
		e := t.undo[len(t.undo)-1]
		t.undo = t.undo[:len(t.undo)-1]
		switch e.kind {
		case undoEmpty:
			t.empty = false
		case undoKill:
			t.dead[e.col] = false
		case undoAdd:
			t.removeLast()
			t.nCon--
		}
	}
}

// AddIneq adds the inequality row[0] + Σ row[1+j]·x_j >= 0 and returns its
// constraint index.
func (t *Tableau) AddIneq(row []int64) int {
	u := t.addCon(row, false)
	if !t.empty && t.rows[t.unk[u].pos][1] < 0 && !t.restore(u, +1) {
		t.setEmpty()
	}
	return u - t.nVar
}

// AddEq adds the equality row[0] + Σ row[1+j]·x_j = 0 and returns its
// constraint index. The equality is added as an inequality, driven to zero,
// and its column is then killed.
func (t *Tableau) AddEq(row []int64) int {
	u := t.addCon(row, true)
	con := u - t.nVar
	if t.empty {
		return con
	}
	r := t.unk[u].pos
	if t.rows[r][1] < 0 && !t.restore(u, +1) {
		t.setEmpty()
		return con
	}
	if t.unk[u].isRow && t.rows[t.unk[u].pos][1] > 0 && !t.restore(u, -1) {
		t.setEmpty()
		return con
	}
	if t.unk[u].isRow {
		// Value is zero: a degenerate pivot into any live column is free.
		r = t.unk[u].pos
		c := -1
		for j := range t.nVar {
			if !t.dead[j] && t.rows[r][2+j] != 0 {
				c = j
				break
			}
		}
		if c < 0 {
			// Identically zero given the other equalities: nothing to pin.
			t.unk[u].restricted = false
			return con
		}
		t.pivot(r, c)
	}
	t.dead[t.unk[u].pos] = true
	t.undo = append(t.undo, undoEntry{kind: undoKill, col: t.unk[u].pos})
	return con
}

func (t *Tableau) setEmpty() {
	t.empty = true
	t.undo = append(t.undo, undoEntry{kind: undoEmpty})
}

// addCon appends a restricted constraint row and logs it.
func (t *Tableau) addCon(row []int64, eq bool) int {
	u := t.appendRow(row, 1)
	t.unk[u].restricted = true
	t.unk[u].eq = eq
	t.nCon++
	t.undo = append(t.undo, undoEntry{kind: undoAdd})
	return u
}

// appendRow expresses the affine form sign·row (sign ±1) in terms of the
// current columns and appends it as a new (unrestricted) row unknown.
func (t *Tableau) appendRow(row []int64, sign int64) int {
	if len(row) != 1+t.nVar {
		panic(fmt.Sprintf("simplex: constraint of length %d over %d variables", len(row), t.nVar))
	}
	r := t.newRow()
	r[0], r[1] = 1, arith.Mul(sign, row[0])
	for v := range t.nVar {
		a := row[1+v]
		if a == 0 {
			continue
		}
		a = arith.Mul(sign, a)
		u := t.unk[v]
		if !u.isRow {
			r[2+u.pos] = arith.Add(r[2+u.pos], arith.Mul(a, r[0]))
			continue
		}
		// r += a·vr, over the common denominator lcm(r[0], vr[0]).
		vr := t.rows[u.pos]
		m1, m2 := int64(1), a
		if r[0] != vr[0] {
			l := arith.LCM(r[0], vr[0])
			m1, m2 = l/r[0], arith.Mul(a, l/vr[0])
		}
		lincomb(r, r, m1, -1, vr, m2, 0, t.scratch)
		t.budget.spendEntries(int64(len(r)))
	}
	u := len(t.unk)
	t.unk = append(t.unk, unknown{isRow: true, pos: len(t.rows)})
	t.rows = append(t.rows, r)
	t.rowVar = append(t.rowVar, u)
	return u
}

// newRow returns a zero row, reused or cut from the slab.
func (t *Tableau) newRow() []int64 {
	w := 2 + t.nVar
	if n := len(t.free); n > 0 {
		r := t.free[n-1]
		t.free = t.free[:n-1]
		clear(r)
		return r
	}
	if len(t.slab) < w {
		t.slab = make([]int64, 8*w)
	}
	r := t.slab[:w:w]
	t.slab = t.slab[w:]
	clear(r) // an arena's rows hold what their last tableau left
	return r
}

// Reserve makes room for n more constraints, sparing the reallocations
// of adding them one by one.
func (t *Tableau) Reserve(n int) {
	t.rows = slices.Grow(t.rows, n+1)
	t.rowVar = slices.Grow(t.rowVar, n+1)
	t.unk = slices.Grow(t.unk, n+1)
	t.undo = slices.Grow(t.undo, 2*n)
	if w := 2 + t.nVar; len(t.slab) < (n+1)*w {
		t.slab = make([]int64, (n+1)*w)
	}
}

// deleteRow removes row r, moving the last row into its place.
func (t *Tableau) deleteRow(r int) {
	last := len(t.rows) - 1
	t.free = append(t.free, t.rows[r])
	if r != last {
		t.rows[r] = t.rows[last]
		t.rowVar[r] = t.rowVar[last]
		t.unk[t.rowVar[r]].pos = r
	}
	t.rows = t.rows[:last]
	t.rowVar = t.rowVar[:last]
}

// removeLast removes the last unknown (a constraint or a temporary row). A
// column is first pivoted into a row so that the tableau stays feasible.
func (t *Tableau) removeLast() {
	u := len(t.unk) - 1
	if !t.unk[u].isRow {
		c := t.unk[u].pos
		p := t.blocking(c, +1, -1)
		if p < 0 {
			p = t.blocking(c, -1, -1)
		}
		if p < 0 {
			// No restricted row depends on this column: any row will do.
			for i, ri := range t.rows {
				if ri[2+c] != 0 {
					p = i
					break
				}
			}
		}
		if p < 0 {
			panic("simplex: internal error: removed column has no pivot row")
		}
		t.pivot(p, c)
	}
	t.deleteRow(t.unk[u].pos)
	t.unk = t.unk[:u]
}

// pivot exchanges the row unknown of row p with the column unknown of column
// c (rows[p][2+c] must be non-zero).
func (t *Tableau) pivot(p, c int) {
	t.budget.spend(1)
	t.budget.spendEntries(int64(len(t.rows)) * int64(t.nVar+2))
	rp := t.rows[p]
	d, k, a := rp[0], rp[1], rp[2+c]
	// row: u_p = (k + a·y_c + Σ a_j y_j)/d  ⇒  y_c = (d·u_p - k - Σ a_j y_j)/a
	rp[0] = a
	rp[1] = arith.Neg(k)
	for j := range t.nVar {
		if j != c {
			rp[2+j] = arith.Neg(rp[2+j])
		}
	}
	rp[2+c] = d
	if a < 0 {
		for j := range rp {
			rp[j] = arith.Neg(rp[j])
		}
	}
	arith.DivGCD(rp)
	e := rp[0]
	pBits := magBits(rp)
	for i, ri := range t.rows {
		b := ri[2+c]
		if i == p || b == 0 {
			continue
		}
		// u_i = (k_i + b·y_c + Σ b_j y_j)/d_i with y_c = (rp[1] + rp[2+c]·u_p + Σ rp[2+j] y_j)/e,
		// so row i becomes e·row_i + b·rp, except that the denominator is
		// d_i·e and the entry of column c (now u_p) is b·rp[2+c].
		// Both multipliers can be divided by their gcd: the row is a
		// fraction, only the ratio of its entries matters.
		g := arith.GCD(e, b)
		lincombY(ri, ri, e/g, 2+c, rp, b/g, 0, t.scratch, pBits)
	}
	up, uc := t.rowVar[p], t.colVar[c]
	t.rowVar[p], t.colVar[c] = uc, up
	t.unk[up] = unknown{isRow: false, pos: c, restricted: t.unk[up].restricted, eq: t.unk[up].eq}
	t.unk[uc] = unknown{isRow: true, pos: p, restricted: t.unk[uc].restricted, eq: t.unk[uc].eq}
}

// enter picks the entering column to move row r in direction dir (+1 up, -1
// down): the live column of smallest unknown index whose movement in an
// allowed direction changes row r that way. It returns the column and the
// direction the column unknown moves in, or c = -1 when none exists (row r is
// then at its extreme in direction dir).
func (t *Tableau) enter(r, dir int) (c, cdir int) {
	c = -1
	row := t.rows[r]
	for j := range t.nVar {
		a := row[2+j]
		if a == 0 || t.dead[j] {
			continue
		}
		s := dir
		if a < 0 {
			s = -dir
		}
		if s < 0 && t.unk[t.colVar[j]].restricted {
			continue
		}
		if c < 0 || t.colVar[j] < t.colVar[c] {
			c, cdir = j, s
		}
	}
	return c, cdir
}

// blocking is the ratio test: the restricted row (other than skip) that
// first reaches zero when column c moves in direction dir, or -1 if none
// limits the movement. Ties go to the smallest unknown index (Bland).
func (t *Tableau) blocking(c, dir, skip int) int {
	best := -1
	for i, ri := range t.rows {
		a := ri[2+c]
		if i == skip || a == 0 || (a > 0) == (dir > 0) || !t.unk[t.rowVar[i]].restricted {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		cmp := cmpRatio(ri[1], a, t.rows[best][1], t.rows[best][2+c])
		if cmp < 0 || (cmp == 0 && t.rowVar[i] < t.rowVar[best]) {
			best = i
		}
	}
	return best
}

// cmpRatio compares |k1/a1| with |k2/a2| exactly (a1, a2 non-zero).
func cmpRatio(k1, a1, k2, a2 int64) int {
	h1, l1 := bits.Mul64(arith.Abs(k1), arith.Abs(a2))
	h2, l2 := bits.Mul64(arith.Abs(k2), arith.Abs(a1))
	switch {
	case h1 != h2:
		if h1 < h2 {
			return -1
		}
		return 1
	case l1 != l2:
		if l1 < l2 {
			return -1
		}
		return 1
	}
	return 0
}

// restore drives row unknown u towards zero in direction dir (+1: from a
// negative value up, -1: from a positive value down) while keeping every
// other restricted unknown non-negative. When u reaches zero it is pivoted
// into a column. It returns false if zero cannot be reached (u's extreme in
// direction dir has the wrong sign).
func (t *Tableau) restore(u, dir int) bool {
	for t.unk[u].isRow {
		r := t.unk[u].pos
		k := t.rows[r][1]
		if k == 0 || (k > 0) == (dir > 0) {
			return true
		}
		c, cdir := t.enter(r, dir)
		if c < 0 {
			return false
		}
		p := t.blocking(c, cdir, r)
		if p < 0 || cmpRatio(k, t.rows[r][2+c], t.rows[p][1], t.rows[p][2+c]) <= 0 {
			t.pivot(r, c)
			return true
		}
		t.pivot(p, c)
	}
	return true
}

// maximize pivots until row unknown u is maximal; it returns false if u is
// unbounded above. u must be a row and is never pivoted out.
func (t *Tableau) maximize(u int) bool {
	for {
		r := t.unk[u].pos
		c, cdir := t.enter(r, +1)
		if c < 0 {
			return true
		}
		p := t.blocking(c, cdir, r)
		if p < 0 {
			return false
		}
		t.pivot(p, c)
	}
}
