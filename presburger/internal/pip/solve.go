package pip

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

type solver struct {
	nParam, nVar int
	nOpt         int       // the variables optimised: x_0..x_{nOpt-1}; the rest are existential
	nOptY        int       // the tableau variables y_0..y_{nOptY-1} they depend on
	eqs, ineqs   [][]int64 // the problem's constraints over [1, p, x]
	lat          lattice   // x in terms of the tableau's variables y
	conds        [][]int64 // conditions from compress, rows over [1, p, divs]
	b            *simplex.Budget
	sol, empty   []Piece
}

// solve runs the parametric dual simplex on t over region c, recursing
// where a row's sign depends on the parameters, and records a piece for
// every leaf region.
func (s *solver) solve(t *tab, c *context) (err error) {
	// Pieces before the mark cover parts of the entry region that c no
	// longer includes; those after it are partial results for c.
	nSol, nEmpty := len(s.sol), len(s.empty)
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, ok := r.(arith.Overflow); !ok {
			panic(r)
		}
		s.sol, s.empty = s.sol[:nSol], s.empty[:nEmpty]
		c.rat = nil // may hold a half-done update or a sub-search's rows
		ok, e := s.enumerate(c)
		if !ok && e == nil {
			panic(r)
		}
		err = e
	}()
	for {
		spend(s.b, 1)
		if t.large() {
			// Gomory cuts pile up denominators. A fresh tableau for the
			// current region usually needs far fewer; failing that,
			// solve a small region point by point.
			if c.restarts < maxRestarts {
				c.restarts++
				t = s.fresh(c)
			} else if ok, err := s.enumerate(c); ok || err != nil {
				return err
			}
		}
		r, st := violated(t, c)
		switch st {
		case negative:
			k := t.lexCol(r)
			if k < 0 {
				// Row r is negative and cannot grow: no point, even
				// rational, anywhere in the region.
				s.empty = append(s.empty, s.piece(c, nil))
				return nil
			}
			t.pivot(r, k)
			continue
		case mixed:
			aff := slices.Clone(t.constant(r))
			var snap simplex.Snapshot
			if c.rat != nil {
				snap = c.rat.Snapshot()
			}
			t2, c2 := t.clone(), c.clone()
			t2.applyElim(c2.restrict(aff))
			t2.known[r] = true
			if err := s.solve(t2, c2); err != nil {
				return err
			}
			if c.rat != nil {
				c.rat.Rollback(snap)
			}
			el := c.restrict(negMinus1(aff))
			nSol, nEmpty = len(s.sol), len(s.empty)
			t.applyElim(el)
			continue
		}
		if t.unboundedPrefix(s.nOptY) {
			// The rational optimum of an optimised variable decreases
			// with the big parameter: the region's rational sets are
			// unbounded in a lexicographically negative direction of the
			// optimised variables, and so is the integer set at every
			// parameter point where it is not empty (a rational
			// polyhedron with integer points has them along each of its
			// rays). Cuts would only chase the big parameter's
			// denominators.
			if !c.jointChecked {
				c.jointChecked = true
				if s.jointEmpty(c) {
					s.empty = append(s.empty, s.piece(c, nil))
					return nil
				}
			}
			return ErrUnbounded
		}
		if !t.integral() {
			// Gomory cuts can take long to prove that no integer point
			// exists; check that directly first, once per region.
			if !c.jointChecked {
				c.jointChecked = true
				if s.jointEmpty(c) {
					s.empty = append(s.empty, s.piece(c, nil))
					return nil
				}
			}
			// Leading variables are integral, a later one is not:
			// where no integer point has their values, cut them off.
			if s.cutPrefix(t, c) {
				continue
			}
			if els := c.detectEqs(); len(els) > 0 {
				for _, el := range els {
					t.applyElim(el)
				}
				continue
			}
			if c.nested() && !c.enumTried {
				// Cuts have begun to nest divs: a chain may follow,
				// with results too intricate for the set operations
				// that use them. A region with few parameter points is
				// better solved point by point.
				c.enumTried = true
				if ok, err := s.enumerate(c); ok || err != nil {
					return err
				}
			}
			s.cut(t, c)
			continue
		}
		return s.emit(t, c)
	}
}

type sign int

const (
	nonNeg sign = iota
	negative
	mixed
)

// maxRestarts bounds the fresh starts along one path of the search.
const maxRestarts = 2

// fresh builds the initial tableau of the problem over region c.
func (s *solver) fresh(c *context) *tab {
	t := newTab(c.width()-1, s.lat.nY(), s.b)
	for _, r := range s.ineqs {
		ctx, vars := s.lat.substitute(r, s.nParam, c.width())
		t.appendRow(ctx, vars)
	}
	for _, r := range s.conds {
		t.appendRow(pad(r, c.width()), nil)
	}
	for i := range c.elims {
		t.applyElim(&c.elims[i])
	}
	return t
}

// violated returns a row to pivot on (st = negative), or else one whose
// sign varies over the region (st = mixed), or st = nonNeg when every row
// is non-negative on the whole region. A row that is never positive but
// negative somewhere is pivoted on even where it is zero (a degenerate
// pivot there, as in isl), which avoids needless splits; only when no
// pivot is possible must the zero part be split off, as it is feasible.
func violated(t *tab, c *context) (r int, st sign) {
	first := -1
	for i, row := range t.rows {
		if t.known[i] {
			continue
		}
		var sg sign
		switch {
		case row[1] > 0:
			sg = nonNeg
		case row[1] < 0:
			sg = negative
		default:
			sg = rowSign(t, c, i)
		}
		switch sg {
		case nonNeg:
			t.known[i] = true
		case negative:
			return i, negative
		case mixed:
			if first < 0 {
				first = i
			}
		}
	}
	if first >= 0 {
		return first, mixed
	}
	return -1, nonNeg
}

// rowSign classifies the constant of row i (without big parameter).
func rowSign(t *tab, c *context, i int) sign {
	aff := t.constant(i)
	if isConst(aff) {
		if aff[0] >= 0 {
			return nonNeg
		}
		return negative
	}
	switch {
	case !c.feasible(negMinus1(aff)):
		return nonNeg
	case c.feasible(minus1(aff)):
		return mixed
	case t.lexCol(i) >= 0:
		return negative
	case c.feasible(aff):
		return mixed
	}
	return negative
}

// emit records the solution piece of an optimal, integral tableau.
func (s *solver) emit(t *tab, c *context) error {
	if t.unboundedPrefix(s.nOptY) {
		return ErrUnbounded
	}
	varRow := t.varRows()
	sol := make([][]int64, s.nOptY)
	for j := range sol {
		row := t.rows[varRow[j]]
		cst := t.constant(varRow[j])
		sol[j] = make([]int64, len(cst))
		for k, x := range cst {
			if x%row[0] != 0 {
				panic(fmt.Sprintf("pip: internal error: non-integral solution row %v", row))
			}
			sol[j][k] = x / row[0]
		}
	}
	s.sol = append(s.sol, s.piece(c, s.lat.solution(sol, t.nCtx, s.nOpt)))
	return nil
}

// cutPrefix handles an optimum whose leading variables y_0..y_{j-1} have
// integral values v (on the whole region) while y_j does not. For
// k = 0, 1, ... it checks whether the region holds integer points with
// y_0..y_k = v_0..v_k. Where one does not, it cuts that prefix off and
// reports true: every integer point has (y_0..y_k) >lex v (the rational
// optimum bounds them lexicographically), so some non-basic column that
// moves one of y_0..y_k is positive, and being integral at integer
// points, at least 1; for k = 0 the cut is y_0 >= v_0 + 1. Without
// this, Gomory cuts from y_j can walk a thin slice (a strip of length N)
// a step at a time, splitting the region once per value of N. Prefixes
// found to hold points are remembered for the region.
func (s *solver) cutPrefix(t *tab, c *context) bool {
	varRow := t.varRows()
	var vals, eqs [][]int64
	for k := range t.nVar {
		i := varRow[k]
		if i < 0 {
			return false // y_k = -M: an unbounded existential
		}
		row := t.rows[i]
		if row[1] != row[0] || !integral(row[0], t.constant(i)) {
			return false
		}
		v := make([]int64, t.nCtx)
		for j, x := range t.constant(i) {
			v[j] = x / row[0]
		}
		vals = append(vals, v)
		eqs = append(eqs, s.lat.fixY(vals, c.width(), s.nVar))
		if k < len(c.prefixChecked) && slices.Equal(c.prefixChecked[k], v) {
			continue
		}
		if !s.jointEmpty(c, eqs...) {
			c.prefixChecked = append(c.prefixChecked[:k:k], v)
			c.jointChecked = true
			continue
		}
		spend(s.b, 1)
		cut := make([]int64, len(row))
		if k == 0 {
			// y_0 - v_0 = Σ a_l·col_l / d >= 1.
			cut[0] = row[0]
			cut[2] = arith.Neg(row[0])
			copy(cut[t.ai(0):], row[t.ai(0):])
			arith.DivGCD(cut)
		} else {
			cut[0] = 1
			cut[2] = -1
			for l := range t.nCol() {
				for _, j := range varRow[:k+1] {
					if t.rows[j][t.ai(l)] != 0 {
						cut[t.ai(l)] = 1
						break
					}
				}
			}
		}
		t.appendRaw(cut)
		return true
	}
	return false
}

// unboundedPrefix reports whether one of the variables y_0..y_{n-1}
// depends on the big parameter: y'_j = 0 as a column (y_j = -M), or a row
// whose M coefficient differs from its denominator (y_j = (m/d - 1)·M + ...).
func (t *tab) unboundedPrefix(n int) bool {
	varRow := t.varRows()
	for j := range n {
		i := varRow[j]
		if i < 0 || t.rows[i][1] != t.rows[i][0] {
			return true
		}
	}
	return false
}

func (s *solver) piece(c *context, sol [][]int64) Piece {
	p := Piece{
		Divs:  slices.Clone(c.divs),
		Eqs:   slices.Clone(c.eqs),
		Ineqs: slices.Clone(c.ineqs),
		Sol:   sol,
	}
	tidy(&p, s.nParam, s.b)
	return p
}
