package presburger

import (
	"errors"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// ErrBudget is returned when an operation exceeds its operation budget.
var ErrBudget = errors.New("presburger: operation budget exceeded")

// ErrOverflow is matched (errors.Is) by every int64 overflow error.
var ErrOverflow = errors.New("presburger: int64 overflow")

// ErrNoExplicitLocals is returned when an existential variable cannot be
// given an explicit floor definition (needed by subtraction and complement).
var ErrNoExplicitLocals = errors.New("presburger: cannot compute explicit definitions of existential variables")

// internalError carries a typed error through panics inside the package.
type internalError struct{ err error }

// catch recovers the package's internal panics into *err.
func catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	switch v := r.(type) {
	case arith.Overflow:
		*err = errors.Join(ErrOverflow, v)
	case simplex.BudgetExceeded:
		*err = ErrBudget
	case internalError:
		*err = v.err
	default:
		panic(r)
	}
}

// nSolverVars is the number of solver variables (all columns but the constant).
func (b *basic) nSolverVars() int { return b.nCol() - 1 }

// sample returns an integer point (all columns, constant first) or nil.
func (b *basic) sample() []int64 {
	if b.empty {
		return nil
	}
	eqs, ineqs := b.system()
	p, ok := simplex.IntegerSample(eqs, ineqs, b.nSolverVars(), b.solver())
	if !ok {
		return nil
	}
	return append([]int64{1}, p...)
}

// isEmpty decides integer emptiness exactly.
func (b *basic) isEmpty() bool {
	if b.empty {
		return true
	}
	eqs, ineqs := b.system()
	return simplex.IntegerEmpty(eqs, ineqs, b.nSolverVars(), b.solver())
}

// rationallyEmpty is the cheap test used to prune pieces.
func (b *basic) rationallyEmpty() bool {
	if b.empty {
		return true
	}
	eqs, ineqs := b.system()
	return simplex.RationalEmpty(eqs, ineqs, b.nSolverVars(), b.solver())
}

// reduce removes redundant inequalities and turns implicit equalities into
// equalities (rationally, with the simplex), then simplifies.
func (b *basic) reduce() *basic {
	b.reduceClean()
	return b
}

// reduceClean is reduce reporting whether it leaves b clean: no stored
// inequality redundant or an implicit equality. It does unless the final
// simplification changed b (tightening a row can make it so). tab is then
// the reduction's tableau, which is one of b (the redundant inequalities
// it still holds no longer restrict it), or nil when some inequality was
// an implicit equality (which it would leave unpinned).
func (b *basic) reduceClean() (clean bool, tab *simplex.Tableau) {
	b.simplify()
	if b.empty || len(b.ineqs) == 0 {
		return true, nil
	}
	eqs, ineqs := b.system()
	red, impl, tab := simplex.ReduceTableau(eqs, ineqs, b.nSolverVars(), b.solver())
	if tab.Empty() {
		b.empty = true
		b.simplify()
		return true, nil
	}
	if slices.Contains(impl, true) {
		tab = nil
	}
	// Only the stored inequalities (a prefix of ineqs) may be removed; the
	// local definitions after them stay implicit.
	var keep [][]int64
	for i, in := range b.ineqs {
		switch {
		case impl[i]:
			b.eqs = append(b.eqs, in)
		case !red[i]:
			keep = append(keep, in)
		}
	}
	b.ineqs = keep
	if b.simplified() {
		return false, nil
	}
	return true, tab
}

// knownDivs returns basics whose union equals b and in which every local has
// an explicit definition. An existential bounded below by a*e >= L_i (i =
// 1..n) takes the value max_i ceil(L_i/a_i) whenever any value fits, so b is
// the union over i of b with e defined as ceil(L_i/a_i).
func (b *basic) knownDivs() []*basic {
	start := b.clone()
	start.forgetDependentDivs()
	work := []*basic{start.simplify()}
	var done []*basic
	for steps := 0; len(work) > 0; steps++ {
		if steps > 10000 {
			panic(internalError{ErrNoExplicitLocals})
		}
		cur := work[len(work)-1]
		work = work[:len(work)-1]
		if cur.empty {
			continue
		}
		k := cur.firstUndefined()
		if k < 0 {
			done = append(done, cur)
			continue
		}
		pieces := cur.splitOnBounds()
		if pieces == nil {
			switch {
			case cur.unimodularEq(), cur.eliminateByShadows():
				pieces = []*basic{cur}
			default:
				pieces = cur.divsByLexMin()
			}
		}
		for _, p := range pieces {
			work = append(work, p.simplify())
		}
	}
	return done
}

func (b *basic) firstUndefined() int {
	for k := range b.divs {
		if !b.divKnown(k) {
			return k
		}
	}
	return -1
}

// splitOnBounds defines one undefined local whose lower (or upper) bounds use
// only known columns, returning one basic per bound; nil if there is none.
func (b *basic) splitOnBounds() []*basic {
	for k := range b.divs {
		if b.divs[k].den != 0 {
			continue
		}
		c := b.divCol(k)
		if b.inEq(c) {
			continue
		}
		for _, lower := range []bool{true, false} {
			var bounds [][]int64
			ok := true
			for _, in := range b.ineqs {
				if (lower && in[c] > 0) || (!lower && in[c] < 0) {
					if !b.onlyKnown(in, c) || b.refersLater(in, k) {
						ok = false
						break
					}
					bounds = append(bounds, in)
				}
			}
			if !ok || len(bounds) == 0 {
				continue
			}
			var out []*basic
			for _, bd := range bounds {
				p := b.clone()
				a := arith.AbsInt(bd[c])
				num := make([]int64, len(bd))
				for j := range bd {
					if j == c {
						continue
					}
					if lower { // a*e + L >= 0: e = ceil(-L/a) = floor((-L + a - 1)/a)
						num[j] = arith.Neg(bd[j])
					} else { // -a*e + U >= 0: e = floor(U/a)
						num[j] = bd[j]
					}
				}
				if lower {
					num[0] = arith.Add(num[0], a-1)
				}
				p.divs[k] = div{num: num, den: a}
				out = append(out, p)
			}
			return out
		}
	}
	return nil
}

func (b *basic) inEq(c int) bool {
	for _, e := range b.eqs {
		if e[c] != 0 {
			return true
		}
	}
	return false
}

// unimodularEq rewrites an equality that involves several undefined locals
// (none with a unit coefficient) by a unimodular change of those locals, so
// that it involves only one; the locals are existential, so the projection is
// unchanged. It reports whether it found such an equality.
func (b *basic) unimodularEq() bool {
	for _, e := range b.eqs {
		var cols []int
		for k := range b.divs {
			if b.divs[k].den == 0 && e[b.divCol(k)] != 0 {
				cols = append(cols, b.divCol(k))
			}
		}
		if len(cols) < 2 {
			continue
		}
		// Combine the first two: (x, y) -> (s*u - (q/g)*v, t*u + (p/g)*v)
		// with p*s + q*t = g maps p*x + q*y to g*u.
		cx, cy := cols[0], cols[1]
		p, q := e[cx], e[cy]
		g, s, t := extGCD(p, q)
		b.substitutePair(cx, cy, s, arith.Neg(q/g), t, p/g)
		return true
	}
	return false
}

// substitutePair replaces columns (x, y) by (a*x + b*y, c*x + d*y) in terms of
// new variables living in the same columns, for every row.
func (b *basic) substitutePair(cx, cy int, a, bb, c, d int64) {
	sub := func(row []int64) {
		x, y := row[cx], row[cy]
		row[cx] = arith.Add(arith.Mul(x, a), arith.Mul(y, c))
		row[cy] = arith.Add(arith.Mul(x, bb), arith.Mul(y, d))
	}
	for _, e := range b.eqs {
		sub(e)
	}
	for _, in := range b.ineqs {
		sub(in)
	}
}

// extGCD returns g = gcd(p, q) > 0 and s, t with p*s + q*t = g.
func extGCD(p, q int64) (g, s, t int64) {
	oldR, r := p, q
	oldS, s1 := int64(1), int64(0)
	oldT, t1 := int64(0), int64(1)
	for r != 0 {
		quo := oldR / r
		oldR, r = r, arith.Sub(oldR, arith.Mul(quo, r))
		oldS, s1 = s1, arith.Sub(oldS, arith.Mul(quo, s1))
		oldT, t1 = t1, arith.Sub(oldT, arith.Mul(quo, t1))
	}
	if oldR < 0 {
		return arith.Neg(oldR), arith.Neg(oldS), arith.Neg(oldT)
	}
	return oldR, oldS, oldT
}

// subtractBasic returns pieces whose union is a \ b.
func subtractBasic(a, b *basic) []*basic {
	if a.empty {
		return nil
	}
	if b.empty {
		return []*basic{a}
	}
	if intersectBasic(a, b).simplify().rationallyEmpty() {
		return []*basic{a}
	}
	pieces := []*basic{a}
	for _, bk := range b.knownDivs() {
		var next []*basic
		for _, p := range pieces {
			next = append(next, subtractKnown(p, bk)...)
		}
		a.bud.checkPieces(len(next))
		a.bud.spendOn(next)
		pieces = next
	}
	return pieces
}

// subtractKnown returns a \ b for b whose locals are all defined:
// a ∩ c1 ∩ ... ∩ c(i-1) ∩ not ci for each constraint ci of b. One tableau of a
// is extended constraint by constraint (snapshot and rollback, as isl does),
// and a constraint that a and the earlier ones already imply is left out of
// later pieces.
func subtractKnown(a, b *basic) []*basic {
	// Bring b's locals into a: they are functions, so a is unchanged.
	shell := b.clone()
	shell.eqs, shell.ineqs = nil, nil
	base := intersectBasic(a, shell)
	off := len(a.divs)
	nv := a.nVar()
	move := func(row []int64) []int64 {
		out := make([]int64, base.nCol())
		copy(out, row[:1+nv])
		copy(out[1+nv+off:], row[1+nv:])
		return out
	}
	var cons [][]int64 // each "row >= 0"
	for _, e := range b.eqs {
		r := move(e)
		cons = append(cons, r, negRow(r, 0))
	}
	for _, in := range b.ineqs {
		cons = append(cons, move(in))
	}
	tab := base.tableau()
	if tab.Empty() {
		return nil
	}
	var out []*basic
	var prev [][]int64 // constraints of b not implied by base and earlier ones
	for _, c := range cons {
		neg := negRow(c, 1)
		snap := tab.Snapshot()
		tab.AddIneq(neg)
		implied := tab.Empty()
		tab.Rollback(snap)
		if implied {
			continue
		}
		piece := base.clone()
		piece.ineqs = append(piece.ineqs, copyRows(prev)...)
		piece.ineqs = append(piece.ineqs, neg)
		if piece.simplify(); !piece.empty {
			out = append(out, piece)
		}
		tab.AddIneq(c)
		if tab.Empty() {
			break
		}
		prev = append(prev, c)
	}
	return out
}

// tableau returns a simplex tableau holding all constraints of b.
func (b *basic) tableau() *simplex.Tableau {
	tab := simplex.NewTableau(b.nSolverVars(), b.solver())
	eqs, ineqs := b.system()
	tab.Reserve(len(eqs) + len(ineqs))
	for _, e := range eqs {
		tab.AddEq(e)
	}
	for _, in := range ineqs {
		tab.AddIneq(in)
	}
	return tab
}

// negRow returns -row - shift: the negation of row >= 0 is -row - 1 >= 0.
func negRow(row []int64, shift int64) []int64 {
	out := make([]int64, len(row))
	for j, v := range row {
		out[j] = arith.Neg(v)
	}
	out[0] = arith.Sub(out[0], shift)
	return out
}
