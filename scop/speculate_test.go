package scop_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
)

// TestSpeculableSelects checks which selects may evaluate both operands:
// those whose reads stay within the extents (and, for an intermediate,
// among the elements written), with no division by a variable, costly
// call or data-dependent subscript in either operand.
func TestSpeculableSelects(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       bool
		// out is the output's element type (default float).
		out string
	}{
		{"in bounds", "out[i] = in[i] > 0 ? in[i + 1] : in[i];", true, ""},
		{"constant operand", "out[i] = in[i] > 0 ? in[i] : 0.0f;", true, ""},
		{"below the extent", "out[i] = i > 1 ? in[i - 2] : 0.0f;", false, ""},
		{"past the extent", "out[i] = i < n ? in[i + 2] : 0.0f;", false, ""},
		{"division by a variable", "out[i] = k[i] != 0 ? 7 / k[i] : 0;", false, "int"},
		{"division by a constant", "out[i] = k[i] != 0 ? k[i] / 7 : 0;", true, "int"},
		{"costly call", "out[i] = in[i] > 0 ? expf(in[i]) : 0.0f;", false, ""},
		{"cheap call", "out[i] = in[i] > 0 ? sqrtf(in[i]) : 0.0f;", true, ""},
		// t is written at 1..n only: t[0], in its extents, holds no value
		// (a tile-local buffer of t would not hold it). The condition does
		// not count: t[i - 1] is read at i = 1 too.
		{"intermediate written", "out[i] = t[i] > 0 ? t[i] : t[i] * 0.5f;", true, ""},
		{"intermediate not written", "out[i] = i > 1 ? t[i - 1] : 0.0f;", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := tc.out
			if out == "" {
				out = "float"
			}
			src := `void f(int n, float in[n + 2], int k[n + 2], ` + out + ` out[n + 2]) {
  float t[n + 2];
  for (int i = 1; i <= n; i++)
    t[i] = in[i] * 2.0f;
  for (int i = 1; i <= n; i++)
    ` + tc.body + `
}`
			p, err := cparse.ParseFunc("f.c", []byte(src), "f")
			if err != nil {
				t.Fatal(err)
			}
			spec, err := p.SpeculableSelects()
			if err != nil {
				t.Fatal(err)
			}
			var got []bool
			for _, s := range p.Stmts {
				scop.Walk(s.Value, func(e scop.Expr) bool {
					if sel, ok := e.(*scop.Select); ok {
						got = append(got, spec[sel])
					}
					return true
				})
			}
			if diff := cmp.Diff([]bool{tc.want}, got); diff != "" {
				t.Errorf("speculable (-want +got):\n%s", diff)
			}
		})
	}
}
