package transpose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Copy is one transposed copy of a read-only array.
type Copy struct {
	// Array is the array copied, Copy the temporary holding the copy and
	// Stmt the statement writing it: dimension d of Copy is dimension
	// Perm[d] of Array.
	Array, Copy, Stmt string
	Perm              []int
	// Reads are the reads now served by the copy: "S1: A[j][k]".
	Reads []string
}

// String says what was copied: "At[k][j] = A[j][k] (S3) for S1: A[j][k]".
func (c Copy) String() string {
	src := make([]string, len(c.Perm))
	dst := make([]string, len(c.Perm))
	for d := range c.Perm {
		src[d] = fmt.Sprintf("e%d", d)
	}
	for d, from := range c.Perm {
		dst[d] = src[from]
	}
	return fmt.Sprintf("%s[%s] = %s[%s] (%s) for %s", c.Copy, strings.Join(dst, "]["), c.Array,
		strings.Join(src, "]["), c.Stmt, strings.Join(c.Reads, ", "))
}

// Program gives p's read-only arrays read across their rows transposed
// copies where the package documentation's rule says so. It returns p
// itself and no copies when there is nothing to copy.
func Program(p *scop.Program) (*scop.Program, []Copy, error) {
	plans := plan(p)
	if len(plans) == 0 {
		return p, nil, nil
	}
	q, copies, err := build(p, plans)
	if err != nil {
		return p, nil, fmt.Errorf("transpose: %w", err)
	}
	return q, copies, nil
}

// use is one read to be served by a copy.
type use struct {
	stmt  *scop.Stmt
	read  *scop.Read
	index int // the read's position in stmt.Reads
}

// group is the reads of one array served by one copy.
type group struct {
	array *scop.Array
	perm  []int
	uses  []use
}

// plan picks the reads to copy, grouped by array and permutation in the
// order first met.
func plan(p *scop.Program) []*group {
	written := map[string]bool{}
	for _, s := range p.Stmts {
		written[s.Write.Array] = true
	}
	var groups []*group
	for _, s := range p.Stmts {
		for _, u := range stmtUses(p, s, written) {
			perm := lastMoved(len(u.read.Index), u.pos)
			i := slices.IndexFunc(groups, func(g *group) bool { return g.array.Name == u.read.Array && slices.Equal(g.perm, perm) })
			if i < 0 {
				groups = append(groups, &group{array: p.Array(u.read.Array), perm: perm})
				i = len(groups) - 1
			}
			groups[i].uses = append(groups[i].uses, u.use)
		}
	}
	return groups
}

// posUse is a use with the subscript position the loop moves.
type posUse struct {
	use
	pos int
}

// stmtUses applies the rule to one statement: the reads to copy, none
// when the statement has a good innermost loop already or no loop a copy
// makes good.
func stmtUses(p *scop.Program, s *scop.Stmt, written map[string]bool) []posUse {
	if s.MayWrite || len(s.Iters) == 0 {
		return nil
	}
	w, ok := subscriptRows(s.Write.Index, len(s.Iters))
	if !ok || len(w) == 0 {
		return nil
	}
	reads := stmtReads(s)
	if len(reads) != len(s.Reads) {
		return nil
	}
	rows := make([][][]int64, len(reads))
	for i, r := range reads {
		if rows[i], ok = subscriptRows(r.Index, len(s.Iters)); !ok {
			return nil
		}
	}
	for d := range s.Iters {
		if unitLast(w, d) && !slices.ContainsFunc(rows, func(r [][]int64) bool { return !contiguous(r, d) }) {
			return nil // d is good already
		}
	}
	for d := len(s.Iters) - 1; d >= 0; d-- {
		if !unitLast(w, d) {
			continue
		}
		var out []posUse
		for i, r := range reads {
			if contiguous(rows[i], d) {
				continue
			}
			a := p.Array(r.Array)
			pos, ok := onlyIn(rows[i], d)
			if !ok || written[r.Array] || a == nil || !a.LiveIn || a.Rank() < 2 || rank(rows[i]) >= len(s.Iters) {
				out = nil
				break
			}
			out = append(out, posUse{use{s, r, i}, pos})
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// stmtReads lists s's reads in the order of s.Reads: those in the write's
// subscripts, then those of the value.
func stmtReads(s *scop.Stmt) []*scop.Read {
	var out []*scop.Read
	for _, x := range s.Write.Index {
		out = append(out, scop.Reads(x)...)
	}
	return append(out, scop.Reads(s.Value)...)
}

// unitLast reports whether the subscript rows move with unit stride in
// their last subscript along loop d and not in the others.
func unitLast(rows [][]int64, d int) bool {
	pos, ok := onlyIn(rows, d)
	return ok && pos == len(rows)-1
}

// contiguous reports whether an access is invariant along loop d or moves
// with unit stride in its last subscript.
func contiguous(rows [][]int64, d int) bool {
	return !slices.ContainsFunc(rows, func(r []int64) bool { return r[d] != 0 }) || unitLast(rows, d)
}

// onlyIn returns the one subscript loop d appears in, with coefficient 1.
func onlyIn(rows [][]int64, d int) (int, bool) {
	pos := -1
	for i, r := range rows {
		switch {
		case r[d] == 0:
		case r[d] == 1 && pos < 0:
			pos = i
		default:
			return 0, false
		}
	}
	return pos, pos >= 0
}

// lastMoved is the permutation of n dimensions that moves dimension pos
// to the end.
func lastMoved(n, pos int) []int {
	perm := make([]int, 0, n)
	for d := 0; d < n; d++ {
		if d != pos {
			perm = append(perm, d)
		}
	}
	return append(perm, pos)
}

// subscriptRows returns each subscript's coefficients over the n
// iterators; false where one is not affine in them (parameters and
// constants are allowed and dropped).
func subscriptRows(index []scop.Expr, n int) ([][]int64, bool) {
	out := make([][]int64, len(index))
	for i, x := range index {
		r, ok := linear(x, n)
		if !ok {
			return nil, false
		}
		out[i] = r
	}
	return out, true
}

// linear returns e's iterator coefficients.
func linear(e scop.Expr, n int) ([]int64, bool) {
	zero := make([]int64, n)
	switch e := e.(type) {
	case *scop.Const:
		return zero, !e.T.IsFloat()
	case *scop.Param:
		return zero, true
	case *scop.Iter:
		if e.Index < 0 || e.Index >= n {
			return nil, false
		}
		zero[e.Index] = 1
		return zero, true
	case *scop.Cast:
		if !e.T.IsInt() {
			return nil, false
		}
		return linear(e.X, n)
	case *scop.Unary:
		x, ok := linear(e.X, n)
		if !ok || e.Op != scop.Neg {
			return nil, false
		}
		return scaled(x, -1), true
	case *scop.Binary:
		x, okx := linear(e.X, n)
		y, oky := linear(e.Y, n)
		if !okx || !oky {
			return nil, false
		}
		switch e.Op {
		case scop.Add:
			return added(x, y, 1), true
		case scop.Sub:
			return added(x, y, -1), true
		case scop.Mul:
			if c, ok := scop.ConstInt(e.X); ok {
				return scaled(y, c), true
			}
			if c, ok := scop.ConstInt(e.Y); ok {
				return scaled(x, c), true
			}
		}
	}
	return nil, false
}

func scaled(x []int64, c int64) []int64 {
	out := make([]int64, len(x))
	for i, v := range x {
		out[i] = c * v
	}
	return out
}

func added(x, y []int64, sign int64) []int64 {
	out := make([]int64, len(x))
	for i := range x {
		out[i] = x[i] + sign*y[i]
	}
	return out
}

// rank is the rank of the integer rows, by Bareiss's fraction-free
// elimination on a copy (every division exact, entries bounded by the
// rows' minors).
func rank(rows [][]int64) int {
	m := make([][]int64, len(rows))
	for i, r := range rows {
		m[i] = slices.Clone(r)
	}
	r, prev := 0, int64(1)
	for c := 0; len(m) > 0 && c < len(m[0]) && r < len(m); c++ {
		piv := slices.IndexFunc(m[r:], func(row []int64) bool { return row[c] != 0 })
		if piv < 0 {
			continue
		}
		m[r], m[r+piv] = m[r+piv], m[r]
		for i := r + 1; i < len(m); i++ {
			for k := c + 1; k < len(m[i]); k++ {
				m[i][k] = (m[r][c]*m[i][k] - m[i][c]*m[r][k]) / prev
				if m[i][k] > 1<<30 || m[i][k] < -(1<<30) {
					return len(rows) // too large to trust: full rank, so no copy
				}
			}
			m[i][c] = 0
		}
		prev = m[r][c]
		r++
	}
	return r
}

// footprint is the elements of the array the group's reads touch.
func (g *group) footprint() (presburger.Set, error) {
	var out presburger.Set
	for i, u := range g.uses {
		m, err := u.stmt.Reads[u.index].Rel.IntersectDomain(u.stmt.Domain)
		if err != nil {
			return out, err
		}
		r, err := m.Range()
		if err != nil {
			return out, err
		}
		if i == 0 {
			out = r
		} else if out, err = out.Union(r); err != nil {
			return out, err
		}
	}
	return out.Coalesce()
}
