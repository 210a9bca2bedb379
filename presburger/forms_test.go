package presburger

import "testing"

// formsCases are sets with locals, defined and not, and several
// disjuncts.
var formsCases = []string{
	"[N] -> { [i, j] : 0 <= i < N and i <= j < N and (i + j) mod 3 = 1 }",
	"[N] -> { [c0, c1] : c0 = floor(c1/32) and 0 <= c1 < N }",
	"[N] -> { [i] : exists (e: i = 4e + 1 and 0 <= e < N) or 0 <= i < 3 }",
	"[N] -> { [i] : exists (e0, e1: 0 <= i < N and 3e0 <= i <= 3e0 + 1 and 2e1 <= e0 + i) }",
}

// checkSameSet fails t unless got and want are the same set.
func checkSameSet(t *testing.T, got, want Set) {
	t.Helper()
	ok, err := got.IsEqual(want)
	if err != nil || !ok {
		t.Errorf("%s != %s (%v)", got, want, err)
	}
}

// TestForms checks that forms round-trip and that ExplicitLocals keeps
// the set and defines every local of its forms.
func TestForms(t *testing.T) {
	for _, src := range formsCases {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		back, err := SetFromForms(s.Space(), s.Forms()...)
		if err != nil {
			t.Fatal(err)
		}
		checkSameSet(t, back, s)
		ex, err := s.ExplicitLocals()
		if err != nil {
			t.Fatal(err)
		}
		checkSameSet(t, ex, s)
		for _, f := range ex.Forms() {
			for _, d := range f.Divs {
				if d.Den == 0 {
					t.Errorf("%s: undefined local after ExplicitLocals", ex)
				}
			}
		}
	}
}
