package emit

import (
	"strings"
	"testing"

	"tilefuse/frontend/dsl"
)

// TestWideGathers: lookups of u8 and i16 elements in temporaries (the
// workspace, with its slack) load 4 bytes, the element first, and keep
// it, also at the table's last element; a lookup in an input image,
// which has no slack, stays a narrow load. The outputs are the
// reference's, serially and on threads.
func TestWideGathers(t *testing.T) {
	tc := needTools(t)
	p := dsl.NewPipeline("lut")
	n := p.Param("n")
	p.Assume(n.Ge(1))
	i, v := p.Var("i"), p.Var("v")
	in := p.Input("in", dsl.U8, n)
	img := p.Input("img", dsl.U8, 256)
	curve := p.Func("curve", dsl.U8, v.In(0, 256))
	curve.Define(dsl.Cast(dsl.U8, v.Mul(7).Add(3)))
	tone := p.Func("tone", dsl.I16, v.In(0, 256))
	tone.Define(dsl.Cast(dsl.I16, v.Mul(301).Sub(30000)))
	// Pixels over 100 read the last element.
	at := dsl.Select(dsl.Cast(dsl.I32, in.At(i)).Gt(100), 255, dsl.Cast(dsl.I32, in.At(i)))
	out := p.Func("out", dsl.U8, i.In(0, n))
	out.Define(curve.At(at))
	out16 := p.Func("out16", dsl.I16, i.In(0, n))
	out16.Define(tone.At(at))
	out2 := p.Func("out2", dsl.U8, i.In(0, n))
	out2.Define(img.At(at))
	p.Output(out, out16, out2)
	prog, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	root := originalAST(t, prog)
	params := map[string]int64{"n": 300}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, prog, root, m.opts)
			if k := strings.Count(mod.IR, "load i32, i32* "); k != 2 {
				t.Errorf("%d 4-byte loads, want 2 (curve and tone)", k)
			}
			checkIR(t, mod.IR, "load i32, i32* ", "trunc i32 ", "load i32, i32* ", "trunc i32 ")
			runChecked(t, tc, prog, mod, params)
		})
	}
}
