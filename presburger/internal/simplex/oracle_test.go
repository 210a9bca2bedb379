package simplex

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
)

// Independent oracles for the tests: brute-force enumeration of boxed
// integer points, and exact rational Fourier–Motzkin elimination over
// math/big (no int64 anywhere, so no shared failure mode with the package).

// bruteSample enumerates the integer points of [-box, box]^n in order and
// returns the first that satisfies the system, evaluated with big integers.
func bruteSample(eqs, ineqs [][]int64, n int, box int64) ([]int64, bool) {
	x := make([]int64, n)
	for i := range x {
		x[i] = -box
	}
	for {
		if fastSatisfies(eqs, ineqs, x) {
			return slices.Clone(x), true
		}
		i := 0
		for i < n && x[i] == box {
			x[i] = -box
			i++
		}
		if i == n {
			return nil, false
		}
		x[i]++
	}
}

// fastSatisfies evaluates with checked int64 arithmetic, falling back to
// big integers on overflow.
func fastSatisfies(eqs, ineqs [][]int64, x []int64) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = bigSatisfies(eqs, ineqs, x)
		}
	}()
	return satisfies(eqs, ineqs, x)
}

func bigEval(row, x []int64) *big.Int {
	s := big.NewInt(row[0])
	var t big.Int
	for j, a := range row[1:] {
		s.Add(s, t.Mul(big.NewInt(a), big.NewInt(x[j])))
	}
	return s
}

func bigSatisfies(eqs, ineqs [][]int64, x []int64) bool {
	for _, e := range eqs {
		if bigEval(e, x).Sign() != 0 {
			return false
		}
	}
	for _, r := range ineqs {
		if bigEval(r, x).Sign() < 0 {
			return false
		}
	}
	return true
}

// fmCon is a constraint c[0] + Σ c[1+j]·x_j (= | >= | >) 0 over big ints.
type fmCon struct {
	c    []*big.Int
	kind int // 0: =, 1: >=, 2: >
}

func toFM(eqs, ineqs [][]int64) []fmCon {
	var out []fmCon
	conv := func(r []int64, kind int) {
		c := make([]*big.Int, len(r))
		for i, x := range r {
			c[i] = big.NewInt(x)
		}
		out = append(out, fmCon{c, kind})
	}
	for _, e := range eqs {
		conv(e, 0)
	}
	for _, r := range ineqs {
		conv(r, 1)
	}
	return out
}

func (f fmCon) normalized() fmCon {
	g := new(big.Int)
	for _, x := range f.c {
		g.GCD(nil, nil, g, new(big.Int).Abs(x))
	}
	if g.Sign() == 0 || g.Cmp(big.NewInt(1)) == 0 {
		return f
	}
	c := make([]*big.Int, len(f.c))
	for i, x := range f.c {
		c[i] = new(big.Int).Quo(x, g)
	}
	return fmCon{c, f.kind}
}

func (f fmCon) key() string {
	var b strings.Builder
	fmt.Fprint(&b, f.kind)
	for _, x := range f.c {
		b.WriteString(",")
		b.WriteString(x.String())
	}
	return b.String()
}

// combine returns p·f + q·g (p, q > 0 for inequalities).
func combine(p *big.Int, f fmCon, q *big.Int, g fmCon) fmCon {
	c := make([]*big.Int, len(f.c))
	for i := range c {
		c[i] = new(big.Int).Add(new(big.Int).Mul(p, f.c[i]), new(big.Int).Mul(q, g.c[i]))
	}
	return fmCon{c, max(f.kind, g.kind)}.normalized()
}

// fmEliminate eliminates variable j (column 1+j), keeping the columns.
func fmEliminate(cons []fmCon, j int) []fmCon {
	col := 1 + j
	for i, e := range cons {
		if e.kind != 0 || e.c[col].Sign() == 0 {
			continue
		}
		// Substitute with the equality: |a|·c - sign(a)·c_j·e.
		a := e.c[col]
		abs := new(big.Int).Abs(a)
		var out []fmCon
		for k, c := range cons {
			if k == i {
				continue
			}
			if c.c[col].Sign() == 0 {
				out = append(out, c)
				continue
			}
			q := new(big.Int).Neg(c.c[col])
			if a.Sign() < 0 {
				q.Neg(q)
			}
			out = append(out, combine(abs, c, q, e))
		}
		return dedupe(out)
	}
	var pos, neg, out []fmCon
	for _, c := range cons {
		switch c.c[col].Sign() {
		case 0:
			out = append(out, c)
		case 1:
			pos = append(pos, c)
		default:
			neg = append(neg, c)
		}
	}
	for _, p := range pos {
		for _, n := range neg {
			out = append(out, combine(new(big.Int).Neg(n.c[col]), p, p.c[col], n))
		}
	}
	return dedupe(out)
}

func dedupe(cons []fmCon) []fmCon {
	seen := map[string]bool{}
	var out []fmCon
	for _, c := range cons {
		k := c.key()
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// constOK checks a constraint with all-zero coefficients.
func constOK(c fmCon) bool {
	s := c.c[0].Sign()
	switch c.kind {
	case 0:
		return s == 0
	case 1:
		return s >= 0
	}
	return s > 0
}

// fmEmpty reports rational emptiness of a system over n variables.
func fmEmpty(cons []fmCon, n int) bool {
	for j := range n {
		cons = fmEliminate(cons, j)
	}
	for _, c := range cons {
		if !constOK(c) {
			return true
		}
	}
	return false
}

// fmMax returns the exact maximum of obj over the system as a big.Rat, or
// the status Unbounded / Infeasible.
func fmMax(eqs, ineqs [][]int64, n int, obj []int64) (*big.Rat, Status) {
	// Add a variable t = obj (column n+1) and eliminate the others.
	ext := func(r []int64) []int64 { return append(slices.Clone(r), 0) }
	var e2, i2 [][]int64
	for _, e := range eqs {
		e2 = append(e2, ext(e))
	}
	for _, r := range ineqs {
		i2 = append(i2, ext(r))
	}
	t := ext(obj)
	for i := range t {
		t[i] = -t[i]
	}
	t[n+1] = 1
	e2 = append(e2, t)
	cons := toFM(e2, i2)
	for j := range n {
		cons = fmEliminate(cons, j)
	}
	var best *big.Rat
	for _, c := range cons {
		a := c.c[n+1]
		if a.Sign() == 0 {
			if !constOK(c) {
				return nil, Infeasible
			}
			continue
		}
		// a·t + c0 (>=|=) 0: an upper bound when a < 0 or an equality.
		if a.Sign() < 0 || c.kind == 0 {
			v := new(big.Rat).SetFrac(new(big.Int).Neg(c.c[0]), a)
			if best == nil || v.Cmp(best) < 0 {
				best = v
			}
		}
	}
	// Check feasibility of the projection onto t.
	if fmEmpty(cons, n+1) {
		return nil, Infeasible
	}
	if best == nil {
		return nil, Unbounded
	}
	return best, Optimal
}

// randRow returns a random row over n variables with coefficients in
// [-cmax, cmax] (some zeroed) and a constant in [-kmax, kmax].
func randRow(r *rand.Rand, n int, cmax, kmax int64) []int64 {
	row := make([]int64, 1+n)
	row[0] = r.Int64N(2*kmax+1) - kmax
	for j := 1; j <= n; j++ {
		if r.IntN(4) != 0 {
			row[j] = r.Int64N(2*cmax+1) - cmax
		}
	}
	return row
}

// boxRows returns -box <= x_j <= box for every variable.
func boxRows(n int, box int64) [][]int64 {
	var out [][]int64
	for j := range n {
		lo := make([]int64, 1+n)
		hi := make([]int64, 1+n)
		lo[0], lo[1+j] = box, 1
		hi[0], hi[1+j] = box, -1
		out = append(out, lo, hi)
	}
	return out
}
