package scheduletree

import (
	"strings"
	"testing"
)

// TestSinkBand: the band over a sequence moves into each filter,
// restricted to its statements, with its flags; a band over anything
// else is refused.
func TestSinkBand(t *testing.T) {
	fx := fixtures(t)
	got, err := fx["fused"].SinkBand(Path{0})
	if err != nil {
		t.Fatal(err)
	}
	m, err := got.Map()
	if err != nil {
		t.Fatal(err)
	}
	mapEqual(t, "schedule", m, "{ S[i, j] -> [0, i, j]; T[i, j] -> [1, i, j + 1] }")
	for i, want := range []string{"{ S[i, j] -> [i, j] }", "{ T[i, j] -> [i, j + 1] }"} {
		n, err := got.At(Path{0, i, 0})
		if err != nil {
			t.Fatal(err)
		}
		if n.Kind() != KindBand {
			t.Fatalf("child %d: a %s node, not a band", i, n.Kind())
		}
		mapEqual(t, "band", n.Band().Schedule, want)
		if b := n.Band(); !b.Permutable || !b.Coincident[0] || b.Coincident[1] {
			t.Errorf("child %d: flags %v %v", i, b.Permutable, b.Coincident)
		}
	}
	if err := Validate(got); err != nil {
		t.Error(err)
	}
	if _, err := fx["sequence"].SinkBand(Path{0, 0, 0}); err == nil || !strings.Contains(err.Error(), "cannot sink a band into a leaf") {
		t.Errorf("sinking into a leaf: error %v", err)
	}
}
