package presburger_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

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

func TestUnwrap(t *testing.T) {
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
