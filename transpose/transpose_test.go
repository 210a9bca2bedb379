package transpose_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/internal/progtest"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/transpose"
)

// Cases written as a user would.
const (
	// C = A * B^T: with j innermost B[j][k] walks a column, with k
	// innermost C[i][j] is a reduction: B is copied.
	abtSource = `void abt(int n, double C[20][20], double A[20][20], double B[20][20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[j][k];
}`
	// Only the lower triangle of B is read: the copy covers exactly it.
	triangleSource = `void triangle(int n, double C[20][20], double B[20][20]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = k; j < n; j++)
        C[i][j] += B[j][k] * 2.0;
}`
	// A three-dimensional array read with the loop j in its first
	// subscript: the copy moves that dimension last.
	rank3Source = `void rank3(int n, double C[20][20], double W[20][20][20]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int l = 0; l < n; l++)
        for (int j = 0; j < n; j++)
          C[i][j] += W[j][k][l];
}`
	// B is written too: a copy made first would miss the new values.
	writtenSource = `void written(int n, double C[20][20], double B[20][20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        C[i][j] += B[j][k];
        B[i][j] = C[i][j];
      }
}`
	// Each element of A is read once: a copy would cost as much as the
	// reads it serves.
	onceSource = `void once(int n, double x[20], double A[20][20], double y[20]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x[i] += A[i][j] * y[j];
}`
	// The loop j moves B[2*j][k] by two rows: no permutation makes it
	// contiguous.
	strideSource = `void stride(int n, double C[20][20], double B[40][20]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        C[i][j] += B[2 * j][k];
}`
)

// TestProgram copies what the rule allows and nothing else, and the
// program with copies computes the original's live-out values bit for
// bit.
func TestProgram(t *testing.T) {
	for _, tc := range []struct {
		name, source string // source "" for the PolyBench kernel
		want         []string
		// footprint is the copy statement's domain, when checked.
		footprint string
	}{
		{name: "syrk", want: []string{"A_t[e1][e0] = A[e0][e1] (S2) for S1: A[j][k]"}},
		{name: "syr2k", want: []string{
			"A_t[e1][e0] = A[e0][e1] (S2) for S1: A[j][k]",
			"B_t[e1][e0] = B[e0][e1] (S3) for S1: B[j][k]",
		}},
		{name: "abt", source: abtSource, want: []string{"B_t[e1][e0] = B[e0][e1] (S1) for S0: B[j][k]"}},
		{name: "triangle", source: triangleSource, want: []string{"B_t[e1][e0] = B[e0][e1] (S1) for S0: B[j][k]"},
			footprint: "[n] -> { S1[e0, e1] : 0 <= e1 <= e0 < n }"},
		{name: "rank3", source: rank3Source, want: []string{"W_t[e1][e2][e0] = W[e0][e1][e2] (S1) for S0: W[j][k][l]"}},
		{name: "written", source: writtenSource},
		{name: "once", source: onceSource},
		{name: "stride", source: strideSource},
		{name: "gemm"},     // j innermost is contiguous everywhere already
		{name: "mvt"},      // each element of A read once per statement
		{name: "cholesky"}, // A[i][j] -= A[i][k] * A[j][k], but A is written
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, params := progtest.Load(t, tc.name, tc.source, map[string]int64{"n": 7})
			q, copies, err := transpose.Program(p)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range copies {
				got = append(got, c.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("copies (-want +got):\n%s", diff)
			}
			if len(copies) == 0 && q != p {
				t.Errorf("nothing copied, yet a new program")
			}
			for _, c := range copies {
				a := q.Array(c.Copy)
				if a == nil || a.LiveIn || a.LiveOut {
					t.Errorf("copy %s is not a temporary of the new program: %+v", c.Copy, a)
				}
			}
			if tc.footprint != "" {
				want, err := presburger.ParseSet(tc.footprint)
				if err != nil {
					t.Fatal(err)
				}
				got := q.Stmt(copies[0].Stmt).Domain
				if eq, err := got.IsEqual(want); err != nil || !eq {
					t.Errorf("copy domain %s, want %s (%v)", got, want, err)
				}
			}
			progtest.SameResults(t, p, q, params)
		})
	}
}
