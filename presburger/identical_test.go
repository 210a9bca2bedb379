package presburger

import "testing"

func TestIdentical(t *testing.T) {
	a := mustParseMap(t, "[N] -> { S[i] -> A[i + 1] : 0 <= i < N }")
	if !a.Identical(mustParseMap(t, "[N] -> { S[i] -> A[i + 1] : 0 <= i < N }")) {
		t.Error("the same text parses to maps that are not identical")
	}
	for _, src := range []string{
		"[N] -> { S[j] -> A[j + 1] : 0 <= j < N }", // names are part of it
		"[M] -> { S[i] -> A[i + 1] : 0 <= i < M }",
		"[N] -> { S[i] -> A[i + 1] : 0 <= i < N + 1 }",
		"[N] -> { T[i] -> A[i + 1] : 0 <= i < N }",
		"[N] -> { S[i] -> A[i + 1] : 0 <= i < N; S[i] -> A[i + 1] : i = N }",
	} {
		if a.Identical(mustParseMap(t, src)) {
			t.Errorf("%s is identical to %s", src, a)
		}
	}
	// Equal, yet written otherwise.
	b := mustParseMap(t, "[N] -> { S[i] -> A[i + 1] : 0 <= i < N; S[i] -> A[i + 1] : 0 <= i < 3 and i < N }")
	if eq, err := b.IsEqual(a); err != nil || !eq {
		t.Fatalf("%s and %s differ", b, a)
	}
	if !b.Identical(b) || b.Identical(a) {
		t.Error("identity is the representation, not the set")
	}
	s := mustSet(t, "{ [i, j] : 0 <= i <= j < 10 }")
	if !s.Identical(s) || s.Identical(mustSet(t, "{ [i, j] : 0 <= i <= j < 11 }")) {
		t.Error("sets")
	}
}
