package tiling_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/tiling"
)

// columnSumSource sums each column of A, as bicg's s[j] += r[i] * A[i][j]:
// the scheduler puts the parallel j first, so the points walked columns.
const columnSumSource = `void colsum(int n, double A[100][100], double s[100]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s[j] += A[i][j];
}`

// TestLocalPoints: with LocalPoints, the point loops of a tiled band
// with a parallel tile loop put the member that walks the arrays best
// innermost; the tile loops, and every band without the flag, keep the
// scheduler's order. Every tree passes the exact check.
func TestLocalPoints(t *testing.T) {
	for _, tc := range []struct {
		name, source string // source "" for the PolyBench kernel
		local        bool
		want         map[string]string // statement -> its tile and point rows
	}{
		{"colsum", columnSumSource, true, map[string]string{
			"S0": "[floor(j/32), floor(i/32)] [i, j]"}},
		{"colsum", columnSumSource, false, map[string]string{
			"S0": "[floor(j/32), floor(i/32)] [j, i]"}},
		{"bicg", "", true, map[string]string{
			"S2": "[floor(j/32), floor(i/32)] [i, j]",
			"S3": "[floor(i/32), floor(j/32)] [i, j]"}},
		{"bicg", "", false, map[string]string{
			"S2": "[floor(j/32), floor(i/32)] [j, i]",
			"S3": "[floor(i/32), floor(j/32)] [i, j]"}},
		// The recurrence's row chains walk rows already.
		{"recurrence", recurrenceSource, true, map[string]string{
			"S0": "[floor(i/32), floor(j/32)] [i, j]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, g, tree := minTree(t, tc.name, tc.source)
			check := func(u scheduletree.Tree) (bool, error) {
				vs, err := scheduler.Check(u, g)
				return err == nil && len(vs) == 0, err
			}
			pol := tiling.Policy{Sizes: []int64{32}, MinMembers: 2, OnlyReuse: true, LocalPoints: tc.local, Program: p, Check: check}
			out, paths, err := tiling.Apply(tree, pol)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := check(out); err != nil || !ok {
				t.Fatalf("the tree breaks a dependence (%v)", err)
			}
			got := map[string]string{}
			for _, path := range paths {
				tile, err := out.At(path)
				if err != nil {
					t.Fatal(err)
				}
				points := rowsOf(tile.Child(0).Band())
				for name, rows := range rowsOf(tile.Band()) {
					got[name] = rows + " " + points[name]
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tile and point rows (-want +got):\n%s", diff)
			}
		})
	}
}

// rowsOf returns the rows of b's schedule per statement, as written
// after the arrow ("[floor(j/32), floor(i/32)]").
func rowsOf(b scheduletree.Band) map[string]string {
	out := map[string]string{}
	for _, m := range b.Schedule.Maps() {
		s := m.String()
		s = s[strings.LastIndex(s, "-> ")+3:]
		out[m.Space().In.Name] = strings.TrimSuffix(s, " }")
	}
	return out
}
