package tiling_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/tiling"
)

// Sibling reductions as a user would write them.
const (
	// Two row reductions reading x[j] alike, as gesummv's: fused.
	siblingsSource = `void siblings(int n, double A[20][20], double B[20][20], double x[20], double s[20], double t[20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s[i] += A[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      t[i] += B[i][j] * x[j];
}`
	// The same rows with nothing read alike: kept apart.
	unsharedSource = `void unshared(int n, double A[20][20], double B[20][20], double x[20], double y[20], double s[20], double t[20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s[i] += A[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      t[i] += B[i][j] * y[j];
}`
	// The second reads every element the first writes, row j at step j:
	// fused, row i would read rows after it before they are done. The
	// exact check refuses it.
	dependentSource = `void dependent(int n, double A[20][20], double x[20], double s[20], double t[20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s[i] += A[i][j] * x[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      t[i] += s[j] * x[j];
}`
)

// TestFuseSiblings: sibling reductions fuse into one untiled band when
// they share a read and the fusion is legal; otherwise both stay apart,
// tiled for their chains as before.
func TestFuseSiblings(t *testing.T) {
	for _, tc := range []struct {
		name, source string // source "" for the PolyBench kernel
		fused        []string
		tiled        []string
	}{
		{"siblings", siblingsSource, []string{"S0", "S1"}, nil},
		{"unshared", unsharedSource, nil, []string{"S0", "S1"}},
		{"dependent", dependentSource, nil, []string{"S0", "S1"}},
		{"gesummv", "", []string{"S2", "S3"}, nil},
		// x1's and x2's rows are alike, but they read nothing alike.
		{"mvt", "", nil, []string{"S0", "S1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, g, tree := minTree(t, tc.name, tc.source)
			check := func(u scheduletree.Tree) (bool, error) {
				vs, err := scheduler.Check(u, g)
				return err == nil && len(vs) == 0, err
			}
			pol := tiling.Policy{Sizes: []int64{32}, MinMembers: 2, NoNestedWavefront: true, OnlyReuse: true, FuseSiblings: true, Program: p, Check: check}
			out, paths, err := tiling.Apply(tree, pol)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := check(out); err != nil || !ok {
				t.Fatalf("the tree breaks a dependence (%v)", err)
			}
			var fused []string
			out.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
				if n.Kind() == scheduletree.KindBand && len(n.Band().Schedule.Maps()) > 1 && strings.Contains(n.Band().Schedule.String(), "[i, j]") {
					for _, m := range n.Band().Schedule.Maps() {
						fused = append(fused, m.Space().In.Name)
					}
				}
				return true
			})
			slices.Sort(fused)
			if diff := cmp.Diff(tc.fused, fused); diff != "" {
				t.Errorf("statements under a fused band (-want +got):\n%s", diff)
			}
			var tiled []string
			for _, path := range paths {
				n, err := out.At(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range n.Band().Schedule.Maps() {
					if m.Space().NOut() > 1 {
						tiled = append(tiled, m.Space().In.Name)
					}
				}
			}
			slices.Sort(tiled)
			if diff := cmp.Diff(tc.tiled, tiled); diff != "" {
				t.Errorf("statements under tiled two-member bands (-want +got):\n%s", diff)
			}
		})
	}
}
