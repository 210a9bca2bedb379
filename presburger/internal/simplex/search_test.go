package simplex

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// reachable returns, for v in [0, limit], whether v is a non-negative
// integer combination of a (dynamic programming).
func reachable(a []int64, limit int64) []bool {
	r := make([]bool, limit+1)
	r[0] = true
	for v := int64(1); v <= limit; v++ {
		for _, ai := range a {
			if v >= ai && r[v-ai] {
				r[v] = true
				break
			}
		}
	}
	return r
}

// knapsack returns {x >= 0 : a·x = rhs} as eqs and ineqs.
func knapsack(a []int64, rhs int64) (eqs, ineqs [][]int64) {
	n := len(a)
	e := make([]int64, 1+n)
	e[0] = -rhs
	copy(e[1:], a)
	for j := range n {
		r := make([]int64, 1+n)
		r[1+j] = 1
		ineqs = append(ineqs, r)
	}
	return [][]int64{e}, ineqs
}

// frobenius returns the largest value that is not a non-negative integer
// combination of a (gcd 1), and the reachability table up to a bound past it.
func frobenius(a []int64) (int64, []bool) {
	lo, hi := slices.Min(a), slices.Max(a)
	limit := lo*hi + hi
	r := reachable(a, limit)
	g := limit
	for r[g] {
		g--
	}
	return g, r
}

// TestKnapsackFrobenius: {x >= 0 : a·x = N} is rationally non-empty for
// every N >= 0 but integer-empty exactly at the gaps of the numerical
// semigroup, the largest being the Frobenius number.
func TestKnapsackFrobenius(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for it := 0; it < 80; {
		k := 3 + r.IntN(2)
		a := make([]int64, k)
		for i := range a {
			a[i] = 20 + r.Int64N(380)
		}
		if arith.GCDVec(a) != 1 {
			continue
		}
		it++
		g, reach := frobenius(a)
		rhs := []int64{g, g + 1, g - 1, 0, 1}
		for range 6 {
			rhs = append(rhs, r.Int64N(g+1))
		}
		for _, n := range rhs {
			if n < 0 {
				continue
			}
			eqs, ineqs := knapsack(a, n)
			if got := checkSample(t, eqs, ineqs, k); got != reach[n] {
				t.Fatalf("a=%v N=%d: IntegerSample ok=%v, want %v (Frobenius %d)", a, n, got, reach[n], g)
			}
		}
	}
}

// TestSearchStrategies cross-checks the search with and without basis
// reduction on larger systems, and against brute force where it is cheap.
func TestSearchStrategies(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	defer func() { useGBR = true }()
	found, empty := 0, 0
	for it := range 300 {
		n := 3 + r.IntN(3)
		box := int64(15)
		var eqs, ineqs [][]int64
		if r.IntN(3) == 0 {
			eqs = append(eqs, randRow(r, n, 9, 20))
		}
		for range 1 + r.IntN(3) {
			a := randRow(r, n, 25, 100)
			b := make([]int64, len(a))
			for i := range a {
				b[i] = -a[i]
			}
			b[0] += r.Int64N(4)
			ineqs = append(ineqs, a, b)
		}
		ineqs = append(ineqs, boxRows(n, box)...)
		useGBR = true
		withGBR := checkSample(t, eqs, ineqs, n)
		useGBR = false
		without := checkSample(t, eqs, ineqs, n)
		if withGBR != without {
			t.Fatalf("case %d: with GBR %v, without %v\neqs=%v\nineqs=%v", it, withGBR, without, eqs, ineqs)
		}
		if n == 3 {
			if _, want := bruteSample(eqs, ineqs, n, box); want != withGBR {
				t.Fatalf("case %d: IntegerSample %v, brute force %v\neqs=%v\nineqs=%v", it, withGBR, want, eqs, ineqs)
			}
		}
		if withGBR {
			found++
		} else {
			empty++
		}
	}
	t.Logf("non-empty %d, empty %d", found, empty)
}

// TestGBRNeeded: {x,y,z >= 0 : 12223x + 12224y + 36674z = N} written as two
// inequalities, with N = 89643481 the Frobenius number of the three
// coefficients (Aardal and Lenstra's example): a thin, bounded,
// integer-empty triangle with thousands of values per coordinate. Basis
// reduction finds the thin directions; branching on coordinates alone runs
// out of a budget that GBR stays well within.
func TestGBRNeeded(t *testing.T) {
	const n = 89643481
	a := []int64{12223, 12224, 36674}
	ineqs := [][]int64{{-n, a[0], a[1], a[2]}, {n, -a[0], -a[1], -a[2]}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	for _, rhs := range []int64{n, n + 1, n - 1} {
		ineqs[0][0], ineqs[1][0] = -rhs, rhs
		b := &Budget{Ops: 20000}
		_, ok := IntegerSample(nil, ineqs, 3, b)
		if ok != (rhs != n) {
			t.Fatalf("N=%d: ok=%v", rhs, ok)
		}
		t.Logf("N=%d: ok=%v, %d ops with GBR", rhs, ok, 20000-b.Ops)
	}
	ineqs[0][0], ineqs[1][0] = -n, n
	defer func() { useGBR = true }()
	useGBR = false
	func() {
		defer func() {
			if _, ok := recover().(BudgetExceeded); !ok {
				t.Errorf("without GBR the search should exceed the budget")
			}
		}()
		IntegerSample(nil, ineqs, 3, &Budget{Ops: 20000})
	}()
}
