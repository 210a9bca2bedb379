package presburger

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAffineHull(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{ [i, j] : i = 2j and 0 <= j <= 5 }", "{ [i, j] : i = 2*j }"},
		{"{ [i, j] : 0 <= i <= 3 and j = 1 }", "{ [i, j] : j = 1 }"},
		{"{ [i, j] : i = 0 and j = 0; [i, j] : i = 1 and j = 1 }", "{ [i, j] : i = j }"},
		{"{ [i, j] : i = 0 and j = 0 }", "{ [i, j] : i = 0 and j = 0 }"},
		{"{ [i, j] : 0 <= i, j <= 3 }", "{ [i, j] }"},
		{"{ [i] : 1 <= 2i <= 1 }", "{ [i] : false }"},
		{"[N] -> { [i, j] : i = N and j = N + 1 }", "[N] -> { [i, j] : j = i + 1 and N = i }"},
		{"{ [i, j] : exists (e: i = 3e and j = 3e + 1 and 0 <= e <= 4) }", "{ [i, j] : j = i + 1 }"},
		{"{ [x, y] : 2x + 2y >= 1 and x + y <= 0 }", "{ [x, y] : false }"},
		{"{ [x, y] : 0 <= 2x - y <= 1 and y = 3 }", "{ [x, y] : x = 2 and y = 3 }"},
	}
	for _, tc := range tests {
		s := parseSetT(t, tc.in)
		h, err := s.AffineHull()
		if err != nil {
			t.Fatal(err)
		}
		if sub, err := s.IsSubset(h); err != nil || !sub {
			t.Errorf("%s is not contained in its affine hull %s", s, h)
		}
		if eq, err := h.IsEqual(parseSetT(t, tc.want)); err != nil || !eq {
			t.Errorf("affine hull of %s = %s, want %s", s, h, tc.want)
		}
	}
}

// TestAffineHullRandom checks that the affine hull contains every point and
// that each of its equalities is needed (a point of the set lies off the
// hyperplane of any proper subset of the equalities is not checked; instead
// the dimension of the hull is compared with the number of affinely
// independent points found by brute force).
func TestAffineHullRandom(t *testing.T) {
	const B = 4
	for seed := int64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		dims := []string{"x", "y", "z"}[:1+rng.Intn(3)]
		sp := SetSpace(nil, NewTuple("S", dims...))
		r := randRel(rng, sp, B)
		h := r.affineHull()
		var pts [][]int64
		points(len(dims), B, func(p []int64) {
			if bruteIn(r, p) {
				pts = append(pts, append([]int64(nil), p...))
				if !relFromBasic(sp, h).contains(p) {
					t.Fatalf("seed %d: %v in %s but not in its affine hull %s", seed, p, r, relFromBasic(sp, h))
				}
			}
		})
		if len(pts) == 0 {
			if !h.empty {
				t.Fatalf("seed %d: empty set %s, hull %s", seed, r, relFromBasic(sp, h))
			}
			continue
		}
		if got, want := len(dims)-len(h.eqs), affineRank(pts); got != want {
			t.Fatalf("seed %d: hull %s of %s has dimension %d, points span %d", seed, relFromBasic(sp, h), r, got, want)
		}
	}
}

// affineRank returns the dimension of the affine span of points.
func affineRank(pts [][]int64) int {
	var rows [][]int64
	for _, p := range pts[1:] {
		row := make([]int64, len(p))
		for j := range p {
			row[j] = p[j] - pts[0][j]
		}
		rows = append(rows, row)
	}
	rank := 0
	for c := 0; c < len(pts[0]) && rank < len(rows); c++ {
		piv := -1
		for i := rank; i < len(rows); i++ {
			if rows[i][c] != 0 {
				piv = i
				break
			}
		}
		if piv < 0 {
			continue
		}
		rows[rank], rows[piv] = rows[piv], rows[rank]
		for i := range rows {
			if i != rank && rows[i][c] != 0 {
				rows[i], _ = combine(rows[i], rows[rank], c)
			}
		}
		rank++
	}
	return rank
}

func TestSimpleHull(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{ [i] : 0 <= i <= 3; [i] : 6 <= i <= 9 }", "{ [i] : i >= 0 and 9 >= i }"},
		{"{ [i, j] : 0 <= i <= 3 and j = 0; [i, j] : 2 <= i <= 5 and j = 1 }", "{ [i, j] : 0 <= i <= 5 and 0 <= j <= 1 }"},
		{"{ [i] : i mod 2 = 0 and 0 <= i <= 4; [i] : i mod 2 = 0 and 10 <= i <= 20 }", "{ [i] : exists (e0 = floor((i)/2): i = 2*e0 and i >= 0 and 20 >= i) }"},
		{"[N] -> { [i] : 0 <= i < N; [i] : N <= i <= N + 3 }", "[N] -> { [i] : i <= N + 3 }"},
		{"[N] -> { [i] : 0 <= i < N; [i] : 0 <= N <= i <= N + 3 }", "[N] -> { [i] : 0 <= i <= N + 3 and N >= 0 }"},
		{"{ [i] : i >= 0; [i] : i <= -5 }", "{ [i] }"},
	}
	for _, tc := range tests {
		s := parseSetT(t, tc.in)
		h, err := s.SimpleHull()
		if err != nil {
			t.Fatal(err)
		}
		if sub, err := s.IsSubset(h); err != nil || !sub {
			t.Errorf("%s is not contained in its simple hull %s", s, h)
		}
		if h.NumBasic() != 1 {
			t.Errorf("simple hull %s has %d disjuncts", h, h.NumBasic())
		}
		if eq, err := h.IsEqual(parseSetT(t, tc.want)); err != nil || !eq {
			t.Errorf("simple hull of %s = %s, want %s", s, h, tc.want)
		}
	}
}

func TestHullsContainRandom(t *testing.T) {
	const B = 4
	for seed := int64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		params := []string{"N"}[:rng.Intn(2)]
		dims := []string{"x", "y"}[:1+rng.Intn(2)]
		sp := SetSpace(params, NewTuple("S", dims...))
		r := randCoalesceRel(rng, sp, B)
		var sh, ch *basic
		err := func() (err error) {
			defer catch(&err)
			sh, ch = r.simpleHull(), r.convexHull()
			return nil
		}()
		if err != nil {
			t.Logf("seed %d: %v (acceptable)", seed, err)
			continue
		}
		// The convex hull lies within the simple hull, and both contain r.
		if !relFromBasic(sp, ch).isSubset(relFromBasic(sp, sh)) {
			t.Fatalf("seed %d: convex hull %s not inside simple hull %s of %s", seed, relFromBasic(sp, ch), relFromBasic(sp, sh), r)
		}
		points(len(params)+len(dims), B+1, func(p []int64) {
			if r.contains(p) && !relFromBasic(sp, ch).contains(p) {
				t.Fatalf("seed %d: %v in %s but not in its convex hull %s", seed, p, r, relFromBasic(sp, ch))
			}
		})
	}
}

func TestConvexHull(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{ [i, j] : i = 0 and j = 0; [i, j] : i = 2 and j = 0; [i, j] : i = 0 and j = 2 }", "{ [i, j] : i >= 0 and j >= 0 and 2 >= i + j }"},
		{"{ [i] : 0 <= i <= 3; [i] : 6 <= i <= 9 }", "{ [i] : i >= 0 and 9 >= i }"},
		{"{ [i, j] : 0 <= i <= 3 and j = 0; [i, j] : 2 <= i <= 5 and j = 1 }", "{ [i, j] : j >= 0 and i >= 2*j and 1 >= j and 3 + 2*j >= i }"},
		{"{ [i, j] : i >= 0 and j = 0; [i, j] : i = 0 and j >= 0 }", "{ [i, j] : i >= 0 and j >= 0 }"},
		{"{ [i] : exists (e: i = 4e and 0 <= i <= 8) }", "{ [i] : i >= 0 and 8 >= i }"},
	}
	for _, tc := range tests {
		s := parseSetT(t, tc.in)
		h, err := s.ConvexHull()
		if err != nil {
			t.Fatal(err)
		}
		if sub, err := s.IsSubset(h); err != nil || !sub {
			t.Errorf("%s is not contained in its convex hull %s", s, h)
		}
		if eq, err := h.IsEqual(parseSetT(t, tc.want)); err != nil || !eq {
			t.Errorf("convex hull of %s = %s, want %s", s, h, tc.want)
		}
	}
}

func TestBoxHull(t *testing.T) {
	s := parseSetT(t, "{ [i, j] : 0 <= i <= 10 and i <= j <= 2i + 1 and j <= 15; [i, j] : i = -3 and j = 40 }")
	box, err := s.BoxHull()
	if err != nil {
		t.Fatal(err)
	}
	want := []DimBox{
		{Lower: []Bound{{Const: -3, Den: 1}}, Upper: []Bound{{Const: 10, Den: 1}}},
		{Lower: []Bound{{Const: 0, Den: 1}}, Upper: []Bound{{Const: 40, Den: 1}}},
	}
	if diff := cmp.Diff(want, box); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Integer bounds, not rational ones: x = 3e + 1 in [0, 10] is 1..10.
	s = parseSetT(t, "{ [x] : exists (e: x = 3e + 1 and 0 <= x <= 11) }")
	box, err = s.BoxHull()
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi, okLo, okHi := box[0].Range(); lo != 1 || hi != 10 || !okLo || !okHi {
		t.Errorf("range = %d..%d (%v %v), want 1..10", lo, hi, okLo, okHi)
	}
	// Unbounded.
	s = parseSetT(t, "{ [x, y] : x >= 2 and y <= x }")
	box, err = s.BoxHull()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]DimBox{{Lower: []Bound{{Const: 2, Den: 1}}}, {}}, box); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Parametric.
	s = parseSetT(t, "[N] -> { [i, j] : 0 <= i <= j < N }")
	box, err = s.BoxHull()
	if err != nil {
		t.Fatal(err)
	}
	want = []DimBox{
		{Lower: []Bound{{Coef: []int64{0}, Const: 0, Den: 1}}, Upper: []Bound{{Coef: []int64{1}, Const: -1, Den: 1}}},
		{Lower: []Bound{{Coef: []int64{0}, Const: 0, Den: 1}}, Upper: []Bound{{Coef: []int64{1}, Const: -1, Den: 1}}},
	}
	if diff := cmp.Diff(want, box); diff != "" {
		t.Errorf("parametric box (-want +got):\n%s", diff)
	}
	// Empty.
	if box, err := parseSetT(t, "{ [i] : 1 <= 2i <= 1 }").BoxHull(); err != nil || box != nil {
		t.Errorf("box of the empty set = %v, %v", box, err)
	}
}

func TestBoxHullRandom(t *testing.T) {
	const B = 4
	for seed := int64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		dims := []string{"x", "y"}[:1+rng.Intn(2)]
		sp := SetSpace(nil, NewTuple("S", dims...))
		r := randRel(rng, sp, B)
		box := r.boxHull()
		lo := make([]int64, len(dims))
		hi := make([]int64, len(dims))
		any := false
		points(len(dims), B, func(p []int64) {
			if !bruteIn(r, p) {
				return
			}
			for d := range p {
				if !any || p[d] < lo[d] {
					lo[d] = p[d]
				}
				if !any || p[d] > hi[d] {
					hi[d] = p[d]
				}
			}
			if !any {
				copy(lo, p)
				copy(hi, p)
			}
			any = true
		})
		if !any {
			if box != nil {
				t.Fatalf("seed %d: box %v of empty %s", seed, box, r)
			}
			continue
		}
		for d := range dims {
			l, h, okL, okH := box[d].Range()
			if !okL || !okH || l != lo[d] || h != hi[d] {
				t.Fatalf("seed %d dim %d: box %d..%d (%v %v), brute force %d..%d\n%s", seed, d, l, h, okL, okH, lo[d], hi[d], r)
			}
		}
	}
}
