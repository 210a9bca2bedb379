package presburger

import (
	"math"
	"testing"
)

// Rows that parallel calls the same or opposite hash alike, whatever
// their constants, also when a coefficient is MinInt64 (its own negation).
func TestDirectionHash(t *testing.T) {
	min := int64(math.MinInt64)
	for _, c := range [][2][]int64{
		{{3, 1, -2, 0}, {-7, 1, -2, 0}},
		{{3, 1, -2, 0}, {5, -1, 2, 0}},
		{{0, 0, 0, 4}, {1, 0, 0, -4}},
		{{0, min, 3, 1}, {0, min, -3, -1}},
		{{0, min, min}, {9, min, min}},
		{{0, 0, 0}, {2, 0, 0}},
	} {
		same, opp := parallel(c[0], c[1])
		if !same && !opp {
			t.Fatalf("%v and %v are not parallel", c[0], c[1])
		}
		if directionHash(c[0]) != directionHash(c[1]) {
			t.Errorf("%v and %v hash apart", c[0], c[1])
		}
	}
}
