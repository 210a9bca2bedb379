package scop_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
)

// TestOffsetFold: a folded dimension is a ring from the origin, with a
// floor mod below it.
func TestOffsetFold(t *testing.T) {
	type res struct {
		Off int64
		OK  bool
	}
	for _, tc := range []struct {
		name         string
		origin, fold []int64
		idx          []int64
		want         res
	}{
		{"unfolded", nil, nil, []int64{2, 1}, res{2*4 + 1, true}},
		{"unfolded out of bounds", nil, nil, []int64{3, 1}, res{0, false}},
		{"ring of 3", nil, []int64{3, 0}, []int64{7, 1}, res{1*4 + 1, true}},
		{"ring of 3 from 5", []int64{5, 10}, []int64{3, 0}, []int64{9, 13}, res{1*4 + 3, true}},
		{"below the origin", []int64{5, 0}, []int64{3, 0}, []int64{4, 0}, res{2 * 4, true}},
		{"unfolded dimension still checked", []int64{5, 10}, []int64{3, 0}, []int64{9, 14}, res{0, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := scop.NewBuffer(scop.F32, []int64{3, 4})
			if err != nil {
				t.Fatal(err)
			}
			b.Origin, b.Fold = tc.origin, tc.fold
			off, ok := b.Offset(tc.idx)
			if diff := cmp.Diff(tc.want, res{off, ok}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
