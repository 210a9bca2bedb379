// Package progtest holds test helpers for passes that rewrite a program:
// loading a case from C source or PolyBench, and checking that the
// rewritten program computes the original's live-out values bit for bit
// by the reference executor.
package progtest

import (
	"bytes"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// Load parses function name of source, or with source "" the PolyBench
// kernel name at MINI (whose sizes replace params).
func Load(t testing.TB, name, source string, params map[string]int64) (*scop.Program, map[string]int64) {
	t.Helper()
	fn := name
	if source == "" {
		k, ok := polybench.Lookup(name)
		if !ok {
			t.Fatalf("no kernel %s", name)
		}
		source, fn, params = k.Source, k.Func, k.Sizes(polybench.Mini)
	}
	p, err := cparse.ParseFunc(name+".c", []byte(source), fn)
	if err != nil {
		t.Fatal(err)
	}
	return p, params
}

// SameResults runs p and q by the reference executor on the same inputs
// and compares every live-out array of p bit for bit.
func SameResults(t testing.TB, p, q *scop.Program, params map[string]int64) {
	t.Helper()
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	run := func(prog *scop.Program) map[string]*scop.Buffer {
		bufs := map[string]*scop.Buffer{}
		for _, a := range prog.Arrays {
			if b, ok := in[a.Name]; ok && (a.LiveIn || a.LiveOut) {
				bufs[a.Name] = b.Clone()
			}
		}
		if err := refexec.Run(prog, params, bufs); err != nil {
			t.Fatal(err)
		}
		return bufs
	}
	want, got := run(p), run(q)
	for _, a := range p.Arrays {
		if a.LiveOut && !bytes.Equal(want[a.Name].Data, got[a.Name].Data) {
			t.Errorf("live-out %s differs from the original program's", a.Name)
		}
	}
}
