package scheduletree

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stencil is a three-member permutable band of a time-skewed stencil
// without a coincident member, as the scheduler gives jacobi-2d.
func stencil(t *testing.T) Tree {
	return tree(t, NewDomain(uset(t, "[T, N] -> { S[t, i, j] : 0 <= t < T and 0 <= i < N and 0 <= j < N }"),
		NewBand(Band{Schedule: umap(t, "{ S[t, i, j] -> [t, t + i, t + j] }"), Permutable: true,
			Options: []Option{OptionSeparate, OptionDefault, OptionAtomic}}, nil)))
}

// TestWavefront: the first member becomes the sum of the first n, split
// above the others; members 1..n-1 become coincident in a permutable
// band, the others keep their flags, the options move with the members.
func TestWavefront(t *testing.T) {
	for _, tc := range []struct {
		name       string
		n          int
		permutable bool
		want       string // the schedule map of the result
		front      []Option
		coincident []bool // the inner band's
		options    []Option
	}{
		{"two", 2, true, "{ S[t, i, j] -> [2t + i, t + i, t + j] }", []Option{OptionSeparate},
			[]bool{true, false}, []Option{OptionDefault, OptionAtomic}},
		{"all", 3, true, "{ S[t, i, j] -> [3t + i + j, t + i, t + j] }", []Option{OptionSeparate},
			[]bool{true, true}, []Option{OptionDefault, OptionAtomic}},
		// Without permutability nothing is known of the distances.
		{"not permutable", 2, false, "{ S[t, i, j] -> [2t + i, t + i, t + j] }", []Option{OptionSeparate},
			[]bool{false, false}, []Option{OptionDefault, OptionAtomic}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := stencil(t)
			b := tr.Root().Child(0).Band()
			b.Permutable = tc.permutable
			tr, err := tr.SetBand(Path{0}, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.Wavefront(Path{0}, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			m, err := got.Map()
			if err != nil {
				t.Fatal(err)
			}
			mapEqual(t, "schedule", m, tc.want)
			front, rest := got.Root().Child(0), got.Root().Child(0).Child(0)
			if front.Kind() != KindBand || rest.Kind() != KindBand {
				t.Fatalf("not two bands:\n%s", got.Text())
			}
			fb, rb := front.Band(), rest.Band()
			if d := cmp.Diff([]bool{false}, fb.Coincident); d != "" {
				t.Errorf("wavefront flags (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.front, fb.Options); d != "" {
				t.Errorf("wavefront options (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.coincident, rb.Coincident); d != "" {
				t.Errorf("inner flags (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.options, rb.Options); d != "" {
				t.Errorf("inner options (-want +got):\n%s", d)
			}
			if fb.Permutable != tc.permutable || rb.Permutable != tc.permutable {
				t.Errorf("permutable %v, %v; want %v", fb.Permutable, rb.Permutable, tc.permutable)
			}
			if err := Validate(got); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestWavefrontErrors(t *testing.T) {
	st, fx := stencil(t), fixtures(t)
	for _, tc := range []struct {
		name, want string
		tr         Tree
		p          Path
		n          int
	}{
		{"one member summed", "cannot make a wavefront of 1", st, Path{0}, 1},
		{"too many", "cannot make a wavefront of 4", st, Path{0}, 4},
		{"not a band", "not a band", fx["sequence"], Path{0}, 2},
	} {
		_, err := tc.tr.Wavefront(tc.p, tc.n)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}
