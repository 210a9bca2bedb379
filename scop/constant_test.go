package scop_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// TestConstantArrays: a temporary is constant when its writers' domains
// name no parameter and their values read only constants; reading an
// input or a parameter, a domain bounded by a parameter, or a writer among
// several that is not constant disqualifies it, and so everything
// computed from it.
func TestConstantArrays(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"table", "for (int v = 0; v < 64; v++) t[v] = sqrtf(v) * 3.0f;", []string{"t"}},
		{"table of a table", "for (int v = 0; v < 64; v++) t[v] = v * 0.5f;\n for (int v = 0; v < 64; v++) u[v] = t[63 - v] + t[v];", []string{"t", "u"}},
		{"recurrence", "t[0] = 1.0f;\n for (int v = 1; v < 64; v++) t[v] = t[v - 1] * 0.5f;", []string{"t"}},
		{"reads an input", "for (int v = 0; v < 64; v++) t[v] = in[v];", nil},
		{"reads a parameter", "for (int v = 0; v < 64; v++) t[v] = v * n;", nil},
		{"domain bounded by a parameter", "for (int v = 0; v < n && v < 64; v++) t[v] = v;", nil},
		{"a second writer reads an input", "for (int v = 0; v < 64; v++) t[v] = v;\n t[3] = in[0];", nil},
		{"from a table that is not", "for (int v = 0; v < 64; v++) t[v] = in[v];\n for (int v = 0; v < 64; v++) u[v] = t[v] + 1.0f;", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decl, read := "", "t[i]"
			if strings.Contains(tc.body, "u[") {
				decl, read = "float u[64];", "t[i] + u[i]"
			}
			src := `void f(int n, float in[64], float out[64]) {
  float t[64];
  ` + decl + `
  ` + tc.body + `
  for (int i = 0; i < 64; i++)
    out[i] = ` + read + ` + in[i];
}`
			p, err := cparse.ParseFunc("f.c", []byte(src), "f")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, p.ConstantArrays(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("constant arrays (-want +got):\n%s", diff)
			}
		})
	}
}
