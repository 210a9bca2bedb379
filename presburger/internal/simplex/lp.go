package simplex

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// Status is the outcome of an optimisation.
type Status int

const (
	// Optimal: the optimum is attained and returned exactly.
	Optimal Status = iota
	// Unbounded: the objective is unbounded in the requested direction.
	Unbounded
	// Infeasible: the constraints have no rational solution.
	Infeasible
)

func (s Status) String() string {
	switch s {
	case Optimal:
		return "Optimal"
	case Unbounded:
		return "Unbounded"
	case Infeasible:
		return "Infeasible"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Max returns the maximum of the affine objective obj (row format, constant
// first) over the rational points of the tableau, as the exact fraction
// num/den with den > 0 in lowest terms.
func (t *Tableau) Max(obj []int64) (num, den int64, st Status) {
	num, den, st, _ = t.optimum(obj, 1, -1)
	return num, den, st
}

// Min returns the minimum of obj; see Max.
func (t *Tableau) Min(obj []int64) (num, den int64, st Status) {
	num, den, st, _ = t.optimum(obj, -1, -1)
	if st == Optimal {
		num = arith.Neg(num)
	}
	return num, den, st
}

// maxDual is Max that also returns, for the equality constraint con (or -1),
// the coefficient of its killed column in the optimal objective row: the
// rate at which the optimum grows with the equality's value (its dual value,
// used by basis reduction). It is 0 when con pins nothing.
func (t *Tableau) maxDual(obj []int64, con int) (num, den int64, st Status, dual [2]int64) {
	return t.optimum(obj, 1, con)
}

// optimum is maxDual for the objective sign·obj (sign ±1).
func (t *Tableau) optimum(obj []int64, sign int64, con int) (num, den int64, st Status, dual [2]int64) {
	dual = [2]int64{0, 1}
	if t.empty {
		return 0, 0, Infeasible, dual
	}
	u := t.appendRow(obj, sign)
	bounded := t.maximize(u)
	row := t.rows[t.unk[u].pos]
	num, den = row[1], row[0]
	if con >= 0 {
		cu := t.unk[t.nVar+con]
		if !cu.isRow && t.dead[cu.pos] {
			dual = reduceFrac(row[2+cu.pos], row[0])
		}
	}
	t.removeLast()
	if !bounded {
		return 0, 0, Unbounded, dual
	}
	f := reduceFrac(num, den)
	return f[0], f[1], Optimal, dual
}

// reduceFrac returns n/d (d > 0) in lowest terms.
func reduceFrac(n, d int64) [2]int64 {
	if g := arith.GCD(n, d); g > 1 {
		n, d = n/g, d/g
	}
	return [2]int64{n, d}
}

// RationalSample returns a rational point of the tableau as numerators over a
// common positive denominator, or nil when the tableau is empty.
func (t *Tableau) RationalSample() (num []int64, den int64) {
	if t.empty {
		return nil, 0
	}
	den = 1
	for v := range t.nVar {
		if u := t.unk[v]; u.isRow {
			den = arith.LCM(den, t.rows[u.pos][0])
		}
	}
	num = make([]int64, t.nVar)
	for v := range t.nVar {
		if u := t.unk[v]; u.isRow {
			r := t.rows[u.pos]
			num[v] = arith.Mul(r[1], den/r[0])
		}
	}
	return num, den
}

// IsImplicitEquality reports whether inequality con holds with equality at
// every rational point of the tableau. Equalities report true. It reports
// false on an empty tableau (check Empty first).
func (t *Tableau) IsImplicitEquality(con int) bool {
	u := t.conUnknown(con)
	if t.empty {
		return false
	}
	if t.unk[u].eq {
		return true
	}
	if !t.unk[u].isRow {
		// A column is at zero: can it increase at all?
		c := t.unk[u].pos
		p := t.blocking(c, +1, -1)
		if p < 0 || t.rows[p][1] > 0 {
			return false
		}
		t.pivot(p, c)
	}
	for {
		r := t.unk[u].pos
		if t.rows[r][1] > 0 {
			return false
		}
		c, cdir := t.enter(r, +1)
		if c < 0 {
			return true
		}
		p := t.blocking(c, cdir, r)
		if p < 0 || t.rows[p][1] > 0 {
			return false
		}
		t.pivot(p, c) // degenerate: the sample stays put
	}
}

// IsRedundant reports whether inequality con is implied (rationally) by the
// other constraints of the tableau. Equalities report false, and so does
// every constraint of an empty tableau (check Empty first).
func (t *Tableau) IsRedundant(con int) bool {
	u := t.conUnknown(con)
	if t.empty || t.unk[u].eq {
		return false
	}
	return t.redundant(u, false)
}

// DropIfRedundant reports whether inequality con is implied (rationally)
// by the other constraints of the tableau and, when it is, lifts it: it
// constrains nothing after, so that of two constraints that imply each
// other only the first tested is dropped. Equalities report false, and
// so does every constraint of an empty tableau.
func (t *Tableau) DropIfRedundant(con int) bool {
	u := t.conUnknown(con)
	if t.empty || t.unk[u].eq {
		return false
	}
	return t.redundant(u, true)
}

// redundant tests whether the restricted unknown u is implied by the other
// restricted unknowns by minimising it with its own restriction lifted. With
// drop set and a positive answer, u stays unrestricted: it no longer
// constrains anything (used by Reduce to remove constraints greedily).
func (t *Tableau) redundant(u int, drop bool) bool {
	t.unk[u].restricted = false
	red := t.minNonNeg(u)
	if red && drop {
		return true
	}
	t.unk[u].restricted = true
	if t.unk[u].isRow && t.rows[t.unk[u].pos][1] < 0 && !t.restore(u, +1) {
		panic("simplex: internal error: cannot restore a constraint after a redundancy test")
	}
	return red
}

// minNonNeg reports whether the minimum of the unrestricted unknown u is
// non-negative. It ends with u a row whenever it reports true.
func (t *Tableau) minNonNeg(u int) bool {
	if !t.unk[u].isRow {
		c := t.unk[u].pos
		p := t.blocking(c, -1, -1)
		if p < 0 || t.rows[p][1] > 0 {
			return false
		}
		t.pivot(p, c)
	}
	for {
		r := t.unk[u].pos
		k := t.rows[r][1]
		if k < 0 {
			return false
		}
		c, cdir := t.enter(r, -1)
		if c < 0 {
			return true
		}
		p := t.blocking(c, cdir, r)
		if p < 0 || (k == 0 && t.rows[p][1] > 0) {
			return false
		}
		t.pivot(p, c)
	}
}

func (t *Tableau) conUnknown(con int) int {
	if con < 0 || con >= t.nCon {
		panic(fmt.Sprintf("simplex: constraint index %d out of range [0,%d)", con, t.nCon))
	}
	return t.nVar + con
}

// newSystem builds a tableau from equalities and inequalities; it returns
// the tableau and the constraint index of each inequality.
func newSystem(eqs, ineqs [][]int64, nVar int, b *Budget) (*Tableau, []int) {
	t := NewTableau(nVar, b)
	t.Reserve(len(eqs) + len(ineqs))
	for _, e := range eqs {
		t.AddEq(e)
	}
	idx := make([]int, len(ineqs))
	for i, r := range ineqs {
		idx[i] = t.AddIneq(r)
	}
	return t, idx
}

// RationalEmpty reports whether the system has no rational solution.
func RationalEmpty(eqs, ineqs [][]int64, nVar int, b *Budget) bool {
	t, _ := newSystem(eqs, ineqs, nVar, b)
	empty := t.Empty()
	t.Release()
	return empty
}

// Reduce classifies the inequalities of a system. redundant[i] reports that
// inequality i is implied by the constraints that remain: inequalities are
// dropped greedily in order, so two constraints that imply each other are
// never both dropped; equalities are never dropped. implicitEq[i] reports
// that inequality i holds with equality on the whole (rational) set. When
// the system is rationally empty, empty is true and both slices are all
// false.
func Reduce(eqs, ineqs [][]int64, nVar int, b *Budget) (redundant, implicitEq []bool, empty bool) {
	redundant, implicitEq, t := ReduceTableau(eqs, ineqs, nVar, b)
	empty = t.Empty()
	t.Release()
	return redundant, implicitEq, empty
}

// ReduceTableau is Reduce that also returns the tableau it worked on, a
// tableau of the system (the redundant inequalities no longer restrict it,
// being implied), so that a caller needing one need not build it again.
func ReduceTableau(eqs, ineqs [][]int64, nVar int, b *Budget) (redundant, implicitEq []bool, t *Tableau) {
	t, idx := newSystem(eqs, ineqs, nVar, b)
	redundant = make([]bool, len(ineqs))
	implicitEq = make([]bool, len(ineqs))
	if t.Empty() {
		return redundant, implicitEq, t
	}
	for i, con := range idx {
		implicitEq[i] = t.IsImplicitEquality(con)
	}
	for i, con := range idx {
		redundant[i] = t.redundant(t.nVar+con, true)
	}
	return redundant, implicitEq, t
}
