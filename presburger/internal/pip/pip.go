package pip

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Div is a floor division local of a piece's context:
// floor((Num · [1, p, earlier divs]) / Den), Den > 0.
type Div struct {
	Num []int64
	Den int64
}

// Piece is one region of the parameter space with its optimum.
type Piece struct {
	Divs       []Div     // new locals, each may use params and earlier divs
	Eqs, Ineqs [][]int64 // context constraints of this region over [1, p, divs]
	Sol        [][]int64 // Sol[j] is x_j = Sol[j] · [1, p, divs]; nil for an empty region
}

// ErrUnbounded is returned when the optimum does not exist because x is
// unbounded in the optimisation direction on some region.
var ErrUnbounded = errors.New("pip: lexicographic optimum is unbounded")

// LexMin returns the lexicographic minimum of x over the integer points of
// {x : eqs, ineqs} for every integer parameter value in the context: the
// pieces (pairwise disjoint regions) where a minimum exists, and the regions
// (as pieces with nil Sol) where the set is empty. Regions are exact (with
// divs), cover the whole context, and are pairwise disjoint.
//
// Rows of eqs and ineqs have length 1+nParam+nVar, context rows 1+nParam.
// It may panic with arith.Overflow or simplex.BudgetExceeded; a nil budget
// means simplex.DefaultBudget operations.
func LexMin(nParam, nVar int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) (sol, empty []Piece, err error) {
	return lexMin(nParam, nVar, nVar, 0, eqs, ineqs, ctxEqs, ctxIneqs, b)
}

// PartialLexMin is LexMin of the first nOpt variables only: the others are
// existentially quantified. Their values need only exist, they may be
// unbounded without making the optimum unbounded, and the pieces' Sol
// give the first nOpt variables. A region that needs more than MaxDivs
// divs ends the search with an arith.Overflow panic: the caller has
// other ways to the answer, and this one would take long to overflow.
func PartialLexMin(nParam, nVar, nOpt int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) (sol, empty []Piece, err error) {
	return lexMin(nParam, nVar, nOpt, MaxDivs, eqs, ineqs, ctxEqs, ctxIneqs, b)
}

// MaxDivs bounds the divs of a region of PartialLexMin and PartialLexMax.
// Cuts that keep adding divs are a chain that would end in an int64
// overflow, after integer searches over ever more columns that take
// seconds.
const MaxDivs = 8

// lexMin is LexMin of the first nOpt variables, with at most maxDivs divs
// in a region (0: no bound).
func lexMin(nParam, nVar, nOpt, maxDivs int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) (sol, empty []Piece, err error) {
	if b == nil {
		b = &simplex.Budget{Ops: simplex.DefaultBudget}
	}
	if nOpt < 0 || nOpt > nVar {
		panic(fmt.Sprintf("pip: %d optimised variables of %d", nOpt, nVar))
	}
	checkRows(eqs, 1+nParam+nVar)
	checkRows(ineqs, 1+nParam+nVar)
	checkRows(ctxEqs, 1+nParam)
	checkRows(ctxIneqs, 1+nParam)
	pt, ok := simplex.IntegerSample(ctxEqs, ctxIneqs, nParam, b)
	if !ok {
		return nil, nil, nil
	}
	c := &context{nParam: nParam, b: b, samples: [][]int64{pt}, maxDivs: maxDivs}
	for _, e := range ctxEqs {
		c.addEq(e)
	}
	for _, r := range ctxIneqs {
		c.ineqs = append(c.ineqs, normAff(r))
	}
	eqs, ineqs = implicitEqs(nParam, nVar, eqs, ineqs, ctxEqs, ctxIneqs, b)
	lat, conds := compress(nParam, nVar, eqs, c)
	s := &solver{nParam: nParam, nVar: nVar, nOpt: nOpt, nOptY: lat.prefix(nOpt),
		eqs: eqs, ineqs: ineqs, lat: lat, conds: conds, b: b}
	t := s.fresh(c)
	if err := s.solve(t, c); err != nil {
		return nil, nil, err
	}
	return s.sol, s.empty, nil
}

// implicitEqs tightens the inequalities over the integers (dividing by the
// gcd of the parameter and variable coefficients and flooring the
// constant) and moves those that hold with equality on the whole rational
// set, context included, to the equalities. Compress then solves them
// exactly; left as inequality pairs, Gomory cuts would have to discover the
// lattice they define, which on some parameter points takes a number of
// cuts that grows with the parameters, and never ends over an unbounded
// context.
func implicitEqs(nParam, nVar int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) ([][]int64, [][]int64) {
	eqs = slices.Clone(eqs)
	tight := make([][]int64, len(ineqs))
	for i, r := range ineqs {
		tight[i] = normAff(r)
	}
	t := simplex.NewTableau(nParam+nVar, b)
	for _, e := range ctxEqs {
		t.AddEq(pad(e, 1+nParam+nVar))
	}
	for _, r := range ctxIneqs {
		t.AddIneq(pad(r, 1+nParam+nVar))
	}
	for _, e := range eqs {
		t.AddEq(e)
	}
	idx := make([]int, len(tight))
	for i, r := range tight {
		idx[i] = t.AddIneq(r)
	}
	if t.Empty() {
		return eqs, tight // the search finds the whole context empty
	}
	var rest [][]int64
	for i, r := range tight {
		if t.IsImplicitEquality(idx[i]) {
			eqs = append(eqs, r)
		} else {
			rest = append(rest, r)
		}
	}
	return eqs, rest
}

// LexMax is LexMin for the lexicographic maximum (computed as -lexmin(-x)).
func LexMax(nParam, nVar int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) (sol, empty []Piece, err error) {
	return lexMax(nParam, nVar, nVar, 0, eqs, ineqs, ctxEqs, ctxIneqs, b)
}

// PartialLexMax is PartialLexMin for the lexicographic maximum.
func PartialLexMax(nParam, nVar, nOpt int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) (sol, empty []Piece, err error) {
	return lexMax(nParam, nVar, nOpt, MaxDivs, eqs, ineqs, ctxEqs, ctxIneqs, b)
}

func lexMax(nParam, nVar, nOpt, maxDivs int, eqs, ineqs, ctxEqs, ctxIneqs [][]int64, b *simplex.Budget) (sol, empty []Piece, err error) {
	neg := func(rows [][]int64) [][]int64 {
		out := make([][]int64, len(rows))
		for i, r := range rows {
			checkRows(rows[i:i+1], 1+nParam+nVar)
			out[i] = clone(r)
			for j := 1 + nParam; j < len(r); j++ {
				out[i][j] = arith.Neg(r[j])
			}
		}
		return out
	}
	sol, empty, err = lexMin(nParam, nVar, nOpt, maxDivs, neg(eqs), neg(ineqs), ctxEqs, ctxIneqs, b)
	for i := range sol {
		for _, r := range sol[i].Sol {
			for k := range r {
				r[k] = arith.Neg(r[k])
			}
		}
		canonDivs(&sol[i], nParam) // the preferred sign of the divs flipped
	}
	return sol, empty, err
}

// Eval computes the divs of the piece at the parameter point and reports
// whether the point lies in its region; x is the optimum there (nil for an
// empty region).
func (pc *Piece) Eval(params []int64) (x []int64, in bool) {
	pt := append([]int64(nil), params...)
	for _, d := range pc.Divs {
		pt = append(pt, arith.FloorDiv(eval(d.Num, pt), d.Den))
	}
	for _, e := range pc.Eqs {
		if eval(e, pt) != 0 {
			return nil, false
		}
	}
	for _, r := range pc.Ineqs {
		if eval(r, pt) < 0 {
			return nil, false
		}
	}
	if pc.Sol == nil {
		return nil, true
	}
	x = make([]int64, len(pc.Sol))
	for j, r := range pc.Sol {
		x[j] = eval(r, pt)
	}
	return x, true
}

func checkRows(rows [][]int64, n int) {
	for _, r := range rows {
		if len(r) != n {
			panic(fmt.Sprintf("pip: row of length %d, want %d", len(r), n))
		}
	}
}

func clone(r []int64) []int64 { return append([]int64(nil), r...) }
