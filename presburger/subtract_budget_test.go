package presburger

import (
	"errors"
	"testing"
)

// extensionReach is the set of instances reaching a sequence under an
// extension node in a random AST test case: 21 disjuncts with
// existentials. Validating the sequence's filters subtracted it from
// itself, which split it without end (minutes, gigabytes).
const extensionReach = "[N, M] -> { X[x] : exists (e0, e1: e0 >= 0 and -2 + x <= 2e0 <= x and 2e0 < N and -1 + 2e0 <= 3e1 <= -2 + N + 2e0) or exists (e0, e1: e0 > 0 and -2 + x <= 2e0 <= x and 2e0 < M and 2e0 < N and 3e1 >= -1 + 4e0 and -1 + 2e0 <= 3e1 <= -2 + N + 2e0) or exists (e0, e1: 3e1 = -1 + 2e0 and N > 0 and e0 > 0 and -2 + x <= 2e0 <= x and 2e0 < N) or exists (e0, e1, e2: 2e2 = 1 - 2e0 + 3e1 and e0 > 0 and -2 + x <= 2e0 <= x and 2e0 < N and -1 + 2e0 <= 3e1 <= -2 + M + 2e0 and 3e1 <= -2 + N + 2e0) or (N >= 2 and M >= 2 and 0 < x <= 1 + M and x <= 1 + N) or exists (e0: N >= 0 and M >= 2 and 0 < x <= 1 + M and x <= 3 + N and e0 > 0 and -2 + x <= 2e0 < M and 2e0 < N) or exists (e0, e1, e2: 3e2 = -1 + 2e0 + 2e1 and e0 >= 0 and 2e0 < M and 2e0 < N and e1 > 0 and -2 + x <= 2e1 <= x and 2e1 < N) or exists (e0: M > 0 and e0 > 0 and -2 + x <= 2e0 <= x and 2e0 <= 1 + N) or (N >= 0 and M >= -1 and 0 < x <= 3 + N) or exists (e0: 0 < e0 <= 2 and -2 + x <= 2e0 <= x and 2e0 <= 1 + N) or (0 <= x <= 7) }"

// TestSubtractItself: a set minus itself, or minus a superset made of the
// same disjuncts, is empty without splitting.
func TestSubtractItself(t *testing.T) {
	s := mustSet(t, extensionReach)
	tight := mustSet(t, "[N, M] -> { X[x] : x <= 100 + N }")
	part, err := s.Intersect(tight)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		a, b Set
	}{{"itself", s, s}, {"part", part, s}} {
		d, err := c.a.Subtract(c.b)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if empty, err := d.IsEmpty(); err != nil || !empty {
			t.Fatalf("%s: %v minus its superset = %v (err %v), want empty", c.name, c.a, d, err)
		}
	}
}

// TestSubtractBlowUpStopsWithBudget: subtracting a slightly smaller copy
// (no disjunct evidently contains another) splits exponentially; the
// budget must end it with ErrBudget (or ErrOverflow), not memory
// exhaustion; a result must be right.
func TestSubtractBlowUpStopsWithBudget(t *testing.T) {
	s := mustSet(t, extensionReach)
	smaller, err := s.Intersect(mustSet(t, "[N, M] -> { X[x] : x <= 1000 + N }"))
	if err != nil {
		t.Fatal(err)
	}
	old := CurrentLimits()
	defer SetLimits(old)
	SetLimits(Limits{MaxOps: 2_000_000})
	d, err := s.Subtract(smaller)
	SetLimits(old)
	switch {
	case errors.Is(err, ErrBudget), errors.Is(err, ErrOverflow):
		return
	case err != nil:
		t.Fatalf("subtract: %v, want a result, ErrBudget or ErrOverflow", err)
	}
	want, err := s.Intersect(mustSet(t, "[N, M] -> { X[x] : x > 1000 + N }"))
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := d.IsEqual(want); err != nil || !eq {
		t.Fatalf("subtract = %v (err %v), want %v", d, err, want)
	}
}
