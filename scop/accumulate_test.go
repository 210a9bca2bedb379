package scop_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
)

// TestAccumulators checks per iterator where a loop over it alone may
// keep the statement's element in a register: the write must not move
// with the loop, and no other read may meet the element.
func TestAccumulators(t *testing.T) {
	for _, tc := range []struct {
		name, source string // source "" for the PolyBench kernel
		want         map[string][]bool
	}{
		// nussinov's S4, table[i][j] = max(table[i][j], table[i][k] +
		// table[k+1][j]) with i < k < j: over k, never over i or j. S3
		// runs at j = i + 1 only: a loop over either has one iteration.
		{"nussinov", "", map[string][]bool{"S3": {true, true}, "S4": {false, false, true}}},
		// The row read meets A[i][j] at k = j.
		{"row", `void row(int n, double A[20][20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        A[i][j] = A[i][j] + A[i][k];
}`, map[string][]bool{}},
		// k < j: it never does.
		{"strict", `void strict(int n, double A[20][20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < j; k++)
        A[i][j] = A[i][j] + A[i][k];
}`, map[string][]bool{"S0": {false, false, true}}},
		// Not an update: the statement does not read its element.
		{"store", `void store(int n, double A[20], double B[20][20]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      A[i] = B[i][k];
}`, map[string][]bool{}},
		// Another array: always (LLVM manages that one itself, but the
		// answer is the same).
		{"other", `void other(int n, double A[20], double B[20][20]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      A[i] = A[i] + B[i][k];
}`, map[string][]bool{"S0": {false, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, fn := tc.source, tc.name
			if src == "" {
				k, _ := polybench.Lookup(tc.name)
				src, fn = k.Source, k.Func
			}
			p, err := cparse.ParseFunc(tc.name+".c", []byte(src), fn)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Accumulators()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Accumulators (-want +got):\n%s", diff)
			}
		})
	}
}
