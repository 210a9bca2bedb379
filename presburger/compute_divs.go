package presburger

import (
	"errors"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/pip"
)

// ExplicitLocals returns s with every local given a floor definition,
// splitting disjuncts where one definition does not fit all their points
// (isl_set_compute_divs). The set is unchanged.
func (s Set) ExplicitLocals() (res Set, err error) {
	defer catch(&err)
	r := s.r.with(newBudget())
	out := rel{space: r.space}
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		if b.allDivsKnown() {
			out.parts = append(out.parts, b)
			continue
		}
		for _, k := range b.knownDivs() {
			if !k.empty {
				out.parts = append(out.parts, k)
			}
		}
	}
	return Set{out}, nil
}

// divsByLexMin gives every undefined local of b an explicit definition, as
// isl's compute_divs does: the lexicographic minimum of the undefined locals
// as a function of all other columns is piecewise quasi-affine, so b is the
// union over its pieces of b with the locals fixed to that minimum (or the
// maximum, when the minimum is unbounded).
func (b *basic) divsByLexMin() []*basic {
	var undef, known []int // columns
	for j := 1; j <= b.nVar(); j++ {
		known = append(known, j)
	}
	for k := range b.divs {
		if b.divKnown(k) {
			known = append(known, b.divCol(k))
		} else {
			undef = append(undef, b.divCol(k))
		}
	}
	// PIP columns: [1, known..., undef...].
	order := append(append([]int{0}, known...), undef...)
	reorder := func(row []int64) []int64 {
		out := make([]int64, len(order))
		for i, c := range order {
			out[i] = row[c]
		}
		return out
	}
	eqs, ineqs := b.system()
	var pe, pi [][]int64
	for _, e := range eqs {
		pe = append(pe, reorder(e))
	}
	for _, in := range ineqs {
		pi = append(pi, reorder(in))
	}
	sol, _, err := pip.LexMin(len(known), len(undef), pe, pi, nil, nil, b.solver())
	if errors.Is(err, pip.ErrUnbounded) {
		sol, _, err = pip.LexMax(len(known), len(undef), pe, pi, nil, nil, b.solver())
	}
	if err != nil {
		panic(internalError{errors.Join(ErrNoExplicitLocals, err)})
	}
	var out []*basic
	for _, p := range sol {
		c := b.clone()
		// PIP row [1, known..., piece divs...] -> c's columns.
		base := c.nCol()
		move := func(row []int64) []int64 {
			r := make([]int64, base+len(p.Divs))
			for i, v := range row[:1+len(known)] {
				r[order[i]] = v
			}
			copy(r[base:], row[1+len(known):])
			return r
		}
		for range p.Divs {
			c.addDiv(nil, 0)
		}
		for k, d := range p.Divs {
			c.divs[len(b.divs)+k] = div{num: move(pad(append([]int64(nil), d.Num...), 1+len(known)+len(p.Divs))), den: d.Den}
		}
		for _, e := range p.Eqs {
			c.eqs = append(c.eqs, move(pad(e, 1+len(known)+len(p.Divs))))
		}
		for _, in := range p.Ineqs {
			c.ineqs = append(c.ineqs, move(pad(in, 1+len(known)+len(p.Divs))))
		}
		for j, col := range undef {
			row := move(pad(append([]int64(nil), p.Sol[j]...), 1+len(known)+len(p.Divs)))
			for i := range row {
				row[i] = arith.Neg(row[i])
			}
			row[col] = arith.Add(row[col], 1)
			c.eqs = append(c.eqs, row)
		}
		out = append(out, c)
	}
	return out
}
