package polymage

import (
	"math"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// i16Plane is an i16 function of (x, y) over [x0, x0+rows) x [y0,
// y0+cols), stored from its lower bounds as the DSL stores it.
type i16Plane struct {
	x0, y0 int
	v      *vol[int16]
}

func newI16Plane(x0, x1, y0, y1 int) *i16Plane {
	return &i16Plane{x0: x0, y0: y0, v: newVol[int16](x1-x0, y1-y0)}
}

func (p *i16Plane) at(x, y int) int16     { return *p.v.at(x-p.x0, y-p.y0) }
func (p *i16Plane) set(x, y int, v int16) { *p.v.at(x-p.x0, y-p.y0) = v }

// each runs f over the plane's points, x outermost.
func (p *i16Plane) each(f func(x, y int)) {
	for x := p.x0; x < p.x0+p.v.shape[0]; x++ {
		for y := p.y0; y < p.y0+p.v.shape[1]; y++ {
			f(x, y)
		}
	}
}

// floorHalf is a / 2 rounded down, as the DSL divides integers.
func floorHalf(a int16) int16 {
	if a < 0 && a%2 != 0 {
		return a/2 - 1
	}
	return a / 2
}

// cameraRef computes CameraPipe with plain loops: i16 arithmetic (which
// wraps, as the pipeline's does), floor division, the Q8.8 matrix in
// i32, and the curve in f32 with pow taken in float64 and rounded, as
// the reference executor documents for f32 calls.
func cameraRef(R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	img := volOf[int32](in["img"])
	raw := func(x, y int) int32 { return *img.at(x, y) }
	out := map[string]*scop.Buffer{}

	denoised := newI16Plane(8, R-30, 12, C-42)
	denoised.each(func(x, y int) {
		n := []int32{raw(x-2, y), raw(x+2, y), raw(x, y-2), raw(x, y+2)}
		lo, hi := min(n[0], n[1], n[2], n[3]), max(n[0], n[1], n[2], n[3])
		denoised.set(x, y, int16(max(lo, min(hi, raw(x, y)))))
	})
	out["denoised"] = denoised.v.buffer(scop.I16)

	// half(k) is a half-resolution plane k cells wider than the output's.
	half := func(k int) *i16Plane { return newI16Plane(6-k, (R-36)/2+k+1, 8-k, (C-48)/2+k+1) }
	gGR, rR, bB, gGB := half(2), half(2), half(2), half(2)
	deinterleaved := newVol[int16](4, gGR.v.shape[0], gGR.v.shape[1])
	for k, p := range []*i16Plane{gGR, rR, bB, gGB} {
		p.each(func(x, y int) {
			v := denoised.at(2*x+k/2, 2*y+k%2)
			p.set(x, y, v)
			*deinterleaved.at(k, x-p.x0, y-p.y0) = v
		})
	}
	out["deinterleaved"] = deinterleaved.buffer(scop.I16)

	avg := func(a, b int16) int16 { return floorHalf(a + b) }
	absd := func(a, b int16) int16 {
		if a > b {
			return a - b
		}
		return b - a
	}
	gR, gB := half(1), half(1)
	gR.each(func(x, y int) {
		if absd(gGR.at(x, y+1), gGR.at(x, y)) < absd(gGB.at(x-1, y), gGB.at(x, y)) {
			gR.set(x, y, avg(gGR.at(x, y+1), gGR.at(x, y)))
		} else {
			gR.set(x, y, avg(gGB.at(x-1, y), gGB.at(x, y)))
		}
	})
	gB.each(func(x, y int) {
		if absd(gGB.at(x, y-1), gGB.at(x, y)) < absd(gGR.at(x+1, y), gGR.at(x, y)) {
			gB.set(x, y, avg(gGB.at(x, y-1), gGB.at(x, y)))
		} else {
			gB.set(x, y, avg(gGR.at(x+1, y), gGR.at(x, y)))
		}
	})

	// correct interpolates f between sites (x0, y0) and (x1, y1), adding
	// the error of green g interpolated the same way against g0.
	correct := func(g0 int16, g, f *i16Plane, x0, y0, x1, y1 int) int16 {
		return g0 - avg(g.at(x0, y0), g.at(x1, y1)) + avg(f.at(x0, y0), f.at(x1, y1))
	}
	rGR, bGR, rGB, bGB, rB, bR := half(0), half(0), half(0), half(0), half(0), half(0)
	rGR.each(func(x, y int) {
		rGR.set(x, y, correct(gGR.at(x, y), gR, rR, x, y, x, y-1))
		bGR.set(x, y, correct(gGR.at(x, y), gB, bB, x, y, x-1, y))
		rGB.set(x, y, correct(gGB.at(x, y), gR, rR, x, y, x+1, y))
		bGB.set(x, y, correct(gGB.at(x, y), gB, bB, x, y, x, y+1))
		if absd(rR.at(x, y), rR.at(x+1, y-1)) < absd(rR.at(x, y-1), rR.at(x+1, y)) {
			rB.set(x, y, correct(gB.at(x, y), gR, rR, x, y, x+1, y-1))
		} else {
			rB.set(x, y, correct(gB.at(x, y), gR, rR, x, y-1, x+1, y))
		}
		if absd(bB.at(x, y), bB.at(x-1, y+1)) < absd(bB.at(x, y+1), bB.at(x-1, y)) {
			bR.set(x, y, correct(gR.at(x, y), gB, bB, x, y, x-1, y+1))
		} else {
			bR.set(x, y, correct(gR.at(x, y), gB, bB, x, y+1, x-1, y))
		}
	})
	for name, p := range map[string]*i16Plane{
		"g_gr": gGR, "r_r": rR, "b_b": bB, "g_gb": gGB, "g_r": gR, "g_b": gB,
		"r_gr": rGR, "b_gr": bGR, "r_gb": rGB, "b_gb": bGB, "r_b": rB, "b_r": bR,
	} {
		out[name] = p.v.buffer(scop.I16)
	}

	// Interleaving: even columns from a, odd from b, then even rows from
	// the first row plane, odd from the second.
	rows := func(name string, a, b *i16Plane) *i16Plane {
		p := newI16Plane(6, (R-36)/2+1, 16, C-48)
		p.each(func(x, y int) {
			if y%2 == 0 {
				p.set(x, y, a.at(x, y/2))
			} else {
				p.set(x, y, b.at(x, y/2))
			}
		})
		out[name] = p.v.buffer(scop.I16)
		return p
	}
	full := func(name string, a, b *i16Plane) *i16Plane {
		p := newI16Plane(12, R-36, 16, C-48)
		p.each(func(x, y int) {
			if x%2 == 0 {
				p.set(x, y, a.at(x/2, y))
			} else {
				p.set(x, y, b.at(x/2, y))
			}
		})
		out[name] = p.v.buffer(scop.I16)
		return p
	}
	red := full("red", rows("redX1", rGR, rR), rows("redX2", rB, rGB))
	green := full("green", rows("greenX1", gGR, gR), rows("greenX2", gB, gGB))
	blue := full("blue", rows("blueX1", bGR, bR), rows("blueX2", bB, bGB))

	m3200, m7000 := volOf[float32](in["matrix_3200"]), volOf[float32](in["matrix_7000"])
	alpha, beta := float32(cameraAlpha), float32(1-cameraAlpha)
	matrix := newVol[int32](3, 4)
	for i := range 3 {
		for j := range 4 {
			v := float32(*m3200.at(i, j)*alpha) + float32(*m7000.at(i, j)*beta)
			*matrix.at(i, j) = int32(v * 256)
		}
	}
	out["matrix"] = matrix.buffer(scop.I32)

	corrected := newVol[int16](3, R-48, C-64)
	for c := range 3 {
		row := 2 - c // channel 0 is blue, from the matrix's last row
		m := func(j int) int32 { return *matrix.at(row, j) }
		red.each(func(x, y int) {
			s := m(3) + m(0)*int32(red.at(x, y)) + m(1)*int32(green.at(x, y)) + m(2)*int32(blue.at(x, y))
			q := s / 256
			if s < 0 && s%256 != 0 {
				q--
			}
			*corrected.at(c, x-12, y-16) = int16(q)
		})
	}
	out["corrected"] = corrected.buffer(scop.I16)

	curve := newVol[uint8](1 << 16)
	a, b := cameraCurveA, cameraCurveB
	for v := -32768; v < 32768; v++ {
		xf := max(min(float32(v)/1024, 1), 0)
		g := float32(math.Pow(float64(xf), 1/CameraGamma))
		var z float32
		if g > 0.5 {
			z = 1 - (float32(float32(a*(1-g))*(1-g)) + float32(b*(1-g)))
		} else {
			z = float32(float32(a*g)*g) + float32(b*g)
		}
		*curve.at(v + 32768) = uint8(max(min(z*256, 255), 0))
	}
	out["curve"] = curve.buffer(scop.U8)

	process := newVol[uint8](3, R-48, C-64)
	for i, v := range corrected.v {
		process.v[i] = *curve.at(int(v) + 32768)
	}
	out["process"] = process.buffer(scop.U8)
	return out
}

func TestCameraPipeMatchesGo(t *testing.T) {
	e, _ := Lookup("camera_pipe")
	for seed, ps := range []map[string]int64{e.Small, {"R": 50, "C": 66}, {"R": 61, "C": 87}} {
		prog, in, got := execEntry(t, e, ps, uint64(seed))
		expectArrays(t, prog, ps, got, cameraRef(int(ps["R"]), int(ps["C"]), in), 0)
		if ps["R"] == e.Small["R"] {
			checkCameraOutput(t, got["process"])
			expectMayAccesses(t, prog, nil, "", "curve")
		}
	}
}

// checkCameraOutput checks that the synthetic raw image gives a picture:
// the curve's full range is not hit everywhere, and channels differ.
func checkCameraOutput(t *testing.T, b *scop.Buffer) {
	t.Helper()
	n := b.Len() / 3
	distinct := map[int64]bool{}
	channelsDiffer := false
	for i := range n {
		r, g, bl := b.Load(2*n+i).I, b.Load(n+i).I, b.Load(i).I
		distinct[g] = true
		channelsDiffer = channelsDiffer || r != g || g != bl
	}
	if len(distinct) < 10 || !channelsDiffer {
		t.Errorf("degenerate output: %d distinct green values, channels differ: %v", len(distinct), channelsDiffer)
	}
}
