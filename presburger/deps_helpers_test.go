package presburger_test

import (
	"testing"

	"tilefuse/presburger"
)

func TestLexOrders(t *testing.T) {
	sp := presburger.SetSpace([]string{"N"}, presburger.NewTuple("", "a", "b"))
	tests := []struct {
		name string
		got  presburger.Map
		want string
	}{
		{"lt", presburger.LexLT(sp), "[N] -> { [a, b] -> [c, d] : c > a or (c = a and d > b) }"},
		{"le", presburger.LexLE(sp), "[N] -> { [a, b] -> [c, d] : c > a or (c = a and d >= b) }"},
		{"gt", presburger.LexGT(sp), "[N] -> { [a, b] -> [c, d] : c < a or (c = a and d < b) }"},
		{"ge", presburger.LexGE(sp), "[N] -> { [a, b] -> [c, d] : c < a or (c = a and d <= b) }"},
		{"lt at 0", presburger.LexLTAt(sp, 0), "[N] -> { [a, b] -> [c, d] : c > a }"},
		{"lt at 1", presburger.LexLTAt(sp, 1), "[N] -> { [a, b] -> [a, d] : d > b }"},
		{"gt at 1", presburger.LexGTAt(sp, 1), "[N] -> { [a, b] -> [a, d] : d < b }"},
	}
	for _, tc := range tests {
		checkMap(t, tc.name, tc.got, tc.want)
	}
}

func TestFactorMaps(t *testing.T) {
	acc, err := presburger.ParseUnionMap("[N] -> { S[i] -> A[i + 1] : 0 <= i < N; T[i, j] -> A[j] : 0 <= i, j < N }")
	if err != nil {
		t.Fatal(err)
	}
	dm, err := acc.DomainMap()
	if err != nil {
		t.Fatal(err)
	}
	rm, err := acc.RangeMap()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"domain S": "[N] -> { [S[i] -> A[i + 1]] -> S[i] : 0 <= i < N }",
		"domain T": "[N] -> { [T[i, j] -> A[j]] -> T[i, j] : 0 <= i, j < N }",
		"range S":  "[N] -> { [S[i] -> A[i + 1]] -> A[i + 1] : 0 <= i < N }",
		"range T":  "[N] -> { [T[i, j] -> A[j]] -> A[j] : 0 <= i, j < N }",
	}
	for kind, u := range map[string]presburger.UnionMap{"domain": dm, "range": rm} {
		maps := u.Maps()
		if len(maps) != 2 {
			t.Fatalf("%s map has %d spaces, want 2", kind, len(maps))
		}
		for _, m := range maps {
			name := kind + " " + m.Space().In.Nest[0].Name
			checkMap(t, name, m, want[name])
		}
	}
}

func checkMap(t *testing.T, name string, got presburger.Map, want string) {
	t.Helper()
	w, err := presburger.ParseMap(want)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if eq, err := got.IsEqual(w); err != nil || !eq {
		t.Errorf("%s = %v, want %v (%v)", name, got, w, err)
	}
}

func TestBasicsAndUnwrap(t *testing.T) {
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
	w, err := presburger.ParseUnionSet("{ [S[i] -> A[i + 1]] : 0 <= i < 4; [T[] -> B[0]] }")
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Unwrap()
	if err != nil {
		t.Fatal(err)
	}
	want, err := presburger.ParseUnionMap("{ S[i] -> A[i + 1] : 0 <= i < 4; T[] -> B[0] }")
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := got.IsEqual(want); err != nil || !eq {
		t.Errorf("unwrap = %v, want %v (%v)", got, want, err)
	}
	flat, err := presburger.ParseUnionSet("{ S[i] }")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := flat.Unwrap(); err == nil {
		t.Error("unwrapping a flat set did not fail")
	}
}
