package presburger

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStride(t *testing.T) {
	tests := []struct {
		set            string
		pos            int
		stride, offset int64
	}{
		{"{ [i] : i mod 4 = 2 }", 0, 4, 2},
		{"{ [i] : i mod 4 = 2 and 0 <= i <= 100 }", 0, 4, 2},
		{"{ [i, j] : exists (e: i = 6e + 5 and j = 2e) }", 0, 6, 5},
		{"{ [i, j] : exists (e: i = 6e + 5 and j = 2e) }", 1, 2, 0},
		{"{ [i, j] : 0 <= i <= 10 and j = 2i + 1 }", 1, 2, 1},
		{"{ [i] : 0 <= i <= 10 }", 0, 1, 0},
		{"{ [i] : i = 7 }", 0, 0, 7},
		{"{ [i] : i = 7; [i] : i = 19 }", 0, 12, 7},
		{"{ [i] : i mod 4 = 1; [i] : i mod 6 = 3 }", 0, 2, 1},
		{"{ [i] : i mod 4 = 2; [i] : i mod 4 = 3 }", 0, 1, 0},
		{"[N] -> { [i] : exists (e: i = 4e + 2 and 0 <= i < N) }", 0, 4, 2},
		{"[N] -> { [i] : exists (e: i = N + 4e) }", 0, 1, 0},
		{"[N] -> { [i] : exists (e: i = 2N + 4e + 1) }", 0, 2, 1},
		{"{ [i] : 2 <= 4i <= 3 }", 0, 0, 0},
		{"{ [i] : exists (e: i = 3e and 1 <= i <= 5) }", 0, 0, 3},
	}
	for _, tc := range tests {
		s := parseSetT(t, tc.set)
		st, off, err := s.Stride(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([2]int64{tc.stride, tc.offset}, [2]int64{st, off}); diff != "" {
			t.Errorf("Stride(%s, %d) (-want +got):\n%s", s, tc.pos, diff)
		}
	}
	if _, _, err := parseSetT(t, "{ [i] }").Stride(1); err == nil {
		t.Errorf("Stride out of range: no error")
	}
}

// TestStrideRandom checks the residue class against the points of random
// sets: every point must satisfy it.
func TestStrideRandom(t *testing.T) {
	const B = 6
	for seed := int64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		sp := SetSpace(nil, NewTuple("S", "x", "y"))
		r := randCoalesceRel(rng, sp, B)
		if rng.Intn(2) == 0 {
			r = randRel(rng, sp, B)
		}
		for pos := 0; pos < 2; pos++ {
			st, off, err := Set{r}.Stride(pos)
			if err != nil {
				t.Fatal(err)
			}
			points(2, B, func(p []int64) {
				if !r.contains(p) {
					return
				}
				if (st == 0 && p[pos] != off) || (st > 0 && ((p[pos]-off)%st+st)%st != 0) {
					t.Fatalf("seed %d: point %v violates stride %d offset %d of dim %d\n%s", seed, p, st, off, pos, r)
				}
			})
		}
	}
}
