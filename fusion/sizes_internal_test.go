package fusion

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDefaultSizes: the inner sizes go on the innermost members, the
// others get 1, for bands of every depth; the default inner sizes are
// 16 x 1024 on the CPU (m = 1) and 32 x 256 for a GPU mapping (m = 2) or
// where every space is live-out.
func TestDefaultSizes(t *testing.T) {
	pipeline := []*Space{{LiveOut: false}, {LiveOut: true}}
	nests := []*Space{{LiveOut: true}, {LiveOut: true}}
	tests := []struct {
		n     int
		inner []int64
		want  []int64
	}{
		{1, defaultInner(1, pipeline), []int64{1024}},
		{2, defaultInner(1, pipeline), []int64{16, 1024}},
		{3, defaultInner(1, pipeline), []int64{1, 16, 1024}},
		{3, defaultInner(2, pipeline), []int64{1, 32, 256}},
		{2, defaultInner(1, nests), []int64{32, 256}},
		{1, []int64{16, 64}, []int64{64}},
		{2, []int64{16, 64}, []int64{16, 64}},
		{4, []int64{16, 64}, []int64{1, 1, 16, 64}},
		{3, []int64{8}, []int64{1, 1, 8}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, InnerSizes(tc.n, tc.inner)); diff != "" {
			t.Errorf("InnerSizes(%d, %v) (-want +got):\n%s", tc.n, tc.inner, diff)
		}
	}
}
