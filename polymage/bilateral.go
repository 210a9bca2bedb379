package polymage

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's bilateral grid size, and the grid's spacing: sigma_s pixels
// in space, 1/BilateralInvSigmaR in intensity (sigma_r = 0.1).
const (
	BilateralRows      = 1536
	BilateralCols      = 2560
	BilateralSigmaS    = 8
	BilateralInvSigmaR = 10
)

func init() {
	register(Entry{
		Name:     "bilateral_grid",
		Stages:   7,
		Build:    BilateralGrid,
		Defaults: map[string]int64{"R": BilateralRows, "C": BilateralCols},
		Small:    map[string]int64{"R": 24, "C": 20},
	})
}

// BilateralGrid is the bilateral filter of an R x C f32 image img with
// values in [0, 1], through a bilateral grid (Chen, Paris and Durand
// 2007), in 6 functions and 8 statements:
//
//	grid(c, gx, gy, gz) = 0; then over every pixel (r.x, r.y), with
//	  zi = int(img(r.x, r.y) * 10):
//	  grid(0, r.x/8, r.y/8, zi) += img(r.x, r.y)   (sum of intensities)
//	  grid(1, r.x/8, r.y/8, zi) += 1               (count)
//	blurz = the 5-tap [1 4 6 4 1] filter (unnormalised) of grid in gz
//	blurx = the same of blurz in gx
//	blury = the same of blurx in gy
//	interpolated(c, x, y) = trilinear interpolation of blury at
//	  (x/8, y/8, img(x, y)*10), weights from x%8, y%8 and the fraction
//	filtered(x, y) = interpolated(1, x, y) > 0 ?
//	                 interpolated(0, x, y) / interpolated(1, x, y) : img(x, y)
//
// The histogram is a reduction with a data-dependent write (a may-write
// of all of grid), the slice a data-dependent read of blury. PolyMage
// counts 7 stages: the grid's two accumulations and the five functions
// after it; here the grid's zero initialisation is a statement too.
//
// Cells: NX = ceil(R/8) cells in x (NY in y) and 11 in intensity (0..10,
// as img(x, y)*10 lies in [0, 10]). Grid coordinates are the cell
// indices themselves, with the blurs' ghost zones at negative indices.
// Each blur is defined where the ones after it read, so it shrinks the
// domain only in its own dimension: the slice reads cells up to NX, NY
// and 11, so blury covers [0, NX] x [0, NY] x [0, 11], blurx reads
// blurz on [-2, NX+2] in gx, blurz grid on [-2, 13] in gz. PolyMage
// instead defines all three blurs on the grid's interior only (cond),
// with a 2-cell offset, and its slice reads cells just outside it at the
// far edges (values it never defines); here those cells are computed,
// and the grid's margins are zero cells, so the filter is well defined
// at every pixel. Hence the grid is 2 x (NX+5) x (NY+5) x 16 rather than
// PolyMage's 2 x (R/8+4) x (C/8+4) x 14. Parameters R and C (at least
// 1) default to BilateralRows and BilateralCols.
func BilateralGrid() (*scop.Program, error) {
	p := dsl.NewPipeline("bilateral_grid")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	c, x, y, z := p.Var("c"), p.Var("x"), p.Var("y"), p.Var("z")
	img := p.Input("img", dsl.F32, R, C)

	const s = BilateralSigmaS
	NX, NY := R.Add(s-1).Div(s), C.Add(s-1).Div(s)
	const NZ = BilateralInvSigmaR + 1
	ch := c.In(0, 2)
	zs := z.In(0, NZ+1) // the cells the slice reads: zi and zi+1

	grid := p.Func("grid", dsl.F32, ch, x.In(-2, NX.Add(3)), y.In(-2, NY.Add(3)), z.In(-2, NZ+3))
	grid.Define(0)
	r := p.RDom("r", dsl.Range(0, R), dsl.Range(0, C))
	v := img.At(r.X, r.Y)
	zi := dsl.Cast(dsl.I32, v.Mul(BilateralInvSigmaR))
	grid.At(0, r.X.Div(s), r.Y.Div(s), zi).Incr(v)
	grid.At(1, r.X.Div(s), r.Y.Div(s), zi).Incr(1)

	// taps is the unnormalised 5-tap [1 4 6 4 1] filter of f along the
	// dimension that at(d) shifts by d.
	taps := func(at func(d int) dsl.Expr) dsl.Expr {
		return dsl.Add(at(-2), at(-1).Mul(4), at(0).Mul(6), at(1).Mul(4), at(2))
	}
	blurz := p.Func("blurz", dsl.F32, ch, x.In(-2, NX.Add(3)), y.In(-2, NY.Add(3)), zs)
	blurz.Define(taps(func(d int) dsl.Expr { return grid.At(c, x, y, z.Add(d)).Expr }))
	blurx := p.Func("blurx", dsl.F32, ch, x.In(0, NX.Add(1)), y.In(-2, NY.Add(3)), zs)
	blurx.Define(taps(func(d int) dsl.Expr { return blurz.At(c, x.Add(d), y, z).Expr }))
	blury := p.Func("blury", dsl.F32, ch, x.In(0, NX.Add(1)), y.In(0, NY.Add(1)), zs)
	blury.Define(taps(func(d int) dsl.Expr { return blurx.At(c, x, y.Add(d), z).Expr }))

	// The slice, as PolyMage writes it: lerp(a, b, w) = a + w*(b - a),
	// first in x, then y, then intensity.
	zv := img.At(x, y).Mul(BilateralInvSigmaR)
	zc := dsl.Cast(dsl.I32, zv)
	zf := dsl.Sub(zv, dsl.Cast(dsl.F32, zc))
	xf := dsl.Cast(dsl.F32, x.Mod(s)).Div(s)
	yf := dsl.Cast(dsl.F32, y.Mod(s)).Div(s)
	xi, yi := x.Div(s), y.Div(s)
	lerp := func(a, b, w dsl.Expr) dsl.Expr { return dsl.Add(a, dsl.Mul(w, dsl.Sub(b, a))) }
	at := func(dx, dy, dz int) dsl.Expr { return blury.At(c, xi.Add(dx), yi.Add(dy), zc.Add(dz)).Expr }
	z0 := lerp(lerp(at(0, 0, 0), at(1, 0, 0), xf), lerp(at(0, 1, 0), at(1, 1, 0), xf), yf)
	z1 := lerp(lerp(at(0, 0, 1), at(1, 0, 1), xf), lerp(at(0, 1, 1), at(1, 1, 1), xf), yf)
	interpolated := p.Func("interpolated", dsl.F32, ch, x.In(0, R), y.In(0, C))
	interpolated.Define(lerp(z0, z1, zf))

	filtered := p.Func("filtered", dsl.F32, x.In(0, R), y.In(0, C))
	filtered.Define(dsl.Select(interpolated.At(1, x, y).Gt(0),
		dsl.Div(interpolated.At(0, x, y), interpolated.At(1, x, y)), img.At(x, y)))

	p.Output(filtered)
	return p.Build()
}
