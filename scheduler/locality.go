package scheduler

import (
	"math/big"
	"slices"

	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// This file picks the innermost member of a band that ends every
// statement's schedule, as Pluto's intra-tile optimisation does: the
// member along which the accesses have the best locality goes last. Any
// order of a band's members is legal (each member satisfies every edge of
// the band's start weakly, and coincidence is judged on those edges), so
// only the locality changes: the hyperplane problem's objective ignores
// it, and its tie-breaking can leave a column walk innermost (fdtd-2d
// under smart fusion walked its arrays by columns, 25x slower).

// innermostForLocality moves the member with the best locality to the
// end of b, keeping the others' order, when b completes the schedule of
// every statement of group and that member beats the current last one.
// Without a parallel loop around the band, its only coincident member
// stays where it is: moving it innermost would trade the outer parallel
// loop for vectorization.
func (s *scheduler) innermostForLocality(group []int, b *band) {
	n := len(b.members)
	if n < 2 {
		return
	}
	for _, i := range group {
		if !s.stmts[i].full() {
			return
		}
	}
	scores := make([]scheduletree.Locality, n)
	for m := range b.members {
		scores[m] = s.memberLocality(group, b, m)
	}
	best := n - 1
	for m := 0; m < n-1; m++ {
		if !s.movable(b, m) {
			continue
		}
		if scores[m].Better(scores[best]) {
			best = m
		}
	}
	if best == n-1 {
		return
	}
	b.members, b.coincident = moveToEnd(b.members, best), moveToEnd(b.coincident, best)
}

// movable reports whether innermostForLocality may move member m of b
// innermost: not the band's only coincident member when no parallel loop
// is around it (that would trade the parallel loop for vectorization).
func (s *scheduler) movable(b *band, m int) bool {
	if !b.coincident[m] || s.parallelAbove > 0 {
		return true
	}
	ncoinc := 0
	for _, c := range b.coincident {
		if c {
			ncoinc++
		}
	}
	return ncoinc > 1
}

// moveToEnd returns a copy of s with its element i moved last.
func moveToEnd[T any](s []T, i int) []T {
	return append(slices.Delete(slices.Clone(s), i, i+1), s[i])
}

// memberLocality scores member m of b as the innermost loop over the
// accesses of every statement of group.
func (s *scheduler) memberLocality(group []int, b *band, m int) scheduletree.Locality {
	score := scheduletree.Locality{Coincident: b.coincident[m]}
	for _, i := range group {
		d := s.memberStep(i, b, m)
		if d == nil {
			continue // the statement does not move along m alone
		}
		for _, r := range stmtRefs(s.p.Stmts[i]) {
			switch accessStride(r, d, len(s.p.Stmts[i].Iters)) {
			case strideNone:
				score.Reuse += 2
			case strideRow:
				score.Reuse++
			case strideFar:
				score.Poor++
			}
		}
	}
	return score
}

// memberStep returns the step d in statement i's iteration space that
// advances member m by one and leaves the outer levels, the band's other
// members and the rows fixed unchanged, or nil where there is no such
// step.
func (s *scheduler) memberStep(i int, b *band, m int, fixed ...[]int64) []*big.Rat {
	st := s.stmts[i]
	var rows [][]int64
	var rhs []int64
	for _, r := range st.basis[:b.outer[i]] {
		rows, rhs = append(rows, r), append(rhs, 0)
	}
	for k, mem := range b.members {
		v := int64(0)
		if k == m {
			v = 1
		}
		rows, rhs = append(rows, mem[i].c), append(rhs, v)
	}
	for _, r := range fixed {
		rows, rhs = append(rows, r), append(rhs, 0)
	}
	return solveUnique(rows, rhs, st.dim)
}

// solveUnique solves rows·x = rhs over the rationals; nil unless there is
// exactly one solution.
func solveUnique(rows [][]int64, rhs []int64, n int) []*big.Rat {
	aug := make([][]*big.Rat, len(rows))
	for r, row := range rows {
		aug[r] = make([]*big.Rat, n+1)
		for c := 0; c < n; c++ {
			aug[r][c] = big.NewRat(row[c], 1)
		}
		aug[r][n] = big.NewRat(rhs[r], 1)
	}
	rank := 0
	pivots := make([]int, 0, n)
	for c := 0; c < n && rank < len(aug); c++ {
		p := rank
		for p < len(aug) && aug[p][c].Sign() == 0 {
			p++
		}
		if p == len(aug) {
			return nil // a free variable: no unique step
		}
		aug[rank], aug[p] = aug[p], aug[rank]
		inv := new(big.Rat).Inv(aug[rank][c])
		for j := range aug[rank] {
			aug[rank][j].Mul(aug[rank][j], inv)
		}
		for r := range aug {
			if r == rank || aug[r][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(aug[r][c])
			for j := range aug[r] {
				aug[r][j].Sub(aug[r][j], new(big.Rat).Mul(f, aug[rank][j]))
			}
		}
		pivots = append(pivots, c)
		rank++
	}
	if rank < n {
		return nil
	}
	for r := rank; r < len(aug); r++ {
		if aug[r][n].Sign() != 0 {
			return nil // inconsistent
		}
	}
	x := make([]*big.Rat, n)
	for r, c := range pivots {
		x[c] = aug[r][n]
	}
	return x
}

// The ways an access moves when its statement takes one step.
const (
	strideUnknown = iota // a subscript that is not affine
	strideNone           // the same element
	strideRow            // along the last dimension only
	strideFar            // to another row
)

// accessStride classifies how reference r moves along the step d of a
// statement with n iterators.
func accessStride(r scop.Ref, d []*big.Rat, n int) int {
	last := len(r.Index) - 1
	out := strideNone
	for k, e := range r.Index {
		coef, ok := iterCoefficients(e, n)
		if !ok {
			return strideUnknown
		}
		v := new(big.Rat)
		for j, c := range coef {
			if c != 0 {
				v.Add(v, new(big.Rat).Mul(big.NewRat(c, 1), d[j]))
			}
		}
		switch {
		case v.Sign() == 0:
		case k == last:
			out = strideRow
		default:
			return strideFar
		}
	}
	return out
}

// iterCoefficients returns the coefficients of the iterators in the
// affine subscript e (parameters and constants dropped), or false where
// e is not affine in the iterators.
func iterCoefficients(e scop.Expr, n int) ([]int64, bool) {
	out := make([]int64, n)
	var walk func(e scop.Expr, f int64) bool
	walk = func(e scop.Expr, f int64) bool {
		switch e := e.(type) {
		case *scop.Const, *scop.Param:
			return true
		case *scop.Iter:
			out[e.Index] += f
			return true
		case *scop.Cast:
			return walk(e.X, f)
		case *scop.Unary:
			return e.Op == scop.Neg && walk(e.X, -f)
		case *scop.Binary:
			switch e.Op {
			case scop.Add:
				return walk(e.X, f) && walk(e.Y, f)
			case scop.Sub:
				return walk(e.X, f) && walk(e.Y, -f)
			case scop.Mul:
				if c, ok := e.X.(*scop.Const); ok {
					return walk(e.Y, f*c.I)
				}
				if c, ok := e.Y.(*scop.Const); ok {
					return walk(e.X, f*c.I)
				}
			}
		}
		return false
	}
	if !walk(e, 1) {
		return nil, false
	}
	return out, true
}

// localitySplit reports whether the band b, just found for a group that
// fuses several components, leaves a statement one dimension short, a
// component of its own (distributed, it gets a band of its own), that
// reduces into one element along that dimension, and whose last loop
// (inside b's loops, from the band below) walks its arrays worse than one
// of b's members would as its innermost loop. Fusion then costs
// locality that the reordering cannot win back, since the member is shared
// with statements that end with the band: the group is better distributed
// at this level, where each part's band is ordered for locality. (Smart
// fusion ran covariance's cov[i][j] += data[k][i] * data[k][j] under the
// band (i, j) shared with the normalisation, k innermost walking data by
// columns: 30 times slower than min's distributed (i, k, j).) Only
// smart fusion asks: max fuses whatever it legally can, by definition.
func (s *scheduler) localitySplit(comps [][]int, b *band) bool {
	for _, comp := range comps {
		if len(comp) != 1 {
			continue // distributed, it would still share its loops
		}
		i := comp[0]
		st := s.stmts[i]
		if st.dim-len(st.basis) != 1 || b.outer[i]+len(b.members) != len(st.basis) {
			continue
		}
		last, k := s.remainingStep(i)
		if last == nil {
			continue
		}
		if accessStride(s.p.Stmts[i].Write, last, st.dim) != strideNone {
			continue // not a reduction: its loop stays fused
		}
		refs := stmtRefs(s.p.Stmts[i])
		poorLast := poorAccesses(refs, last, st.dim)
		for m := range b.members {
			if !s.movable(b, m) {
				continue
			}
			step := s.memberStep(i, b, m, unitRow(st.dim, k)) // k held
			if step != nil && poorAccesses(refs, step, st.dim) < poorLast {
				return true
			}
		}
	}
	return false
}

// remainingStep is the step of statement i's one dimension left after its
// basis (the outer levels and the band), scaled to move iterator k by one,
// k the innermost iterator it moves; nil where there is none.
func (s *scheduler) remainingStep(i int) ([]*big.Rat, int) {
	st := s.stmts[i]
	for k := st.dim - 1; k >= 0; k-- {
		rows := append(slices.Clone(st.basis), unitRow(st.dim, k))
		rhs := make([]int64, len(rows))
		rhs[len(rhs)-1] = 1
		if d := solveUnique(rows, rhs, st.dim); d != nil {
			return d, k
		}
	}
	return nil, -1
}

func unitRow(n, k int) []int64 {
	r := make([]int64, n)
	r[k] = 1
	return r
}

// stmtRefs is the write and the reads of a statement.
func stmtRefs(st *scop.Stmt) []scop.Ref {
	refs := []scop.Ref{st.Write}
	scop.Walk(st.Value, func(e scop.Expr) bool {
		if r, ok := e.(*scop.Read); ok {
			refs = append(refs, r.Ref)
		}
		return true
	})
	return refs
}

// poorAccesses counts the references that move to another row along d.
func poorAccesses(refs []scop.Ref, d []*big.Rat, n int) int {
	poor := 0
	for _, r := range refs {
		if accessStride(r, d, n) == strideFar {
			poor++
		}
	}
	return poor
}
