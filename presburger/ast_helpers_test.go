package presburger

import "testing"

// TestASTHelpers checks the helpers of package ast: forms round-trip,
// explicit locals keep the set, AsMap/AsSet keep the points, InSpace
// embeds a parameter set.
func TestASTHelpers(t *testing.T) {
	equal := func(a, b Set) {
		t.Helper()
		ok, err := a.IsEqual(b)
		if err != nil || !ok {
			t.Errorf("%s != %s (%v)", a, b, err)
		}
	}
	for _, src := range []string{
		"[N] -> { [i, j] : 0 <= i < N and i <= j < N and (i + j) mod 3 = 1 }",
		"[N] -> { [c0, c1] : c0 = floor(c1/32) and 0 <= c1 < N }",
		"[N] -> { [i] : exists (e: i = 4e + 1 and 0 <= e < N) or 0 <= i < 3 }",
		"[N] -> { [i] : exists (e0, e1: 0 <= i < N and 3e0 <= i <= 3e0 + 1 and 2e1 <= e0 + i) }",
	} {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		back, err := SetFromForms(s.Space(), s.Forms()...)
		if err != nil {
			t.Fatal(err)
		}
		equal(back, s)
		ex, err := s.ExplicitLocals()
		if err != nil {
			t.Fatal(err)
		}
		equal(ex, s)
		for _, f := range ex.Forms() {
			for _, d := range f.Divs {
				if d.Den == 0 {
					t.Errorf("%s: undefined local after ExplicitLocals", ex)
				}
			}
		}
		m, err := s.AsMap(1)
		if err != nil {
			t.Fatal(err)
		}
		if m.Space().NIn() != 1 || m.Space().NOut() != s.Space().NOut()-1 {
			t.Errorf("AsMap(1) of %s has space %s", s, m.Space())
		}
		equal(m.AsSet(), s)
	}
	ctx, err := ParseSet("[M] -> { : M >= 10 }")
	if err != nil {
		t.Fatal(err)
	}
	in, err := ctx.InSpace(SetSpace([]string{"N"}, NewTuple("", "x")))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseSet("[N, M] -> { [x] : M >= 10 }")
	if err != nil {
		t.Fatal(err)
	}
	equal(in, want)
	if _, err := in.InSpace(in.Space()); err == nil {
		t.Error("InSpace of a non-parameter set succeeded")
	}
}
