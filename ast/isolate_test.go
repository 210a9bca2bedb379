package ast

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scheduletree"
)

func yamlTree(t *testing.T, yaml string) scheduletree.Tree {
	t.Helper()
	tr, err := scheduletree.UnmarshalYAML([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestIsolateOption: the isolated part is generated apart, with its own
// options, and the code is isl's (isl 0.25 prints the same for this tree).
func TestIsolateOption(t *testing.T) {
	tr := yamlTree(t, `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 10 }"
child:
  schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
  options: "{ isolate[[] -> [x, y]] : 2 <= x <= 5; [isolate[] -> unroll[x]] : x = 1 }"
`)
	n, err := Generate(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `if (N >= 3)
  for (int c0 = 0; c0 <= 1; c0 += 1)
    for (int c1 = 0; c1 <= 9; c1 += 1)
      S(c0, c1);
for (int c0 = 2; c0 <= min(N - 1, 5); c0 += 1) {
  S(c0, 0);
  S(c0, 1);
  S(c0, 2);
  S(c0, 3);
  S(c0, 4);
  S(c0, 5);
  S(c0, 6);
  S(c0, 7);
  S(c0, 8);
  S(c0, 9);
}
for (int c0 = 6; c0 < N; c0 += 1)
  for (int c1 = 0; c1 <= 9; c1 += 1)
    S(c0, c1);
if (N <= 2)
  for (int c0 = 0; c0 < N; c0 += 1)
    for (int c1 = 0; c1 <= 9; c1 += 1)
      S(c0, c1);
`
	if diff := cmp.Diff(want, PrintC(n, PrintOptions{})); diff != "" {
		t.Errorf("code (-want +got):\n%s", diff)
	}
}

// TestIsolateFullTiles: isolating the full tiles gives point loops
// without min or max in them.
func TestIsolateFullTiles(t *testing.T) {
	tr := yamlTree(t, `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M }"
child:
  schedule: "[{ S[i, j] -> [(floor(i/4))] }, { S[i, j] -> [(floor(j/4))] }]"
  options: "[N, M] -> { isolate[[] -> [a, b]] : 4a + 3 < N and 4b + 3 < M }"
  child:
    schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
`)
	n, err := Generate(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	code := PrintC(n, PrintOptions{})
	full := "    for (int c2 = 4 * c0; c2 <= 4 * c0 + 3; c2 += 1)\n      for (int c3 = 4 * c1; c3 <= 4 * c1 + 3; c3 += 1)\n        S(c2, c3);\n"
	if !strings.HasPrefix(code, "for (int c0 = 0; c0 <= floord(N - 4, 4); c0 += 1) {\n  for (int c1 = 0; c1 <= floord(M - 4, 4); c1 += 1)\n"+full) {
		t.Errorf("the full tiles do not come first, unguarded:\n%s", code)
	}
}

// TestContextOfOuterDimensions: a context may constrain the outer
// schedule dimensions, as in isl, and is assumed.
func TestContextOfOuterDimensions(t *testing.T) {
	tr := yamlTree(t, `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N and i + j >= 3 }"
child:
  context: "[N] -> { [] : N >= 4 }"
  child:
    schedule: "[{ S[i, j] -> [(i)] }]"
    child:
      context: "[N] -> { [t] : t >= 3 }"
      child:
        schedule: "[{ S[i, j] -> [(j)] }]"
`)
	n, err := Generate(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// With t >= 3 assumed, i + j >= 3 needs no test and no max (isl 0.25
	// prints the same).
	want := "for (int c0 = 0; c0 < N; c0 += 1)\n  for (int c1 = 0; c1 < N; c1 += 1)\n    S(c0, c1);\n"
	if got := PrintC(n, PrintOptions{}); got != want {
		t.Errorf("code:\n%s\nwant:\n%s", got, want)
	}
	bad := yamlTree(t, `
domain: "{ S[i] : 0 <= i < 4 }"
child:
  context: "{ [t] : t >= 0 }"
`)
	if _, err := Generate(bad, Options{}); err == nil || !strings.Contains(err.Error(), "0 outer schedule dimensions") {
		t.Errorf("a context of the wrong depth: %v", err)
	}
}

// TestUnboundedLoop: a loop without an upper bound is generated as isl
// prints it, with the condition 1, also around statements with bounds
// (isl's cloog/infinite2, where isl splits the loop instead), and runs
// until the visitor stops it.
func TestUnboundedLoop(t *testing.T) {
	tests := []struct {
		name, tree, want string
		runs             []string // the first instances Run executes at N = 2
	}{
		{"one", `
domain: "{ S[i] : i >= 3 }"
child:
  schedule: "[{ S[i] -> [(i)] }]"
`, "for (int c0 = 3; 1; c0 += 1)\n  S(c0);\n", []string{"S(3)", "S(4)", "S(5)"}},
		{"after bounded", `
domain: "[N] -> { S1[i] : i >= 1; S2[i, j] : 1 <= i <= N and 1 <= j <= 2 }"
child:
  schedule: "[N] -> [{ S1[i] -> [(i)]; S2[i, j] -> [(i)] }, { S1[i] -> [(0)]; S2[i, j] -> [(j)] }]"
`, `for (int c0 = 1; 1; c0 += 1) {
  S1(c0);
  if (c0 <= N)
    for (int c1 = 1; c1 <= 2; c1 += 1)
      S2(c0, c1);
}
`, []string{"S1(1)", "S2(1, 1)", "S2(1, 2)", "S1(2)", "S2(2, 1)", "S2(2, 2)", "S1(3)", "S1(4)"}},
		{"strided", `
domain: "{ S[i] : i >= 0 and i mod 3 = 1 }"
child:
  schedule: "[{ S[i] -> [(i)] }]"
`, "for (int c0 = 1; 1; c0 += 3)\n  S(c0);\n", []string{"S(1)", "S(4)", "S(7)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Generate(yamlTree(t, tc.tree), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := PrintC(n, PrintOptions{}); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			var runs []string
			err = Run(n, map[string]int64{"N": 2}, Visitor{User: func(s string, args []int64) error {
				runs = append(runs, fmt.Sprintf("%s(%s)", s, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(args)), ", "), "[]")))
				if len(runs) == len(tc.runs) {
					return ErrStop
				}
				return nil
			}})
			if err != nil && !errors.Is(err, ErrStop) {
				t.Fatal(err)
			}
			if !slices.Equal(runs, tc.runs) {
				t.Errorf("ran %v, want %v", runs, tc.runs)
			}
		})
	}
}

// TestNoLowerBound: a loop without a lower bound is an error naming the
// band member.
func TestNoLowerBound(t *testing.T) {
	tr := yamlTree(t, `
domain: "{ S[i] : i <= 0 }"
child:
  schedule: "[{ S[i] -> [(i)] }]"
`)
	_, err := Generate(tr, Options{})
	var ue *UnboundedError
	if !errors.As(err, &ue) || ue.Dim != 0 || !ue.Lower || !strings.Contains(err.Error(), "member 0 of the band") {
		t.Fatalf("error %v, want an UnboundedError for the lower bound of c0", err)
	}
}
