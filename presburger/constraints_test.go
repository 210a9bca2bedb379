package presburger

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConstraintsRoundTrip(t *testing.T) {
	m, err := ParseMap("[N] -> { S[i, j] -> T[a] : 0 <= i < N and j = 2i + 1 and a >= i + j }")
	if err != nil {
		t.Fatal(err)
	}
	cs := m.Constraints()
	if len(cs) != 1 {
		t.Fatalf("%d basics, want 1", len(cs))
	}
	c := cs[0]
	if got := []int{c.NParam, c.NIn, c.NOut, c.NLocal}; !cmp.Equal(got, []int{1, 2, 1, 0}) {
		t.Fatalf("dims %v", got)
	}
	back, err := MapFromConstraints(m.Space(), c.Eqs, c.Ineqs)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := back.IsEqual(m); err != nil || !eq {
		t.Fatalf("round trip gives %s, want %s (%v)", back, m, err)
	}
	if _, err := SetFromConstraints(m.Space(), nil, nil); err == nil {
		t.Error("SetFromConstraints accepted a map space")
	}
	if _, err := MapFromConstraints(m.Space(), [][]int64{{1, 2}}, nil); err == nil {
		t.Error("MapFromConstraints accepted a short row")
	}
}
