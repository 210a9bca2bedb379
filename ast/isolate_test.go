package ast

import (
	"errors"
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

// TestUnboundedLoop: a loop without an upper bound is an error naming
// the band member.
func TestUnboundedLoop(t *testing.T) {
	tr := yamlTree(t, `
domain: "{ S[i] : i >= 0 }"
child:
  schedule: "[{ S[i] -> [(i)] }]"
`)
	_, err := Generate(tr, Options{})
	var ue *UnboundedError
	if !errors.As(err, &ue) || ue.Dim != 0 || ue.Lower || !strings.Contains(err.Error(), "member 0 of the band") {
		t.Fatalf("error %v, want an UnboundedError for the upper bound of c0", err)
	}
}
