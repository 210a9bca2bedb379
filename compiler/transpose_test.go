package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// TestTranspose: min and post (so auto) read syrk's A[j][k] from a
// transposed copy unless told to keep the layout (smart and max, which
// would fuse the copy into its readers, never copy), which gives the update
// of C (S1) an innermost loop free of dependences (j, where the
// reduction over k was innermost before); the code computes the source
// program's values.
func TestTranspose(t *testing.T) {
	p := kernel(t, "syrk")
	k, _ := polybench.Lookup("syrk")
	params := k.Sizes(polybench.Mini)
	yes, no := true, false
	for _, tc := range []struct {
		strategy compiler.Strategy
		keep     bool
		copies   int
		// inner: whether S1's innermost loop must carry no dependence
		// (nil: not checked).
		inner *bool
	}{
		{compiler.Auto, false, 1, &yes},
		{compiler.Min, false, 1, &yes},
		{compiler.Post, false, 1, &yes},
		{compiler.Smart, false, 0, nil},
		{compiler.Max, false, 0, nil},
		{compiler.Auto, true, 0, &no},
		{compiler.None, false, 0, nil},
	} {
		r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: tc.strategy, KeepLayout: tc.keep, Stop: compiler.StageAST})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Transposed) != tc.copies || (r.Program.Array("A_t") != nil) != (tc.copies > 0) {
			t.Errorf("%v, KeepLayout %v: copies %v, A_t in the program compiled %v; want %d copies",
				tc.strategy, tc.keep, r.Transposed, r.Program.Array("A_t") != nil, tc.copies)
		}
		if got := innermostCoincident(t, r.Tiled, "S1"); tc.inner != nil && got != *tc.inner {
			t.Errorf("%v, KeepLayout %v: S1's innermost loop coincident %v, want %v", tc.strategy, tc.keep, got, *tc.inner)
		}
		sourceResults(t, r, params)
	}
}

// innermostCoincident reports whether the innermost band member over
// statement stmt in tree t carries no dependence.
func innermostCoincident(t *testing.T, tree scheduletree.Tree, stmt string) bool {
	t.Helper()
	var last []bool
	tree.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && strings.Contains(n.Band().Schedule.String(), stmt+"[") {
			last = n.Band().Coincident
		}
		return true
	})
	return len(last) > 0 && last[len(last)-1]
}
