package presburger

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCount(t *testing.T) {
	tests := []struct {
		set  string
		want int64
	}{
		{"{ [i] : 0 <= i <= 9 }", 10},
		{"{ [i, j] : 0 <= i <= 9 and 0 <= j <= i }", 55},
		{"{ [i] : i mod 3 = 1 and 0 <= i <= 10 }", 4},
		{"{ [i] : 0 <= i <= 9; [i] : 5 <= i <= 14 }", 15},
		{"{ [i, j] : 0 <= i, j <= 2; [i, j] : 1 <= i, j <= 3; [i, j] : i = j and 0 <= i <= 3 }", 14},
		{"{ [i] : 1 <= 2i <= 1 }", 0},
		{"{ [x, y] : exists (e: x = 2e and 0 <= x <= 6 and 0 <= y <= e) }", 1 + 2 + 3 + 4},
		{"{ [i] : exists (e: 0 <= i <= 20 and 3e <= i <= 3e + 1) }", 14},
		{"{ [o, i] : 0 <= i <= 99 and 32o <= i <= 32o + 31 }", 100},
		{"{ [] }", 1},
		{"{ [i, j] : 0 <= 3i - 2j <= 1 and 0 <= i <= 100 }", 0}, // unbounded in j? no: j fixed by i
	}
	tests[len(tests)-1].want = countBrute(t, tests[len(tests)-1].set, 200)
	for _, tc := range tests {
		s := parseSetT(t, tc.set)
		got, err := s.Count()
		if err != nil {
			t.Fatalf("Count(%s): %v", s, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Count(%s) (-want +got):\n%s", s, diff)
		}
	}
	if _, err := parseSetT(t, "{ [i] : i >= 0 }").Count(); !errors.Is(err, ErrInfinite) {
		t.Errorf("Count of an unbounded set: err = %v, want ErrInfinite", err)
	}
	if _, err := parseSetT(t, "[N] -> { [i] : 0 <= i < N }").Count(); !errors.Is(err, ErrParametric) {
		t.Errorf("Count of a parametric set: err = %v, want ErrParametric", err)
	}
	// Unbounded rationally but no integer point on the unbounded part.
	if n, err := parseSetT(t, "{ [x, y] : 0 <= x <= 3 and 2y = 2x + 1 }").Count(); err != nil || n != 0 {
		t.Errorf("Count = %d, %v; want 0", n, err)
	}
}

// countBrute counts the points of a 2-d set in [-B, B]^2.
func countBrute(t *testing.T, src string, B int64) int64 {
	s := parseSetT(t, src)
	var n int64
	points(2, B, func(p []int64) {
		if ok, _ := s.Contains(p); ok {
			n++
		}
	})
	return n
}

func TestCountRandom(t *testing.T) {
	const B = 4
	for seed := int64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		dims := []string{"x", "y", "z"}[:1+rng.Intn(3)]
		sp := SetSpace(nil, NewTuple("S", dims...))
		r := randRel(rng, sp, B)
		if rng.Intn(2) == 0 {
			r = r.union(randRel(rng, sp, B))
		}
		var want int64
		points(len(dims), B, func(p []int64) {
			if bruteIn(r, p) {
				want++
			}
		})
		got, err := Set{r}.Count()
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, r)
		}
		if got != want {
			t.Fatalf("seed %d: count %d, brute force %d\n%s", seed, got, want, r)
		}
	}
}

func TestCountWithin(t *testing.T) {
	for _, tt := range []struct {
		set      string
		maxNodes int64
		want     int64
		budget   bool
	}{
		{"{ [i, j] : 0 <= i <= 9 and 0 <= j <= 999 }", 100, 10000, false},
		{"{ [i, j] : 0 <= i <= 999 and 0 <= j <= 9 }", 100, 0, true},
		{"{ [i, j] : 0 <= i <= 999 and 0 <= j <= 9 }", 10000, 10000, false},
		{"{ [i, j] : (0 <= i <= 1 or 98 <= i <= 99) and 0 <= j <= 99; [i, j] : 2 <= i <= 97 and (j <= 1 or j >= 98) and 0 <= j <= 99 }", 1000, 4*100 + 96*4, false},
		{"{ [i] : i mod 2 = 0 and 0 <= i <= 99999 }", 1000, 0, true},
	} {
		got, err := parseSetT(t, tt.set).CountWithin(tt.maxNodes)
		if tt.budget {
			if !errors.Is(err, ErrBudget) {
				t.Errorf("CountWithin(%s, %d) = %d, %v; want ErrBudget", tt.set, tt.maxNodes, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("CountWithin(%s, %d) = %d, %v; want %d", tt.set, tt.maxNodes, got, err, tt.want)
		}
	}
}
