package presburger_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

func TestBasics(t *testing.T) {
	m, err := presburger.ParseMap("{ S[i] -> A[a] : a = i or a = i + 2 }")
	if err != nil {
		t.Fatal(err)
	}
	parts := m.Basics()
	if len(parts) != 2 {
		t.Fatalf("%d basics, want 2", len(parts))
	}
	u, err := parts[0].Union(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := u.IsEqual(m); err != nil || !eq {
		t.Errorf("basics %v ∪ %v != %v (%v)", parts[0], parts[1], m, err)
	}
}
