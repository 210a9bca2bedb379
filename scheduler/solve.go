package scheduler

import (
	"errors"
	"math"
	"sort"

	"github.com/tilefuse/tilefuse/presburger"
)

// problem describes one integer program of a group.
type problem struct {
	group []int
	edges []*edge
	// unbounded[k] leaves edge k out of the distance bound (it is carried
	// by an earlier member of the band); nil bounds every edge.
	unbounded []bool
	// zero asks for distance 0 on every edge instead of a bound.
	zero bool
	// anyPoint asks for feasibility only.
	anyPoint bool
}

// solve builds and solves a problem. An int64 overflow or an exhausted
// budget (the far vertices of parametric domains give rows with large
// coefficients, and long chains of statements multiply them; see
// workLimit) is retried with the ends of every uniform dependence
// (t = s + constant, a stencil's) sharing their linear part, which cancels
// those coefficients and shrinks the program; if that fails too, the
// problem is treated as infeasible, which only costs fusion or a band
// member, never legality, and over reports it. Programs with more than
// sharedFirst variables (long pipelines) are solved the other way round:
// shared linear parts first, the full problem when that is infeasible or
// overflows (not when it exceeds workLimit: the full problem is the same
// one with more variables, and would only spend another budget).
func (s *scheduler) solve(pb problem) (q *ilp, sol []int64, over bool, err error) {
	nvar := s.np + 1
	for _, i := range pb.group {
		nvar += s.stmts[i].dim + 1
	}
	shared := nvar > sharedFirst
	q, sol, err = s.solveOnce(pb, shared)
	if shared && errors.Is(err, presburger.ErrBudget) {
		return q, nil, true, nil
	}
	if tooBig(err) || (shared && err == nil && sol == nil) {
		q, sol, err = s.solveOnce(pb, !shared)
		if tooBig(err) {
			return q, nil, true, nil
		}
	}
	return q, sol, false, err
}

// sharedFirst is the size of program above which solve shares the linear
// parts of uniformly dependent statements first.
const sharedFirst = 160

func (s *scheduler) solveOnce(pb problem, sameLinear bool) (*ilp, []int64, error) {
	var alias map[int]int
	if sameLinear {
		alias = s.uniformClasses(pb.group, pb.edges)
	}
	nd := 0
	if s.opt.ParamShifts {
		nd = s.np
	}
	q := newILP(s.np, nd, s.stmts, pb.group, alias)
	for k, e := range pb.edges {
		c, err := s.coneOf(e)
		if err != nil {
			return q, nil, err
		}
		switch {
		case pb.zero:
			q.addZero(e, c)
		case pb.anyPoint:
			q.addLegal(e, c)
		default:
			q.addLegal(e, c)
			if pb.unbounded == nil || !pb.unbounded[k] {
				q.addBound(e, c)
			}
		}
	}
	for _, i := range pb.group {
		if !s.stmts[i].full() {
			q.addIndependence(i)
		}
	}
	sol, err := q.lazy(!pb.anyPoint, s)
	return q, sol, err
}

// uniformClasses maps each statement of group to the first statement of
// its class under the uniform edges.
func (s *scheduler) uniformClasses(group []int, edges []*edge) map[int]int {
	var uni []*edge
	for _, e := range edges {
		if e.uniform(s.stmts) {
			uni = append(uni, e)
		}
	}
	alias := map[int]int{}
	for _, part := range connected(group, uni) {
		for _, i := range part {
			alias[i] = part[0]
		}
	}
	return alias
}

func tooBig(err error) bool {
	return errors.Is(err, presburger.ErrOverflow) || errors.Is(err, presburger.ErrBudget)
}

// workLimit bounds the work of one integer program (one solveOnce, all
// its rounds together): simplex pivots and search steps weighted by the
// size of the program (variables times rows, about the entries a pivot
// updates), so that a program gets the same budget on every machine and
// run, and gives up after one to three seconds whatever its size.
// PolyBench's programs stay below 1/300 of it, the PolyMage pipelines'
// below 1/20 except under FuseMax, whose bands over a whole pyramid
// scale hyperplanes by 2 from level to level, so that the integer minimum
// of the distance bound lies far above the rational one: pyramid_blending
// needs about 70% of the limit, interpolate and local_laplacian
// exceed it and fall back (see nodeWith). A variable so that tests can
// lower it.
var workLimit int64 = 8_000_000_000

// lazy returns the lexicographically smallest solution (or, without
// lexmin, any solution), nil if there is none. For a lexmin the rows go
// to the library's integer lexmin (Set.LexMin's solver) a few at a time:
// the minimum of a subset of the rows is a lower bound, and when it
// satisfies all rows it is the minimum of all. Most rows never bind, and
// the solver's cost grows faster than linearly in the rows. A feasibility
// question gets all rows at once: an integer point is mostly a vertex, or
// a few branches away, and one search on the whole system costs less than
// rounds that each build a tableau anew. The rounds share one budget of
// workLimit; past it the result is presburger.ErrBudget.
func (q *ilp) lazy(lexmin bool, s *scheduler) ([]int64, error) {
	// prune compares every pair of rows, a word of each per 64 columns.
	s.spend(int64(len(q.ineqs)) * int64(len(q.ineqs)) * int64(q.nvar/64+1))
	rows := prune(q.ineqs)
	size := int64(q.nvar) * int64(len(rows)+len(q.eqs))
	work := &presburger.RowsWork{Ops: max(workLimit/size, 1)}
	var active [][]int64
	var rest [][]int64
	for _, r := range rows {
		// all rows for a sample; bounds and the non-trivial (independence)
		// rows first for a lexmin
		if !lexmin || isUnit(r) || r[0] < 0 {
			active = append(active, r)
		} else {
			rest = append(rest, r)
		}
	}
	for {
		var pt []int64
		var err error
		work.Entries = s.work.Entries
		if lexmin {
			var ok bool
			if pt, ok, err = presburger.LexMinRowsWithin(work, q.nvar, q.eqs, active); !ok {
				pt = nil
			}
		} else {
			pt, err = presburger.IntegerSampleRowsWithin(work, q.nvar, q.eqs, active)
		}
		s.work.Entries = work.Entries
		s.checkWork()
		if err != nil || pt == nil {
			return nil, err
		}
		// Add the most violated rows (by distance to the point), a bounded
		// number at a time: most rows never bind, and the rows with large
		// coefficients that a polyhedron's far vertices give make a
		// tableau's entries grow.
		type viol struct {
			at  int
			how float64
		}
		var vs []viol
		for i, r := range rest {
			if v := evalRow(r, pt); v < 0 {
				vs = append(vs, viol{i, float64(-v) / norm(r)})
			}
		}
		if len(vs) == 0 {
			return pt, nil
		}
		sort.Slice(vs, func(a, b int) bool { return vs[a].how > vs[b].how })
		take := map[int]bool{}
		for _, v := range vs[:min(len(vs), max(8, q.nvar/8))] {
			take[v.at] = true
			active = append(active, rest[v.at])
		}
		left := rest[:0:0]
		for i, r := range rest {
			if !take[i] {
				left = append(left, r)
			}
		}
		rest = left
	}
}

func norm(r []int64) float64 {
	var s float64
	for _, v := range r[1:] {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s)
}

// prune drops inequalities implied by another one and the non-negativity
// of the variables (which are never dropped): r is implied by t when
// r >= t entry by entry. A cheap mask test first: t must be negative
// wherever r is.
func prune(rows [][]int64) [][]int64 {
	words := (len(rows[0]) + 63) / 64
	neg := make([][]uint64, len(rows))
	for i, r := range rows {
		neg[i] = make([]uint64, words)
		for k, v := range r {
			if v < 0 {
				neg[i][k/64] |= 1 << (k % 64)
			}
		}
	}
	keep := make([]bool, len(rows))
	for i := range keep {
		keep[i] = true
	}
	for i, r := range rows {
		if isUnit(r) {
			continue
		}
	candidates:
		for j, t := range rows {
			if i == j || !keep[j] {
				continue
			}
			for w := range neg[i] {
				if neg[i][w]&^neg[j][w] != 0 {
					continue candidates
				}
			}
			if dominates(r, t) {
				keep[i] = false
				break
			}
		}
	}
	var out [][]int64
	for i, r := range rows {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}

// dominates reports r >= t entry by entry with r != t.
func dominates(r, t []int64) bool {
	diff := false
	for k := range r {
		if r[k] < t[k] {
			return false
		}
		diff = diff || r[k] != t[k]
	}
	return diff
}

func isUnit(r []int64) bool {
	if r[0] != 0 {
		return false
	}
	n := 0
	for _, v := range r[1:] {
		switch v {
		case 0:
		case 1:
			n++
		default:
			return false
		}
	}
	return n == 1
}

func evalRow(r, pt []int64) int64 {
	v := r[0]
	for j, x := range pt {
		v += r[1+j] * x
	}
	return v
}

func allNonNeg(r []int64) bool {
	for _, v := range r {
		if v < 0 {
			return false
		}
	}
	return true
}
