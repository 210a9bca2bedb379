package presburger

import "testing"

// TestReinterpret checks that AsMap and AsSet keep the points and that
// InSpace embeds a parameter set.
func TestReinterpret(t *testing.T) {
	for _, src := range formsCases {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.AsMap(1)
		if err != nil {
			t.Fatal(err)
		}
		if m.Space().NIn() != 1 || m.Space().NOut() != s.Space().NOut()-1 {
			t.Errorf("AsMap(1) of %s has space %s", s, m.Space())
		}
		checkSameSet(t, m.AsSet(), s)
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
	checkSameSet(t, in, want)
	if _, err := in.InSpace(in.Space()); err == nil {
		t.Error("InSpace of a non-parameter set succeeded")
	}
}
