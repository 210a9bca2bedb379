package simplex

import "github.com/tilefuse/tilefuse/presburger/internal/arith"

// This file holds the integer linear algebra: unimodular column reduction
// (the extended-gcd step of a column Hermite normal form), the integer
// solution lattice of a system of equalities, and affine changes of
// coordinates of constraint rows.

// identity returns the n×n identity matrix.
func identity(n int) [][]int64 {
	m := make([][]int64, n)
	for i := range m {
		m[i] = make([]int64, n)
		m[i][i] = 1
	}
	return m
}

// columnReduce applies unimodular column operations to the entries p.. of v,
// and the same operations to the columns of every row of mat, until v[p] is
// the (positive) gcd of v[p:] and v[p+1:] is zero. It returns false, doing
// nothing, when v[p:] is zero. Keeping mat in step is what turns the
// operations into the transformation matrix.
func columnReduce(v []int64, p int, mat [][]int64) bool {
	for {
		// The smallest non-zero entry reduces all the others (Euclid).
		j := -1
		for l := p; l < len(v); l++ {
			if v[l] != 0 && (j < 0 || arith.Abs(v[l]) < arith.Abs(v[j])) {
				j = l
			}
		}
		if j < 0 {
			return false
		}
		done := true
		for l := p; l < len(v); l++ {
			if l == j || v[l] == 0 {
				continue
			}
			q := v[l] / v[j]
			v[l] = arith.Sub(v[l], arith.Mul(q, v[j]))
			for _, row := range mat {
				row[l] = arith.Sub(row[l], arith.Mul(q, row[j]))
			}
			if v[l] != 0 {
				done = false
			}
		}
		if !done {
			continue
		}
		if j != p {
			v[p], v[j] = v[j], v[p]
			for _, row := range mat {
				row[p], row[j] = row[j], row[p]
			}
		}
		if v[p] < 0 {
			v[p] = arith.Neg(v[p])
			for _, row := range mat {
				row[p] = arith.Neg(row[p])
			}
		}
		return true
	}
}

// solveEqs computes the integer solutions of the equalities over n
// variables as the lattice x = x0 + V·y, y ∈ Z^m (V is n×m, its columns
// independent). ok is false when there is no integer solution. Each
// equality is substituted into the current parametrisation, reduced by
// unimodular column operations to g·y_0 + d = 0, and y_0 eliminated.
func solveEqs(eqs [][]int64, n int) (x0 []int64, v [][]int64, m int, ok bool) {
	x0 = make([]int64, n)
	v = identity(n)
	m = n
	for _, e := range eqs {
		b := make([]int64, m)
		d := e[0]
		for i := range n {
			a := e[1+i]
			if a == 0 {
				continue
			}
			d = arith.Add(d, arith.Mul(a, x0[i]))
			for j := range m {
				b[j] = arith.Add(b[j], arith.Mul(a, v[i][j]))
			}
		}
		if !columnReduce(b, 0, v) {
			if d != 0 {
				return nil, nil, 0, false
			}
			continue
		}
		if d%b[0] != 0 {
			return nil, nil, 0, false
		}
		z := arith.Neg(d / b[0])
		for i := range n {
			x0[i] = arith.Add(x0[i], arith.Mul(v[i][0], z))
			v[i] = v[i][1:]
		}
		m--
	}
	return x0, v, m, true
}

// affineSubst rewrites the constraint row (over x) in terms of y where
// x = x0 + V·y, V being n×m; x0 may be nil (zero).
func affineSubst(row []int64, x0 []int64, v [][]int64, m int) []int64 {
	out := make([]int64, 1+m)
	out[0] = row[0]
	for i, a := range row[1:] {
		if a == 0 {
			continue
		}
		if x0 != nil {
			out[0] = arith.Add(out[0], arith.Mul(a, x0[i]))
		}
		for j := range m {
			out[1+j] = arith.Add(out[1+j], arith.Mul(a, v[i][j]))
		}
	}
	return out
}

// applyAffine returns x0 + V·y.
func applyAffine(x0 []int64, v [][]int64, y []int64) []int64 {
	x := make([]int64, len(v))
	for i, vi := range v {
		var s int64
		if x0 != nil {
			s = x0[i]
		}
		for j, yj := range y {
			s = arith.Add(s, arith.Mul(vi[j], yj))
		}
		x[i] = s
	}
	return x
}

// tighten normalises an inequality over the integers: it divides the
// coefficients by their gcd g and floors the constant, which keeps exactly
// the same integer points. For a constant row it reports whether the row
// holds (keep=false: drop it; ok=false: infeasible).
func tighten(row []int64) (out []int64, keep, ok bool) {
	g := arith.GCDVec(row[1:])
	if g == 0 {
		return nil, false, row[0] >= 0
	}
	if g == 1 {
		return row, true, true
	}
	out = make([]int64, len(row))
	out[0] = arith.FloorDiv(row[0], g)
	for j := 1; j < len(row); j++ {
		out[j] = row[j] / g
	}
	return out, true, true
}

// tightenAll tightens a system of inequalities, dropping constant rows; ok
// is false when a constant row is violated.
func tightenAll(rows [][]int64) ([][]int64, bool) {
	out := rows[:0:0]
	for _, r := range rows {
		tr, keep, ok := tighten(r)
		if !ok {
			return nil, false
		}
		if keep {
			out = append(out, tr)
		}
	}
	return out, true
}

// fixVar substitutes x_j = val into every row, removing variable j, and
// tightens the result; ok is false when a constant row is violated.
func fixVar(rows [][]int64, j int, val int64) ([][]int64, bool) {
	out := make([][]int64, 0, len(rows))
	for _, r := range rows {
		nr := make([]int64, len(r)-1)
		nr[0] = arith.Add(r[0], arith.Mul(r[1+j], val))
		copy(nr[1:], r[1:1+j])
		copy(nr[1+j:], r[2+j:])
		out = append(out, nr)
	}
	return tightenAll(out)
}

// satisfies reports whether the integer point x satisfies every equality
// and inequality exactly.
func satisfies(eqs, ineqs [][]int64, x []int64) bool {
	for _, e := range eqs {
		if eval(e, x) != 0 {
			return false
		}
	}
	for _, r := range ineqs {
		if eval(r, x) < 0 {
			return false
		}
	}
	return true
}

// eval returns row[0] + Σ row[1+j]·x_j.
func eval(row, x []int64) int64 {
	s := row[0]
	for j, a := range row[1:] {
		s = arith.Add(s, arith.Mul(a, x[j]))
	}
	return s
}
