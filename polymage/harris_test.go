package polymage

import (
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// harrisRef computes Harris with plain loops, with the f32 operations of
// the pipeline in the same order (products converted explicitly, so that
// Go cannot fuse them with the sums).
func harrisRef(R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	img := volOf[float32](in["img"])
	full := func() *vol[float32] { return newVol[float32](R, C) }
	inner := func() *vol[float32] { return newVol[float32](R-2, C-2) }
	Ix, Iy, Ixx, Iyy, Ixy := full(), full(), full(), full(), full()
	Sxx, Syy, Sxy, det, trace, harris := inner(), inner(), inner(), inner(), inner(), inner()
	var k64 float64 = 0.04
	k := float32(k64)
	for x := 1; x <= R; x++ {
		for y := 1; y <= C; y++ {
			p := func(dx, dy int, w float32) float32 { return float32(*img.at(x+dx, y+dy) * w) }
			sy := p(-1, -1, -1) + p(-1, 1, 1)
			sy += p(0, -1, -2)
			sy += p(0, 1, 2)
			sy += p(1, -1, -1)
			sy += p(1, 1, 1)
			sx := p(-1, -1, -1) + p(-1, 0, -2)
			sx += p(-1, 1, -1)
			sx += p(1, -1, 1)
			sx += p(1, 0, 2)
			sx += p(1, 1, 1)
			gx, gy := sx/12, sy/12
			*Iy.at(x-1, y-1), *Ix.at(x-1, y-1) = gy, gx
			*Ixx.at(x-1, y-1), *Iyy.at(x-1, y-1), *Ixy.at(x-1, y-1) = gx*gx, gy*gy, gx*gy
		}
	}
	for x := 2; x < R; x++ {
		for y := 2; y < C; y++ {
			box := func(f *vol[float32]) float32 {
				s := *f.at(x-2, y-2)
				for i := range 9 {
					if i > 0 {
						s += *f.at(x-2+i/3, y-2+i%3)
					}
				}
				return s
			}
			sxx, syy, sxy := box(Ixx), box(Iyy), box(Ixy)
			d := float32(sxx*syy) - float32(sxy*sxy)
			tr := sxx + syy
			*Sxx.at(x-2, y-2), *Syy.at(x-2, y-2), *Sxy.at(x-2, y-2) = sxx, syy, sxy
			*det.at(x-2, y-2), *trace.at(x-2, y-2) = d, tr
			*harris.at(x-2, y-2) = d - float32(float32(k*tr)*tr)
		}
	}
	out := map[string]*scop.Buffer{}
	for name, v := range map[string]*vol[float32]{
		"Ix": Ix, "Iy": Iy, "Ixx": Ixx, "Iyy": Iyy, "Ixy": Ixy, "Sxx": Sxx, "Syy": Syy,
		"Sxy": Sxy, "det": det, "trace": trace, "harris": harris,
	} {
		out[name] = v.buffer(scop.F32)
	}
	return out
}

func TestHarrisMatchesGo(t *testing.T) {
	e, _ := Lookup("harris")
	for seed, ps := range []map[string]int64{e.Small, {"R": 3, "C": 3}, {"R": 9, "C": 31}} {
		prog, in, got := execEntry(t, e, ps, uint64(seed))
		expectArrays(t, prog, ps, got, harrisRef(int(ps["R"]), int(ps["C"]), in), 0)
		// The synthetic picture has corners: some response is positive.
		if ps["R"] > 8 && maxF32(got["harris"]) <= 0 {
			t.Errorf("%v: no positive corner response", ps)
		}
	}
}

func maxF32(b *scop.Buffer) float64 {
	m := b.Load(0).F
	for i := range b.Len() {
		m = max(m, b.Load(i).F)
	}
	return m
}
