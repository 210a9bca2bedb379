package polymage

import (
	"math"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// PolyMage's camera pipeline size (a 2592 x 1968 raw image: 1968 rows of
// 2592 samples) and the settings its benchmark runs with.
const (
	CameraRows       = 1968
	CameraCols       = 2592
	CameraColourTemp = 3700 // kelvin
	CameraGamma      = 2.0
	CameraContrast   = 50
)

// The calibrated colour matrices the benchmark's driver passes in (from
// Halide's and FCam's camera pipeline): rows r, g, b; columns the
// weights of red, green, blue and an offset.
var (
	CameraMatrix3200 = [3][4]float32{
		{1.6697, -0.2693, -0.4004, -42.4346},
		{-0.3576, 1.0615, 1.5949, -37.1158},
		{-0.2175, -1.8751, 6.9640, -26.6970},
	}
	CameraMatrix7000 = [3][4]float32{
		{2.2997, -0.4478, 0.1706, -39.0923},
		{-0.3826, 1.5906, -0.2080, -25.4311},
		{-0.0888, -0.7344, 2.2832, -20.0826},
	}
)

// CameraRawMax is the largest sample of the synthetic raw input: the
// lower half of a 10-bit sensor's range, an exposure that keeps most of
// the picture off the curve's white point (1024 after a colour matrix
// whose rows sum to up to 2.3), and every i16 value of the pipeline far
// inside its range (extreme 12-bit inputs could overflow the corrected
// values, as in PolyMage).
const CameraRawMax = 511

func init() {
	register(Entry{
		Name:     "camera_pipe",
		Stages:   32,
		Build:    CameraPipe,
		Defaults: map[string]int64{"R": CameraRows, "C": CameraCols},
		Small:    map[string]int64{"R": 60, "C": 84}, // a 3 x 24 x 20 output
		Fill:     fillCamera,
	})
}

// fillCamera gives the raw image a Bayer mosaic of a synthetic picture
// and the matrices their calibrated values.
func fillCamera(name string, b *scop.Buffer, seed uint64) {
	m := &CameraMatrix3200
	switch name {
	case "img":
		Bayer(b, seed, CameraRawMax)
		return
	case "matrix_7000":
		m = &CameraMatrix7000
	}
	for i := range 3 {
		for j := range 4 {
			b.Store(int64(4*i+j), scop.Value{F: float64(m[i][j])})
		}
	}
}

// The constants PolyMage computes from its float parameters: the
// matrices' interpolation weight for the colour temperature, and the
// curve's coefficients b and a. They are computed once, in float64, and
// rounded to f32, the pipeline's type (a from the rounded b, in f32).
var (
	cameraAlpha  = (1.0/CameraColourTemp - 1.0/3200) / (1.0/7000 - 1.0/3200)
	cameraCurveB = float32(2 - math.Pow(2, CameraContrast/100.0))
	cameraCurveA = 2 - 2*cameraCurveB
)

// CameraPipe is the camera pipeline of Halide and PolyMage (after
// FCam): a raw Bayer image img (u16, R x C, GRBG: green and red on even
// rows, blue and green on odd ones) to an 8-bit colour image, in 27
// functions and 32 statements (PolyMage counts 32 stages):
//
//  1. denoised: hot-pixel suppression, img(x, y) clamped to the range
//     of its four neighbours at distance 2 (the same colour), as i16.
//  2. deinterleaved(c, x, y): the four colour planes of the 2x2 cells,
//     one case per plane (4 statements).
//  3. g_gr, r_r, b_b, g_gb: the known values, each a plane of
//     deinterleaved.
//  4. Demosaicing, Halide's: g_r and g_b (green at red and blue sites,
//     interpolated in the direction of least difference); r_gr, b_gr,
//     r_gb, b_gb (red and blue at green sites, corrected by green's
//     second derivative); r_b and b_r (red at blue and blue at red, along
//     the diagonal of least difference, corrected likewise).
//  5. Interleaving: redX1, redX2, red, greenX1, greenX2, green, blueX1,
//     blueX2, blue, each choosing between two planes by the parity of a
//     coordinate (a select, as PolyMage writes it).
//  6. matrix(i, j): the colour matrix for the colour temperature, linear
//     between the calibrated matrix_3200 and matrix_7000 in inverse
//     kelvin, in Q8.8 fixed point (i32).
//  7. corrected(c, x, y): the matrix applied, one case per output channel
//     (3 statements), as i16; channel 0 is blue, 2 red (PolyMage's BGR).
//  8. curve(v): the gamma and contrast curve as a lookup table over every
//     i16 value v, u8.
//  9. process(c, x, y) = curve(corrected(c, x, y)): the table read with a
//     data-dependent index.
//
// The domains are PolyMage's ghost zones: denoised covers rows 8..R-31
// and columns 12..C-43, the half-resolution planes shrink by a cell at
// each step, and the output covers rows 12..R-37 and columns 16..C-49,
// stored as 3 x x (C-64). Differences from PolyMage: the input is
// u16 (a raw sensor's samples; PolyMage reads them as i16) and denoised
// converts it to i16, PolyMage's type for everything up to the curve;
// PolyMage's float parameters (colour temperature, gamma, contrast) are
// the constants CameraColourTemp, CameraGamma and CameraContrast, so the
// interpolation weight and the curve's coefficients are constants; and
// integer division floors (Halide's rule; PolyMage's C truncates, which
// differs only for negative values). Parameters R (at least 50) and C
// (at least 66) default to CameraRows and CameraCols.
func CameraPipe() (*scop.Program, error) {
	p := dsl.NewPipeline("camera_pipe")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(50), C.Ge(66))
	c, x, y, v := p.Var("c"), p.Var("x"), p.Var("y"), p.Var("v")
	img := p.Input("img", dsl.U16, R, C)
	m3200 := p.Input("matrix_3200", dsl.F32, 3, 4)
	m7000 := p.Input("matrix_7000", dsl.F32, 3, 4)

	// PolyMage's ghost zones: full resolution (rows, cols) and half
	// resolution, each named by how many cells it extends past the
	// output's (0, 1, 2).
	const gx, gy = 12, 16
	fullX, fullY := x.In(gx, R.Sub(36)), y.In(gy, C.Sub(48))
	half := func(k int) []dsl.Dim {
		return []dsl.Dim{
			x.In(gx/2-k, R.Sub(24+gx).Div(2).Add(k+1)),
			y.In(gy/2-k, C.Sub(32+gy).Div(2).Add(k+1)),
		}
	}

	// 1. Hot-pixel suppression.
	maxN := dsl.Max(dsl.Max(img.At(x.Sub(2), y), img.At(x.Add(2), y)), dsl.Max(img.At(x, y.Sub(2)), img.At(x, y.Add(2))))
	minN := dsl.Min(dsl.Min(img.At(x.Sub(2), y), img.At(x.Add(2), y)), dsl.Min(img.At(x, y.Sub(2)), img.At(x, y.Add(2))))
	denoised := p.Func("denoised", dsl.I16, x.In(gx-4, R.Sub(30)), y.In(gy-4, C.Sub(42)))
	denoised.Define(dsl.Cast(dsl.I16, dsl.Max(minN, dsl.Min(maxN, img.At(x, y)))))

	// 2. Deinterleaving.
	h2 := half(2)
	deinterleaved := p.Func("deinterleaved", dsl.I16, c.In(0, 4), h2[0], h2[1])
	deinterleaved.Define(
		dsl.When(c.Eq(0), denoised.At(x.Mul(2), y.Mul(2))),
		dsl.When(c.Eq(1), denoised.At(x.Mul(2), y.Mul(2).Add(1))),
		dsl.When(c.Eq(2), denoised.At(x.Mul(2).Add(1), y.Mul(2))),
		dsl.When(c.Eq(3), denoised.At(x.Mul(2).Add(1), y.Mul(2).Add(1))),
	)

	// 3. The known values.
	plane := func(name string, k int) *dsl.Func {
		f := p.Func(name, dsl.I16, h2...)
		f.Define(deinterleaved.At(k, x, y))
		return f
	}
	gGR, rR, bB, gGB := plane("g_gr", 0), plane("r_r", 1), plane("b_b", 2), plane("g_gb", 3)

	// 4. Demosaicing.
	at := func(f *dsl.Func, dx, dy int) dsl.Expr { return f.At(x.Add(dx), y.Add(dy)).Expr }
	avg := func(a, b dsl.Expr) dsl.Expr { return dsl.Add(a, b).Div(2) }
	absd := func(a, b dsl.Expr) dsl.Expr { return dsl.Select(a.Gt(b), dsl.Sub(a, b), dsl.Sub(b, a)) }
	// pick interpolates along whichever of two directions differs less.
	pick := func(a, a0, a1, b, b0, b1 dsl.Expr) dsl.Expr {
		return dsl.Select(absd(a0, a1).Lt(absd(b0, b1)), a, b)
	}

	h1 := half(1)
	gR := p.Func("g_r", dsl.I16, h1...)
	gR.Define(pick(
		avg(at(gGR, 0, 1), at(gGR, 0, 0)), at(gGR, 0, 1), at(gGR, 0, 0),
		avg(at(gGB, -1, 0), at(gGB, 0, 0)), at(gGB, -1, 0), at(gGB, 0, 0)))
	gB := p.Func("g_b", dsl.I16, h1...)
	gB.Define(pick(
		avg(at(gGB, 0, -1), at(gGB, 0, 0)), at(gGB, 0, -1), at(gGB, 0, 0),
		avg(at(gGR, 1, 0), at(gGR, 0, 0)), at(gGR, 1, 0), at(gGR, 0, 0)))

	// correct interpolates f between two sites, adding the error green
	// g would have had there if interpolated the same way.
	correct := func(g0 dsl.Expr, g *dsl.Func, f *dsl.Func, dx0, dy0, dx1, dy1 int) dsl.Expr {
		return dsl.Add(dsl.Sub(g0, avg(at(g, dx0, dy0), at(g, dx1, dy1))), avg(at(f, dx0, dy0), at(f, dx1, dy1)))
	}
	h0 := half(0)
	define := func(name string, e dsl.Expr) *dsl.Func {
		f := p.Func(name, dsl.I16, h0...)
		f.Define(e)
		return f
	}
	rGR := define("r_gr", correct(at(gGR, 0, 0), gR, rR, 0, 0, 0, -1))
	bGR := define("b_gr", correct(at(gGR, 0, 0), gB, bB, 0, 0, -1, 0))
	rGB := define("r_gb", correct(at(gGB, 0, 0), gR, rR, 0, 0, 1, 0))
	bGB := define("b_gb", correct(at(gGB, 0, 0), gB, bB, 0, 0, 0, 1))
	rB := define("r_b", pick(
		correct(at(gB, 0, 0), gR, rR, 0, 0, 1, -1), at(rR, 0, 0), at(rR, 1, -1),
		correct(at(gB, 0, 0), gR, rR, 0, -1, 1, 0), at(rR, 0, -1), at(rR, 1, 0)))
	bR := define("b_r", pick(
		correct(at(gR, 0, 0), gB, bB, 0, 0, -1, 1), at(bB, 0, 0), at(bB, -1, 1),
		correct(at(gR, 0, 0), gB, bB, 0, 1, -1, 0), at(bB, 0, 1), at(bB, -1, 0)))

	// 5. Interleaving.
	interleaveY := func(name string, a, b *dsl.Func) *dsl.Func {
		f := p.Func(name, dsl.I16, h0[0], fullY)
		f.Define(dsl.Select(y.Mod(2).Eq(0), a.At(x, y.Div(2)), b.At(x, y.Div(2))))
		return f
	}
	interleaveX := func(name string, a, b *dsl.Func) *dsl.Func {
		f := p.Func(name, dsl.I16, fullX, fullY)
		f.Define(dsl.Select(x.Mod(2).Eq(0), a.At(x.Div(2), y), b.At(x.Div(2), y)))
		return f
	}
	red := interleaveX("red", interleaveY("redX1", rGR, rR), interleaveY("redX2", rB, rGB))
	green := interleaveX("green", interleaveY("greenX1", gGR, gR), interleaveY("greenX2", gB, gGB))
	blue := interleaveX("blue", interleaveY("blueX1", bGR, bR), interleaveY("blueX2", bB, bGB))

	// 6. The colour matrix, Q8.8.
	matrix := p.Func("matrix", dsl.I32, x.In(0, 3), y.In(0, 4))
	matrix.Define(dsl.Cast(dsl.I32, dsl.Add(m3200.At(x, y).Mul(cameraAlpha), m7000.At(x, y).Mul(1-cameraAlpha)).Mul(256.0)))

	// 7. Colour correction.
	channel := func(i int) dsl.Expr {
		wide := func(f *dsl.Func) dsl.Expr { return dsl.Cast(dsl.I32, f.At(x, y)) }
		sum := dsl.Add(matrix.At(i, 3), dsl.Mul(matrix.At(i, 0), wide(red)),
			dsl.Mul(matrix.At(i, 1), wide(green)), dsl.Mul(matrix.At(i, 2), wide(blue)))
		return dsl.Cast(dsl.I16, sum.Div(256))
	}
	corrected := p.Func("corrected", dsl.I16, c.In(0, 3), fullX, fullY)
	corrected.Define(dsl.When(c.Eq(2), channel(0)), dsl.When(c.Eq(1), channel(1)), dsl.When(c.Eq(0), channel(2)))

	// 8. The curve (from FCam), a table over every i16 value.
	xf := dsl.Max(dsl.Min(dsl.Cast(dsl.F32, v).Div(1024.0), 1.0), 0.0)
	g := dsl.Pow(xf, 1/CameraGamma)
	a, b := float64(cameraCurveA), float64(cameraCurveB)
	zc := dsl.Select(g.Gt(0.5),
		dsl.Sub(1.0, dsl.Add(dsl.Mul(a, dsl.Sub(1.0, g), dsl.Sub(1.0, g)), dsl.Mul(b, dsl.Sub(1.0, g)))),
		dsl.Add(dsl.Mul(a, g, g), dsl.Mul(b, g)))
	curve := p.Func("curve", dsl.U8, v.In(-32768, 32768))
	curve.Define(dsl.Cast(dsl.U8, dsl.Min(dsl.Max(zc.Mul(256.0), 0.0), 255.0)))

	// 9. The table lookup.
	process := p.Func("process", dsl.U8, c.In(0, 3), fullX, fullY)
	process.Define(curve.At(corrected.At(c, x, y)))

	p.Output(process)
	return p.Build()
}
