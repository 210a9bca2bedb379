package presburger

import (
	"errors"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// ErrInfinite is returned by Count for a set with infinitely many points.
var ErrInfinite = errors.New("presburger: set has infinitely many points")

// ErrParametric is returned by Count for a set with parameters.
var ErrParametric = errors.New("presburger: set has parameters")

// countNodeBudget caps the enumeration nodes of one Count call.
const countNodeBudget = 20_000_000

// Count returns the exact number of integer points of a bounded,
// parameter-free set. The disjuncts are first given explicit local
// definitions and made disjoint by subtraction (so that every point is
// counted once, and a point with its locals once), then each is enumerated
// with one simplex tableau: locals first, then the dimensions, each over the
// integers between its rational minimum and maximum given the values fixed so
// far (snapshot and rollback), and the last column counted as an interval,
// since for fixed other columns its values form one. The work is
// proportional to the number of points divided by the extent of the last
// dimension; it is capped (ErrBudget). A set with parameters gives
// ErrParametric, an infinite one ErrInfinite.
func (s Set) Count() (n int64, err error) {
	defer catch(&err)
	bud := newBudget()
	if s.r.with(bud).space.NParam() > 0 {
		return 0, ErrParametric
	}
	return s.r.with(bud).count(countNodeBudget), nil
}

// CountWithin is Count with at most maxNodes enumeration nodes (about the
// points over the extent of the last dimension, more where locals stride
// it): past them it returns ErrBudget, so a caller that only needs small
// counts pays little for large sets.
func (s Set) CountWithin(maxNodes int64) (n int64, err error) {
	defer catch(&err)
	bud := newBudget()
	if s.r.with(bud).space.NParam() > 0 {
		return 0, ErrParametric
	}
	return s.r.with(bud).count(min(maxNodes, countNodeBudget)), nil
}

// count returns the number of integer points of the parameter-free rel r,
// enumerating at most maxNodes nodes.
func (r rel) count(maxNodes int64) int64 {
	var pieces []*basic
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		pieces = append(pieces, b.knownDivs()...)
	}
	// Each subtraction costs pairCost operations: n disjuncts make n²/2
	// subtractions, which the budget bounds even where they never pivot
	// (points).
	bud := r.budget()
	var disjoint []*basic
	for k, p := range pieces {
		cur := []*basic{p}
		for _, q := range pieces[:k] {
			if bud != nil {
				bud.Spend(pairCost)
			}
			var next []*basic
			for _, c := range cur {
				next = append(next, subtractBasic(c, q)...)
			}
			cur = next
		}
		disjoint = append(disjoint, cur...)
	}
	budget := &simplex.Budget{Ops: 20 * simplex.DefaultBudget}
	nodes := maxNodes
	var total int64
	for _, p := range disjoint {
		if !p.allDivsKnown() {
			panic(internalError{ErrNoExplicitLocals})
		}
		total = arith.Add(total, countBasic(p, budget, &nodes))
	}
	return total
}

// countBasic counts the integer points of b, whose locals are all defined
// (so each point of the set has exactly one point in b's columns).
func countBasic(b *basic, budget *simplex.Budget, nodes *int64) int64 {
	if b.empty {
		return 0
	}
	n := b.nSolverVars()
	tab := simplex.NewTableau(n, budget)
	eqs, ineqs := b.system()
	for _, e := range eqs {
		tab.AddEq(e)
	}
	for _, in := range ineqs {
		tab.AddIneq(in)
	}
	if tab.Empty() {
		return 0
	}
	// Enumeration order: locals, then the variables.
	nv := b.nVar()
	var order []int
	for k := range b.divs {
		order = append(order, nv+k)
	}
	for v := 0; v < nv; v++ {
		order = append(order, v)
	}
	if len(order) == 0 {
		return 1
	}
	var fixed [][]int64
	var rec func(level int) int64
	rec = func(level int) int64 {
		if *nodes--; *nodes < 0 {
			panic(simplex.BudgetExceeded{})
		}
		v := order[level]
		obj := make([]int64, 1+n)
		obj[1+v] = 1
		lo, lden, st := tab.Min(obj)
		if st == simplex.Infeasible {
			return 0
		}
		hi, hden, st2 := tab.Max(obj)
		if st != simplex.Optimal || st2 != simplex.Optimal {
			if emptyWith(b, fixed) {
				return 0
			}
			panic(internalError{ErrInfinite})
		}
		l, h := arith.CeilDiv(lo, lden), arith.FloorDiv(hi, hden)
		if l > h {
			return 0
		}
		if level == len(order)-1 {
			return arith.Add(arith.Sub(h, l), 1)
		}
		var total int64
		for x := l; x <= h; x++ {
			snap := tab.Snapshot()
			row := append([]int64(nil), obj...)
			row[0] = arith.Neg(x)
			tab.AddEq(row)
			if !tab.Empty() {
				fixed = append(fixed, row)
				total = arith.Add(total, rec(level+1))
				fixed = fixed[:len(fixed)-1]
			}
			tab.Rollback(snap)
		}
		return total
	}
	return rec(0)
}

// emptyWith reports whether b with the extra equalities (over its solver
// columns) has no integer point.
func emptyWith(b *basic, extra [][]int64) bool {
	eqs, ineqs := b.system()
	eqs = append(append([][]int64(nil), eqs...), extra...)
	return simplex.IntegerEmpty(eqs, ineqs, b.nSolverVars(), b.solver())
}

// Count returns the total number of points of a union of bounded,
// parameter-free sets.
func (s UnionSet) Count() (n int64, err error) {
	for _, set := range s.Sets() {
		c, err := set.Count()
		if err != nil {
			return 0, err
		}
		n, err = addCount(n, c)
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

func addCount(a, b int64) (n int64, err error) {
	defer catch(&err)
	return arith.Add(a, b), nil
}
