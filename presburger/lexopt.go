package presburger

import (
	"errors"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/pip"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// ErrUnbounded is returned by LexMin, LexMax, DimMin and DimMax when the
// optimum does not exist because the set is unbounded in that direction.
var ErrUnbounded = errors.New("presburger: lexicographic optimum is unbounded")

// Div is a floor division floor(Num · cols / Den), Den > 0.
type Div struct {
	Num []int64
	Den int64
}

// MultiAff is a tuple of quasi-affine expressions over the columns
// [1, params, in..., divs...]: Divs are local floor divisions (each may use
// earlier ones) and Rows[j] gives output j with integer coefficients.
type MultiAff struct {
	Divs []Div
	Rows [][]int64
}

// PwPiece is one piece of a piecewise quasi-affine function: on Domain (a
// set over the input tuple; for a set's optimum, a parameter set) the value
// is Aff.
type PwPiece struct {
	Domain Set
	Aff    MultiAff
}

// PwMultiAff is a piecewise quasi-affine function with disjoint pieces
// (isl_pw_multi_aff): the form in which lexmin/lexmax results can be read.
type PwMultiAff struct {
	Space  Space // the map space in -> out, or the set space for set optima
	Pieces []PwPiece
}

// lexPiece is one per-basic optimum before combination: a single-valued map
// piece (domain constraints plus out = f(in)) and its expression.
type lexPiece struct {
	m   rel // map space In -> Out (In empty for set optima), one basic
	aff MultiAff
	run int // the PIP run that gave it: pieces of one run are disjoint
}

// lexOpt returns the lexicographic optimum of r (a map: over its domain; a
// set: over the parameters) as disjoint pieces.
func (r rel) lexOpt(max bool) []lexPiece {
	np, ni, no := r.dims()
	asMap := r.space
	if !asMap.IsMap {
		asMap = MapSpace(r.space.Params, Tuple{}, r.space.Out)
	}
	var pieces []lexPiece
	// An int64 overflow on one basic is reported only once the others are
	// done: where one of them is unbounded, so is the optimum of r.
	var overflow *arith.Overflow
	runs := 0
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		ps, err, ovf := optimizeBasic(asMap, b, np+ni, no, max, maxThinSplits, &runs)
		if ovf != nil {
			if overflow == nil {
				overflow = ovf
			}
			continue
		}
		if err != nil {
			if errors.Is(err, pip.ErrUnbounded) {
				panic(internalError{ErrUnbounded})
			}
			panic(internalError{err})
		}
		pieces = append(pieces, ps...)
	}
	if overflow != nil {
		panic(*overflow)
	}
	return combineLex(pieces, max)
}

// maxThinSplits bounds the nesting of thin splits of one basic,
// maxThinWidth the width of a pair of constraints split, and
// maxSplitPieces the pieces of the parts' optima: combining those as a
// union is quadratic in them, with subtractions of sets with divs, and
// would run out of budget only after seconds.
const (
	maxThinSplits  = 2
	maxThinWidth   = 15
	maxSplitPieces = 24
)

// optimizeBasic returns the optimum of one basic b as pieces, ErrUnbounded,
// or an int64 overflow (a chain of Gomory cuts whose denominators or divs
// keep growing). After an overflow it runs the search again with the
// locals optimised the other way, which leads to other cuts; failing
// that, it splits b along its thinnest pair of opposite constraints
// 0 <= f <= w, w small, into the parts f = 0, ..., f = w, and optimises
// those, up to splits levels deep. Such a pair, as 0 <= -4 - N + x - 68y
// <= 3, makes the cuts approach the optimum a step at a time; with f
// fixed, the lattice of the equalities gives it at once. The parts'
// optima are combined as those of a union.
func optimizeBasic(sp Space, b *basic, nPar, no int, max bool, splits int, runs *int) (pieces []lexPiece, err error, ovf *arith.Overflow) {
	eqs, ineqs := b.system()
	nVar := b.nCol() - 1 - nPar
	sol, err, ovf := optimizeNoPanic(nPar, nVar, no, eqs, ineqs, max, false, b)
	if ovf != nil && nVar > no {
		sol, err, ovf = optimizeNoPanic(nPar, nVar, no, eqs, ineqs, max, true, b)
	}
	if ovf != nil {
		if splits == 0 {
			return nil, nil, ovf
		}
		parts := b.splitThin(nPar, ineqs)
		if parts == nil {
			return nil, nil, ovf
		}
		for _, c := range parts {
			ps, err, o := optimizeBasic(sp, c, nPar, no, max, splits-1, runs)
			if o != nil {
				return nil, nil, ovf
			}
			if err != nil {
				return nil, err, nil
			}
			pieces = append(pieces, ps...)
			if len(pieces) > maxSplitPieces {
				return nil, nil, ovf
			}
		}
		return pieces, nil, nil
	}
	if err != nil {
		return nil, err, nil
	}
	*runs++
	for _, p := range sol {
		pc := pieceFromPIP(sp, b.bud, p, no)
		pc.run = *runs
		pieces = append(pieces, pc)
	}
	return pieces, nil, nil
}

// splitThin returns b split along its thinnest pair of inequalities
// (among ineqs, b's constraints with its divs' definitions) that are
// opposite on the variables and sum to a constant w in [1, maxThinWidth]:
// f >= 0 and w - f >= 0 give the parts f = k, k = 0..w, non-empty ones
// only. It returns nil when there is no such pair.
func (b *basic) splitThin(nPar int, ineqs [][]int64) []*basic {
	best, w := -1, int64(maxThinWidth+1)
	for i, f := range ineqs {
		if isZeroRow(f[1+nPar:]) {
			continue
		}
		for _, g := range ineqs[i+1:] {
			opposite := true
			for j := 1; j < len(f) && opposite; j++ {
				opposite = f[j] == -g[j]
			}
			if sum, ok := arith.AddOK(f[0], g[0]); opposite && ok && sum >= 1 && sum < w {
				best, w = i, sum
			}
		}
	}
	if best < 0 {
		return nil
	}
	var parts []*basic
	for k := int64(0); k <= w; k++ {
		c := b.clone()
		eq := slices.Clone(ineqs[best])
		eq[0] = arith.Sub(eq[0], k)
		c.eqs = append(c.eqs, eq)
		if c.simplify(); !c.empty {
			parts = append(parts, c)
		}
	}
	return parts
}

// optimizeNoPanic is optimize returning an int64 overflow instead of
// panicking with it.
func optimizeNoPanic(nPar, nVar, no int, eqs, ineqs [][]int64, max, flip bool, b *basic) (sol []pip.Piece, err error, ovf *arith.Overflow) {
	defer func() {
		if e := recover(); e != nil {
			o, ok := e.(arith.Overflow)
			if !ok {
				panic(e)
			}
			ovf = &o
		}
	}()
	sol, err = optimize(nPar, nVar, no, eqs, ineqs, max, flip, b)
	return sol, err, nil
}

// optimize runs PIP over [outputs, locals], optimising the outputs only:
// the locals are existential, they need only exist and may be unbounded.
// The direction in which the search still optimises them after the
// outputs is free: flip reverses it. The constraints on the parameters
// alone form PIP's context, so that it does not split off the regions
// where they fail, only to find them empty.
func optimize(nPar, nVar, no int, eqs, ineqs [][]int64, max, flip bool, b *basic) ([]pip.Piece, error) {
	solve := pip.PartialLexMin
	if max {
		solve = pip.PartialLexMax
	}
	ctxEqs, eqs := splitContext(eqs, nPar)
	ctxIneqs, ineqs := splitContext(ineqs, nPar)
	if flip {
		// Negate the local columns: optimising -e in the same direction
		// optimises e in the other one.
		neg := func(rows [][]int64) [][]int64 {
			out := make([][]int64, len(rows))
			for i, r := range rows {
				out[i] = slices.Clone(r)
				for j := 1 + nPar + no; j < len(r); j++ {
					out[i][j] = arith.Neg(r[j])
				}
			}
			return out
		}
		eqs, ineqs = neg(eqs), neg(ineqs)
	}
	sol, _, err := solve(nPar, nVar, no, eqs, ineqs, ctxEqs, ctxIneqs, b.solver())
	return sol, err
}

// splitContext separates the rows that involve only the first nPar
// variables, cut to those columns, from the others.
func splitContext(rows [][]int64, nPar int) (ctx, rest [][]int64) {
	for _, r := range rows {
		if isZeroRow(r[1+nPar:]) {
			ctx = append(ctx, r[:1+nPar])
		} else {
			rest = append(rest, r)
		}
	}
	return ctx, rest
}

// pieceFromPIP builds the single-valued map piece of a PIP solution.
func pieceFromPIP(sp Space, bud *opBudget, p pip.Piece, no int) lexPiece {
	np, ni := sp.NParam(), sp.NIn()
	nPar := np + ni
	b := newUniverse(np, ni, no)
	b.bud = bud
	// PIP columns [1, p(nPar), divs] map to [1, params, in] and new locals.
	move := func(row []int64) []int64 {
		out := make([]int64, b.nCol())
		copy(out, row[:1+nPar])
		copy(out[1+nPar+no:], row[1+nPar:])
		return out
	}
	aff := MultiAff{}
	for _, d := range p.Divs {
		aff.Divs = append(aff.Divs, Div{Num: append([]int64(nil), d.Num...), Den: d.Den})
	}
	for range p.Divs {
		b.addDiv(nil, 0)
	}
	for k, d := range p.Divs {
		b.divs[k] = div{num: move(pad(append([]int64(nil), d.Num...), 1+nPar+len(p.Divs))), den: d.Den}
	}
	for _, e := range p.Eqs {
		b.eqs = append(b.eqs, move(e))
	}
	for _, in := range p.Ineqs {
		b.ineqs = append(b.ineqs, move(in))
	}
	for j := 0; j < no; j++ {
		row := move(p.Sol[j])
		for c := range row {
			row[c] = arith.Neg(row[c])
		}
		row[1+nPar+j] = 1
		b.eqs = append(b.eqs, row)
		aff.Rows = append(aff.Rows, append([]int64(nil), p.Sol[j]...))
	}
	b.simplify()
	return lexPiece{m: relFromBasic(sp, b), aff: aff}
}

// lexOrder returns { x -> y : y <lex x } (or y <=lex x with orEqual) on
// the output tuple of sp, as a map Out -> Out.
func lexOrder(sp Space, orEqual bool) rel {
	np, no := sp.NParam(), sp.NOut()
	out := emptyRel(MapSpace(sp.Params, sp.Out, sp.Out))
	for k := 0; k <= no; k++ {
		if k == no && !orEqual {
			break
		}
		b := newUniverse(np, no, no)
		for j := 0; j < k; j++ {
			row := make([]int64, b.nCol())
			row[1+np+j], row[1+np+no+j] = 1, -1
			b.eqs = append(b.eqs, row)
		}
		if k < no { // x_k - y_k - 1 >= 0
			row := make([]int64, b.nCol())
			row[0], row[1+np+k], row[1+np+no+k] = -1, 1, -1
			b.ineqs = append(b.ineqs, row)
		}
		out.parts = append(out.parts, b)
	}
	return out
}

// combineLex makes per-basic optima disjoint, keeping on each domain point
// the best value: piece i loses the points where some other piece j is
// strictly better (or equally good with j < i). Pieces of one PIP run
// have disjoint domains already and are not compared.
func combineLex(pieces []lexPiece, max bool) []lexPiece {
	if !slices.ContainsFunc(pieces, func(p lexPiece) bool { return p.run != pieces[0].run }) {
		return pieces
	}
	var out []lexPiece
	for i, pi := range pieces {
		dom := pi.m.domain()
		for j, pj := range pieces {
			if i == j || pi.run == pj.run {
				continue
			}
			// better: y_j before y_i in the optimisation order.
			order := lexOrder(pi.m.space, j < i)
			if max {
				order = order.reverse()
			}
			worse := pi.m.applyRange(order).intersect(pj.m).domain()
			dom = dom.subtract(worse)
		}
		for _, b := range dom.parts {
			rest := pi.m.intersectDomain(relFromBasic(dom.space, b))
			for _, mb := range rest.parts {
				out = append(out, lexPiece{m: relFromBasic(pi.m.space, mb), aff: pi.aff, run: pi.run})
			}
		}
	}
	return out
}

// lexRel returns the optimum of r as a rel of r's kind. When the parametric
// integer programming overflows int64, it falls back to the exact but
// slower definition by set operations (lexByOrder).
func (r rel) lexRel(max bool) rel {
	pieces, overflow := r.tryLexOpt(max)
	if overflow {
		return r.lexFallback(max)
	}
	out := emptyRel(r.space)
	for _, p := range pieces {
		out.parts = append(out.parts, p.m.parts...)
	}
	return out
}

// Caps of the fallback: it is exact but can be slow, and the caller would
// otherwise have received the overflow error.
const (
	fallbackOps    = 2_000_000
	fallbackPieces = 400
)

// lexFallback runs lexByOrder under its own small budget; when that runs
// out it reports the original int64 overflow.
func (r rel) lexFallback(max bool) rel {
	parent := r.budget()
	sub := &opBudget{Budget: simplex.Budget{Ops: fallbackOps}, maxPieces: fallbackPieces}
	if parent != nil && parent.Ops < sub.Ops {
		sub.Ops = parent.Ops
	}
	initial := sub.Ops
	var res rel
	var err error
	func() {
		defer catch(&err)
		res = r.with(sub).lexByOrder(max)
	}()
	if parent != nil {
		parent.Ops -= initial - sub.Ops
	}
	switch {
	case errors.Is(err, ErrBudget):
		panic(arith.Overflow{Op: "pip (set-operation fallback exceeded its budget)"})
	case err != nil:
		panic(internalError{err})
	}
	return res.with(parent)
}

// tryLexOpt runs lexOpt, reporting an int64 overflow instead of panicking.
func (r rel) tryLexOpt(max bool) (pieces []lexPiece, overflow bool) {
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(arith.Overflow); !ok {
				panic(e)
			}
			overflow = true
		}
	}()
	return r.lexOpt(max), false
}

// lexByOrder computes the optimum as M minus every pair that some image of
// the same input beats: lexmin M = M \ { x -> b : y in M(x), y <lex b }. An
// input that keeps no image has no optimum: the set is unbounded there.
func (r rel) lexByOrder(max bool) rel {
	m := r
	if !r.space.IsMap {
		m = r.withSpace(MapSpace(r.space.Params, Tuple{}, r.space.Out))
	}
	order := lexOrder(m.space, false) // { a -> b : b <lex a }
	if !max {
		order = order.reverse() // { a -> b : a <lex b }
	}
	res := m.subtract(m.applyRange(order))
	if !m.domain().isSubset(res.domain()) {
		panic(internalError{ErrUnbounded})
	}
	return res.withSpace(r.space)
}

// lexPw assembles the pieces as a PwMultiAff.
func (r rel) lexPw(max bool) PwMultiAff {
	pw := PwMultiAff{Space: r.space}
	for _, p := range r.lexOpt(max) {
		dom := p.m.domain()
		if !r.space.IsMap {
			dom = p.m.params()
		}
		if dom.isEmpty() {
			continue
		}
		pw.Pieces = append(pw.Pieces, PwPiece{Domain: Set{dom}, Aff: p.aff})
	}
	return pw
}
