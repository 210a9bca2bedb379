package scheduler

import (
	"github.com/tilefuse/tilefuse/presburger"
)

// stmt is a statement as the scheduler sees it: its dimension and the
// linear parts of the hyperplanes found for it so far (its rank).
type stmt struct {
	name  string
	dim   int
	space presburger.Space // the domain's space
	basis [][]int64        // independent iterator-coefficient rows
}

func (s *stmt) full() bool { return len(s.basis) >= s.dim }

// edge is the dependences from one statement to another (all kinds and
// arrays) within the current group: the pairs not yet ordered by the outer
// levels of the tree.
type edge struct {
	src, dst int
	rel      presburger.Map // within the program's context; one piece per access pair
	cone     *cone          // Farkas coefficients of rel, computed lazily

	isUniform int // 0 unknown, 1 yes, -1 no
}

// cone is the Farkas coefficient set of an edge: rows over
// [0, c0, params, source dims, sink dims], each meaning row·c >= 0 (= 0
// for eqs) for the coefficients c of an affine form on the dependence
// polyhedron that is non-negative there.
type cone struct{ eqs, ineqs [][]int64 }

// hyper is one affine hyperplane of one statement:
// phi(i) = c·i + d·params + c0.
type hyper struct {
	c, d []int64
	c0   int64
}

// pairRow returns the row over [1, params, source dims, sink dims] of
// phi_dst(t) - phi_src(s).
func pairRow(np int, hs, ht hyper) []int64 {
	ns, nt := len(hs.c), len(ht.c)
	row := make([]int64, 1+np+ns+nt)
	row[0] = ht.c0 - hs.c0
	for j := 0; j < np; j++ {
		row[1+j] = ht.d[j] - hs.d[j]
	}
	for i, v := range hs.c {
		row[1+np+i] = -v
	}
	for i, v := range ht.c {
		row[1+np+ns+i] = v
	}
	return row
}

func negRow(r []int64) []int64 {
	out := make([]int64, len(r))
	for i, v := range r {
		out[i] = -v
	}
	return out
}

// restrict intersects m with the rows over its columns [1, params, in, out].
func restrict(m presburger.Map, eqs, ineqs [][]int64) (presburger.Map, error) {
	c, err := presburger.MapFromConstraints(m.Space(), eqs, ineqs)
	if err != nil {
		return m, err
	}
	return m.Intersect(c)
}

// bandMap returns { S[i] -> [phi_1(i), ..., phi_m(i)] } on the universe of
// the statement's space.
func bandMap(np int, st *stmt, hs []hyper) (presburger.Map, error) {
	m := len(hs)
	names := make([]string, m)
	sp := presburger.MapSpace(st.space.Params, st.space.Out, presburger.NewTuple("", names...))
	eqs := make([][]int64, m)
	for k, h := range hs {
		row := make([]int64, 1+np+st.dim+m)
		row[0] = h.c0
		copy(row[1:], h.d)
		copy(row[1+np:], h.c)
		row[1+np+st.dim+k] = -1
		eqs[k] = row
	}
	return presburger.MapFromConstraints(sp, eqs, nil)
}
