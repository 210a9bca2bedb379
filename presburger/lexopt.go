package presburger

import (
	"errors"

	"tilefuse/presburger/internal/arith"
	"tilefuse/presburger/internal/pip"
	"tilefuse/presburger/internal/simplex"
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
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		eqs, ineqs := b.system()
		nPar := np + ni
		nVar := b.nCol() - 1 - nPar
		sol, err := optimize(nPar, nVar, no, eqs, ineqs, max, b)
		if err != nil {
			if errors.Is(err, pip.ErrUnbounded) {
				panic(internalError{ErrUnbounded})
			}
			panic(internalError{err})
		}
		for _, p := range sol {
			pieces = append(pieces, pieceFromPIP(asMap, b.bud, p, no))
		}
	}
	return combineLex(pieces, max)
}

// optimize runs PIP over [outputs, locals]. The locals are existential: only
// the outputs' optimum matters, and the direction in which the locals are
// optimised after them is free. When the locals are unbounded in the
// requested direction, it retries with them optimised the other way. The
// constraints on the parameters alone form PIP's context, so that it does
// not split off the regions where they fail, only to find them empty.
func optimize(nPar, nVar, no int, eqs, ineqs [][]int64, max bool, b *basic) ([]pip.Piece, error) {
	solve := pip.LexMin
	if max {
		solve = pip.LexMax
	}
	ctxEqs, eqs := splitContext(eqs, nPar)
	ctxIneqs, ineqs := splitContext(ineqs, nPar)
	sol, _, err := solve(nPar, nVar, eqs, ineqs, ctxEqs, ctxIneqs, b.solver())
	if !errors.Is(err, pip.ErrUnbounded) || nVar == no {
		return sol, err
	}
	// Negate the local columns: optimising -e in the same direction
	// optimises e in the other one.
	flip := func(rows [][]int64) [][]int64 {
		out := make([][]int64, len(rows))
		for i, r := range rows {
			out[i] = append([]int64(nil), r...)
			for j := 1 + nPar + no; j < len(r); j++ {
				out[i][j] = arith.Neg(r[j])
			}
		}
		return out
	}
	sol, _, err = solve(nPar, nVar, flip(eqs), flip(ineqs), ctxEqs, ctxIneqs, b.solver())
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
// strictly better (or equally good with j < i).
func combineLex(pieces []lexPiece, max bool) []lexPiece {
	if len(pieces) < 2 {
		return pieces
	}
	var out []lexPiece
	for i, pi := range pieces {
		dom := pi.m.domain()
		for j, pj := range pieces {
			if i == j {
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
				out = append(out, lexPiece{m: relFromBasic(pi.m.space, mb), aff: pi.aff})
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
