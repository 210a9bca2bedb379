package presburger

import (
	"fmt"
	"math"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// FixParams substitutes the given values for the set's parameters and
// returns the set over no parameters (its space loses them). Every
// parameter of s must have a value; names that s does not use are ignored.
func (s Set) FixParams(vals map[string]int64) (res Set, err error) {
	defer catch(&err)
	return Set{s.r.with(newBudget()).fixParams(vals)}, nil
}

// FixParams substitutes the given values for the map's parameters; see
// Set.FixParams.
func (m Map) FixParams(vals map[string]int64) (res Map, err error) {
	defer catch(&err)
	return Map{m.r.with(newBudget()).fixParams(vals)}, nil
}

// fixParams substitutes parameter values into every piece.
func (r rel) fixParams(vals map[string]int64) rel {
	pv := make([]int64, r.space.NParam())
	for i, name := range r.space.Params {
		v, ok := vals[name]
		if !ok {
			panic(internalError{fmt.Errorf("presburger: FixParams: no value for parameter %s", name)})
		}
		pv[i] = v
	}
	out := rel{space: r.space.withParams(nil)}
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		if c := b.substParams(pv).simplify(); !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}

// substParams returns b with the parameter columns replaced by the values
// pv: each row's constant absorbs coefficient times value.
func (b *basic) substParams(pv []int64) *basic {
	np, n := b.nParam, b.nCol()
	sub := func(row []int64) []int64 {
		row = pad(row, n)
		out := make([]int64, n-np)
		out[0] = row[0]
		for p, v := range pv {
			if row[1+p] != 0 {
				out[0] = arith.AddMul(out[0], row[1+p], v)
			}
		}
		copy(out[1:], row[1+np:n])
		return out
	}
	c := &basic{nIn: b.nIn, nOut: b.nOut, empty: b.empty, bud: b.bud}
	for _, d := range b.divs {
		c.divs = append(c.divs, div{num: sub(d.num), den: d.den})
	}
	for _, e := range b.eqs {
		c.eqs = append(c.eqs, sub(e))
	}
	for _, in := range b.ineqs {
		c.ineqs = append(c.ineqs, sub(in))
	}
	return c
}

// Foreach calls fn for every integer point of s, exactly once each and in
// lexicographic order; s must be parameter-free (ErrParametric otherwise)
// and bounded (ErrInfinite otherwise). The slice passed to fn is reused
// between calls: fn must neither modify it nor keep it past the call (copy
// it instead). When fn returns an error, Foreach stops and returns it.
//
// The set is prepared once: every existential is given an explicit floor
// definition (as Subtract does), so each point has exactly one value of its
// locals in each disjunct, and every disjunct is turned into a loop nest.
// The bounds of dimension d in a disjunct are the constraints of its
// rational projection onto the dimensions before d, d itself and the locals
// computable from them (Fourier-Motzkin), clipped to the disjunct's rational
// bounding box; the constraints those bounds do not enforce are checked as
// soon as their last dimension is fixed, after the locals of that
// dimension are evaluated. Overlapping disjuncts are enumerated together,
// dimension by dimension, so that a point is reported once. No solver runs
// during the enumeration: the innermost dimension of a single box-like
// disjunct is a plain counted loop.
func (s Set) Foreach(fn func(pt []int64) error) (err error) {
	if s.r.space.NParam() > 0 {
		return ErrParametric
	}
	var e *enumerator
	func() {
		defer catch(&err)
		e = newEnumerator(s.r.with(newBudget()))
	}()
	if err != nil || e == nil {
		return err
	}
	defer catch(&err)
	return e.run(fn)
}

// linForm is the affine form c0 + Σ coef·cols[col] over an enumeration
// piece's columns.
type linForm struct {
	c0    int64
	terms []linTerm
	fast  bool // no overflow possible: plain arithmetic
}

type linTerm struct {
	col  int
	coef int64
}

func newLinForm(row []int64, skip int) linForm {
	f := linForm{c0: row[0]}
	for j := 1; j < len(row); j++ {
		if row[j] != 0 && j != skip {
			f.terms = append(f.terms, linTerm{j, row[j]})
		}
	}
	return f
}

func (f *linForm) eval(cols []int64) int64 {
	v := f.c0
	if f.fast {
		for _, t := range f.terms {
			v += t.coef * cols[t.col]
		}
		return v
	}
	for _, t := range f.terms {
		v = arith.AddMul(v, t.coef, cols[t.col])
	}
	return v
}

// markFast sets fast when no partial sum can overflow, given bounds on the
// magnitudes of the columns.
func (f *linForm) markFast(mag []float64) {
	sum := math.Abs(float64(f.c0))
	for _, t := range f.terms {
		sum += math.Abs(float64(t.coef)) * mag[t.col]
	}
	f.fast = sum < 1<<61
}

// enumBound is a·x + rest >= 0 for the dimension x of its level: a lower
// bound when a > 0, an upper bound when a < 0.
type enumBound struct {
	a    int64
	rest linForm
}

// enumDiv computes local column col as floor(num/den).
type enumDiv struct {
	col int
	num linForm
	den int64
}

// enumCheck is a constraint form = 0 (eq) or form >= 0.
type enumCheck struct {
	form linForm
	eq   bool
}

// enumLevel holds what happens when a piece fixes one dimension.
type enumLevel struct {
	lower, upper []enumBound
	boxLo, boxHi int64
	divs         []enumDiv
	checks       []enumCheck
	det          bool // the bounds are x = upper[0].rest
}

func (l *enumLevel) trivial() bool { return len(l.divs) == 0 && len(l.checks) == 0 }

// setDet sets det when the bounds are one equality x = upper[0].rest.
func (l *enumLevel) setDet() {
	l.det = false
	if len(l.lower) != 1 || len(l.upper) != 1 || l.lower[0].a != 1 || l.upper[0].a != -1 {
		return
	}
	lo, up := l.lower[0].rest, l.upper[0].rest
	if lo.c0 != -up.c0 || len(lo.terms) != len(up.terms) {
		return
	}
	for i, t := range lo.terms {
		if u := up.terms[i]; u.col != t.col || u.coef != -t.coef {
			return
		}
	}
	l.det = true
}

// enumPiece is one disjunct with explicit locals, as a loop nest over the
// columns [1, dims..., locals...].
type enumPiece struct {
	cols   []int64
	init   enumLevel // locals and checks that need no dimension
	levels []enumLevel
}

// fix sets dimension d to x, computes the locals that become known and
// reports whether the checks of the level hold.
func (p *enumPiece) fix(d int, x int64) bool {
	p.cols[1+d] = x
	return p.settle(&p.levels[d])
}

func (p *enumPiece) settle(l *enumLevel) bool {
	for i := range l.divs {
		dv := &l.divs[i]
		if v := dv.num.eval(p.cols); dv.den == 1 {
			p.cols[dv.col] = v
		} else {
			p.cols[dv.col] = arith.FloorDiv(v, dv.den)
		}
	}
	for i := range l.checks {
		c := &l.checks[i]
		v := c.form.eval(p.cols)
		if v < 0 || (c.eq && v != 0) {
			return false
		}
	}
	return true
}

// bounds returns the range of dimension d given the earlier columns.
func (p *enumPiece) bounds(d int) (lo, hi int64) {
	l := &p.levels[d]
	lo, hi = l.boxLo, l.boxHi
	for i := range l.lower {
		b := &l.lower[i]
		v := b.rest.eval(p.cols)
		if b.a == 1 {
			v = arith.Neg(v)
		} else {
			v = arith.CeilDiv(arith.Neg(v), b.a)
		}
		lo = max(lo, v)
	}
	for i := range l.upper {
		b := &l.upper[i]
		v := b.rest.eval(p.cols)
		if b.a != -1 {
			v = arith.FloorDiv(v, arith.Neg(b.a))
		}
		hi = min(hi, v)
	}
	return lo, hi
}

func levelPtrs(ls []enumLevel) []*enumLevel {
	out := make([]*enumLevel, len(ls))
	for i := range ls {
		out[i] = &ls[i]
	}
	return out
}

// prune drops the bounds that a parallel bound makes redundant: of the
// rows with the same coefficients only the one with the smallest constant
// matters.
func (l *enumLevel) prune() {
	l.lower, l.upper = pruneBounds(l.lower), pruneBounds(l.upper)
}

func pruneBounds(bs []enumBound) []enumBound {
	best := map[string]int{}
	var out []enumBound
	for _, b := range bs {
		k := fmt.Sprint(b.a, b.rest.terms)
		if i, ok := best[k]; ok {
			out[i].rest.c0 = min(out[i].rest.c0, b.rest.c0)
			continue
		}
		best[k] = len(out)
		out = append(out, b)
	}
	return out
}

// enumMaxRows caps the inequalities of a projection.
const enumMaxRows = 1000

// enumProjection is a system of rows over a piece's columns from which
// columns are eliminated one after the other: by substitution with an
// equality when one involves the column, else by Fourier-Motzkin. The
// result describes the rational projection, with rows tightened on the
// integers (all columns are integer), so that no integer point of the
// projection of the piece is lost; redundant rows are only removed when a
// parallel row is tighter.
type enumProjection struct {
	eqs, ineqs [][]int64
	empty      bool
}

// eliminate removes the columns cols; false when the system grew too
// large (it is then unusable).
func (p *enumProjection) eliminate(cols []int) bool {
	for _, c := range cols {
		if p.empty {
			return true
		}
		piv := -1
		for i, e := range p.eqs {
			if e[c] != 0 && (piv < 0 || arith.AbsInt(e[c]) < arith.AbsInt(p.eqs[piv][c])) {
				piv = i
			}
		}
		if piv >= 0 {
			e := p.eqs[piv]
			p.eqs = append(p.eqs[:piv:piv], p.eqs[piv+1:]...)
			for i, r := range p.eqs {
				if r[c] != 0 {
					p.eqs[i], _ = combine(r, e, c)
				}
			}
			for i, r := range p.ineqs {
				if r[c] != 0 {
					p.ineqs[i], _ = combine(r, e, c)
				}
			}
		} else {
			var lows, ups, rest [][]int64
			for _, r := range p.ineqs {
				switch {
				case r[c] > 0:
					lows = append(lows, r)
				case r[c] < 0:
					ups = append(ups, r)
				default:
					rest = append(rest, r)
				}
			}
			if len(rest)+len(lows)*len(ups) > enumMaxRows {
				return false
			}
			for _, l := range lows {
				for _, u := range ups {
					r, _ := combine(l, u, c)
					rest = append(rest, r)
				}
			}
			p.ineqs = rest
		}
		p.normalize()
	}
	return true
}

// normalize tightens the rows, drops trivial and dominated ones and
// detects contradictions.
func (p *enumProjection) normalize() {
	var eqs [][]int64
	for _, e := range p.eqs {
		g := arith.GCDVec(e[1:])
		switch {
		case g == 0 && e[0] != 0, g != 0 && e[0]%g != 0:
			p.empty = true
			return
		case g == 0:
			continue
		}
		for j := range e {
			e[j] /= g
		}
		eqs = append(eqs, e)
	}
	best := map[string]int{}
	var ineqs [][]int64
	for _, r := range p.ineqs {
		r = tightenRow(r)
		if arith.GCDVec(r[1:]) == 0 {
			if r[0] < 0 {
				p.empty = true
				return
			}
			continue
		}
		k := rowKey(r[1:])
		if i, ok := best[k]; ok {
			ineqs[i][0] = min(ineqs[i][0], r[0])
			continue
		}
		best[k] = len(ineqs)
		ineqs = append(ineqs, r)
	}
	p.eqs, p.ineqs = eqs, ineqs
}

// tightenRow divides the inequality row >= 0 by the gcd of its
// coefficients, rounding the constant down (valid on integer points).
func tightenRow(r []int64) []int64 {
	if g := arith.GCDVec(r[1:]); g > 1 {
		r[0] = arith.FloorDiv(r[0], g)
		for j := 1; j < len(r); j++ {
			r[j] /= g
		}
	}
	return r
}

func padRows(rows [][]int64, n int) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = pad(append([]int64(nil), r...), n)
	}
	return out
}

// enumerator walks the union of its pieces dimension by dimension.
type enumerator struct {
	n      int
	pieces []*enumPiece
	pt     []int64
	fn     func([]int64) error
	// Per-level scratch: the pieces entering the level, those whose range
	// is not empty, and their ranges.
	act, live [][]int
	lo, hi    [][]int64
}

// newEnumerator prepares the parameter-free rel r; nil means r is empty.
func newEnumerator(r rel) *enumerator {
	n := r.space.NIn() + r.space.NOut()
	e := &enumerator{n: n, pt: make([]int64, n)}
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		for _, k := range b.knownDivs() {
			if k.empty {
				continue
			}
			if !k.allDivsKnown() {
				panic(internalError{ErrNoExplicitLocals})
			}
			if p := newEnumPiece(k); p != nil {
				e.pieces = append(e.pieces, p)
			}
		}
	}
	if len(e.pieces) == 0 {
		return nil
	}
	np := len(e.pieces)
	for d := 0; d <= n; d++ {
		e.act = append(e.act, make([]int, 0, np))
		e.live = append(e.live, make([]int, 0, np))
		e.lo = append(e.lo, make([]int64, np))
		e.hi = append(e.hi, make([]int64, np))
	}
	return e
}

// newEnumPiece builds the loop nest of b (parameter-free, every local
// defined); nil when b is found empty.
func newEnumPiece(b *basic) *enumPiece {
	n, m := b.nVar(), len(b.divs)
	width := 1 + n + m
	// level[c] is the last dimension column c depends on (-1: none).
	level := make([]int, width)
	level[0] = -1
	for j := 0; j < n; j++ {
		level[1+j] = j
	}
	var order []int // locals, dependencies first
	done := make([]bool, m)
	for len(order) < m {
		progress := false
		for k := 0; k < m; k++ {
			if done[k] {
				continue
			}
			num := pad(b.divs[k].num, width)
			lv, ready := -1, true
			for j := 1; j < width; j++ {
				if num[j] == 0 {
					continue
				}
				if j > n && !done[j-1-n] {
					ready = false
					break
				}
				lv = max(lv, level[j])
			}
			if !ready {
				continue
			}
			level[1+n+k], done[k], progress = lv, true, true
			order = append(order, k)
		}
		if !progress {
			panic(internalError{ErrNoExplicitLocals})
		}
	}
	p := &enumPiece{cols: make([]int64, width), levels: make([]enumLevel, n)}
	p.cols[0] = 1
	at := func(lv int) *enumLevel {
		if lv < 0 {
			return &p.init
		}
		return &p.levels[lv]
	}
	for _, k := range order {
		col := 1 + n + k
		at(level[col]).divs = append(at(level[col]).divs, enumDiv{col: col, num: newLinForm(pad(b.divs[k].num, width), -1), den: b.divs[k].den})
	}
	// Rows whose last dimension d appears directly, with no local of level
	// d, are bounds of d; the others are checks.
	seen := make([]map[string]bool, n)
	for d := range seen {
		seen[d] = map[string]bool{}
	}
	addBound := func(d int, row []int64) {
		row = tightenRow(append([]int64(nil), row...))
		if k := rowKey(row); !seen[d][k] {
			seen[d][k] = true
			bd := enumBound{a: row[1+d], rest: newLinForm(row, 1+d)}
			if bd.a > 0 {
				p.levels[d].lower = append(p.levels[d].lower, bd)
			} else {
				p.levels[d].upper = append(p.levels[d].upper, bd)
			}
		}
	}
	classify := func(row []int64, eq bool) {
		row = pad(row, width)
		lv := -1
		for j := 1; j < width; j++ {
			if row[j] != 0 {
				lv = max(lv, level[j])
			}
		}
		if lv >= 0 && row[1+lv] != 0 {
			direct := true
			for j := 1 + n; j < width; j++ {
				if row[j] != 0 && level[j] == lv {
					direct = false
				}
			}
			if direct {
				addBound(lv, row)
				if eq {
					addBound(lv, negRow(row, 0))
				}
				return
			}
		}
		at(lv).checks = append(at(lv).checks, enumCheck{form: newLinForm(row, -1), eq: eq})
	}
	for _, e := range b.eqs {
		classify(e, true)
	}
	for _, in := range b.ineqs {
		classify(in, false)
	}
	// The rational bounding box; an unbounded direction of a disjunct with
	// an integer point means infinitely many points.
	tab := b.tableau()
	if tab.Empty() {
		return nil
	}
	for d := 0; d < n; d++ {
		obj := make([]int64, width)
		obj[1+d] = 1
		lo, lden, st := tab.Min(obj)
		hi, hden, st2 := tab.Max(obj)
		if st == simplex.Infeasible || st2 == simplex.Infeasible {
			return nil
		}
		if st != simplex.Optimal || st2 != simplex.Optimal {
			if b.isEmpty() {
				return nil
			}
			panic(internalError{ErrInfinite})
		}
		p.levels[d].boxLo, p.levels[d].boxHi = arith.CeilDiv(lo, lden), arith.FloorDiv(hi, hden)
		if p.levels[d].boxLo > p.levels[d].boxHi {
			return nil
		}
	}
	// Bounds from the projections, innermost first: P_d, over the
	// dimensions up to d and the locals before level d, is P_{d+1} with
	// x_{d+1} and the locals of level d eliminated. A projection that grows
	// too large only loses precision: the box and the checks keep the
	// enumeration exact.
	eqs, ineqs := b.system()
	proj := &enumProjection{eqs: padRows(eqs, width), ineqs: padRows(ineqs, width)}
	for d := n - 1; d >= 0; d-- {
		var elim []int
		if d+1 < n {
			elim = append(elim, 2+d)
		}
		for j := 1 + n; j < width; j++ {
			if level[j] == d {
				elim = append(elim, j)
			}
		}
		if !proj.eliminate(elim) {
			break
		}
		if proj.empty {
			return nil
		}
		for _, r := range proj.eqs {
			if r[1+d] != 0 {
				addBound(d, r)
				addBound(d, negRow(r, 0))
			}
		}
		for _, r := range proj.ineqs {
			if r[1+d] != 0 {
				addBound(d, r)
			}
		}
	}
	// Magnitude bounds of the columns make most forms overflow-free.
	mag := make([]float64, width)
	mag[0] = 1
	for d := 0; d < n; d++ {
		mag[1+d] = math.Max(math.Abs(float64(p.levels[d].boxLo)), math.Abs(float64(p.levels[d].boxHi)))
	}
	for _, k := range order {
		var sum float64
		for j, v := range pad(b.divs[k].num, width) {
			sum += math.Abs(float64(v)) * mag[j]
		}
		mag[1+n+k] = sum/float64(b.divs[k].den) + 1
	}
	for _, l := range append([]*enumLevel{&p.init}, levelPtrs(p.levels)...) {
		l.prune()
		for i := range l.lower {
			l.lower[i].rest.markFast(mag)
		}
		for i := range l.upper {
			l.upper[i].rest.markFast(mag)
		}
		for i := range l.divs {
			l.divs[i].num.markFast(mag)
		}
		for i := range l.checks {
			l.checks[i].form.markFast(mag)
		}
		l.setDet()
	}
	return p
}

// run enumerates the points, calling fn on each.
func (e *enumerator) run(fn func([]int64) error) error {
	e.fn = fn
	act := e.act[0][:0]
	for i, p := range e.pieces {
		if p.settle(&p.init) {
			act = append(act, i)
		}
	}
	switch {
	case len(act) == 0:
		return nil
	case e.n == 0:
		return fn(e.pt)
	case len(act) == 1:
		return e.single(e.pieces[act[0]], 0)
	}
	return e.level(0, act)
}

// single enumerates dimension d and the later ones of one piece.
func (e *enumerator) single(p *enumPiece, d int) error {
	// A dimension that an equality fixes needs no loop.
	for ; d < e.n && p.levels[d].det; d++ {
		l := &p.levels[d]
		x := l.upper[0].rest.eval(p.cols)
		if x < l.boxLo || x > l.boxHi || !p.fix(d, x) {
			return nil
		}
		e.pt[d] = x
	}
	if d == e.n {
		return e.fn(e.pt)
	}
	lo, hi := p.bounds(d)
	if lo > hi {
		return nil
	}
	l := &p.levels[d]
	if d == e.n-1 {
		pt, fn := e.pt, e.fn
		if l.trivial() {
			for x := lo; x <= hi; x++ {
				pt[d] = x
				if err := fn(pt); err != nil {
					return err
				}
			}
			return nil
		}
		for x := lo; x <= hi; x++ {
			if p.fix(d, x) {
				pt[d] = x
				if err := fn(pt); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for x := lo; x <= hi; x++ {
		if p.fix(d, x) {
			e.pt[d] = x
			if err := e.single(p, d+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// level enumerates dimension d for several pieces at once: a value is
// taken when some piece accepts it, and the deeper levels go on with the
// pieces that do.
func (e *enumerator) level(d int, act []int) error {
	live, los, his := e.live[d][:0], e.lo[d], e.hi[d]
	for _, i := range act {
		if lo, hi := e.pieces[i].bounds(d); lo <= hi {
			los[i], his[i] = lo, hi
			live = append(live, i)
		}
	}
	switch len(live) {
	case 0:
		return nil
	case 1:
		return e.single(e.pieces[live[0]], d)
	}
	x, xmax := los[live[0]], his[live[0]]
	for _, i := range live {
		x, xmax = min(x, los[i]), max(xmax, his[i])
	}
	last := d == e.n-1
	for x <= xmax {
		sub := e.act[d+1][:0]
		next := xmax
		covered := false
		for _, i := range live {
			switch {
			case x < los[i]:
				next = min(next, los[i])
			case x <= his[i]:
				covered = true
				if e.pieces[i].fix(d, x) {
					sub = append(sub, i)
				}
			}
		}
		if len(sub) > 0 {
			e.pt[d] = x
			var err error
			switch {
			case last:
				err = e.fn(e.pt)
			case len(sub) == 1:
				err = e.single(e.pieces[sub[0]], d+1)
			default:
				err = e.level(d+1, sub)
			}
			if err != nil {
				return err
			}
		}
		if !covered && next > x {
			x = next // skip a gap between the ranges
			continue
		}
		if x == xmax {
			break
		}
		x++
	}
	return nil
}

// Eval returns the value of pw at pt = [params..., in...] (for the optimum
// of a set, the parameters only), and false when no piece contains pt.
func (pw PwMultiAff) Eval(pt []int64) (out []int64, ok bool, err error) {
	defer catch(&err)
	if n := pw.Space.NParam() + pw.Space.NIn(); len(pt) != n {
		return nil, false, fmt.Errorf("presburger: Eval: point has %d coordinates, the function takes %d", len(pt), n)
	}
	for _, pc := range pw.Pieces {
		if !pc.Domain.r.contains(pt) {
			continue
		}
		return pc.Aff.eval(pt), true, nil
	}
	return nil, false, nil
}

// eval computes the expressions at the columns [1, pt...].
func (a MultiAff) eval(pt []int64) []int64 {
	cols := make([]int64, 1+len(pt), 1+len(pt)+len(a.Divs))
	cols[0] = 1
	copy(cols[1:], pt)
	dot := func(row []int64) int64 {
		var v int64
		for j, c := range row {
			if c == 0 {
				continue
			}
			if j >= len(cols) {
				panic(internalError{fmt.Errorf("presburger: Eval: expression uses column %d of %d", j, len(cols))})
			}
			v = arith.AddMul(v, c, cols[j])
		}
		return v
	}
	for _, d := range a.Divs {
		cols = append(cols, arith.FloorDiv(dot(d.Num), d.Den))
	}
	out := make([]int64, len(a.Rows))
	for j, row := range a.Rows {
		out[j] = dot(row)
	}
	return out
}
