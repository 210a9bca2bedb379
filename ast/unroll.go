package ast

import (
	"github.com/tilefuse/tilefuse/presburger"
)

// unroll generates one copy of the body per value of dimension d when
// some lower bound l has l + w >= every upper bound for a constant w
// within the unroll limit: the values l, l + stride, ..., each copy
// guarded by what the statements below require.
func (g *gen) unroll(bnd *bounds, stmts []stmt, st *state, build presburger.Set, body bodyFn) (result, bool, error) {
	best, width := -1, int64(-1)
	for i, l := range bnd.lower[0] {
		w := int64(-1)
		l = g.resolve(l, st)
		for _, u := range bnd.upper[0] {
			if diff := g.resolve(u, st).plus(l, -1); diff.isConst() && (w < 0 || diff.k < w) {
				w = diff.k
			}
		}
		if w >= 0 && (width < 0 || w < width) {
			best, width = i, w
		}
	}
	if best < 0 || width/bnd.stride+1 > int64(g.opts.UnrollLimit) {
		return result{}, false, nil
	}
	d := st.depth
	l := bnd.lower[0][best]
	var nodes []Node
	for k := int64(0); k <= width; k += bnd.stride {
		v := l.plus(constAff(k), 1)
		row := cons{a: dimAff(d).plus(v, -1), eq: true}
		rv := g.resolve(v, st)
		in, err := g.inner(st, build, []cons{row}, &rv)
		if err != nil {
			return result{}, true, err
		}
		r, err := body(stmts, in)
		if err != nil {
			return result{}, true, err
		}
		if r.node != nil {
			nodes = append(nodes, r.node)
		}
	}
	return result{node: block(nodes...)}, true, nil
}
