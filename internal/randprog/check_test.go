package randprog

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// TestCheckerCatches: the checker is not blind. An illegal tree (a
// recurrence run backwards) compiles, since the compiler trusts a given
// tree's order, and both oracles, the AST interpreter and the native run,
// report the wrong arrays; the legal tree passes both.
func TestCheckerCatches(t *testing.T) {
	p := &Program{Func: "rec", Params: map[string]int64{"n": 6}, Source: `void rec(int n, double A[n + 4])
{
  int i;
#pragma scop
  for (i = 2; i < n + 2; i++)
    A[i] = 0.5 * A[i - 1] + 1.0;
#pragma endscop
}
`}
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Logf("no native run: %v", err)
	}
	combo := Combos()[0]
	for _, tc2 := range []struct {
		sched string
		want  []string // the failing stages
	}{
		{"[n] -> { S0[i] -> [i] }", nil},
		{"[n] -> { S0[i] -> [-i] }", []string{"compare", "native-compare"}},
	} {
		tree, err := scheduletree.Unmarshal([]byte(`{"kind": "domain", "domain": "[n] -> { S0[i] : 2 <= i < n + 2 }", "child": {"kind": "band", "schedule": "` + tc2.sched + `"}}`))
		if err != nil {
			t.Fatal(err)
		}
		c := &Checker{
			Combos: []Combo{combo}, Toolchain: tc,
			Native: func(*Program, int) bool { return true },
			Adjust: func(o *compiler.Options) { o.Tree = &tree },
		}
		fs, _ := c.Check(p)
		var got []string
		for _, f := range fs {
			got = append(got, f.Stage)
		}
		want := tc2.want
		if tc == nil && len(want) > 0 {
			want = want[:1]
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("tree %s: failing stages %q, want %q (%v)", tc2.sched, got, want, fs)
		}
	}
}
