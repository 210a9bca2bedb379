package presburger

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"tilefuse/presburger/internal/arith"
	"tilefuse/presburger/internal/pip"
	"tilefuse/presburger/internal/simplex"
)

// What an affine scheduler needs from the library: the constraints of a
// basic set or map as integer rows, sets and maps built from rows, and the
// Farkas coefficient set of a polyhedron (isl_set_coefficients).

// Constraints is one basic set or map as integer rows over the columns
// [1, params, in, out, locals] (NIn is 0 for a set): an equality row r
// means r·(1, x) = 0 and an inequality row r·(1, x) >= 0. The definitions
// of the locals (floor divisions) are included as inequalities, so the rows
// alone describe the basic set, with the locals existentially quantified.
type Constraints struct {
	NParam, NIn, NOut, NLocal int
	Eqs, Ineqs                [][]int64
}

// Constraints returns the rows of every non-empty basic set of s.
func (s Set) Constraints() []Constraints { return s.r.constraints() }

// Constraints returns the rows of every non-empty basic map of m.
func (m Map) Constraints() []Constraints { return m.r.constraints() }

func (r rel) constraints() []Constraints {
	var out []Constraints
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		eqs, ineqs := b.system()
		out = append(out, Constraints{
			NParam: b.nParam, NIn: b.nIn, NOut: b.nOut, NLocal: len(b.divs),
			Eqs: copyRows(eqs), Ineqs: copyRows(ineqs),
		})
	}
	return out
}

// SetFromConstraints returns the basic set of sp given by rows over
// [1, params, dims] (no locals).
func SetFromConstraints(sp Space, eqs, ineqs [][]int64) (Set, error) {
	if sp.IsMap || sp.IsParams {
		return Set{}, fmt.Errorf("presburger: SetFromConstraints: %s is not a set space", sp)
	}
	r, err := relFromRows(sp, eqs, ineqs)
	return Set{r}, err
}

// MapFromConstraints returns the basic map of sp given by rows over
// [1, params, in, out] (no locals).
func MapFromConstraints(sp Space, eqs, ineqs [][]int64) (Map, error) {
	if !sp.IsMap {
		return Map{}, fmt.Errorf("presburger: MapFromConstraints: %s is not a map space", sp)
	}
	r, err := relFromRows(sp, eqs, ineqs)
	return Map{r}, err
}

func relFromRows(sp Space, eqs, ineqs [][]int64) (res rel, err error) {
	defer catch(&err)
	b := newUniverse(sp.NParam(), sp.NIn(), sp.NOut())
	for _, rows := range [][][]int64{eqs, ineqs} {
		for _, row := range rows {
			if len(row) != b.nCol() {
				return rel{}, fmt.Errorf("presburger: constraint row of length %d in %s, want %d", len(row), sp, b.nCol())
			}
		}
	}
	b.eqs, b.ineqs = copyRows(eqs), copyRows(ineqs)
	return relFromBasic(sp, b.simplify()), nil
}

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
type RowsWork struct{ Ops int64 }

// budget returns the budget of one call within w (nil: the library's).
func (w *RowsWork) budget() *opBudget {
	b := newBudget()
	if w != nil && w.Ops < b.Ops {
		b.Ops = max(w.Ops, 0)
	}
	return b
}

// charge subtracts from w what b spent since it held initial.
func (w *RowsWork) charge(b *opBudget, initial int64) {
	if w != nil {
		w.Ops -= initial - b.Ops
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

// Coefficients returns the Farkas coefficient set of s (isl_set_coefficients):
// the vectors [c0, cp..., cx...] (constant, one per parameter, one per set
// dimension; a set without parameters) such that c0 + cp·p + cx·x >= 0 for
// every point (p, x) of s. Parameters are treated as variables.
//
// The set is computed for the rational relaxation of each basic set, with
// its locals projected out rationally (the local definitions are kept as
// constraints first): the relaxation is larger, so every vector returned is
// valid for s, though a vector valid only on the integer points may be
// missing. Integer-empty basic sets are skipped, so an empty s gives the
// universe. The result is a polyhedral cone, computed by eliminating the
// Farkas multipliers exactly over the rationals: Gaussian elimination on
// the equalities, then Fourier-Motzkin with Chernikov's rule and simplex
// redundancy removal.
func (s Set) Coefficients() (res Set, err error) {
	defer catch(&err)
	sp := s.r.space
	if sp.IsMap || sp.IsParams {
		return Set{}, fmt.Errorf("presburger: Coefficients of %s: want a set", sp)
	}
	bud := newBudget()
	nv := sp.NParam() + sp.NOut()
	names := make([]string, 1+nv)
	for i := range names {
		names[i] = "c" + strconv.Itoa(i)
	}
	out := SetSpace(nil, NewTuple("", names...))
	var eqs, ineqs [][]int64
	for _, b := range s.r.with(bud).parts {
		if b.isEmpty() {
			continue
		}
		e, in := b.coefficients()
		eqs, ineqs = append(eqs, e...), append(ineqs, in...)
	}
	eqs, ineqs = reduceCone(eqs, ineqs, 1+nv, &bud.Budget)
	c := newUniverse(0, 0, 1+nv)
	c.bud = bud
	c.eqs, c.ineqs = eqs, ineqs
	return Set{relFromBasic(out, c.simplify())}, nil
}

// Coefficients returns the coefficient set of the wrapped map: vectors
// [c0, cp..., cin..., cout...].
func (m Map) Coefficients() (Set, error) {
	w, err := m.Wrap()
	if err != nil {
		return Set{}, err
	}
	return w.Coefficients()
}

// coefficients computes the cone of b's rational relaxation, rows over
// [0, c0, c1..c_nVar] (homogeneous).
//
// Farkas: c0 + c·x >= 0 on {x : E x + e = 0, A x + a >= 0} (non-empty) iff
// c = Eᵀμ + Aᵀλ and c0 = λ0 + eᵀμ + aᵀλ for some μ, λ >= 0, λ0 >= 0. With
// λ0 eliminated at once that is a system over (c, μ, λ) whose projection
// onto c is the cone. Locals get no c: their columns only bind multipliers.
func (b *basic) coefficients() (eqs, ineqs [][]int64) {
	pe, pi := b.system()
	nx := b.nSolverVars()
	red, impl, _ := simplex.Reduce(pe, pi, nx, b.solver())
	pe = append([][]int64(nil), pe...)
	var keep [][]int64
	for i, row := range pi {
		switch {
		case impl[i]:
			pe = append(pe, row)
		case !red[i]:
			keep = append(keep, row)
		}
	}
	pi = keep
	nc := 1 + b.nVar()
	nm, nl := len(pe), len(pi)
	width := 1 + nc + nm + nl
	f := &fmSystem{nKeep: nc, bud: b.solver()}
	for j := 1; j <= nx; j++ {
		row := make([]int64, width)
		if j < nc {
			row[1+j] = 1
		}
		for l, e := range pe {
			row[1+nc+l] = arith.Neg(e[j])
		}
		for k, in := range pi {
			row[1+nc+nm+k] = arith.Neg(in[j])
		}
		f.eqs = append(f.eqs, row)
	}
	row := make([]int64, width)
	row[1] = 1
	for l, e := range pe {
		row[1+nc+l] = arith.Neg(e[0])
	}
	for k, in := range pi {
		row[1+nc+nm+k] = arith.Neg(in[0])
	}
	f.ineqs = append(f.ineqs, row)
	for k := range pi {
		row := make([]int64, width)
		row[1+nc+nm+k] = 1
		f.ineqs = append(f.ineqs, row)
	}
	f.eliminate()
	eqs, ineqs = make([][]int64, len(f.eqs)), make([][]int64, len(f.ineqs))
	for i, r := range f.eqs {
		eqs[i] = r[:1+nc]
	}
	for i, r := range f.ineqs {
		ineqs[i] = r[:1+nc]
	}
	return eqs, ineqs
}

// fmSystem is a homogeneous system over [0, kept..., eliminated...]; the
// columns after the first nKeep variables are projected out rationally.
type fmSystem struct {
	nKeep      int
	eqs, ineqs [][]int64
	hist       [][]uint64 // Chernikov histories of ineqs
	bud        *simplex.Budget
}

func (f *fmSystem) eliminate() {
	first := 1 + f.nKeep
	width := len(f.ineqs[0])
	// Gaussian elimination of the eliminated columns through the equalities.
	for {
		ei, col := -1, -1
		for i, e := range f.eqs {
			for j := first; j < width; j++ {
				if e[j] != 0 && (col < 0 || arith.AbsInt(e[j]) < arith.AbsInt(f.eqs[ei][col])) {
					ei, col = i, j
				}
			}
			if col >= 0 && arith.AbsInt(f.eqs[ei][col]) == 1 {
				break
			}
		}
		if ei < 0 {
			break
		}
		e := f.eqs[ei]
		f.eqs = append(f.eqs[:ei:ei], f.eqs[ei+1:]...)
		for i := range f.eqs {
			f.eqs[i] = combineOut(f.eqs[i], e, col)
		}
		for i := range f.ineqs {
			f.ineqs[i] = combineOut(f.ineqs[i], e, col)
		}
	}
	f.tidy()
	f.hist = make([][]uint64, len(f.ineqs))
	words := (len(f.ineqs) + 63) / 64
	for i := range f.ineqs {
		f.hist[i] = make([]uint64, words)
		f.hist[i][i/64] |= 1 << (i % 64)
	}
	// Fourier-Motzkin on what is left, cheapest column first.
	for done := 1; ; done++ {
		col, best := -1, 0
		for j := first; j < width; j++ {
			pos, neg := 0, 0
			for _, r := range f.ineqs {
				switch {
				case r[j] > 0:
					pos++
				case r[j] < 0:
					neg++
				}
			}
			if pos+neg == 0 {
				continue
			}
			if cost := pos*neg - pos - neg; col < 0 || cost < best {
				col, best = j, cost
			}
		}
		if col < 0 {
			return
		}
		f.fmStep(col, done)
		if len(f.ineqs) > 8*width {
			f.dropRedundant()
		}
	}
}

// combineOut eliminates column col from r with the equality e.
func combineOut(r, e []int64, col int) []int64 {
	if r[col] == 0 {
		return r
	}
	a, b := arith.AbsInt(e[col]), r[col]
	if e[col] < 0 {
		b = arith.Neg(b)
	}
	out := make([]int64, len(r))
	for j := range r {
		out[j] = arith.Sub(arith.Mul(a, r[j]), arith.Mul(b, e[j]))
	}
	return normalizeHom(out)
}

// fmStep eliminates column col; done is the number of columns eliminated
// by Fourier-Motzkin so far, this one included (Chernikov's bound).
func (f *fmSystem) fmStep(col, done int) {
	var pos, neg, rows [][]int64
	var posH, negH, hist [][]uint64
	for i, r := range f.ineqs {
		switch {
		case r[col] > 0:
			pos, posH = append(pos, r), append(posH, f.hist[i])
		case r[col] < 0:
			neg, negH = append(neg, r), append(negH, f.hist[i])
		default:
			rows, hist = append(rows, r), append(hist, f.hist[i])
		}
	}
	for i, p := range pos {
		for k, n := range neg {
			h := coeffOr(posH[i], negH[k])
			if coeffPop(h) > done+1 {
				continue
			}
			a, b := arith.Neg(n[col]), p[col]
			out := make([]int64, len(p))
			for j := range p {
				out[j] = arith.Add(arith.Mul(a, p[j]), arith.Mul(b, n[j]))
			}
			f.spend()
			rows, hist = append(rows, normalizeHom(out)), append(hist, h)
		}
	}
	f.ineqs, f.hist = rows, hist
	f.tidy()
}

// spend charges one combination to the operation budget.
func (f *fmSystem) spend() {
	if f.bud == nil {
		return
	}
	if f.bud.Ops--; f.bud.Ops < 0 {
		panic(simplex.BudgetExceeded{})
	}
}

// tidy drops zero and duplicate inequalities (keeping the shortest history).
func (f *fmSystem) tidy() {
	seen := map[string]int{}
	var rows [][]int64
	var hist [][]uint64
	for i, r := range f.ineqs {
		if arith.GCDVec(r) == 0 {
			continue
		}
		k := coeffKey(r)
		if at, ok := seen[k]; ok {
			if f.hist != nil && coeffPop(f.hist[i]) < coeffPop(hist[at]) {
				hist[at] = f.hist[i]
			}
			continue
		}
		seen[k] = len(rows)
		rows = append(rows, r)
		if f.hist != nil {
			hist = append(hist, f.hist[i])
		}
	}
	f.ineqs = rows
	if f.hist != nil {
		f.hist = hist
	}
}

// dropRedundant removes inequalities implied by the others (simplex).
func (f *fmSystem) dropRedundant() {
	n := len(f.ineqs[0]) - 1
	red, _, empty := simplex.Reduce(f.eqs, f.ineqs, n, f.bud)
	if empty {
		return
	}
	var rows [][]int64
	var hist [][]uint64
	for i, r := range f.ineqs {
		if !red[i] {
			rows, hist = append(rows, r), append(hist, f.hist[i])
		}
	}
	f.ineqs, f.hist = rows, hist
}

// reduceCone normalises, deduplicates and removes redundant rows of a
// homogeneous system over n variables.
func reduceCone(eqs, ineqs [][]int64, n int, bud *simplex.Budget) ([][]int64, [][]int64) {
	f := &fmSystem{eqs: eqs, ineqs: ineqs, bud: bud}
	for i := range f.ineqs {
		f.ineqs[i] = normalizeHom(f.ineqs[i])
	}
	f.tidy()
	if len(f.ineqs) == 0 {
		return f.eqs, nil
	}
	red, impl, empty := simplex.Reduce(f.eqs, f.ineqs, n, bud)
	if empty {
		return f.eqs, f.ineqs
	}
	out := append([][]int64(nil), f.eqs...)
	var keep [][]int64
	for i, r := range f.ineqs {
		switch {
		case impl[i]:
			out = append(out, r)
		case !red[i]:
			keep = append(keep, r)
		}
	}
	return out, keep
}

// normalizeHom divides a homogeneous row by the gcd of its entries.
func normalizeHom(r []int64) []int64 {
	if g := arith.GCDVec(r); g > 1 {
		for j := range r {
			r[j] /= g
		}
	}
	return r
}

func coeffKey(r []int64) string {
	var b strings.Builder
	for _, v := range r {
		b.WriteString(strconv.FormatInt(v, 10))
		b.WriteByte(',')
	}
	return b.String()
}

func coeffOr(a, b []uint64) []uint64 {
	out := make([]uint64, len(a))
	for i := range a {
		out[i] = a[i] | b[i]
	}
	return out
}

func coeffPop(h []uint64) int {
	n := 0
	for _, w := range h {
		n += bits.OnesCount64(w)
	}
	return n
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
