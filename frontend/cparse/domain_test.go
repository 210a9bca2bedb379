package cparse

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// stmtWant is the expected domain and schedule of one statement, in isl
// notation; they are compared as sets, not as text.
type stmtWant struct {
	domain, schedule string
}

func TestDomainsAndSchedules(t *testing.T) {
	tests := []struct {
		name, src string
		want      []stmtWant
	}{
		{"triangular", `
void k(int n, double A[100][100]) {
  int i, j;
  for (i = 0; i < n; i++) {
    A[i][i] = 1.0;
    for (j = 0; j <= i; j++)
      A[i][j] += 1.0;
  }
}`, []stmtWant{
			{"[n] -> { S0[i] : 0 <= i < n }", "[n] -> { S0[i] -> [0, i, 0, 0, 0] }"},
			{"[n] -> { S1[i, j] : 0 <= j <= i < n }", "[n] -> { S1[i, j] -> [0, i, 1, j, 0] }"},
		}},
		{"strides", `
void k(int n, double A[100]) {
  int i;
  for (i = 1; i < n; i += 3)
    A[i] = 0.0;
  for (i = n; i > 0; i -= 2)
    A[i] = 1.0;
  for (int k = 2; k <= n; k = k + 4)
    A[k] = 2.0;
}`, []stmtWant{
			{"[n] -> { S0[i] : 1 <= i < n and (i - 1) mod 3 = 0 }", "[n] -> { S0[i] -> [0, i, 0] }"},
			{"[n] -> { S1[i] : 0 < i <= n and (n - i) mod 2 = 0 }", "[n] -> { S1[i] -> [1, -i, 0] }"},
			{"[n] -> { S2[k] : 2 <= k <= n and k mod 4 = 2 }", "[n] -> { S2[k] -> [2, k, 0] }"},
		}},
		{"decreasing", `
void k(int n, double A[100]) {
  int i;
  for (i = n - 1; i >= 0; i--)
    A[i] = A[i + 1];
  for (i = 10; 0 < i; --i)
    A[i] = 0.0;
}`, []stmtWant{
			{"[n] -> { S0[i] : 0 <= i <= n - 1 }", "[n] -> { S0[i] -> [0, -i, 0] }"},
			{"[n] -> { S1[i] : 0 < i <= 10 }", "[n] -> { S1[i] -> [1, -i, 0] }"},
		}},
		{"min max bounds", `
void k(int n, int m, double A[100][100]) {
  int i, j;
  for (i = max(0, n - 10); i <= min(n, m); i++)
    for (j = (i < 5 ? i : 5); j < (n > m ? n : m) && j < 2 * i; j++)
      A[i][j] = 0.0;
}`, []stmtWant{
			{"[n, m] -> { S0[i, j] : i >= 0 and i >= n - 10 and i <= n and i <= m and (j >= i or j >= 5) and (j < n or j < m) and j < 2i }",
				"[n, m] -> { S0[i, j] -> [0, i, 0, j, 0] }"},
		}},
		{"pluto floord ceild", `
void k(int n, double A[100]) {
  int t1;
  for (t1 = ceild(n - 7, 4); t1 <= floord(n, 3); t1++)
    A[t1] = 0.0;
}`, []stmtWant{
			{"[n] -> { S0[t1] : 4t1 >= n - 7 and 3t1 <= n }", "[n] -> { S0[t1] -> [0, t1, 0] }"},
		}},
		{"if else", `
void k(int n, double A[100]) {
  int i;
  for (i = 0; i < n; i++) {
    if (i % 2 == 0 && i > 2)
      A[i] = 1.0;
    else
      A[i] = 2.0;
    if (!(i >= 5) || i == n - 1) {
      A[i] += 1.0;
      A[i] *= 2.0;
    }
  }
}`, []stmtWant{
			{"[n] -> { S0[i] : 2 < i < n and i mod 2 = 0 }", "[n] -> { S0[i] -> [0, i, 0] }"},
			{"[n] -> { S1[i] : 0 <= i < n and (i <= 2 or i mod 2 = 1) }", "[n] -> { S1[i] -> [0, i, 1] }"},
			{"[n] -> { S2[i] : 0 <= i < n and (i < 5 or i = n - 1) }", "[n] -> { S2[i] -> [0, i, 2] }"},
			{"[n] -> { S3[i] : 0 <= i < n and (i < 5 or i = n - 1) }", "[n] -> { S3[i] -> [0, i, 3] }"},
		}},
		{"C division", `
void k(int n, double A[100]) {
  int i;
  for (i = 0; i <= (n - 1) / 2; i++)
    A[i] = 0.0;
  for (i = 0; i < n; i++)
    if ((i - 3) / 2 == 0)
      A[i] = 1.0;
  for (i = 0; i < n; i++)
    if ((i - 3) % 2 == -1)
      A[i] = 2.0;
  for (i = 0; i < n; i++)
    if (i / -2 == -1)
      A[i] = 3.0;
}`, []stmtWant{
			// C truncates: (0 - 1) / 2 is 0, so n = 0 runs i = 0.
			{"[n] -> { S0[i] : (i >= 0 and 2i <= n - 1) or (i = 0 and n = 0) }", "[n] -> { S0[i] -> [0, i, 0] }"},
			{"[n] -> { S1[i] : 2 <= i <= 4 and i < n }", "[n] -> { S1[i] -> [1, i, 0] }"},
			{"[n] -> { S2[i] : (i = 0 or i = 2) and i < n }", "[n] -> { S2[i] -> [2, i, 0] }"},
			{"[n] -> { S3[i] : 2 <= i <= 3 and i < n }", "[n] -> { S3[i] -> [3, i, 0] }"},
		}},
		{"comparison value in bound", `
void k(int n, double A[100]) {
  int i;
  for (i = 0; i < n + (n > 3); i++)
    A[i] = 0.0;
}`, []stmtWant{
			{"[n] -> { S0[i] : 0 <= i and (i < n or (n > 3 and i = n)) }", "[n] -> { S0[i] -> [0, i, 0] }"},
		}},
		{"statements between loops and no loops", `
void k(int n, double x, double A[100]) {
  x = 1.0;
  for (int i = 0; i < n; i++) {
    A[i] = x;
  }
  A[n - 1] = 0.0;
}`, []stmtWant{
			{"[n] -> { S0[] }", "[n] -> { S0[] -> [0, 0, 0] }"},
			{"[n] -> { S1[i] : 0 <= i < n }", "[n] -> { S1[i] -> [1, i, 0] }"},
			{"[n] -> { S2[] }", "[n] -> { S2[] -> [2, 0, 0] }"},
		}},
		{"outside initializer and pragmas", `
#include <math.h>
void k(int n, double A[100]) {
  int i;
  double eps = 0.5;
  A[0] = 7.0; /* outside the region: ignored */
#pragma scop
  for (i = 0; i < n; i++)
    A[i] = eps;
#pragma endscop
}`, []stmtWant{
			{"[n] -> { S0[] }", "[n] -> { S0[] -> [0, 0, 0] }"},
			{"[n] -> { S1[i] : 0 <= i < n }", "[n] -> { S1[i] -> [1, i, 0] }"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse("k.c", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			stmts := p[0].Stmts
			if len(stmts) != len(tc.want) {
				t.Fatalf("%d statements, want %d:\n%s", len(stmts), len(tc.want), p[0])
			}
			for i, w := range tc.want {
				s := stmts[i]
				if !setEqual(t, s.Domain, w.domain) {
					t.Errorf("%s domain = %s, want %s", s.Name, s.Domain, w.domain)
				}
				if !mapEqual(t, s.Schedule, w.schedule) {
					t.Errorf("%s schedule = %s, want %s", s.Name, s.Schedule, w.schedule)
				}
			}
		})
	}
}

func TestAccesses(t *testing.T) {
	src := `
void k(int n, double alpha, double A[100][100], double B[100], double C[50]) {
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < i; j++) {
      A[i][j] = alpha * B[j + 1] + C[i / 2] + C[(i - n) / 2] + A[j][i % 3];
    }
}`
	p, err := Parse("k.c", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	prog := p[0]
	reads, err := prog.ReadRelation()
	if err != nil {
		t.Fatal(err)
	}
	writes, err := prog.MustWriteRelation()
	if err != nil {
		t.Fatal(err)
	}
	dom := "0 <= j < i < n"
	wantReads := "[n] -> { S0[i, j] -> alpha[] : " + dom + "; S0[i, j] -> B[j + 1] : " + dom +
		"; S0[i, j] -> C[o] : " + dom + " and 2o <= i <= 2o + 1" +
		"; S0[i, j] -> C[o] : " + dom + " and 2o <= i - n + 1 and i - n <= 2o" + // i - n < 0 rounds up
		"; S0[i, j] -> A[j, o] : " + dom + " and (i - o) mod 3 = 0 and 0 <= o < 3 }"
	if !unionMapEqual(t, reads, wantReads) {
		t.Errorf("reads = %s\nwant %s", reads, wantReads)
	}
	wantWrites := "[n] -> { S0[i, j] -> A[i, j] : " + dom + " }"
	if !unionMapEqual(t, writes, wantWrites) {
		t.Errorf("writes = %s\nwant %s", writes, wantWrites)
	}
	for _, a := range prog.Arrays {
		wantOut := a.Name == "A"
		if !a.LiveIn || a.LiveOut != wantOut {
			t.Errorf("array %s: live-in %v live-out %v", a, a.LiveIn, a.LiveOut)
		}
	}
}

func TestContextAndParams(t *testing.T) {
	src := "typedef float real;\n" +
		"void k(int n, long m, unsigned u, real x, real A[n][m + 1]) {\n  int i;\n  for (i = 0; i < u; i++) A[i][0] = x;\n}\n"
	p, err := ParseFunc("k.c", []byte(src), "k")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Params; len(got) != 3 || got[0] != "n" || got[1] != "m" || got[2] != "u" {
		t.Errorf("params = %v", got)
	}
	if !setEqual(t, p.Context, "[n, m, u] -> { : n >= 0 and m >= 0 and u >= 0 }") {
		t.Errorf("context = %s", p.Context)
	}
	a := p.Array("A")
	if a.Type != scop.F32 || a.Rank() != 2 || a.Extent[0].String() != "n" || a.Extent[1].String() != "(m + 1)" {
		t.Errorf("A = %s", a)
	}
	if x := p.Array("x"); x.Type != scop.F32 || x.Rank() != 0 || !x.LiveIn || x.LiveOut {
		t.Errorf("x = %s", x)
	}
}

func setEqual(t *testing.T, got presburger.Set, want string) bool {
	t.Helper()
	w, err := presburger.ParseSet(want)
	if err != nil {
		t.Fatalf("bad expected set %q: %v", want, err)
	}
	eq, err := got.IsEqual(w)
	if err != nil {
		t.Fatal(err)
	}
	return eq
}

func mapEqual(t *testing.T, got presburger.Map, want string) bool {
	t.Helper()
	w, err := presburger.ParseMap(want)
	if err != nil {
		t.Fatalf("bad expected map %q: %v", want, err)
	}
	eq, err := got.IsEqual(w)
	if err != nil {
		t.Fatal(err)
	}
	return eq
}

func unionMapEqual(t *testing.T, got presburger.UnionMap, want string) bool {
	t.Helper()
	w, err := presburger.ParseUnionMap(want)
	if err != nil {
		t.Fatalf("bad expected map %q: %v", want, err)
	}
	eq, err := got.IsEqual(w)
	if err != nil {
		t.Fatal(err)
	}
	return eq
}
