package widen_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/internal/progtest"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/widen"
)

// lookup builds a pipeline whose output reads a table of type table at
// its input's values (a gather, as camera_pipe's tone curve) or, with
// affine, at the output's own coordinate; live makes the table an
// output too.
func lookup(t *testing.T, table dsl.Type, affine, live bool) *scop.Program {
	t.Helper()
	p := dsl.NewPipeline("lookup")
	n := p.Param("N")
	p.Assume(n.Ge(16))
	x, v := p.Var("x"), p.Var("v")
	in := p.Input("in", dsl.I16, n)
	tab := p.Func("table", table, v.In(0, 16))
	// Negative values and wrapping: the conversions must be exact.
	tab.Define(dsl.Cast(table, dsl.Sub(dsl.Cast(dsl.I32, v).Mul(77), 500)))
	out := p.Func("out", dsl.I32, x.In(0, n))
	if affine {
		out.Define(dsl.Cast(dsl.I32, tab.At(x.Mod(16))).Add(1))
	} else {
		out.Define(dsl.Cast(dsl.I32, tab.At(in.At(x))).Add(1))
	}
	if live {
		p.Output(out, tab)
	} else {
		p.Output(out)
	}
	prog, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestProgram: gathered small-integer temporaries are widened to i32, and
// every program computes the same live-out values before and after.
func TestProgram(t *testing.T) {
	for _, tc := range []struct {
		name         string
		table        dsl.Type
		affine, live bool
		want         []string
	}{
		{"bytes gathered", dsl.U8, false, false, []string{"table"}},
		{"signed bytes gathered", dsl.I8, false, false, []string{"table"}},
		{"16-bit gathered", dsl.I16, false, false, []string{"table"}},
		{"32-bit gathered", dsl.I32, false, false, nil},
		{"bytes read at affine points", dsl.U8, true, false, nil},
		{"bytes live after the program", dsl.U8, false, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := lookup(t, tc.table, tc.affine, tc.live)
			q, got := widen.Program(p)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("widened (-want +got)\n%s", diff)
			}
			if len(got) == 0 && q != p {
				t.Errorf("nothing widened, but the program is a new one")
			}
			for _, name := range got {
				if a := q.Array(name); a.Type != scop.I32 {
					t.Errorf("%s stored as %v", name, a.Type)
				}
				if a := p.Array(name); a.Type == scop.I32 {
					t.Errorf("the original program changed: %s is %v", name, a.Type)
				}
			}
			progtest.SameResults(t, p, q, map[string]int64{"N": 40})
		})
	}
}
