package pipelines

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// The default size of HistEq's image.
const (
	HistEqRows = 2048
	HistEqCols = 2048
)

// HistEq is histogram equalisation of a u8 image in of R x C pixels:
//
//	hist(i) = 0;  hist(in(r.x, r.y)) += 1          over r in [0,R) x [0,C)
//	cdf(i) = hist(i);  cdf(k) = cdf(k-1) + hist(k)  over k in [1,256)
//	out(x, y) = u8(cdf(in(x, y)) * 255 / (R*C))
//
// The histogram is a reduction with a data-dependent write (a may-write
// of all of hist), cdf a recurrence whose initial definition gives
// cdf(0) = hist(0), and the remap a data-dependent read. The arithmetic is
// i32, exact while 255*R*C < 2^31 (R*C <= 8421504, a 2900 x 2900 image).
// Parameters R and C (at least 1) default to HistEqRows and HistEqCols.
func HistEq() (*scop.Program, error) {
	p := dsl.NewPipeline("histeq")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	x, y, i := p.Var("x"), p.Var("y"), p.Var("i")
	in := p.Input("in", dsl.U8, R, C)

	hist := p.Func("hist", dsl.I32, i.In(0, 256))
	hist.Define(0)
	r := p.RDom("r", dsl.Range(0, R), dsl.Range(0, C))
	hist.At(in.At(r.X, r.Y)).Incr(1)

	cdf := p.Func("cdf", dsl.I32, i.In(0, 256))
	cdf.Define(hist.At(i))
	k := p.RDom("k", dsl.Range(1, 256))
	cdf.At(k.X).Set(cdf.At(k.X.Sub(1)).Add(hist.At(k.X)))

	out := p.Func("out", dsl.U8, x.In(0, R), y.In(0, C))
	out.Define(dsl.Cast(dsl.U8, cdf.At(in.At(x, y)).Mul(255).Div(R.Mul(C))))

	p.Output(out)
	return p.Build()
}
