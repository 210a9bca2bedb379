package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
)

// TestKeptTables: constant tables are computed on a thread's first call
// and kept, where no earlier statement reads them; every program runs
// five calls (one warm-up) on 2 threads and its last output is checked
// bit for bit, so a table kept wrongly (read as zeros before it is
// computed, or never computed) fails.
func TestKeptTables(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	camera, _ := polymage.Lookup("camera_pipe")
	cameraProg, err := camera.Build()
	if err != nil {
		t.Fatal(err)
	}
	parse := func(src string) *scop.Program {
		p, err := cparse.ParseFunc("f.c", []byte(src), "f")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// t and u are constant; u is computed from t.
	chain := parse(`void f(float in[64], float out[64]) {
  float t[64];
  float u[64];
  for (int v = 0; v < 64; v++)
    t[v] = sqrtf(v) * 0.5f;
  for (int v = 0; v < 64; v++)
    u[v] = t[63 - v] + 1.0f;
  for (int i = 0; i < 64; i++)
    out[i] = in[i] * t[i] + u[i];
}`)
	// The first loop reads t before the program computes it: zeros at
	// every call, so t must not be kept.
	early := parse(`void f(float in[64], float out[64]) {
  float t[64];
  for (int i = 0; i < 64; i++)
    out[i] = in[i] + t[i];
  for (int v = 0; v < 64; v++)
    t[v] = v * 0.25f;
  for (int i = 0; i < 64; i++)
    out[i] = out[i] * t[i];
}`)
	for _, c := range []struct {
		name      string
		p         *scop.Program
		params    map[string]int64
		opts      compiler.Options
		want      []string
		reference runner.Reference
	}{
		{"camera_pipe post", cameraProg, camera.Small, compiler.Options{Strategy: compiler.Post}, []string{"curve"}, runner.RefAuto},
		{"camera_pipe auto", cameraProg, camera.Small, compiler.Options{Strategy: compiler.Auto}, []string{"curve"}, runner.RefAuto},
		{"camera_pipe recomputed", cameraProg, camera.Small, compiler.Options{Strategy: compiler.Auto, RecomputeTables: true}, nil, runner.RefAuto},
		{"chain none", chain, nil, compiler.Options{Strategy: compiler.None}, []string{"t", "u"}, runner.RefExec},
		{"chain auto", chain, nil, compiler.Options{Strategy: compiler.Auto}, []string{"t", "u"}, runner.RefExec},
		{"read early none", early, nil, compiler.Options{Strategy: compiler.None}, nil, runner.RefExec},
		{"read early auto", early, nil, compiler.Options{Strategy: compiler.Auto}, nil, runner.RefExec},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Parallel = true
			r, err := compiler.Compile(context.Background(), c.p, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, r.Kept, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("kept tables (-want +got):\n%s", diff)
			}
			for _, a := range c.want {
				if flag := r.Module.Func + ".kept."; !strings.Contains(r.Module.IR, flag) {
					t.Errorf("the IR has no flag %s... for %s", flag, a)
				}
			}
			res, err := tc.Run(c.p, runner.Kernel{IR: r.Module.IR, Func: r.Module.Func}, runner.Options{
				Params: c.params, Threads: 2, Repeat: 4, Warmup: 1, Reference: c.reference,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Check.OK() {
				t.Errorf("%s", res.Check)
			}
		})
	}
}
