package delicm_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/delicm"
	"github.com/tilefuse/tilefuse/internal/progtest"
	"github.com/tilefuse/tilefuse/scop"
)

// Cases written as a user would, each with the scalar w.
const (
	// w lives from its load to its store, and the loop reads row i and
	// column j of A, never A[i][j] itself: mapped, both copies removed.
	dotSource = `void dot(int n, double A[20][20], double B[20][20]) {
  double w;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      w = A[i][j];
      for (int k = 0; k < n; k++)
        w += B[i][k] * B[k][j];
      A[i][j] = w;
    }
}`
	// The final statement also reads the element it stores (symm's
	// temp2): mapped, the read would see w's value, not C's.
	rereadSource = `void reread(int n, double C[20][20], double B[20][20]) {
  double w;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      w = 0.0;
      for (int k = 0; k < n; k++)
        w += B[k][j];
      C[i][j] = 2.0 * C[i][j] + w;
    }
}`
	// The loop reads the element w will be stored to, A[i][i] among
	// A[i][k]: mapped, it would see the partial sum.
	aliasSource = `void alias(int n, double A[20][20]) {
  double w;
  for (int i = 0; i < n; i++) {
    w = 0.0;
    for (int k = 0; k < n; k++)
      w += A[i][k];
    A[i][i] = w;
  }
}`
	// A float accumulator stored to a double array: mapped, the sums
	// would be rounded to double instead of float.
	widenSource = `void widen(int n, float B[20], double A[20]) {
  float w;
  for (int i = 0; i < n; i++) {
    w = 0.0f;
    for (int k = 0; k < n; k++)
      w += B[k];
    A[i] = w;
  }
}`
	// The store is guarded and the sum is not: mapped, the elements the
	// guard skips would keep a partial sum instead of their values.
	guardedSource = `void guarded(int n, double B[20], double A[20]) {
  double w;
  for (int i = 0; i < n; i++) {
    w = 0.0;
    for (int k = 0; k < n; k++)
      w += B[k];
    if (i < 5)
      A[i] = w;
  }
}`
	// Two statements read w without writing it: each is a final
	// statement, and renaming either one's family leaves the other's
	// reads without their source.
	twoSource = `void two(int n, double A[20], double B[20], double x[20]) {
  double w;
  for (int i = 0; i < n; i++) {
    w = x[i];
    for (int k = 0; k < n; k++)
      w += x[k];
    A[i] = w;
    B[i] = w;
  }
}`
)

// TestProgram maps what the dataflow allows and nothing else, and the
// mapped program computes the original's live-out values bit for bit.
func TestProgram(t *testing.T) {
	for _, tc := range []struct {
		name, source string // source "" for the PolyBench kernel
		params       map[string]int64
		want         []string // the mappings, as Mapping.String
	}{
		{"dot", dotSource, map[string]int64{"n": 9}, []string{"w -> A[i][j] in S0, S1, S2 (S0, S2 removed)"}},
		{"reread", rereadSource, map[string]int64{"n": 9}, nil},
		{"alias", aliasSource, map[string]int64{"n": 9}, nil},
		{"widen", widenSource, map[string]int64{"n": 9}, nil},
		{"guarded", guardedSource, map[string]int64{"n": 9}, nil},
		{"two", twoSource, map[string]int64{"n": 9}, nil},
		{"ludcmp", "", nil, []string{
			"w -> A[i][j] in S0, S1, S2 (S0 removed)",
			"w -> A[i][j] in S3, S4, S5 (S3, S5 removed)",
			"w -> y[i] in S6, S7, S8 (S8 removed)",
			"w -> x[i] in S9, S10, S11",
		}},
		// nrm onto R[k][k].
		{"gramschmidt", "", nil, []string{"nrm -> R[k][k] in S0, S1, S2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, params := progtest.Load(t, tc.name, tc.source, tc.params)
			q, ms, err := delicm.Program(p)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("mappings (-want +got):\n%s", diff)
			}
			if len(ms) == 0 && q != p {
				t.Errorf("nothing mapped, yet a new program")
			}
			for _, m := range ms {
				if q.Array(m.Scalar) != nil && len(m.Stmts) > 0 && allMapped(p, ms, m.Scalar) {
					t.Errorf("%s is still an array of the mapped program", m.Scalar)
				}
			}
			progtest.SameResults(t, p, q, params)
		})
	}
}

// allMapped reports whether every statement that accesses scalar w is
// in a mapping of w.
func allMapped(p *scop.Program, ms []delicm.Mapping, w string) bool {
	in := map[string]bool{}
	for _, m := range ms {
		if m.Scalar == w {
			for _, s := range m.Stmts {
				in[s] = true
			}
		}
	}
	for _, s := range p.Stmts {
		touches := s.Write.Array == w
		for _, r := range s.Reads {
			touches = touches || r.Array == w
		}
		if touches && !in[s.Name] {
			return false
		}
	}
	return true
}
