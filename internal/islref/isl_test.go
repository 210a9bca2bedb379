//go:build isl && cgo

package islref

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

func evalScript(t *testing.T, src string) *Run {
	t.Helper()
	prog, err := calc.Parse("t.calc", src)
	if err != nil {
		t.Fatal(err)
	}
	r := Eval(prog)
	t.Cleanup(r.Free)
	return r
}

func texts(r *Run) []string {
	var out []string
	for _, o := range r.Outputs {
		out = append(out, o.Text)
	}
	return out
}

// TestEval pins isl's answers for each calculator operation, so a mistake in
// the harness (a wrong isl call) cannot pass unnoticed.
func TestEval(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"union", "{ A[i] : 0 <= i <= 3 } + { A[i] : 4 <= i <= 5 };", []string{"{ A[i] : 0 <= i <= 5 and (i <= 3 or i >= 4) }"}},
		{"subtract", "{ A[i] : 0 <= i <= 5 } - { A[i] : i >= 1 };", []string{"{ A[i = 0] }"}},
		{"intersect", "[N] -> { A[i] : i >= 0 } * [N] -> { A[i] : i < N };", []string{"[N] -> { A[i] : 0 <= i < N }"}},
		{"intersect domain", "{ A[i] -> B[i] } * { A[i] : 0 <= i <= 2 };", []string{"{ A[i] -> B[i] : 0 <= i <= 2 }"}},
		{"join", "{ A[i] -> B[i + 1] } . { B[j] -> C[2j] };", []string{"{ A[i] -> C[2 + 2i] }"}},
		{"apply", "{ A[i] -> B[i + 1] }({ A[i] : 0 <= i <= 2 });", []string{"{ B[i0] : 0 < i0 <= 3 }"}},
		{"reverse", "{ A[i] -> B[i + 1] }^-1;", []string{"{ B[i0] -> A[i = -1 + i0] }"}},
		{"dom ran", "M := { A[i] -> B[j] : 0 <= i < j <= 3 }; dom M; ran M;",
			[]string{"{ A[i] : 0 <= i <= 2 }", "{ B[j] : 0 < j <= 3 }"}},
		{"deltas", "deltas { A[i, j] -> A[i + 1, j - 2] };", []string{"{ A[i = 1, j = -2] }"}},
		{"params", "params [N] -> { A[i] : 0 <= i < N };", []string{"[N] -> {  : N > 0 }"}},
		{"lexmin lexmax", "S := { A[i] : 2 <= i <= 7 }; lexmin S; lexmax S;", []string{"{ A[i = 2] }", "{ A[i = 7] }"}},
		// The reference for coalesce is the operand (isl's coalesce is wrong on
		// some inputs), so isl prints the uncoalesced union.
		{"coalesce", "coalesce ({ A[i] : 0 <= i <= 3 } + { A[i] : 4 <= i <= 9 });", []string{"{ A[i] : 0 <= i <= 9 and (i <= 3 or i >= 4) }"}},
		{"gist", "{ A[i] : 0 <= i <= 10 } % { A[i] : i >= 0 };", []string{"{ A[i] : i <= 10 }"}},
		{"compare", "S := { A[i] : 0 <= i <= 3 }; S = S; S <= { A[i] : i >= 1 }; S - S = { };",
			[]string{"True", "False", "True"}},
		{"sample", "sample { A[i, j] : i = 3 and j = 4 };", []string{"{ A[i = 3, j = 4] }"}},
		{"sample empty", "sample { A[i] : i > 0 and i < 0 };", []string{"{  }"}},
		{"unions of spaces", "{ A[i] : 0 <= i <= 1; B[] } * { B[]; C[] };", []string{"{ B[] }"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalScript(t, tc.src)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			if diff := cmp.Diff(tc.want, texts(r)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	r := evalScript(t, "A := { A[i] };\nA;\nB := { A[i] : i >== 0 };\n")
	if r.Err == nil || !strings.HasPrefix(r.Err.Error(), "t.calc:3:6: isl read") {
		t.Errorf("error = %v, want one at t.calc:3:6 from isl read", r.Err)
	}
	if len(r.Outputs) != 1 {
		t.Errorf("outputs = %q, want the one before the error", texts(r))
	}
}

// TestCheck checks that Check accepts equal answers written differently and
// rejects wrong ones, for every kind of check.
func TestCheck(t *testing.T) {
	tests := []struct {
		name, src, text string
		ok              bool
	}{
		{"equal rewritten", "{ A[i] : 0 <= i <= 5 };", "{ A[i] : i >= 0 and 5 - i >= 0 }", true},
		{"equal split", "{ A[i] : 0 <= i <= 5 };", "{ A[i] : 0 <= i <= 2; A[i] : 3 <= i <= 5 }", true},
		{"unequal", "{ A[i] : 0 <= i <= 5 };", "{ A[i] : 0 <= i <= 4 }", false},
		{"wrong space", "{ A[i] : 0 <= i <= 5 };", "{ B[i] : 0 <= i <= 5 }", false},
		{"unreadable", "{ A[i] };", "{ A[i] : i >== 0 }", false},
		{"empty map", "{ A[i] -> B[i] } - { A[i] -> B[i] };", "{  }", true},
		{"map params", "[N] -> { A[i] -> B[i + N] };", "[N] -> { A[i] -> B[o] : o - i = N }", true},
		{"bool same", "{ A[i] } <= { A[i] };", "True", true},
		{"bool differs", "{ A[i] } <= { A[i] };", "False", false},
		{"sample other point", "sample { A[i] : 0 <= i <= 9 };", "{ A[7] }", true},
		{"sample outside", "sample { A[i] : 0 <= i <= 9 };", "{ A[10] }", false},
		{"sample two points", "sample { A[i] : 0 <= i <= 9 };", "{ A[i] : 1 <= i <= 2 }", false},
		{"sample of empty", "sample { A[i] : 1 = 0 };", "{  }", true},
		{"sample wrongly empty", "sample { A[i] : 0 <= i <= 9 };", "{  }", false},
		{"sample fixes params", "sample [N] -> { A[i] : 0 <= i < N };", "[N] -> { A[0] : N = 1 }", true},
		{"sample leaves params free", "sample [N] -> { A[i] : 0 <= i < N };", "[N] -> { A[0] : N >= 1 }", false},
		{"sample map", "sample { A[i] -> B[j] : 0 <= i < j <= 3 };", "{ A[1] -> B[3] }", true},
		{"sample map two", "sample { A[i] -> B[j] : 0 <= i < j <= 3 };", "{ A[1] -> B[j] : 2 <= j <= 3 }", false},
		{"gist within context", "{ A[i] : 0 <= i <= 10 } % { A[i] : i >= 0 };", "{ A[i] : 0 <= i <= 10 }", true},
		{"gist wrong", "{ A[i] : 0 <= i <= 10 } % { A[i] : i >= 0 };", "{ A[i] : i <= 9 }", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalScript(t, tc.src)
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			err := r.Check(0, tc.text)
			if (err == nil) != tc.ok {
				t.Errorf("Check(%q) = %v, want ok=%v (isl: %s)", tc.text, err, tc.ok, r.Outputs[0].Text)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	eq, err := Equal(calc.MapKind, "{ A[i] -> B[i] : i >= 0 }", "{ A[i] -> B[j] : j = i and i > -1 }")
	if err != nil || !eq {
		t.Errorf("Equal = %v, %v; want true", eq, err)
	}
	eq, err = Equal(calc.SetKind, "{ A[i] : i >= 0 }", "{ A[i] : i > 0 }")
	if err != nil || eq {
		t.Errorf("Equal = %v, %v; want false", eq, err)
	}
	if _, err := Equal(calc.SetKind, "{ A[i] : i >= 0 }", "{ A[i] -> B[i] }"); err == nil {
		t.Error("Equal of a set and a map: no error")
	}
}

func TestTime(t *testing.T) {
	prog, err := calc.Parse("t", "S := { A[i] : 0 <= i <= 100 }; S * { A[i] : i >= 50 };")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Time(prog, 1, 20)
	if err != nil || d <= 0 {
		t.Errorf("Time = %v, %v", d, err)
	}
}
