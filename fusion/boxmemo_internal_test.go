package fusion

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger"
)

// TestBoxMemo: the memo answers as box does, once per representation.
func TestBoxMemo(t *testing.T) {
	parse := func(src string) presburger.Map {
		m, err := presburger.ParseMap(src)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	const tile = "{ [o] -> S[i] : 32o - 1 <= i <= 32o + 32 }"
	var bm boxMemo
	for _, src := range []string{tile, tile, "{ [o] -> S[i] : 0 <= i <= o }"} {
		m := parse(src)
		o1, e1, ok1 := box(m, 1)
		o2, e2, ok2 := bm.box(m, 1)
		if ok1 != ok2 || !cmp.Equal(o1, o2) || !cmp.Equal(e1, e2) {
			t.Errorf("%s: memo %v %v %v, box %v %v %v", src, o2, e2, ok2, o1, e1, ok1)
		}
	}
	if _, extent, ok := bm.box(parse(tile), 1); !ok || !cmp.Equal(extent, []int64{34}) {
		t.Errorf("a tile's box: %v %v", extent, ok)
	}
	if len(bm.entries) != 2 {
		t.Errorf("%d entries for two maps", len(bm.entries))
	}
	if !bm.boxed(presburger.UnionMap{}) {
		t.Error("an empty extension is boxed")
	}
}
