package presburger

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// build.go turns a syntax tree into rels. A conjunction of comparisons (the
// common case) becomes one basic directly: floors become div locals of that
// basic, exists variables become locals, and only min/max and != split it
// into a union. Disjunction, negation and quantifiers whose body is not a
// conjunction go through the rel operations.

// objKind says what a parsed object holds.
type objKind int

const (
	kindEmpty  objKind = iota // `{ }`: no disjunct
	kindParams                // `[N] -> { : N > 0 }`
	kindSet
	kindMap
)

func (k objKind) String() string {
	return [...]string{"an empty union", "a parameter set", "a set", "a map"}[k]
}

// built is a parsed object: one rel per space, in order of appearance.
type built struct {
	kind   objKind
	params []string
	rels   []rel
	pos    []int // where each space first appears
}

// object builds every disjunct and unions those of the same space.
func (bd *builder) object(obj *astObject) built {
	for _, p := range obj.params {
		bd.params = append(bd.params, p.name)
	}
	bd.ranges = obj.ranges
	res := built{params: bd.params}
	index := map[string]int{}
	for _, d := range obj.parts {
		kind := kindSet
		switch {
		case d.out == nil:
			kind = kindParams
		case d.in != nil:
			kind = kindMap
		}
		if res.kind != kindEmpty && kind != res.kind {
			failAt(d.pos, "cannot mix %s and %s in one object", res.kind, kind)
		}
		res.kind = kind
		r := bd.disjunct(d)
		if i, ok := index[r.space.Key()]; ok {
			res.rels[i] = appendUnion(res.rels[i], r)
			continue
		}
		index[r.space.Key()] = len(res.rels)
		res.rels = append(res.rels, r)
		res.pos = append(res.pos, d.pos)
	}
	return res
}

// appendUnion is r.union(s) for the builder, which owns r's pieces: it
// appends to them in place, so that a literal of n disjuncts in one space
// is built in linear time (union copies its operands: quadratic).
func appendUnion(r, s rel) rel {
	r, s = r.checkSame("union", s)
	r.parts = append(r.parts, s.parts...)
	return r
}

// disjunct builds `in -> out : cond`. Tuple entries bind fresh names to
// their dims; an expression or an already bound name constrains the dim.
func (bd *builder) disjunct(d *astDisjunct) rel {
	bd.scope = bd.scope[:0]
	for i, p := range bd.params {
		bd.scope = append(bd.scope, scopeVar{p, unitVec(1 + i)})
	}
	var in, out Tuple
	var entries []astEntry
	switch {
	case d.out == nil:
		bd.sp = ParamSpace(bd.params)
	case d.in == nil:
		out, entries = tupleShape(d.out, nil)
		bd.sp = SetSpace(bd.params, out)
	default:
		in, entries = tupleShape(d.in, nil)
		out, entries = tupleShape(d.out, entries)
		bd.sp = MapSpace(bd.params, in, out)
	}
	c := bd.newConj()
	for _, r := range bd.ranges {
		bd.pos = r.lo.epos()
		bd.bound(c, pwValue{{val: affine{unitVec(1 + r.param), 1}}}, r.lo, r.hi)
	}
	names := make([]string, len(entries))
	for k, e := range entries {
		bd.pos = e.pos
		col := 1 + len(bd.params) + k
		dim := pwValue{{val: affine{unitVec(col), 1}}}
		switch {
		case e.hi != nil:
			bd.bound(c, dim, e.expr, e.hi)
		case e.expr != nil:
			bd.constrain(c, []pwValue{dim}, []pwValue{bd.eval(c, e.expr, false)}, tEq)
		}
		if e.name == "" {
			continue
		}
		if v, ok := bd.lookup(e.name); ok {
			bd.constrain(c, []pwValue{dim}, []pwValue{{{val: affine{v, 1}}}}, tEq)
			continue
		}
		names[k] = e.name
		bd.scope = append(bd.scope, scopeVar{e.name, unitVec(col)})
	}
	if d.out != nil {
		nIn := in.Len()
		if d.in != nil {
			bd.sp.In = in.withNames(names[:nIn])
		} else {
			nIn = 0
		}
		bd.sp.Out = out.withNames(names[nIn:])
	}
	if d.cond != nil {
		bd.conjunct(c, d.cond)
	}
	return bd.finish(c)
}

// tupleShape returns the tuple's shape (dims unnamed) and appends its
// flattened entries to entries.
func tupleShape(t *astTuple, entries []astEntry) (Tuple, []astEntry) {
	if t.nest != nil {
		var dom, ran Tuple
		dom, entries = tupleShape(t.nest[0], entries)
		ran, entries = tupleShape(t.nest[1], entries)
		return WrapTuples(t.name, dom, ran), entries
	}
	return Tuple{Name: t.name, Dims: make([]string, len(t.entries))}, append(entries, t.entries...)
}

// affine is the rational value num·cols/den (den > 0) over the columns
// [1, params, in, out, locals] of the basic being built; num may be shorter
// than the column count (missing entries are zero).
type affine struct {
	num []int64
	den int64
}

// crow is one constraint row: num·cols = 0 (eq) or >= 0.
type crow struct {
	v  []int64
	eq bool
}

// pwPiece is one case of a piecewise value: val where all of cond hold.
type pwPiece struct {
	cond []crow
	val  affine
}

// pwValue is a piecewise affine value whose pieces have disjoint conditions
// covering everything (min and max create pieces).
type pwValue []pwPiece

type scopeVar struct {
	name string
	val  []int64 // integer affine form
}

type builder struct {
	params []string
	// ranges bound parameters in every disjunct.
	ranges []astRange
	sp     Space // current space; quantifiers extend its output tuple
	scope  []scopeVar
	pos    int // position of the construct being built, for overflow errors
}

// pconj is a conjunction under construction.
type pconj struct {
	b     *basic
	alts  [][][]crow // disjunctive constraints: choose one alternative of each
	rels  []rel      // conjuncts that are not comparisons
	divs  map[string]int
	empty bool // a conjunct is false
	used  bool // b carries constraints or locals
}

func (bd *builder) newConj() *pconj {
	return &pconj{b: newUniverse(bd.sp.NParam(), bd.sp.NIn(), bd.sp.NOut()), divs: map[string]int{}}
}

func (bd *builder) lookup(name string) ([]int64, bool) {
	for i := len(bd.scope) - 1; i >= 0; i-- {
		if bd.scope[i].name == name {
			return bd.scope[i].val, true
		}
	}
	return nil, false
}

func unitVec(col int) []int64 {
	v := make([]int64, col+1)
	v[col] = 1
	return v
}

// formula builds f in the current space.
func (bd *builder) formula(f astFormula) rel {
	bd.pos = f.fpos()
	switch f := f.(type) {
	case *astBinary:
		switch f.op {
		case tOr:
			return bd.formula(f.x).union(bd.formula(f.y))
		case tImplies:
			return bd.formula(f.x).complement().union(bd.formula(f.y))
		}
	case *astNot:
		return bd.formula(f.x).complement()
	}
	c := bd.newConj()
	bd.conjunct(c, f)
	return bd.finish(c)
}

// conjunct adds f to the conjunction c.
func (bd *builder) conjunct(c *pconj, f astFormula) {
	bd.pos = f.fpos()
	switch f := f.(type) {
	case *astBool:
		if !f.val {
			c.empty = true
		}
	case *astCompare:
		bd.compare(c, f)
	case *astBinary:
		if f.op == tAnd {
			bd.conjunct(c, f.x)
			bd.conjunct(c, f.y)
			return
		}
		c.rels = append(c.rels, bd.formula(f))
	case *astExists:
		if conjunctive(f.body) {
			bd.existsLocal(c, f)
			return
		}
		c.rels = append(c.rels, bd.existsRel(f))
	default:
		c.rels = append(c.rels, bd.formula(f))
	}
}

// conjunctive reports whether f is a conjunction of comparisons under
// existential quantifiers, which fits in a single basic.
func conjunctive(f astFormula) bool {
	switch f := f.(type) {
	case *astBool, *astCompare:
		return true
	case *astBinary:
		return f.op == tAnd && conjunctive(f.x) && conjunctive(f.y)
	case *astExists:
		return conjunctive(f.body)
	}
	return false
}

// existsLocal adds `exists vars: body` to c with the variables as locals of
// c's basic. A variable defined by a plain expression is bound to it.
func (bd *builder) existsLocal(c *pconj, f *astExists) {
	depth := len(bd.scope)
	defer func() { bd.scope = bd.scope[:depth] }()
	for _, v := range f.vars {
		bd.checkFresh(v)
		if v.expr != nil {
			val := bd.eval(c, v.expr, false)
			if len(val) == 1 && len(val[0].cond) == 0 {
				bd.scope = append(bd.scope, scopeVar{v.name, val[0].val.num})
				continue
			}
			col := c.b.addDiv(nil, 0)
			c.used = true
			bd.constrain(c, []pwValue{{{val: affine{unitVec(col), 1}}}}, []pwValue{val}, tEq)
			bd.scope = append(bd.scope, scopeVar{v.name, unitVec(col)})
			continue
		}
		c.used = true
		bd.scope = append(bd.scope, scopeVar{v.name, unitVec(c.b.addDiv(nil, 0))})
	}
	bd.conjunct(c, f.body)
}

// checkFresh rejects a quantified variable that hides another name, as isl
// does: `exists (i : ...)` over a dimension i is almost surely a mistake.
func (bd *builder) checkFresh(v astEntry) {
	if _, ok := bd.lookup(v.name); ok {
		failAt(v.pos, "%q is already defined", v.name)
	}
}

// existsRel builds `exists vars: body` as a rel: the body lives in the space
// extended by the variables as trailing output dims, which are then
// projected out.
func (bd *builder) existsRel(f *astExists) rel {
	outer, depth := bd.sp, len(bd.scope)
	defer func() { bd.sp, bd.scope = outer, bd.scope[:depth] }()
	bd.sp = extendSpace(outer, len(f.vars))
	base := 1 + outer.NParam() + outer.NIn() + outer.NOut()
	c := bd.newConj()
	for k, v := range f.vars {
		bd.checkFresh(v)
		if v.expr != nil {
			val := bd.eval(c, v.expr, false)
			bd.constrain(c, []pwValue{{{val: affine{unitVec(base + k), 1}}}}, []pwValue{val}, tEq)
		}
		bd.scope = append(bd.scope, scopeVar{v.name, unitVec(base + k)})
	}
	bd.conjunct(c, f.body)
	return bd.finish(c).existsTail(len(f.vars), outer)
}

// extendSpace appends n anonymous output dims to sp.
func extendSpace(sp Space, n int) Space {
	out := anonymous(sp.NOut() + n)
	if sp.IsMap {
		return MapSpace(sp.Params, sp.In, out)
	}
	return SetSpace(sp.Params, out)
}

// finish turns c into a rel: one basic per choice of alternatives,
// intersected with the other conjuncts.
func (bd *builder) finish(c *pconj) rel {
	if c.empty {
		return emptyRel(bd.sp)
	}
	if !c.used && len(c.alts) == 0 && len(c.rels) > 0 {
		r := c.rels[0]
		for _, s := range c.rels[1:] {
			r = r.intersect(s)
		}
		return r
	}
	c.b.forgetDependentDivs()
	basics := []*basic{c.b}
	for _, alts := range c.alts {
		var next []*basic
		for _, b := range basics {
			for _, alt := range alts {
				nb := b.clone()
				addCrows(nb, alt)
				// Prune as we go, or `i != 0 and i != 1 and ...` would
				// make exponentially many pieces.
				if len(c.alts) == 1 || !nb.rationallyEmpty() {
					next = append(next, nb)
				}
			}
		}
		basics = next
	}
	r := rel{space: bd.sp}
	for _, b := range basics {
		if b.simplify(); !b.empty {
			r.parts = append(r.parts, b)
		}
	}
	for _, s := range c.rels {
		r = r.intersect(s)
	}
	return r
}

func addCrows(b *basic, rows []crow) {
	for _, r := range rows {
		if r.eq {
			b.addEq(r.v)
		} else {
			b.addIneq(r.v)
		}
	}
}

// compare adds a comparison chain; each link relates all pairs of its lists.
func (bd *builder) compare(c *pconj, f *astCompare) {
	vals := make([][]pwValue, len(f.lists))
	for i, list := range f.lists {
		for _, e := range list {
			vals[i] = append(vals[i], bd.eval(c, e, false))
		}
	}
	for i, op := range f.ops {
		bd.pos = op.pos
		bd.constrain(c, vals[i], vals[i+1], op.kind)
	}
}

// constrain adds x op y for all x in xs and y in ys.
// bound constrains x to the range lo:hi.
func (bd *builder) bound(c *pconj, x pwValue, lo, hi astExpr) {
	bd.constrain(c, []pwValue{x}, []pwValue{bd.eval(c, lo, false)}, tGe)
	bd.constrain(c, []pwValue{x}, []pwValue{bd.eval(c, hi, false)}, tLe)
}

func (bd *builder) constrain(c *pconj, xs, ys []pwValue, op tokKind) {
	for _, x := range xs {
		for _, y := range ys {
			var alts [][]crow
			for _, px := range x {
				for _, py := range y {
					cond := append(append([]crow(nil), px.cond...), py.cond...)
					for _, rows := range relRows(px.val, py.val, op) {
						if alt, ok := pruneRows(append(rows, cond...)); ok {
							alts = append(alts, alt)
						}
					}
				}
			}
			switch len(alts) {
			case 0:
				c.empty = true
			case 1:
				addCrows(c.b, alts[0])
				c.used = true
			default:
				c.alts = append(c.alts, alts)
			}
		}
	}
}

// relRows returns the alternatives (each a conjunction) expressing x op y.
// Values are integer combinations of integer columns over a positive
// denominator, so the numerator of y - x carries its sign and strict
// inequalities can subtract one.
func relRows(x, y affine, op tokKind) [][]crow {
	le := func(a, b affine, strict bool) []crow {
		d := affSub(b, a).num
		if strict {
			d = plusConst(d, -1)
		}
		return []crow{{v: d}}
	}
	switch op {
	case tEq:
		return [][]crow{{{v: affSub(x, y).num, eq: true}}}
	case tNe:
		return [][]crow{le(x, y, true), le(y, x, true)}
	case tLt:
		return [][]crow{le(x, y, true)}
	case tLe:
		return [][]crow{le(x, y, false)}
	case tGt:
		return [][]crow{le(y, x, true)}
	}
	return [][]crow{le(y, x, false)} // tGe
}

// pruneRows drops rows that hold trivially; ok is false if one trivially fails.
func pruneRows(rows []crow) ([]crow, bool) {
	out := rows[:0]
	for _, r := range rows {
		if !constOnly(r.v) {
			out = append(out, r)
			continue
		}
		var k int64
		if len(r.v) > 0 {
			k = r.v[0]
		}
		if r.eq && k != 0 || !r.eq && k < 0 {
			return nil, false
		}
	}
	return out, true
}

func constOnly(v []int64) bool {
	for _, x := range v[min(1, len(v)):] {
		if x != 0 {
			return false
		}
	}
	return true
}

func affConst(k int64) affine { return affine{[]int64{k}, 1} }

func plusConst(v []int64, k int64) []int64 {
	out := append([]int64(nil), v...)
	if len(out) == 0 {
		out = []int64{0}
	}
	out[0] = arith.Add(out[0], k)
	return out
}

// linComb returns a*x + b*y for integer vectors of any lengths.
func linComb(a int64, x []int64, b int64, y []int64) []int64 {
	out := make([]int64, max(len(x), len(y)))
	for i := range out {
		var s int64
		if i < len(x) {
			s = arith.Mul(a, x[i])
		}
		if i < len(y) {
			s = arith.AddMul(s, b, y[i])
		}
		out[i] = s
	}
	return out
}

// affNorm divides num and den by their common factor.
func affNorm(a affine) affine {
	g := arith.GCD(arith.GCDVec(a.num), a.den)
	if g <= 1 {
		return a
	}
	out := make([]int64, len(a.num))
	for i, x := range a.num {
		out[i] = x / g
	}
	return affine{out, a.den / g}
}

func affAdd(x, y affine) affine {
	if x.den == y.den {
		return affNorm(affine{linComb(1, x.num, 1, y.num), x.den})
	}
	return affNorm(affine{linComb(y.den, x.num, x.den, y.num), arith.Mul(x.den, y.den)})
}

func affNeg(x affine) affine { return affine{linComb(-1, x.num, 0, nil), x.den} }

func affSub(x, y affine) affine { return affAdd(x, affNeg(y)) }

func affScale(x affine, k affine) affine {
	return affNorm(affine{linComb(affConstOf(k), x.num, 0, nil), arith.Mul(x.den, k.den)})
}

// combinePieces applies op to every pair of pieces of x and y.
func combinePieces(x, y pwValue, op func(a, b affine) affine) pwValue {
	var out pwValue
	for _, px := range x {
		for _, py := range y {
			cond := append(append([]crow(nil), px.cond...), py.cond...)
			out = append(out, pwPiece{cond, op(px.val, py.val)})
		}
	}
	return out
}

func mapPieces(x pwValue, op func(a affine) affine) pwValue {
	out := make(pwValue, len(x))
	for i, p := range x {
		out[i] = pwPiece{p.cond, op(p.val)}
	}
	return out
}

// eval evaluates e over c's basic, adding div locals for floors. Division
// is allowed only under floor or ceil (inFloor).
func (bd *builder) eval(c *pconj, e astExpr, inFloor bool) pwValue {
	bd.pos = e.epos()
	switch e := e.(type) {
	case *astInt:
		return pwValue{{val: affConst(e.val)}}
	case *astVar:
		v, ok := bd.lookup(e.name)
		if !ok {
			failAt(e.pos, "unknown identifier %q", e.name)
		}
		return pwValue{{val: affine{v, 1}}}
	case *astNeg:
		return mapPieces(bd.eval(c, e.x, inFloor), affNeg)
	case *astArith:
		return bd.arith(c, e, inFloor)
	case *astCall:
		return bd.call(c, e, inFloor)
	}
	panic(fmt.Sprintf("presburger: unknown expression %T", e))
}

func (bd *builder) arith(c *pconj, e *astArith, inFloor bool) pwValue {
	switch e.op {
	case tSlash, tPercent, tMod:
		if e.op == tSlash && !inFloor {
			failAt(e.pos, "division is only allowed inside floor() or ceil()")
		}
		x := bd.eval(c, e.x, inFloor)
		k := bd.positive(c, e.y)
		if e.op == tSlash {
			return mapPieces(x, func(a affine) affine { return affNorm(affine{a.num, arith.Mul(a.den, k)}) })
		}
		return mapPieces(x, func(a affine) affine {
			q := bd.floor(c, affine{a.num, arith.Mul(a.den, k)})
			return affSub(a, affine{linComb(k, q.num, 0, nil), 1})
		})
	}
	x, y := bd.eval(c, e.x, inFloor), bd.eval(c, e.y, inFloor)
	bd.pos = e.pos
	switch e.op {
	case tPlus:
		return combinePieces(x, y, affAdd)
	case tMinus:
		return combinePieces(x, y, affSub)
	}
	return combinePieces(x, y, func(a, b affine) affine { // tStar
		switch {
		case constOnly(a.num):
			return affScale(b, a)
		case constOnly(b.num):
			return affScale(a, b)
		}
		failAt(e.pos, "non-affine product: one factor of '*' must be a constant")
		panic("unreachable")
	})
}

// positive evaluates e, which must be a positive integer constant.
func (bd *builder) positive(c *pconj, e astExpr) int64 {
	v := bd.eval(c, e, false)
	if len(v) == 1 && len(v[0].cond) == 0 && constOnly(v[0].val.num) && v[0].val.den == 1 {
		if k := affConstOf(v[0].val); k > 0 {
			return k
		}
	}
	failAt(e.epos(), "expected a positive integer constant")
	panic("unreachable")
}

func affConstOf(a affine) int64 {
	if len(a.num) == 0 {
		return 0
	}
	return a.num[0]
}

func (bd *builder) call(c *pconj, e *astCall, inFloor bool) pwValue {
	switch e.fn {
	case tFloor, tCeil, tFloord, tCeild:
		x := bd.eval(c, e.args[0], true)
		if len(e.args) == 2 {
			k := bd.positive(c, e.args[1])
			x = mapPieces(x, func(a affine) affine { return affNorm(affine{a.num, arith.Mul(a.den, k)}) })
		}
		if e.fn == tFloor || e.fn == tFloord {
			return mapPieces(x, func(a affine) affine { return bd.floor(c, a) })
		}
		return mapPieces(x, func(a affine) affine { return affNeg(bd.floor(c, affNeg(a))) })
	}
	// min or max: argument i is the result where it is strictly smaller
	// (larger) than the arguments before it and no larger (smaller) than
	// those after it, which gives disjoint pieces, one per argument.
	strict, loose := tLt, tLe
	if e.fn == tMax {
		strict, loose = tGt, tGe
	}
	// Each combination picks one piece of every argument.
	type combo struct {
		cond []crow
		vals []affine
	}
	combos := []combo{{}}
	for _, arg := range e.args {
		x := bd.eval(c, arg, inFloor)
		var next []combo
		for _, cb := range combos {
			for _, p := range x {
				next = append(next, combo{
					cond: append(append([]crow(nil), cb.cond...), p.cond...),
					vals: append(append([]affine(nil), cb.vals...), p.val),
				})
			}
		}
		combos = next
	}
	var out pwValue
	for _, cb := range combos {
		for i, xi := range cb.vals {
			cond := append([]crow(nil), cb.cond...)
			for j, xj := range cb.vals {
				switch {
				case j < i:
					cond = append(cond, relRows(xi, xj, strict)[0]...)
				case j > i:
					cond = append(cond, relRows(xi, xj, loose)[0]...)
				}
			}
			if cond, ok := pruneRows(cond); ok {
				out = append(out, pwPiece{cond, xi})
			}
		}
	}
	return out
}

// floor returns floor(a) as an integer affine value, adding a div local
// (shared between equal floors) when a is not already integral.
func (bd *builder) floor(c *pconj, a affine) affine {
	a = affNorm(a)
	if a.den == 1 {
		return a
	}
	if constOnly(a.num) {
		return affConst(arith.FloorDiv(affConstOf(a), a.den))
	}
	n := len(a.num)
	for n > 0 && a.num[n-1] == 0 {
		n--
	}
	key := divKey(a.num[:n], a.den)
	col, ok := c.divs[key]
	if !ok {
		col = c.b.addDiv(a.num[:n], a.den)
		c.divs[key] = col
		c.used = true
	}
	return affine{unitVec(col), 1}
}

func divKey(num []int64, den int64) string {
	var s strings.Builder
	for _, x := range num {
		s.WriteString(strconv.FormatInt(x, 10))
		s.WriteByte(',')
	}
	s.WriteString(strconv.FormatInt(den, 10))
	return s.String()
}
