package presburger

import (
	"errors"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/pip"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Integer lexicographic minimum and sampling of parameter-free systems
// given as rows (LexMinRows, IntegerSampleRows), without building a set:
// the integer programs of an affine scheduler, under a shared operation
// budget (RowsWork).

// LexMinRows returns the lexicographically smallest integer point of the
// parameter-free system {x in Z^n : eqs, ineqs} (rows over [1, x]), ok
// false when there is none: Set.LexMin of SetFromConstraints, without
// building and simplifying a set (quadratic in the rows). Branch and bound
// on one rational simplex tableau answers the common case with one linear
// program per variable, and integer sampling the variables where branch
// and bound gives up (see quickLexMin); when the rational minimum of a
// variable is unbounded, the parametric integer programming solver of
// Set.LexMin decides. A lexicographic minimum that does not exist gives
// ErrUnbounded.
func LexMinRows(n int, eqs, ineqs [][]int64) (pt []int64, ok bool, err error) {
	return LexMinRowsWithin(nil, n, eqs, ineqs)
}

// RowsWork bounds the work of the LexMinRowsWithin and
// IntegerSampleRowsWithin calls that share it: Ops is the number of
// simplex pivots and search steps they may still spend (the library's
// Limits bound each call too). Each call subtracts what it spent; one that
// needs more than is left returns ErrBudget. The count depends on the
// calls only, never on the machine or the time taken.
//
// Entries, when non-zero, caps the tableau entries the calls' pivots update
// (each pivot costs its rows times its columns: a measure of the time taken
// that, like Ops, depends on the calls only); each call subtracts what it
// updated, and one that needs more than is left returns ErrBudget, leaving
// Entries negative. Zero is no cap.
type RowsWork struct{ Ops, Entries int64 }

// budget returns the budget of one call within w (nil: the library's).
func (w *RowsWork) budget() *opBudget {
	b := newBudget()
	if w != nil && w.Ops < b.Ops {
		b.Ops = max(w.Ops, 0)
	}
	if w != nil && w.Entries != 0 {
		b.CapEntries, b.Entries = true, max(w.Entries, 0)
	}
	return b
}

// charge subtracts from w what b spent since it held initial operations
// (and w's entries).
func (w *RowsWork) charge(b *opBudget, initial int64) {
	if w != nil {
		w.Ops -= initial - b.Ops
		if b.CapEntries {
			w.Entries = b.Entries
			if w.Entries <= 0 {
				w.Entries = min(w.Entries, -1) // spent: never 0, no cap
			}
		}
	}
}

// LexMinRowsWithin is LexMinRows spending at most w's operations (nil:
// only the library's limit).
func LexMinRowsWithin(w *RowsWork, n int, eqs, ineqs [][]int64) (pt []int64, ok bool, err error) {
	defer catch(&err)
	bud := w.budget()
	defer w.charge(bud, bud.Ops)
	if pt, ok, empty := quickLexMin(n, eqs, ineqs, &bud.Budget, searchNodes, diveNodes); empty {
		return nil, false, nil
	} else if ok {
		return pt, true, nil
	}
	sol, _, err := pip.LexMin(0, n, eqs, ineqs, nil, nil, &bud.Budget)
	if errors.Is(err, pip.ErrUnbounded) {
		return nil, false, ErrUnbounded
	}
	if err != nil {
		return nil, false, err
	}
	for i := range sol {
		if x, in := sol[i].Eval(nil); in && x != nil {
			return x, true, nil
		}
	}
	return nil, false, nil
}

// searchNodes caps the branches of quickLexMin's branch and bound, over
// all variables; past it, a variable that the first linear program and
// the witness do not settle goes to searchMin. diveNodes caps the branches
// of one dive (of searchMin, and of IntegerSampleRows).
const (
	searchNodes = 100
	diveNodes   = 100
)

// quickLexMin computes the integer lexmin of a system by branch and bound
// on one simplex tableau (snapshots undo the branches): for k = 0, 1, ...
// the smallest integer value of x_k is found (the rational minimum, and
// where the optimal vertex is fractional, branching x_j <= floor or
// x_j >= ceil on its first fractional coordinate, pruning nodes whose
// rational minimum is no better than the best integer point so far), then
// x_k is fixed to it. Scheduling problems mostly have integral optimal
// vertices, so this is one linear program per variable. The best integer
// point found for x_k (the witness) is still an integer point once x_k is
// fixed: it is the incumbent of the next variables, and settles one at
// once when it takes the ceiling of its rational minimum. Where branch and
// bound needs more than maxNodes branches (depth-first search wanders
// through huge trees of fractional vertices when the integer minimum lies
// well above the rational one, as with chains of statements whose
// hyperplanes scale by 2 from one to the next: pyramids), searchMin finds
// the minimum of the variable by integer sampling instead (dives of at
// most maxDive branches, then simplex.IntegerSample). ok is false
// when it gives up (an unbounded rational minimum); empty reports a system
// without integer points.
func quickLexMin(n int, eqs, ineqs [][]int64, bud *simplex.Budget, maxNodes, maxDive int) (pt []int64, ok, empty bool) {
	t := simplex.NewTableau(n, bud)
	t.Reserve(len(eqs) + len(ineqs) + n)
	for _, e := range eqs {
		t.AddEq(e)
	}
	for _, r := range ineqs {
		t.AddIneq(r)
	}
	if t.Empty() {
		return nil, false, true
	}
	pt = make([]int64, n)
	nodes := 0
	var witness []int64 // an integer point with x_j = pt[j] for j < k, or nil
	for k := 0; k < n; k++ {
		w, abort, lower := minInteger(t, n, k, &nodes, maxNodes, witness)
		if abort && lower != nil {
			w, abort = searchMin(t, n, k, eqs, ineqs, pt[:k], *lower, w, bud, maxDive), false
		}
		switch {
		case abort:
			return nil, false, false
		case w == nil:
			return nil, true, true // at k = 0 only: later prefixes have witnesses
		}
		pt[k], witness = w[k], w
		row := make([]int64, 1+n)
		row[0], row[1+k] = arith.Neg(w[k]), 1
		t.AddEq(row)
	}
	return pt, true, false
}

// minInteger returns an integer point of the tableau where x_k is
// smallest (nil when there is none), leaving the tableau as it found it.
// witness, when not nil, is an integer point of the tableau. When it
// aborts, best is the best integer point found (or nil) and lower the
// ceiling of the rational minimum of x_k (nil if that is unbounded): the
// minimum lies between them.
func minInteger(t *simplex.Tableau, n, k int, nodes *int, maxNodes int, witness []int64) (best []int64, abort bool, lower *int64) {
	obj := make([]int64, 1+n)
	obj[1+k] = 1
	best = witness
	var visit func(depth int)
	visit = func(depth int) {
		if abort {
			return
		}
		if depth > 0 {
			if *nodes++; *nodes > maxNodes {
				abort = true
				return
			}
		}
		lo, den, st := t.Min(obj)
		switch st {
		case simplex.Infeasible:
			return
		case simplex.Unbounded:
			abort = true
			return
		}
		c := arith.CeilDiv(lo, den)
		if depth == 0 {
			lower = &c
		}
		if best != nil && c >= best[k] {
			return
		}
		if x, ok := t.IntegralSample(); ok {
			best = x
			return
		}
		for _, row := range branchRows(t, n) {
			snap := t.Snapshot()
			if t.AddIneq(row); !t.Empty() {
				visit(depth + 1)
			}
			t.Rollback(snap)
		}
	}
	visit(0)
	return best, abort, lower
}

// searchMin returns an integer point of {x : eqs, ineqs, x_j = prefix[j]
// for j < k}, which the tableau t holds, where x_k is smallest (nil when
// there is none), given lo, a lower bound of x_k, and hi, when not nil, an
// integer point of the set. Each step asks for an integer point with
// x_k <= m: first m = lo, where the minimum mostly is, then bisecting
// between lo and hi's x_k, a point found replacing hi and an empty answer
// raising lo above m. The question goes to dive on t (at most maxDive
// branches), which mostly finds a point at once or shows quickly that
// there is none, and when that gives up to simplex.IntegerSample (exact:
// equalities by Hermite normal form, then generalized basis reduction).
func searchMin(t *simplex.Tableau, n, k int, eqs, ineqs [][]int64, prefix []int64, lo int64, hi []int64, bud *simplex.Budget, maxDive int) []int64 {
	var fixed [][]int64
	sample := func(extra []int64) ([]int64, bool) {
		snap := t.Snapshot()
		if extra != nil {
			t.AddIneq(extra)
		}
		p, empty := dive(t, n, maxDive)
		t.Rollback(snap)
		if p != nil || empty {
			return p, p != nil
		}
		if fixed == nil {
			fixed = append([][]int64(nil), eqs...)
			for j, x := range prefix {
				row := make([]int64, 1+n)
				row[0], row[1+j] = arith.Neg(x), 1
				fixed = append(fixed, row)
			}
		}
		in := ineqs[:len(ineqs):len(ineqs)]
		if extra != nil {
			in = append(in, extra)
		}
		return simplex.IntegerSample(fixed, in, n, bud)
	}
	if hi == nil {
		p, ok := sample(nil)
		if !ok {
			return nil
		}
		hi = p
	}
	for m := lo; lo < hi[k]; m = arith.Add(lo, arith.Sub(hi[k], lo)/2) {
		row := make([]int64, 1+n)
		row[0], row[1+k] = m, -1 // x_k <= m
		if p, ok := sample(row); ok {
			hi = p
		} else {
			lo = arith.Add(m, 1)
		}
	}
	return hi
}

// dive looks for an integer point of the tableau by depth-first branch and
// bound without objective: the tableau's sample point where it is
// integral, else the branches x_j <= floor and x_j >= ceil on its first
// fractional coordinate. It leaves the tableau as it found it. pt is nil
// when it finds none: empty then reports that there is none (every branch
// infeasible); otherwise it gave up after maxNodes branches.
func dive(t *simplex.Tableau, n, maxNodes int) (pt []int64, empty bool) {
	nodes := 0
	abort := false
	var visit func() []int64
	visit = func() []int64 {
		if t.Empty() {
			return nil
		}
		if x, ok := t.IntegralSample(); ok {
			return x
		}
		if nodes++; nodes > maxNodes {
			abort = true
			return nil
		}
		for _, row := range branchRows(t, n) {
			snap := t.Snapshot()
			t.AddIneq(row)
			x := visit()
			t.Rollback(snap)
			if x != nil || abort {
				return x
			}
		}
		return nil
	}
	pt = visit()
	return pt, pt == nil && !abort
}

// IntegerSampleRows returns an integer point of the parameter-free system
// {x in Z^n : eqs, ineqs}, or nil when it has none: dive on one simplex
// tableau (scheduling problems mostly have an integral vertex at once, or
// one a few branches away), and when that gives up the library's integer
// sampling.
func IntegerSampleRows(n int, eqs, ineqs [][]int64) (pt []int64, err error) {
	return IntegerSampleRowsWithin(nil, n, eqs, ineqs)
}

// IntegerSampleRowsWithin is IntegerSampleRows spending at most w's
// operations (nil: only the library's limit).
func IntegerSampleRowsWithin(w *RowsWork, n int, eqs, ineqs [][]int64) (pt []int64, err error) {
	defer catch(&err)
	bud := w.budget()
	defer w.charge(bud, bud.Ops)
	t := simplex.NewTableau(n, &bud.Budget)
	t.Reserve(len(eqs) + len(ineqs) + n)
	for _, e := range eqs {
		t.AddEq(e)
	}
	for _, r := range ineqs {
		t.AddIneq(r)
	}
	if pt, empty := dive(t, n, diveNodes); pt != nil || empty {
		return pt, nil
	}
	pt, ok := simplex.IntegerSample(eqs, ineqs, n, &bud.Budget)
	if !ok {
		return nil, nil
	}
	return pt, nil
}

// branchRows returns the two branches on the first variable whose value in
// t's rational sample is fractional: x_j <= floor, then x_j >= ceil.
func branchRows(t *simplex.Tableau, n int) [2][]int64 {
	frac := -1
	for j := 0; j < n && frac < 0; j++ {
		if num, d := t.SampleVar(j); num%d != 0 {
			frac = j
		}
	}
	num, d := t.SampleVar(frac)
	down, up := make([]int64, 1+n), make([]int64, 1+n)
	down[0], down[1+frac] = arith.FloorDiv(num, d), -1
	up[0], up[1+frac] = arith.Neg(arith.CeilDiv(num, d)), 1
	return [2][]int64{down, up}
}
