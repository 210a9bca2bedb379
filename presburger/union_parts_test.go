package presburger

import "testing"

func TestUnionParts(t *testing.T) {
	a, _ := ParseSet("[N] -> { A[i] : 0 <= i < N }")
	b, _ := ParseSet("[M] -> { B[i, j] : 0 <= i, j < M }")
	a2, _ := ParseSet("[N] -> { A[i] : i = N }")
	u, _ := UnionSetFromSets(a, b, a2)
	want, _ := ParseUnionSet("[N, M] -> { A[i] : 0 <= i < N or i = N; B[i, j] : 0 <= i, j < M }")
	if eq, err := u.IsEqual(want); err != nil || !eq {
		t.Fatalf("UnionSetOf = %v, want %v (%v)", u, want, err)
	}
	if got := len(u.Sets()); got != 2 {
		t.Fatalf("Sets() has %d parts, want 2", got)
	}
	s, ok := u.ExtractSet("B")
	if !ok || s.Space().NOut() != 2 {
		t.Fatalf("ExtractSet(B) = %v, %v", s, ok)
	}
	if _, ok := u.ExtractSet("C"); ok {
		t.Fatal("ExtractSet(C) found a part")
	}
	m1, _ := ParseMap("{ S[i] -> A[i] }")
	m2, _ := ParseMap("{ T[i] -> A[i + 1] }")
	um, _ := UnionMapFromMaps(m1, m2)
	if got := len(um.Maps()); got != 2 {
		t.Fatalf("Maps() has %d parts, want 2", got)
	}
}
