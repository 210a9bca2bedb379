package scheduler

import (
	"fmt"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// buildEdges turns the dependences of g into the scheduler's edges, one per
// ordered pair of statements (all kinds and arrays together: a schedule
// must respect their union), within the program's context. A dependence
// relation unites all access pairs of its two statements to the array
// (coalesced by package deps); the scheduler splits it again into one
// piece per access pair, Dep ∩ (a ∘ b⁻¹). The pieces cover the dependence
// exactly, and each is a simple polyhedron (a stencil's offsets become
// equalities) whose Farkas coefficient set is small and whose rational
// relaxation is tighter than the hull's. The coefficient set of the union
// is computed at once, so that rows implied by another piece's go.
func buildEdges(p *scop.Program, g *deps.Graph, at map[string]int) ([]*edge, error) {
	var out []*edge
	byPair := map[[2]int]*edge{}
	seen := map[[2]int]map[string]bool{}
	for _, d := range g.Deps {
		src, okS := at[d.Source]
		dst, okT := at[d.Sink]
		if !okS || !okT {
			return nil, fmt.Errorf("scheduler: dependence %s -> %s names an unknown statement", d.Source, d.Sink)
		}
		ps, err := pieces(p.Stmts[src], p.Stmts[dst], d)
		if err != nil {
			return nil, fmt.Errorf("scheduler: dependence %s %s -> %s on %s: %w", d.Kind, d.Source, d.Sink, d.Array, err)
		}
		key := [2]int{src, dst}
		e := byPair[key]
		if e == nil {
			e = &edge{src: src, dst: dst, rel: presburger.EmptyMap(d.Rel.Space())}
			byPair[key], seen[key] = e, map[string]bool{}
			out = append(out, e)
		}
		for _, piece := range ps {
			piece, err = withContext(p, piece)
			if err != nil {
				return nil, err
			}
			for _, b := range piece.Basics() {
				if k := b.String(); !seen[key][k] {
					seen[key][k] = true
					if e.rel, err = e.rel.Union(b); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	var nonEmpty []*edge
	for _, e := range out {
		if empty, err := e.rel.IsEmpty(); err != nil {
			return nil, err
		} else if !empty {
			nonEmpty = append(nonEmpty, e)
		}
	}
	return nonEmpty, nil
}

// pieces splits d.Rel by the access pairs that cause it.
func pieces(s, t *scop.Stmt, d deps.Dep) ([]presburger.Map, error) {
	from, to := s.Writes, t.Reads
	switch d.Kind {
	case deps.WAR:
		from, to = s.Reads, t.Writes
	case deps.WAW:
		to = t.Writes
	}
	var out []presburger.Map
	for _, a := range from {
		if a.Array != d.Array {
			continue
		}
		for _, b := range to {
			if b.Array != d.Array {
				continue
			}
			back, err := b.Rel.Reverse()
			if err != nil {
				return nil, err
			}
			conflict, err := a.Rel.ApplyRange(back)
			if err != nil {
				return nil, err
			}
			piece, err := d.Rel.Intersect(conflict)
			if err != nil {
				return nil, err
			}
			out = append(out, piece)
		}
	}
	if len(out) == 0 { // cannot happen for a dependence of g; keep it whole
		out = append(out, d.Rel)
	}
	return out, nil
}

// withContext intersects a map over the program's parameters with the
// program's context.
func withContext(p *scop.Program, m presburger.Map) (presburger.Map, error) {
	sp := m.Space()
	if len(sp.Params) != len(p.Params) {
		return m, fmt.Errorf("scheduler: %s is not over the parameters %v", sp, p.Params)
	}
	for i, n := range sp.Params {
		if p.Params[i] != n {
			return m, fmt.Errorf("scheduler: %s is not over the parameters %v", sp, p.Params)
		}
	}
	width := 1 + sp.NParam() + sp.NIn() + sp.NOut()
	pieces := p.Context.Constraints()
	if len(pieces) == 0 {
		return presburger.EmptyMap(sp), nil
	}
	ctx := presburger.EmptyMap(sp)
	for _, c := range pieces {
		if c.NLocal > 0 {
			return m, nil // existentials: leave m larger, which is safe
		}
		piece, err := presburger.MapFromConstraints(sp, widenRows(c.Eqs, width), widenRows(c.Ineqs, width))
		if err != nil {
			return m, err
		}
		if ctx, err = ctx.Union(piece); err != nil {
			return m, err
		}
	}
	return m.Intersect(ctx)
}

// uniform reports whether every pair of e is t = s + (a constant of its
// piece), between statements of one dimension: a stencil's dependence.
func (e *edge) uniform(stmts []*stmt) bool {
	if e.isUniform != 0 {
		return e.isUniform > 0
	}
	e.isUniform = -1
	n := stmts[e.src].dim
	if n != stmts[e.dst].dim || e.src == e.dst {
		return false
	}
	for _, b := range e.rel.Constraints() {
		np := b.NParam
		for j := 0; j < n; j++ {
			found := false
			for _, r := range b.Eqs {
				if isShift(r, 1+np+j, 1+np+n+j) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	e.isUniform = 1
	return true
}

// isShift reports whether r is ±(x_b - x_a - const) = 0.
func isShift(r []int64, a, b int) bool {
	if r[a] != -r[b] || (r[b] != 1 && r[b] != -1) {
		return false
	}
	for k := 1; k < len(r); k++ {
		if k != a && k != b && r[k] != 0 {
			return false
		}
	}
	return true
}
