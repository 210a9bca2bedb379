package pip

import (
	"math/big"
	"slices"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// cut handles the first variable whose value is not integral on the
// region (Gomory's rule: the first, so that the lexicographic dual simplex
// terminates). For a variable row (m·M + c·[1,p,divs] + Σ a_k·y_k)/d, with
// M taken to be a multiple of every denominator, integrality of x and of
// the columns y_k gives, for mod = d, the cut
//
//	Σ (a_k mod d)·y_k >= ((-c) mod d)·[1,p,divs] - d·q,  q = floor(((-c) mod d)·[1,p,divs] / d)
//
// where q is a new div of the context when the parametric part of c is not
// integral. When g = gcd(d, a_k) > 1 does not divide c, the same
// construction with mod = g (all a_k vanish) first states the necessary
// condition g | c, a row without columns: where it fails there is no
// solution. When the right-hand side is zero on the whole region, c is
// divisible by mod there and the row's constant is rewritten over q
// instead.
func (s *solver) cut(t *tab, c *context) {
	pick := t.firstFractional()
	spend(s.b, 1)
	mod := t.rows[pick][0]
	g := mod
	for k := range t.nCol() {
		g = arith.GCD(g, t.rows[pick][t.ai(k)])
	}
	if g > 1 && !integral(g, t.constant(pick)) {
		mod = g
	}
	mult := int64(1)
	if mod == t.rows[pick][0] {
		mult = chooseMult(t, c, pick)
	}
	var cc []int64 // constant of the cut: mod·q - numer
	for {
		numer := make([]int64, t.nCtx)
		for i, x := range t.constant(pick) {
			numer[i] = mulMod(-mult, x, mod)
		}
		cc = make([]int64, t.nCtx)
		if isConst(numer) {
			cc[0] = arith.Neg(numer[0])
			break
		}
		if raw, k, ok := c.constFloorOf(t.constant(pick), -mult, mod); ok {
			// q = floor(-mult·c / mod) is the same on the whole region:
			// no div, with the numerator -mult·c itself (reduced
			// coefficient by coefficient, it would range further). A
			// div of earlier divs, constant where it matters, starts
			// the chains of cuts with growing denominators.
			numer = raw
			cc[0] = arith.Mul(mod, k)
		} else {
			q, added := c.div(numer, mod)
			if added {
				t.addCtxCol()
				cc = append(cc, 0)
			}
			cc[1+s.nParam+q] = mod
		}
		for i, x := range numer {
			cc[i] = arith.Sub(cc[i], x)
		}
		if c.feasible(negMinus1(cc)) {
			break
		}
		if mult != 1 {
			// mult is coprime to d: the value is integral on the region.
			mult = 1
			continue
		}
		row := t.rows[pick]
		for i, x := range cc {
			row[2+i] = arith.Sub(row[2+i], x)
		}
		arith.DivGCD(row)
		return
	}
	row := t.rows[pick]
	cut := make([]int64, len(row))
	cut[0] = 1
	copy(cut[2:], cc)
	for k := range t.nCol() {
		cut[t.ai(k)] = mulMod(mult, row[t.ai(k)], mod)
	}
	arith.DivGCD(cut)
	t.appendRaw(cut)
}

// chooseMult picks the multiplier k (coprime to the row's denominator d)
// of the source row whose cut moves the sample furthest: k·x is integral
// too, and e.g. for x = (-14 - s)/6 the cut of -x (s >= 4) is far stronger
// than that of x (5s >= 2). Weak cuts mean long chains of cuts with growing
// denominators. The move is that of the dual simplex pivot the cut would
// trigger, measured lexicographically. Its length is the cut's right-hand
// side (-k·c) mod d; where c depends on the parameters modulo d, it is
// averaged over the residues c can take (c0 plus multiples of the gcd g of
// d and c's other coefficients): a sample point alone often has c
// integral, and then says nothing. For x = (N - s)/6, the cut of 5x
// (s >= N mod 6) is exact, that of x (5s >= 5N mod 6) needs a chain.
func chooseMult(t *tab, c *context, pick int) int64 {
	row := t.rows[pick]
	d := row[0]
	cst := t.constant(pick)
	g := d
	for _, x := range cst[1:] {
		g = arith.GCD(g, arith.Mod(x, d))
	}
	// c takes the residues a + g·t (t = 0..n-1, n = d/g) modulo d, and
	// for k coprime to d, (-k·c) mod d the residues b + g·t with
	// b = (-k·a) mod g: their mean is b + g·(n-1)/2. Twice that is f.
	a, n := arith.Mod(cst[0], g), d/g
	var cands []int64
	if d <= 32 {
		for k := int64(1); k < d; k++ {
			cands = append(cands, k)
		}
	} else {
		cands = []int64{1, d - 1}
	}
	varRow := t.varRows()
	best := move{col: -1}
	bestK := int64(1)
	for _, k := range cands {
		if arith.GCD(k, d) != 1 {
			continue
		}
		f := 2*mulMod(-k, a, g) + g*(n-1)
		if f == 0 {
			continue
		}
		m := move{f: f, col: -1}
		for j := range t.nCol() {
			g := mulMod(k, row[t.ai(j)], d)
			if g > 0 && (m.col < 0 || t.lexLess(varRow, j, g, m.col, m.g)) {
				m.col, m.g = j, g
			}
		}
		if m.col < 0 {
			return k // an infeasible region: any cut proves it
		}
		if best.col < 0 || t.moveLess(varRow, best, m) {
			best, bestK = m, k
		}
	}
	return bestK
}

// move is the step (f/g)·column col of the dual simplex.
type move struct {
	f, g int64
	col  int
}

// moveLess reports whether move a is lexicographically smaller than b.
func (t *tab) moveLess(varRow []int, a, b move) bool {
	var x, y big.Int
	for j := range t.nVar {
		var va, vb int64
		if i := varRow[j]; i >= 0 {
			va, vb = t.rows[i][t.ai(a.col)], t.rows[i][t.ai(b.col)]
		} else {
			if t.colVar[a.col] == j {
				va = 1
			}
			if t.colVar[b.col] == j {
				vb = 1
			}
		}
		// Compare a.f·va/a.g with b.f·vb/b.g.
		x.Mul(big.NewInt(a.f), big.NewInt(va))
		x.Mul(&x, big.NewInt(b.g))
		y.Mul(big.NewInt(b.f), big.NewInt(vb))
		y.Mul(&y, big.NewInt(a.g))
		if c := x.Cmp(&y); c != 0 {
			return c < 0
		}
	}
	return false
}

// mulMod returns (a·b) mod m for m > 0.
func mulMod(a, b, m int64) int64 {
	a, b = arith.Mod(a, m), arith.Mod(b, m)
	if p, ok := arith.MulOK(a, b); ok {
		return p % m
	}
	var x big.Int
	x.Mul(big.NewInt(a), big.NewInt(b))
	return x.Mod(&x, big.NewInt(m)).Int64()
}

// jointEmpty reports whether no parameter point of the region has an
// integer solution x: the region and the problem together over
// [p, divs, x] (and the equalities extra over those columns) have no
// integer point.
func (s *solver) jointEmpty(c *context, extra ...[]int64) bool {
	w := c.width() + s.nVar
	widen := func(r []int64, fromProblem bool) []int64 {
		out := make([]int64, w)
		if fromProblem {
			copy(out, r[:1+s.nParam])
			copy(out[c.width():], r[1+s.nParam:])
		} else {
			copy(out, r)
		}
		return out
	}
	var eqs, ineqs [][]int64
	for _, e := range c.eqs {
		eqs = append(eqs, widen(e, false))
	}
	for _, r := range append(slices.Clone(c.ineqs), c.divIneqs()...) {
		ineqs = append(ineqs, widen(r, false))
	}
	for _, e := range s.eqs {
		eqs = append(eqs, widen(e, true))
	}
	eqs = append(eqs, extra...)
	for _, r := range s.ineqs {
		ineqs = append(ineqs, widen(r, true))
	}
	return simplex.IntegerEmpty(eqs, ineqs, w-1, s.b)
}

// firstFractional returns the row of the first variable whose value is
// not integral, or -1.
func (t *tab) firstFractional() int {
	for _, i := range t.varRows() {
		if i >= 0 && !integral(t.rows[i][0], t.constant(i)) {
			return i
		}
	}
	return -1
}

func (t *tab) integral() bool { return t.firstFractional() < 0 }

// integral reports whether every entry of c is divisible by d.
func integral(d int64, c []int64) bool {
	for _, x := range c {
		if x%d != 0 {
			return false
		}
	}
	return true
}
