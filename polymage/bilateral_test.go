package polymage

import (
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// bilateralRef computes BilateralGrid with plain loops: the histogram in
// the pipeline's order (pixels row by row, sums then counts), the three
// blurs and the slice with the f32 operations of the pipeline in the same
// order (products converted explicitly, so that Go cannot fuse them with
// the sums). Grid arrays are indexed from the functions' lower bounds:
// cell gx of grid is element gx + 2.
func bilateralRef(R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	img := volOf[float32](in["img"])
	NX, NY := (R+7)/8, (C+7)/8
	const NZ = 12 // the cells the slice reads
	grid := newVol[float32](2, NX+5, NY+5, NZ+4)
	blurz := newVol[float32](2, NX+5, NY+5, NZ)
	blurx := newVol[float32](2, NX+1, NY+5, NZ)
	blury := newVol[float32](2, NX+1, NY+1, NZ)
	interpolated := newVol[float32](2, R, C)
	filtered := newVol[float32](R, C)
	cell := func(v float32) int { return int(int32(v * 10)) }
	for c, add := range []func(v float32) float32{func(v float32) float32 { return v }, func(float32) float32 { return 1 }} {
		for x := range R {
			for y := range C {
				v := *img.at(x, y)
				*grid.at(c, x/8+2, y/8+2, cell(v)+2) += add(v)
			}
		}
	}
	taps := func(at func(d int) float32) float32 {
		s := at(-2) + float32(at(-1)*4)
		s += float32(at(0) * 6)
		s += float32(at(1) * 4)
		return s + at(2)
	}
	for c := range 2 {
		for x := -2; x < NX+3; x++ {
			for y := -2; y < NY+3; y++ {
				for z := range NZ {
					*blurz.at(c, x+2, y+2, z) = taps(func(d int) float32 { return *grid.at(c, x+2, y+2, z+d+2) })
				}
			}
		}
		for x := range NX + 1 {
			for y := -2; y < NY+3; y++ {
				for z := range NZ {
					*blurx.at(c, x, y+2, z) = taps(func(d int) float32 { return *blurz.at(c, x+d+2, y+2, z) })
				}
			}
		}
		for x := range NX + 1 {
			for y := range NY + 1 {
				for z := range NZ {
					*blury.at(c, x, y, z) = taps(func(d int) float32 { return *blurx.at(c, x, y+d+2, z) })
				}
			}
		}
	}
	lerp := func(a, b, w float32) float32 { return a + float32(w*(b-a)) }
	for c := range 2 {
		for x := range R {
			for y := range C {
				zv := *img.at(x, y) * 10
				zi := int(int32(zv))
				zf := zv - float32(zi)
				xf, yf := float32(x%8)/8, float32(y%8)/8
				at := func(dx, dy, dz int) float32 { return *blury.at(c, x/8+dx, y/8+dy, zi+dz) }
				z0 := lerp(lerp(at(0, 0, 0), at(1, 0, 0), xf), lerp(at(0, 1, 0), at(1, 1, 0), xf), yf)
				z1 := lerp(lerp(at(0, 0, 1), at(1, 0, 1), xf), lerp(at(0, 1, 1), at(1, 1, 1), xf), yf)
				*interpolated.at(c, x, y) = lerp(z0, z1, zf)
			}
		}
	}
	for x := range R {
		for y := range C {
			if w := *interpolated.at(1, x, y); w > 0 {
				*filtered.at(x, y) = *interpolated.at(0, x, y) / w
			} else {
				*filtered.at(x, y) = *img.at(x, y)
			}
		}
	}
	out := map[string]*scop.Buffer{}
	for name, v := range map[string]*vol[float32]{
		"grid": grid, "blurz": blurz, "blurx": blurx, "blury": blury,
		"interpolated": interpolated, "filtered": filtered,
	} {
		out[name] = v.buffer(scop.F32)
	}
	return out
}

func TestBilateralGridMatchesGo(t *testing.T) {
	e, _ := Lookup("bilateral_grid")
	for seed, ps := range []map[string]int64{e.Small, {"R": 1, "C": 1}, {"R": 17, "C": 9}, {"R": 8, "C": 16}} {
		prog, in, got := execEntry(t, e, ps, uint64(seed))
		expectArrays(t, prog, ps, got, bilateralRef(int(ps["R"]), int(ps["C"]), in), 0)
		if seed == 0 {
			expectMayAccesses(t, prog, []string{"grid_s1", "grid_s2"}, "grid", "blury")
		}
	}
}

// expectMayAccesses checks that the statements named write (the
// histogram's updates) may write anywhere, and that the statements that
// read array via a data-dependent index have a may-read of it.
func expectMayAccesses(t *testing.T, prog *scop.Program, write []string, written, read string) {
	t.Helper()
	for _, name := range write {
		if s := prog.Stmt(name); s == nil || !s.MayWrite {
			t.Errorf("%s is not a may-write of %s", name, written)
		}
	}
	found := false
	for _, s := range prog.Stmts {
		for _, a := range s.Reads {
			found = found || a.Array == read && a.May
		}
	}
	if !found {
		t.Errorf("no statement has a may-read of %s", read)
	}
}

// TestBilateralGridEdges runs the grid on an image with the extreme
// intensities 0 and 1, whose cells are the first and last the slice
// reads.
func TestBilateralGridEdges(t *testing.T) {
	e, _ := Lookup("bilateral_grid")
	e.Fill = func(_ string, b *scop.Buffer, _ uint64) {
		for i := range b.Len() {
			b.Store(i, scop.Value{F: float64(i % 2)})
		}
	}
	ps := map[string]int64{"R": 9, "C": 11}
	prog, in, got := execEntry(t, e, ps, 0)
	expectArrays(t, prog, ps, got, bilateralRef(9, 11, in), 0)
}
