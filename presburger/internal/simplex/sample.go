package simplex

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// IntegerSample returns an integer point satisfying all equalities and
// inequalities over nVar variables, or ok=false when there is none. The
// answer is exact for every input (bounded or not); it may panic with
// arith.Overflow or BudgetExceeded, never return a wrong answer.
//
// Method (as in isl): the equalities are solved over the integers into a
// lattice x = x0 + V·y; the inequalities, rewritten in y, are sampled by
// splitting off the bounded directions of their recession cone, which are
// searched exhaustively with basis reduction, while the remaining directions
// have a full-dimensional cone, where rounding a point of a tightened set
// always yields an integer point.
func IntegerSample(eqs, ineqs [][]int64, nVar int, b *Budget) (point []int64, ok bool) {
	b = orDefault(b)
	checkRows(eqs, nVar)
	checkRows(ineqs, nVar)
	x0, v, m, ok := solveEqs(eqs, nVar)
	if !ok {
		return nil, false
	}
	sys := make([][]int64, 0, len(ineqs))
	for _, r := range ineqs {
		sys = append(sys, affineSubst(r, x0, v, m))
	}
	sys, ok = tightenAll(sys)
	if !ok {
		return nil, false
	}
	y, ok := sampleIneqs(sys, m, b)
	if !ok {
		return nil, false
	}
	x := applyAffine(x0, v, y)
	if !satisfies(eqs, ineqs, x) {
		panic(fmt.Sprintf("simplex: internal error: integer sample %v violates the constraints", x))
	}
	return x, true
}

// IntegerEmpty reports whether the system has no integer solution.
func IntegerEmpty(eqs, ineqs [][]int64, nVar int, b *Budget) bool {
	_, ok := IntegerSample(eqs, ineqs, nVar, b)
	return !ok
}

func checkRows(rows [][]int64, nVar int) {
	for _, r := range rows {
		if len(r) != 1+nVar {
			panic(fmt.Sprintf("simplex: constraint of length %d over %d variables", len(r), nVar))
		}
	}
}

// sampleIneqs samples a tightened inequality system over n variables.
func sampleIneqs(sys [][]int64, n int, b *Budget) ([]int64, bool) {
	if n == 0 {
		return []int64{}, true
	}
	if n == 1 {
		return sample1(sys)
	}
	t, _ := newSystem(nil, sys, n, b)
	defer t.Release()
	if t.Empty() {
		return nil, false
	}
	if x, ok := integralSample(t); ok {
		return x, true
	}
	cone := coneEqualities(sys, n, b)
	u := identity(n)
	k := 0
	for _, row := range cone {
		if columnReduce(affineSubst(row, nil, u, n)[1:], k, u) {
			k++
		}
	}
	switch k {
	case n:
		return searchBounded(sys, n, b)
	case 0:
		return sampleFullCone(sys, n, b)
	}
	// In z = U⁻¹x the cone lies in z_0 = .. = z_{k-1} = 0. The rows free of
	// the last n-k coordinates describe the projection onto the first k,
	// which is bounded; any integer point of it extends to the whole set,
	// whose slice then has a full-dimensional recession cone.
	var head, all [][]int64
	for _, r := range sys {
		z := affineSubst(r, nil, u, n)
		all = append(all, z)
		if isZero(z[1+k:]) {
			head = append(head, z[:1+k])
		}
	}
	zh, ok := searchBounded(head, k, b)
	if !ok {
		return nil, false
	}
	var tail [][]int64
	for _, z := range all {
		r := make([]int64, 1+n-k)
		r[0] = eval(z[:1+k], zh)
		copy(r[1:], z[1+k:])
		tail = append(tail, r)
	}
	tail, ok = tightenAll(tail)
	if !ok {
		panic("simplex: internal error: bounded projection sample does not extend")
	}
	zt, ok := sampleFullCone(tail, n-k, b)
	if !ok {
		panic("simplex: internal error: full-dimensional cone without integer point")
	}
	return applyAffine(nil, u, append(zh, zt...)), true
}

func isZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// IntegralSample returns the tableau's current sample point (a point of
// every constraint) when it is integral: a cheap integer point, found
// before any search, often enough to show that a set is not empty.
func (t *Tableau) IntegralSample() ([]int64, bool) { return integralSample(t) }

// SampleVar returns the value of variable v at the tableau's current sample
// point as num/den, den > 0 (the tableau must not be empty).
func (t *Tableau) SampleVar(v int) (num, den int64) {
	if u := t.unk[v]; u.isRow {
		r := t.rows[u.pos]
		return r[1], r[0]
	}
	return 0, 1
}

// integralSample returns the tableau's sample point if it is integral.
// (Row by row: a common denominator could overflow for no reason.)
func integralSample(t *Tableau) ([]int64, bool) {
	if t.empty {
		return nil, false
	}
	x := make([]int64, t.nVar)
	for v := range t.nVar {
		if u := t.unk[v]; u.isRow {
			r := t.rows[u.pos]
			if r[1]%r[0] != 0 {
				return nil, false
			}
			x[v] = r[1] / r[0]
		}
	}
	return x, true
}

// coneEqualities returns the coefficient rows (constant 0) of the implicit
// equalities of the recession cone {x : A·x >= 0} of the system.
func coneEqualities(sys [][]int64, n int, b *Budget) [][]int64 {
	t := NewTableau(n, b)
	defer t.Release()
	rows := make([][]int64, len(sys))
	for i, r := range sys {
		rows[i] = make([]int64, len(r))
		copy(rows[i][1:], r[1:])
		t.AddIneq(rows[i])
	}
	var eqs [][]int64
	for i := range rows {
		if t.IsImplicitEquality(i) {
			eqs = append(eqs, rows[i])
		}
	}
	return eqs
}

// sampleFullCone samples a rationally non-empty system whose recession cone
// is full-dimensional. Each row c + a·x >= 0 is tightened to
// c + Σ_j min(a_j, 0) + a·x >= 0: for any x in the tightened set, ceil(x)
// satisfies the original row (ceil(x) - x is in [0,1)^n). The tightened set
// is non-empty since it contains x + t·d for an interior cone direction d
// and t large.
func sampleFullCone(sys [][]int64, n int, b *Budget) ([]int64, bool) {
	t := NewTableau(n, b)
	for _, r := range sys {
		tr := make([]int64, len(r))
		copy(tr, r)
		for _, a := range r[1:] {
			if a < 0 {
				tr[0] = arith.Add(tr[0], a)
			}
		}
		t.AddIneq(tr)
	}
	if t.Empty() {
		return nil, false
	}
	x := make([]int64, n)
	for v := range x {
		if u := t.unk[v]; u.isRow {
			x[v] = arith.CeilDiv(t.rows[u.pos][1], t.rows[u.pos][0])
		}
	}
	if !satisfies(nil, sys, x) {
		panic(fmt.Sprintf("simplex: internal error: rounded cone sample %v violates the constraints", x))
	}
	return x, true
}

// sample1 samples a one-variable system directly from its bounds.
func sample1(sys [][]int64) ([]int64, bool) {
	lo, hi, okLo, okHi := int64(0), int64(0), false, false
	for _, r := range sys {
		c, a := r[0], r[1]
		switch {
		case a > 0: // x >= ceil(-c/a)
			l := arith.CeilDiv(arith.Neg(c), a)
			if !okLo || l > lo {
				lo, okLo = l, true
			}
		case a < 0: // x <= floor(c/-a)
			h := arith.FloorDiv(c, arith.Neg(a))
			if !okHi || h < hi {
				hi, okHi = h, true
			}
		case c < 0:
			return nil, false
		}
	}
	switch {
	case okLo && okHi && lo > hi:
		return nil, false
	case okLo:
		return []int64{lo}, true
	case okHi:
		return []int64{hi}, true
	}
	return []int64{0}, true
}

// searchBounded samples a bounded, tightened system over n variables
// exhaustively: it branches on the integer values of one direction (a
// coordinate of small range, or the first direction of a reduced basis) and
// recurses on the slices.
func searchBounded(sys [][]int64, n int, b *Budget) ([]int64, bool) {
	b.spend(1)
	if n == 0 {
		return []int64{}, true
	}
	if n == 1 {
		return sample1(sys)
	}
	t, _ := newSystem(nil, sys, n, b)
	defer t.Release()
	if t.Empty() {
		return nil, false
	}
	if x, ok := integralSample(t); ok {
		return x, true
	}
	// Branch on the coordinate with the fewest integer values when that is
	// small; otherwise switch to a reduced basis, whose first direction is
	// (close to) the thinnest one.
	obj := make([]int64, 1+n)
	best, bestLo, bestHi := -1, int64(0), int64(0)
	for j := range n {
		obj[1+j] = 1
		lo, hi := intRange(t, obj)
		obj[1+j] = 0
		if lo > hi {
			return nil, false
		}
		if best < 0 || arith.Sub(hi, lo) < arith.Sub(bestHi, bestLo) {
			best, bestLo, bestHi = j, lo, hi
		}
	}
	var binv [][]int64
	if useGBR && arith.Sub(bestHi, bestLo) >= 2 {
		if bas, inv, ok := tryReducedBasis(sys, n, b); ok {
			copy(obj[1:], bas[0])
			lo, hi := intRange(t, obj)
			if lo > hi {
				return nil, false
			}
			if arith.Sub(hi, lo) < arith.Sub(bestHi, bestLo) {
				binv, best, bestLo, bestHi = inv, 0, lo, hi
				z := make([][]int64, len(sys))
				for i, r := range sys {
					z[i] = affineSubst(r, nil, inv, n)
				}
				sys = z
			}
		}
	}
	for val := bestLo; ; val++ {
		if sub, ok := fixVar(sys, best, val); ok {
			if y, ok := searchBounded(sub, n-1, b); ok {
				z := make([]int64, 0, n)
				z = append(append(append(z, y[:best]...), val), y[best:]...)
				if binv != nil {
					z = applyAffine(nil, binv, z)
				}
				return z, true
			}
		}
		if val == bestHi { // not val++ past it: bestHi may be MaxInt64
			return nil, false
		}
	}
}

// intRange returns ceil(min obj) and floor(max obj) over the tableau, which
// must be bounded in both directions.
func intRange(t *Tableau, obj []int64) (lo, hi int64) {
	n, d, st := t.Min(obj)
	if st != Optimal {
		panic("simplex: internal error: bounded search on an unbounded set (" + st.String() + ")")
	}
	lo = arith.CeilDiv(n, d)
	n, d, st = t.Max(obj)
	if st != Optimal {
		panic("simplex: internal error: bounded search on an unbounded set (" + st.String() + ")")
	}
	return lo, arith.FloorDiv(n, d)
}
