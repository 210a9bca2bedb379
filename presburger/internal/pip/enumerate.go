package pip

import (
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Gomory cuts are exact but can need long chains of cuts on thin
// polytopes, with denominators that outgrow int64. When that happens on a
// region with few parameter points, the region is solved point by point
// instead: each point is a piece of its own, and its optimum is found by
// bisection with exact integer feasibility tests.

// maxPoints bounds the parameter points of a region solved point by point.
const maxPoints = 64

// enumerate records one piece per parameter point of region c. It reports
// false, recording nothing, when the region is unbounded or too large.
func (s *solver) enumerate(c *context) (bool, error) {
	lo, hi, ok := c.paramBox()
	if !ok {
		return false, nil
	}
	n := int64(1)
	for i := range lo {
		n = arith.Mul(n, arith.Add(arith.Sub(hi[i], lo[i]), 1))
		if n > maxPoints {
			return false, nil
		}
	}
	var sol, empty []Piece
	p := slices.Clone(lo)
	for n > 0 {
		if c.contains(p) {
			x, feasible, err := s.pointLexMin(p)
			if err != nil {
				return false, err
			}
			pc := Piece{}
			for i, v := range p {
				e := make([]int64, 1+s.nParam)
				e[0], e[1+i] = arith.Neg(v), 1
				pc.Eqs = append(pc.Eqs, e)
			}
			if feasible {
				pc.Sol = make([][]int64, s.nOpt)
				for j, v := range x[:s.nOpt] {
					pc.Sol[j] = make([]int64, 1+s.nParam)
					pc.Sol[j][0] = v
				}
				sol = append(sol, pc)
			} else {
				empty = append(empty, pc)
			}
		}
		n--
		for i := range p {
			if p[i] < hi[i] {
				p[i]++
				break
			}
			p[i] = lo[i]
		}
	}
	s.sol = append(s.sol, sol...)
	s.empty = append(s.empty, empty...)
	return true, nil
}

// paramBox returns the integer bounding box of the region's parameters,
// or ok = false when it is unbounded.
func (c *context) paramBox() (lo, hi []int64, ok bool) {
	t := simplex.NewTableau(c.width()-1, c.b)
	for _, e := range c.eqs {
		t.AddEq(e)
	}
	for _, r := range append(slices.Clone(c.ineqs), c.divIneqs()...) {
		t.AddIneq(r)
	}
	if t.Empty() {
		return nil, nil, false
	}
	lo, hi = make([]int64, c.nParam), make([]int64, c.nParam)
	for i := range c.nParam {
		obj := make([]int64, c.width())
		obj[1+i] = 1
		num, den, st := t.Min(obj)
		if st != simplex.Optimal {
			return nil, nil, false
		}
		lo[i] = arith.CeilDiv(num, den)
		num, den, st = t.Max(obj)
		if st != simplex.Optimal {
			return nil, nil, false
		}
		hi[i] = arith.FloorDiv(num, den)
		if lo[i] > hi[i] {
			return nil, nil, false
		}
	}
	return lo, hi, true
}

// contains reports whether parameter point p lies in the region.
func (c *context) contains(p []int64) bool {
	pt := slices.Clone(p)
	for _, d := range c.divs {
		pt = append(pt, arith.FloorDiv(eval(d.Num, pt), d.Den))
	}
	for _, e := range c.eqs {
		if eval(e, pt) != 0 {
			return false
		}
	}
	for _, r := range c.ineqs {
		if eval(r, pt) < 0 {
			return false
		}
	}
	return true
}

// pointLexMin returns the lexicographic minimum of x for parameter point
// p: each optimised x_j in turn is minimised by bisection between its
// rational lower bound and the value at a known integer point, with exact
// integer feasibility tests, and then fixed; the existential ones keep the
// values of the last point found.
func (s *solver) pointLexMin(p []int64) (x []int64, ok bool, err error) {
	fix := func(rows [][]int64) [][]int64 {
		out := make([][]int64, len(rows))
		for i, r := range rows {
			out[i] = make([]int64, 1+s.nVar)
			out[i][0] = eval(r[:1+s.nParam], p)
			copy(out[i][1:], r[1+s.nParam:])
		}
		return out
	}
	eqs, ineqs := fix(s.eqs), fix(s.ineqs)
	pt, ok := simplex.IntegerSample(eqs, ineqs, s.nVar, s.b)
	if !ok {
		return nil, false, nil
	}
	for j := range s.nOpt {
		t := simplex.NewTableau(s.nVar, s.b)
		for _, e := range eqs {
			t.AddEq(e)
		}
		for _, r := range ineqs {
			t.AddIneq(r)
		}
		obj := make([]int64, 1+s.nVar)
		obj[1+j] = 1
		num, den, st := t.Min(obj)
		if st == simplex.Unbounded {
			return nil, false, ErrUnbounded
		}
		lo, hi := arith.CeilDiv(num, den), pt[j]
		for lo < hi {
			mid := lo + (hi-lo)/2
			bound := make([]int64, 1+s.nVar) // x_j <= mid
			bound[0], bound[1+j] = mid, -1
			if q, ok := simplex.IntegerSample(eqs, append(slices.Clone(ineqs), bound), s.nVar, s.b); ok {
				pt, hi = q, q[j]
			} else {
				lo = mid + 1
			}
		}
		e := make([]int64, 1+s.nVar) // x_j = hi
		e[0], e[1+j] = arith.Neg(hi), 1
		eqs = append(eqs, e)
	}
	return pt, true, nil
}
