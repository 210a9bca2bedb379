package simplex

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// checkSample calls IntegerSample, checks a returned point against the
// constraints with big integers and returns whether a point was found.
func checkSample(t testing.TB, eqs, ineqs [][]int64, n int) bool {
	t.Helper()
	x, ok := IntegerSample(eqs, ineqs, n, nil)
	if ok {
		if len(x) != n || !bigSatisfies(eqs, ineqs, x) {
			t.Fatalf("sample %v violates eqs=%v ineqs=%v", x, eqs, ineqs)
		}
	} else if x != nil {
		t.Fatalf("non-nil point %v with ok=false", x)
	}
	if got := IntegerEmpty(eqs, ineqs, n, nil); got == ok {
		t.Fatalf("IntegerEmpty=%v disagrees with IntegerSample ok=%v", got, ok)
	}
	return ok
}

// randSystem draws a random system over n variables boxed in [-box, box].
func randSystem(r *rand.Rand, n int, box int64) (eqs, ineqs [][]int64) {
	for range r.IntN(3) {
		eqs = append(eqs, randRow(r, n, 20, 30))
	}
	for range 1 + r.IntN(4) {
		ineqs = append(ineqs, randRow(r, n, 20, 60))
	}
	return eqs, append(ineqs, boxRows(n, box)...)
}

func TestIntegerSampleBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	found, empty, ratNonEmpty := 0, 0, 0
	for it := range 4000 {
		n := 2 + r.IntN(3)
		box := int64(8)
		if n == 4 {
			box = 4
		}
		eqs, ineqs := randSystem(r, n, box)
		_, want := bruteSample(eqs, ineqs, n, box)
		if got := checkSample(t, eqs, ineqs, n); got != want {
			t.Fatalf("case %d: IntegerSample ok=%v, brute force %v\neqs=%v\nineqs=%v", it, got, want, eqs, ineqs)
		}
		if want {
			found++
		} else {
			empty++
			if !RationalEmpty(eqs, ineqs, n, nil) {
				ratNonEmpty++
			}
		}
	}
	t.Logf("non-empty %d, empty %d (of which rationally non-empty %d)", found, empty, ratNonEmpty)
}

// TestIntegerSampleThin targets integer-empty sets that are rationally
// non-empty: thin slabs a·x in [c, c+k) boxed, where only the lattice
// structure decides.
func TestIntegerSampleThin(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	found, empty := 0, 0
	for it := range 2000 {
		n := 2 + r.IntN(2)
		box := int64(8)
		a := randRow(r, n, 20, 40)
		k := r.Int64N(3)
		hi := make([]int64, len(a))
		for i := range a {
			hi[i] = -a[i]
		}
		hi[0] += k
		ineqs := append([][]int64{a, hi}, boxRows(n, box)...)
		if r.IntN(2) == 0 {
			ineqs = append(ineqs, randRow(r, n, 10, 30))
		}
		_, want := bruteSample(nil, ineqs, n, box)
		if got := checkSample(t, nil, ineqs, n); got != want {
			t.Fatalf("case %d: IntegerSample ok=%v, brute force %v\nineqs=%v", it, got, want, ineqs)
		}
		if want {
			found++
		} else {
			empty++
		}
	}
	t.Logf("non-empty %d, empty %d", found, empty)
}

// TestIntegerSampleUnboundedRandom draws unboxed systems with small
// coefficients. A returned point is verified; an empty answer is checked
// against a large box (a necessary condition: small systems with integer
// points have small ones).
func TestIntegerSampleUnboundedRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	found, empty := 0, 0
	for it := range 2000 {
		n := 2 + r.IntN(3)
		var eqs, ineqs [][]int64
		for range r.IntN(2) {
			eqs = append(eqs, randRow(r, n, 6, 10))
		}
		for range 1 + r.IntN(4) {
			ineqs = append(ineqs, randRow(r, n, 6, 10))
		}
		if r.IntN(3) == 0 { // a thin slab
			a := randRow(r, n, 7, 10)
			b := make([]int64, len(a))
			for i := range a {
				b[i] = -a[i]
			}
			b[0] += r.Int64N(2)
			ineqs = append(ineqs, a, b)
		}
		got := checkSample(t, eqs, ineqs, n)
		box := []int64{2: 30, 3: 12, 4: 6}[n]
		if !got {
			empty++
			if x, ok := bruteSample(eqs, ineqs, n, box); ok {
				t.Fatalf("case %d: IntegerSample says empty but %v is a solution\neqs=%v\nineqs=%v", it, x, eqs, ineqs)
			}
			// The same set in a huge box goes through the bounded search
			// only: it must agree.
			if checkSample(t, eqs, append(slices.Clone(ineqs), boxRows(n, 100000)...), n) {
				t.Fatalf("case %d: empty, but non-empty in a box\neqs=%v\nineqs=%v", it, eqs, ineqs)
			}
		} else {
			found++
		}
	}
	t.Logf("non-empty %d, empty %d", found, empty)
}

func TestIntegerSampleKnown(t *testing.T) {
	tests := []struct {
		name       string
		eqs, ineqs [][]int64
		n          int
		want       bool
	}{
		// Unbounded.
		{"1 <= 3x-3y <= 2", nil, [][]int64{{-1, 3, -3}, {2, -3, 3}}, 2, false},
		{"2x = 3y+1, x >= 0", [][]int64{{-1, 2, -3}}, [][]int64{{0, 1, 0}}, 2, true},
		{"1 <= 2x-2y <= 1", nil, [][]int64{{-1, 2, -2}, {1, -2, 2}}, 2, false},
		{"half-plane 3x+5y >= 7", nil, [][]int64{{-7, 3, 5}}, 2, true},
		{"half-plane 2x >= 1", nil, [][]int64{{-1, 2, 0}}, 2, true},
		{"quadrant 3x+5y = 7", [][]int64{{-7, 3, 5}}, [][]int64{{0, 1, 0}, {0, 0, 1}}, 2, false},
		{"quadrant 3x+5y = 8", [][]int64{{-8, 3, 5}}, [][]int64{{0, 1, 0}, {0, 0, 1}}, 2, true},
		{"ray x>=1, 1000y = 999x as ineqs", nil, [][]int64{{-1, 1, 0}, {0, -999, 1000}, {0, 999, -1000}}, 2, true},
		{"far strip", nil, [][]int64{{-1, 1, 0, 0}, {0, -999, 1000, 0}, {0, 999, -1000, 0}, {0, 0, 0, 1}, {5, 0, 1, -1}}, 3, true},
		{"strip with fixed parity", nil, [][]int64{{0, 2, -4, 0}, {1, -2, 4, 0}, {-1, 0, 0, 2}, {1, 0, 0, -2}}, 3, false},
		{"free", nil, nil, 3, true},
		{"no vars, true", nil, [][]int64{{0}}, 0, true},
		{"no vars, false", nil, [][]int64{{-1}}, 0, false},
		{"wedge x>=0,y>=0,x-y>=1/2 scaled", nil, [][]int64{{0, 1, 0}, {0, 0, 1}, {-1, 2, -2}}, 2, true},
		{"line x=y+1/2", [][]int64{{1, -2, 2}}, nil, 2, false},
		{"cone with implicit eq and tail", nil, [][]int64{{0, 1, -1, 0}, {0, -1, 1, 0}, {-1, 0, 0, 1}, {-3, 1, 1, 0}, {7, -1, -1, 0}}, 3, true},
		// Rationally non-empty, integer-empty.
		{"1 <= 2x <= 1", nil, [][]int64{{-1, 2}, {1, -2}}, 1, false},
		{"1 <= 4x-2y <= 1", nil, [][]int64{{-1, 4, -2}, {1, -4, 2}}, 2, false},
		{"1 <= 3x+6y <= 2", nil, [][]int64{{-1, 3, 6}, {2, -3, -6}}, 2, false},
		{"2x+4y+6z = 1", [][]int64{{-1, 2, 4, 6}}, nil, 3, false},
		{"2x+4y+6z = 2", [][]int64{{-2, 2, 4, 6}}, nil, 3, true},
		{"triangle without points", nil, [][]int64{{-1, 3, 0}, {2, -3, 0}, {0, 0, 1}, {5, 0, -1}}, 2, false},
		{"lattice 2x = 3y+1 in box", [][]int64{{-1, 2, -3}}, [][]int64{{0, 1, 0}, {0, -1, 0}, {100, 0, 1}}, 2, false},
		{"lattice 6x+10y+15z = 1", [][]int64{{-1, 6, 10, 15}}, nil, 3, true},
		{"two lattices", [][]int64{{-1, 2, 0, -3}, {0, 0, 2, -3}}, [][]int64{{-1, 0, 0, 1}, {1, 0, 0, -1}}, 3, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkSample(t, tc.eqs, tc.ineqs, tc.n); got != tc.want {
				t.Errorf("IntegerSample ok=%v, want %v", got, tc.want)
			}
		})
	}
}

func TestInputsUnchanged(t *testing.T) {
	eqs := [][]int64{{-1, 2, -3, 0}}
	ineqs := [][]int64{{0, 1, 0, 0}, {5, 0, 0, -2}, {-1, 3, 3, 1}, {7, -1, -1, -1}}
	e0, i0 := clone2(eqs), clone2(ineqs)
	IntegerSample(eqs, ineqs, 3, nil)
	Reduce(eqs, ineqs, 3, nil)
	RationalEmpty(eqs, ineqs, 3, nil)
	tab, _ := newSystem(eqs, ineqs, 3, nil)
	tab.Max(ineqs[2])
	tab.Min(ineqs[3])
	if diff := cmp.Diff(e0, eqs); diff != "" {
		t.Errorf("equalities modified (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(i0, ineqs); diff != "" {
		t.Errorf("inequalities modified (-before +after):\n%s", diff)
	}
}

func clone2(rows [][]int64) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}

func TestIntegerSampleLarge(t *testing.T) {
	const m = 1_000_000
	tests := []struct {
		name       string
		eqs, ineqs [][]int64
		n          int
		want       bool
	}{
		{"1 <= 1e6x-999999y <= 2 boxed", nil, [][]int64{{-1, m, -(m - 1)}, {2, -m, m - 1}, {m, 1, 0}, {m, -1, 0}, {m, 0, 1}, {m, 0, -1}}, 2, true},
		{"2000 divides, empty", nil, [][]int64{{-1, 2000, -2000}, {1999, -2000, 2000}, {m, 1, 0}, {m, -1, 0}}, 2, false},
		{"big lattice", [][]int64{{-1, 999983, -1000003}}, [][]int64{{0, 1, 0}}, 2, true},
		{"big lattice boxed out", [][]int64{{-1, 999983, -1000003}}, [][]int64{{0, 1, 0}, {1000, -1, 0}}, 2, false},
		{"big box point", nil, [][]int64{{-m * m, 1, 0}, {m*m + 1, -1, 0}, {-7, 0, 2}, {7, 0, -2}}, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkSample(t, tc.eqs, tc.ineqs, tc.n); got != tc.want {
				t.Errorf("IntegerSample ok=%v, want %v", got, tc.want)
			}
		})
	}
}

// thinOracle decides {x,y : lo <= a·x - b·y <= hi, 0 <= x <= X, 0 <= y <= Y}
// by looping over x.
func thinOracle(a, b, lo, hi, bx, by int64) bool {
	for x := int64(0); x <= bx; x++ {
		// lo <= a x - b y <= hi  ⇔  a x - hi <= b y <= a x - lo (b > 0)
		ylo := max(arith.CeilDiv(a*x-hi, b), 0)
		yhi := min(arith.FloorDiv(a*x-lo, b), by)
		if ylo <= yhi {
			return true
		}
	}
	return false
}

// TestIntegerSampleThinLarge needs basis reduction: the slabs are thin in a
// direction far from the axes, in boxes with ~10^4 values per axis.
func TestIntegerSampleThinLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	found, empty := 0, 0
	for it := range 200 {
		a := 500 + r.Int64N(1000)
		b := a - 1 - r.Int64N(3)
		lo := r.Int64N(2 * a)
		hi := lo + r.Int64N(3)
		bx, by := 5000+r.Int64N(5000), 5000+r.Int64N(5000)
		if it%2 == 0 { // boxes narrower than the lattice period: often empty
			bx, by = 100+r.Int64N(800), 100+r.Int64N(800)
			lo = r.Int64N(a * bx / 2)
			hi = lo + r.Int64N(3)
		}
		ineqs := [][]int64{{-lo, a, -b}, {hi, -a, b}, {0, 1, 0}, {bx, -1, 0}, {0, 0, 1}, {by, 0, -1}}
		want := thinOracle(a, b, lo, hi, bx, by)
		if got := checkSample(t, nil, ineqs, 2); got != want {
			t.Fatalf("case %d: ok=%v want %v: ineqs=%v", it, got, want, ineqs)
		}
		if want {
			found++
		} else {
			empty++
		}
	}
	t.Logf("non-empty %d, empty %d", found, empty)
}

// TestOverflowIsReported: near-overflow inputs either give the right answer
// or panic with arith.Overflow; never a wrong answer, never another panic.
func TestOverflowIsReported(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	overflows, answered := 0, 0
	big := func() int64 {
		v := int64(1)<<(40+r.IntN(23)) + r.Int64N(1<<20)
		if r.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	for it := range 1500 {
		n := 2
		var eqs, ineqs [][]int64
		for range 1 + r.IntN(3) {
			row := randRow(r, n, 5, 5)
			for j := range row {
				if r.IntN(2) == 0 {
					row[j] = big()
				}
			}
			if r.IntN(4) == 0 {
				eqs = append(eqs, row)
			} else {
				ineqs = append(ineqs, row)
			}
		}
		ineqs = append(ineqs, boxRows(n, 3)...)
		_, want := bruteSample(eqs, ineqs, n, 3)
		got, err := catchSample(eqs, ineqs, n)
		var of arith.Overflow
		switch {
		case errors.As(err, &of):
			overflows++
		case err != nil:
			t.Fatalf("case %d: unexpected panic %v", it, err)
		case got != want:
			t.Fatalf("case %d: ok=%v want %v\neqs=%v\nineqs=%v", it, got, want, eqs, ineqs)
		default:
			answered++
		}
	}
	// Extreme values that must not wrap.
	extreme := [][][]int64{
		{{math.MaxInt64, -1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, -1}},
		{{math.MinInt64 + 1, 1, 1}, {0, -1, 0}},
		{{-1, math.MaxInt64, math.MaxInt64 - 1}, {1, -math.MaxInt64, -(math.MaxInt64 - 1)}},
	}
	for _, ineqs := range extreme {
		if _, err := catchSample(nil, ineqs, 2); err != nil && !errors.As(err, new(arith.Overflow)) {
			t.Fatalf("unexpected panic %v on %v", err, ineqs)
		}
	}
	t.Logf("answered %d, overflow %d", answered, overflows)
}

func catchSample(eqs, ineqs [][]int64, n int) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, isErr := r.(error); isErr {
				err = e
				return
			}
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	x, ok := IntegerSample(eqs, ineqs, n, nil)
	if ok && !bigSatisfies(eqs, ineqs, x) {
		return false, fmt.Errorf("wrong sample %v", x)
	}
	return ok, nil
}

func TestBudget(t *testing.T) {
	ineqs := [][]int64{{-1, 1000, -999, 0}, {2, -1000, 999, 0}, {0, 1, 0, 0}, {100000, -1, 0, 0}, {0, 0, 1, 0}, {100000, 0, -1, 0}, {0, 0, 0, 1}, {5, 1, 1, -3}}
	var got any
	func() {
		defer func() { got = recover() }()
		IntegerSample(nil, ineqs, 3, &Budget{Ops: 10})
	}()
	if diff := cmp.Diff(any(BudgetExceeded{}), got); diff != "" {
		t.Fatalf("panic value mismatch (-want +got):\n%s", diff)
	}
	// A generous budget succeeds and is charged.
	b := &Budget{Ops: 100000}
	if _, ok := IntegerSample(nil, ineqs, 3, b); !ok {
		t.Fatal("want a sample")
	}
	if b.Ops >= 100000 {
		t.Fatal("budget not charged")
	}
	t.Logf("spent %d ops", 100000-b.Ops)
}

func TestReducedBasisUnimodular(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for range 300 {
		n := 2 + r.IntN(3)
		var ineqs [][]int64
		for range 2 + r.IntN(3) {
			ineqs = append(ineqs, randRow(r, n, 30, 200))
		}
		ineqs = append(ineqs, boxRows(n, 50)...)
		if RationalEmpty(nil, ineqs, n, nil) {
			continue
		}
		bas, inv := reducedBasis(ineqs, n, &Budget{Ops: 1 << 40})
		for i := range n {
			for j := range n {
				var s int64
				for k := range n {
					s += bas[i][k] * inv[k][j]
				}
				if (i == j) != (s == 1) || (i != j && s != 0) {
					t.Fatalf("basis·inverse is not the identity: %v · %v", bas, inv)
				}
			}
		}
	}
}

func FuzzIntegerSample(f *testing.F) {
	f.Add([]byte{2, 1, 3, 250, 7, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{3, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte{4, 2, 2, 100, 200, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		n := 2 + int(data[0])%3
		nEq := int(data[1]) % 3
		nIneq := 1 + int(data[2])%4
		data = data[3:]
		next := func(lim int64) int64 {
			if len(data) == 0 {
				return 0
			}
			v := int64(int8(data[0]))
			data = data[1:]
			return v % (lim + 1)
		}
		row := func() []int64 {
			r := make([]int64, 1+n)
			r[0] = next(60)
			for j := 1; j <= n; j++ {
				r[j] = next(20)
			}
			return r
		}
		var eqs, ineqs [][]int64
		for range nEq {
			eqs = append(eqs, row())
		}
		for range nIneq {
			ineqs = append(ineqs, row())
		}
		box := int64(6)
		if n == 4 {
			box = 4
		}
		ineqs = append(ineqs, boxRows(n, box)...)
		_, want := bruteSample(eqs, ineqs, n, box)
		if got := checkSample(t, eqs, ineqs, n); got != want {
			t.Fatalf("IntegerSample ok=%v, brute force %v\neqs=%v\nineqs=%v", got, want, eqs, ineqs)
		}
	})
}

// Benchmarks on shapes that polyhedral compilation produces.
func BenchmarkIntegerSample(b *testing.B) {
	cases := []struct {
		name       string
		eqs, ineqs [][]int64
		n          int
	}{
		{
			// {[i,j,o1,o2] : 32o1 <= i <= 32o1+31, 32o2 <= j <= 32o2+31, 0 <= i,j < 1000}
			name: "tile2d",
			ineqs: [][]int64{
				{0, 1, 0, -32, 0}, {31, -1, 0, 32, 0}, {0, 0, 1, 0, -32}, {31, 0, -1, 0, 32},
				{0, 1, 0, 0, 0}, {999, -1, 0, 0, 0}, {0, 0, 1, 0, 0}, {999, 0, -1, 0, 0},
			},
			n: 4,
		},
		{
			// {[N,i,o] : 32o <= i <= 32o+31, 0 <= i < N, N >= 1, o >= 3}, N a variable.
			name:  "tile-param",
			ineqs: [][]int64{{0, 0, 1, -32}, {31, 0, -1, 32}, {0, 0, 1, 0}, {-1, 1, -1, 0}, {-1, 1, 0, 0}, {-3, 0, 0, 1}},
			n:     3,
		},
		{
			// Stencil dependence {[i,j,i2,j2] : i2 = i+1, j-1 <= j2 <= j+1, 0 <= i,j,i2,j2 < 1000, 5i + 3j odd-ish}
			name: "stencil-dep",
			eqs:  [][]int64{{1, 1, 0, -1, 0}},
			ineqs: [][]int64{
				{1, 0, 1, 0, -1}, {1, 0, -1, 0, 1},
				{0, 1, 0, 0, 0}, {999, -1, 0, 0, 0}, {0, 0, 1, 0, 0}, {999, 0, -1, 0, 0},
				{0, 0, 0, 1, 0}, {999, 0, 0, -1, 0}, {0, 0, 0, 0, 1}, {999, 0, 0, 0, -1},
				{-2001, 1, 1, 1, 1},
			},
			n: 4,
		},
		{
			// Empty but rationally non-empty: i = 64k strictly inside a 32-tile.
			name:  "tile-empty",
			eqs:   [][]int64{{0, 1, 0, -64}},
			ineqs: [][]int64{{-1, 1, -32, 0}, {31, -1, 32, 0}, {0, 1, 0, 0}, {100000, -1, 0, 0}},
			n:     3,
		},
		{
			// Thin slab in a large box (needs basis reduction).
			name:  "thin-box",
			ineqs: [][]int64{{-1, 1000, -999, 0}, {2, -1000, 999, 0}, {-500000, 1, 0, 0}, {1000000, -1, 0, 0}, {1000000, 0, 1, 0}, {1000000, 0, -1, 0}, {0, 0, 0, 1}, {10, 0, 0, -1}, {-3, 1, -1, 1}},
			n:     3,
		},
		{
			// Integer-empty and thin: 12223x + 12224y + 36674z = 89643481 (the
			// Frobenius number) as two inequalities, x, y, z >= 0 (needs GBR).
			name:  "knapsack-frobenius",
			ineqs: [][]int64{{-89643481, 12223, 12224, 36674}, {89643481, -12223, -12224, -36674}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}},
			n:     3,
		},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				IntegerSample(c.eqs, c.ineqs, c.n, nil)
			}
		})
	}
}
