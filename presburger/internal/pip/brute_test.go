package pip

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// Independent brute-force oracle: enumerate the parameter box, and for each
// parameter point the variable box in lexicographic order.

type problem struct {
	nParam, nVar     int
	eqs, ineqs       [][]int64
	ctxEqs, ctxIneqs [][]int64
	pBox             int64     // context box -pBox <= p_i <= pBox
	lo, hi           [][]int64 // per variable: lo[j]·[1,p] <= x_j <= hi[j]·[1,p]
	max              bool
}

func (pr problem) String() string {
	op := "lexmin"
	if pr.max {
		op = "lexmax"
	}
	return fmt.Sprintf("%s nParam=%d nVar=%d eqs=%v ineqs=%v ctxEqs=%v ctxIneqs=%v",
		op, pr.nParam, pr.nVar, pr.eqs, pr.ineqs, pr.ctxEqs, pr.ctxIneqs)
}

func dot(row, pt []int64) int64 {
	s := row[0]
	for i, a := range row[1:] {
		s += a * pt[i]
	}
	return s
}

func holds(eqs, ineqs [][]int64, pt []int64) bool {
	for _, e := range eqs {
		if dot(e, pt) != 0 {
			return false
		}
	}
	for _, r := range ineqs {
		if dot(r, pt) < 0 {
			return false
		}
	}
	return true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// brute returns the lexicographic optimum at parameter point p, or nil.
func (pr problem) brute(p []int64) []int64 {
	lo, hi := make([]int64, pr.nVar), make([]int64, pr.nVar)
	for j := range pr.nVar {
		lo[j], hi[j] = dot(pr.lo[j], p), dot(pr.hi[j], p)
	}
	return pr.bruteBox(p, lo, hi)
}

// bruteRange is brute with every variable in [lo, hi].
func (pr problem) bruteRange(p []int64, lo, hi int64) []int64 {
	l, h := make([]int64, pr.nVar), make([]int64, pr.nVar)
	for j := range pr.nVar {
		l[j], h[j] = lo, hi
	}
	return pr.bruteBox(p, l, h)
}

// bruteBox enumerates x in the box [lo, hi] in lexicographic order.
func (pr problem) bruteBox(p, lo, hi []int64) []int64 {
	n := pr.nVar
	for j := range n {
		if lo[j] > hi[j] {
			return nil
		}
	}
	x := make([]int64, n)
	pt := make([]int64, pr.nParam+n)
	copy(pt, p)
	var rec func(j int) bool
	rec = func(j int) bool {
		if j == n {
			copy(pt[pr.nParam:], x)
			return holds(pr.eqs, pr.ineqs, pt)
		}
		for k := lo[j]; k <= hi[j]; k++ {
			if pr.max {
				x[j] = hi[j] - (k - lo[j])
			} else {
				x[j] = k
			}
			if rec(j + 1) {
				return true
			}
		}
		return false
	}
	if rec(0) {
		return x
	}
	return nil
}

// evalPiece evaluates a piece at p without using the package's code.
func evalPiece(pc Piece, p []int64) (x []int64, in bool) {
	pt := slices.Clone(p)
	for _, d := range pc.Divs {
		pt = append(pt, floorDiv(dot(d.Num, pt), d.Den))
	}
	if !holds(pc.Eqs, pc.Ineqs, pt) {
		return nil, false
	}
	for _, r := range pc.Sol {
		x = append(x, dot(r, pt))
	}
	return x, true
}

// checkShape verifies the structural promises of the pieces.
func checkShape(pr problem, pcs []Piece, isSol bool) error {
	for _, pc := range pcs {
		w := 1 + pr.nParam + len(pc.Divs)
		for i, d := range pc.Divs {
			if d.Den <= 0 || len(d.Num) != 1+pr.nParam+i {
				return fmt.Errorf("bad div %d %v", i, d)
			}
		}
		for _, r := range slices.Concat(pc.Eqs, pc.Ineqs, pc.Sol) {
			if len(r) != w {
				return fmt.Errorf("row %v has length %d, want %d", r, len(r), w)
			}
		}
		if isSol != (pc.Sol != nil) || (isSol && len(pc.Sol) != pr.nVar) {
			return fmt.Errorf("piece Sol %v (solution piece: %v)", pc.Sol, isSol)
		}
	}
	return nil
}

// check solves pr and compares with brute force at every context point.
func check(pr problem, b *simplex.Budget) error {
	f := LexMin
	if pr.max {
		f = LexMax
	}
	sol, empty, err := f(pr.nParam, pr.nVar, pr.eqs, pr.ineqs, pr.ctxEqs, pr.ctxIneqs, b)
	if err != nil {
		return fmt.Errorf("%v: error %v", pr, err)
	}
	if err := checkShape(pr, sol, true); err != nil {
		return fmt.Errorf("%v: %v", pr, err)
	}
	if err := checkShape(pr, empty, false); err != nil {
		return fmt.Errorf("%v: %v", pr, err)
	}
	p := make([]int64, pr.nParam)
	for i := range p {
		p[i] = -pr.pBox
	}
	for {
		if holds(pr.ctxEqs, pr.ctxIneqs, p) {
			want := pr.brute(p)
			var got []int64
			found := 0
			for _, pc := range sol {
				if x, in := evalPiece(pc, p); in {
					found++
					got = x
					if y, in2 := pc.Eval(p); !in2 || !slices.Equal(x, y) {
						return fmt.Errorf("%v: Piece.Eval disagrees at p=%v", pr, p)
					}
				}
			}
			for _, pc := range empty {
				if _, in := evalPiece(pc, p); in {
					found++
					got = nil
				}
			}
			if found != 1 {
				return fmt.Errorf("%v: p=%v lies in %d pieces\nsol=%v\nempty=%v", pr, p, found, sol, empty)
			}
			if !slices.Equal(got, want) {
				return fmt.Errorf("%v: p=%v got %v want %v\nsol=%v\nempty=%v", pr, p, got, want, sol, empty)
			}
		} else {
			for _, pc := range slices.Concat(sol, empty) {
				if _, in := evalPiece(pc, p); in {
					return fmt.Errorf("%v: p=%v outside the context lies in piece %v", pr, p, pc)
				}
			}
		}
		i := 0
		for i < len(p) && p[i] == pr.pBox {
			p[i] = -pr.pBox
			i++
		}
		if i == len(p) {
			return nil
		}
		p[i]++
	}
}

// randProblem builds a bounded problem: each x_j lies in a box whose ends
// may depend on one parameter, plus random constraints with coefficients in
// [-6, 6], and a context that is sometimes unbounded.
func randProblem(r *rand.Rand) problem {
	pr := problem{nParam: 1 + r.IntN(2), nVar: 1 + r.IntN(3), pBox: 4, max: r.IntN(3) == 0}
	w := 1 + pr.nParam + pr.nVar
	coef := func() int64 { return int64(r.IntN(13) - 6) }
	// Without a box the context is unbounded; the check still covers the
	// parameter box only.
	if r.IntN(4) != 0 {
		for i := range pr.nParam {
			lo := make([]int64, 1+pr.nParam)
			lo[0], lo[1+i] = pr.pBox-int64(r.IntN(3)), 1
			hi := make([]int64, 1+pr.nParam)
			hi[0], hi[1+i] = pr.pBox-int64(r.IntN(3)), -1
			pr.ctxIneqs = append(pr.ctxIneqs, lo, hi)
		}
	}
	if r.IntN(3) == 0 {
		c := make([]int64, 1+pr.nParam)
		for i := range c {
			c[i] = int64(r.IntN(7) - 3)
		}
		if r.IntN(4) == 0 {
			pr.ctxEqs = append(pr.ctxEqs, c)
		} else {
			pr.ctxIneqs = append(pr.ctxIneqs, c)
		}
	}
	for j := range pr.nVar {
		lo := make([]int64, 1+pr.nParam)
		hi := make([]int64, 1+pr.nParam)
		lo[0] = -int64(r.IntN(6))
		hi[0] = int64(r.IntN(8))
		if r.IntN(2) == 0 {
			lo[1+r.IntN(pr.nParam)] = int64(r.IntN(3) - 1)
		}
		if r.IntN(2) == 0 {
			hi[1+r.IntN(pr.nParam)] = int64(r.IntN(3) - 1)
		}
		pr.lo = append(pr.lo, lo)
		pr.hi = append(pr.hi, hi)
		// x_j - lo >= 0, hi - x_j >= 0
		a := make([]int64, w)
		b := make([]int64, w)
		for i := range 1 + pr.nParam {
			a[i] = -lo[i]
			b[i] = hi[i]
		}
		a[1+pr.nParam+j] = 1
		b[1+pr.nParam+j] = -1
		pr.ineqs = append(pr.ineqs, a, b)
	}
	for range 1 + r.IntN(3) {
		row := make([]int64, w)
		for i := range row {
			if r.IntN(3) != 0 {
				row[i] = coef()
			}
		}
		row[0] += int64(r.IntN(10))
		if r.IntN(5) == 0 {
			pr.eqs = append(pr.eqs, row)
		} else {
			pr.ineqs = append(pr.ineqs, row)
		}
	}
	r.Shuffle(len(pr.ineqs), func(i, j int) { pr.ineqs[i], pr.ineqs[j] = pr.ineqs[j], pr.ineqs[i] })
	return pr
}

// checkTolerant is check where an arith.Overflow panic (an acceptable
// outcome: the caller reports an error) counts as overflowed.
func checkTolerant(pr problem, b *simplex.Budget) (overflowed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(arith.Overflow); !ok {
				panic(r)
			}
			overflowed = true
		}
	}()
	return false, check(pr, b)
}

func TestBruteForce(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	r := rand.New(rand.NewPCG(1, 2))
	overflows := 0
	for i := range n {
		pr := randProblem(r)
		o, err := checkTolerant(pr, nil)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if o {
			overflows++
			t.Logf("case %d overflowed: %v", i, pr)
		}
	}
	// Overflow is exact behaviour, but it should stay rare on small inputs.
	if overflows*200 > n {
		t.Errorf("%d of %d cases overflowed", overflows, n)
	}
}

// randProblemWide varies the shape more: 0-3 parameters, 0-3 variables,
// coefficients up to ±10 and more equalities.
func randProblemWide(r *rand.Rand) problem {
	pr := problem{nParam: r.IntN(4), nVar: r.IntN(4), pBox: 3, max: r.IntN(2) == 0}
	if pr.nParam == 3 {
		pr.pBox = 2
	}
	w := 1 + pr.nParam + pr.nVar
	cr := 1 + r.IntN(10)
	coef := func() int64 { return int64(r.IntN(2*cr+1) - cr) }
	if r.IntN(2) == 0 {
		for i := range pr.nParam {
			lo := make([]int64, 1+pr.nParam)
			lo[0], lo[1+i] = pr.pBox, 1
			hi := make([]int64, 1+pr.nParam)
			hi[0], hi[1+i] = pr.pBox, -1
			pr.ctxIneqs = append(pr.ctxIneqs, lo, hi)
		}
	}
	for j := range pr.nVar {
		lo := make([]int64, 1+pr.nParam)
		hi := make([]int64, 1+pr.nParam)
		lo[0] = -int64(r.IntN(5))
		hi[0] = int64(r.IntN(5))
		if pr.nParam > 0 && r.IntN(2) == 0 {
			lo[1+r.IntN(pr.nParam)] = int64(r.IntN(5) - 2)
		}
		if pr.nParam > 0 && r.IntN(2) == 0 {
			hi[1+r.IntN(pr.nParam)] = int64(r.IntN(5) - 2)
		}
		pr.lo = append(pr.lo, lo)
		pr.hi = append(pr.hi, hi)
		a := make([]int64, w)
		b := make([]int64, w)
		for i := range 1 + pr.nParam {
			a[i] = -lo[i]
			b[i] = hi[i]
		}
		a[1+pr.nParam+j] = 1
		b[1+pr.nParam+j] = -1
		pr.ineqs = append(pr.ineqs, a, b)
	}
	for range r.IntN(4) {
		row := make([]int64, w)
		for i := range row {
			if r.IntN(2) != 0 {
				row[i] = coef()
			}
		}
		row[0] += int64(r.IntN(8))
		if r.IntN(3) == 0 {
			pr.eqs = append(pr.eqs, row)
		} else {
			pr.ineqs = append(pr.ineqs, row)
		}
	}
	return pr
}

func TestBruteForceWide(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 150
	}
	r := rand.New(rand.NewPCG(3, 4))
	overflows := 0
	for i := range n {
		pr := randProblemWide(r)
		o, err := checkTolerant(pr, nil)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if o {
			overflows++
			t.Logf("case %d overflowed: %v", i, pr)
		}
	}
	if overflows*200 > n {
		t.Errorf("%d of %d cases overflowed", overflows, n)
	}
}

func FuzzLexMin(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(99))
	f.Add(uint64(12157), uint64(3))
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		pr := randProblem(rand.New(rand.NewPCG(s1, s2)))
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					if _, ok := r.(simplex.BudgetExceeded); ok {
						err = nil
						return
					}
					panic(r)
				}
			}()
			_, err = checkTolerant(pr, &simplex.Budget{Ops: 200_000})
			return err
		}()
		if err != nil {
			t.Fatal(err)
		}
	})
}
