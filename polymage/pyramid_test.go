package polymage

import (
	"fmt"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// pyramidBlendingRef computes PyramidBlending with plain loops, every
// f32 operation in the DSL's order (products rounded before they are
// added, so nothing fuses), and returns every stage by name.
func pyramidBlendingRef(levels, R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	const g = 2
	out := map[string]*scop.Buffer{}
	keep := func(name string, p *pyrPlane) *pyrPlane { out[name] = p.buffer(); return p }
	rows := func(l int) int { return R>>l + 2*g }
	cols := func(l int) int { return C>>l + 2*g }
	inside := func(i, j, xl, yl int) bool { return ghostInside(i, j, xl, yl, R, C, g) }

	// Reduce: [1 4 6 4 1]/16 over rows then columns, centred on 2x-2.
	reduce := func(f *pyrPlane, l int, name string) *pyrPlane {
		dx := newPyrPlane(f.lead, rows(l), cols(l-1))
		dx.flat = f.flat
		for k := range f.lead {
			for i := range dx.rows {
				for j := range dx.cols {
					if inside(i, j, l, l-1) {
						c := 2*i - 2
						s := f.at(k, c-2, j) + float32(f.at(k, c-1, j)*4) + float32(f.at(k, c, j)*6) + float32(f.at(k, c+1, j)*4) + f.at(k, c+2, j)
						dx.set(k, i, j, float32(s*0.0625))
					}
				}
			}
		}
		keep(fmt.Sprintf("Dx_%d_%s", l, name), dx)
		dy := newPyrPlane(f.lead, rows(l), cols(l))
		dy.flat = f.flat
		for k := range f.lead {
			for i := range dy.rows {
				for j := range dy.cols {
					if inside(i, j, l, l) {
						c := 2*j - 2
						s := dx.at(k, i, c-2) + float32(dx.at(k, i, c-1)*4) + float32(dx.at(k, i, c)*6) + float32(dx.at(k, i, c+1)*4) + dx.at(k, i, c+2)
						dy.set(k, i, j, float32(s*0.0625))
					}
				}
			}
		}
		return keep(fmt.Sprintf("Dy_%d_%s", l, name), dy)
	}

	// Expand: [1 6 1]/8 at even and [4 4]/8 at odd fine lines, the
	// coarse pixel under fine v being v/2+1 (g = 2 on both levels).
	expand1 := func(at func(i int) float32, v int) float32 {
		h := v / 2 // v >= 0
		if v%2 == 0 {
			return float32((at(h) + float32(at(h+1)*6) + at(h+2)) * 0.125)
		}
		return float32((float32(at((v-1)/2+1)*4) + float32(at((v+1)/2+1)*4)) * 0.125)
	}
	expand := func(f *pyrPlane, l int, name string) *pyrPlane {
		ux := newPyrPlane(f.lead, rows(l), cols(l+1))
		for k := range f.lead {
			for i := range ux.rows {
				for j := range ux.cols {
					if inside(i, j, l, l+1) {
						ux.set(k, i, j, expand1(func(r int) float32 { return f.at(k, r, j) }, i))
					}
				}
			}
		}
		keep(fmt.Sprintf("Ux_%d_%s", l, name), ux)
		uy := newPyrPlane(f.lead, rows(l), cols(l))
		for k := range f.lead {
			for i := range uy.rows {
				for j := range uy.cols {
					if inside(i, j, l, l) {
						uy.set(k, i, j, expand1(func(c int) float32 { return ux.at(k, i, c) }, j))
					}
				}
			}
		}
		return keep(fmt.Sprintf("Uy_%d_%s", l, name), uy)
	}

	// pointwise computes a new level-l plane from a function of a point.
	pointwise := func(name string, l int, fn func(k, i, j int) float32) *pyrPlane {
		p := newPyrPlane(3, rows(l), cols(l))
		for k := range 3 {
			for i := range p.rows {
				for j := range p.cols {
					p.set(k, i, j, fn(k, i, j))
				}
			}
		}
		return keep(name, p)
	}

	g1, g2, gm := []*pyrPlane{pyrPlaneOf(in["img1"])}, []*pyrPlane{pyrPlaneOf(in["img2"])}, []*pyrPlane{pyrPlaneOf(in["mask"])}
	for l := 1; l < levels; l++ {
		g1 = append(g1, reduce(g1[l-1], l, "img1"))
		g2 = append(g2, reduce(g2[l-1], l, "img2"))
		gm = append(gm, reduce(gm[l-1], l, "mask"))
	}
	var u1, u2 []*pyrPlane
	for l := range levels - 1 {
		u1 = append(u1, expand(g1[l+1], l, "img1"))
		u2 = append(u2, expand(g2[l+1], l, "img2"))
	}
	res := make([]*pyrPlane, levels)
	for l := range levels {
		res[l] = pointwise(fmt.Sprintf("Res_%d", l), l, func(k, i, j int) float32 {
			m := gm[l].at(0, i, j)
			lap1, lap2 := g1[l].at(k, i, j), g2[l].at(k, i, j)
			if l < levels-1 {
				lap1, lap2 = lap1-u1[l].at(k, i, j), lap2-u2[l].at(k, i, j)
			}
			return float32(lap1*m) + float32(lap2*(1-m))
		})
	}
	coll := res[levels-1]
	for l := levels - 2; l >= 0; l-- {
		u := expand(coll, l, "coll")
		name := fmt.Sprintf("coll_%d", l)
		if l == 0 {
			name = "blend"
		}
		r := res[l]
		coll = pointwise(name, l, func(k, i, j int) float32 { return u.at(k, i, j) + r.at(k, i, j) })
	}
	return out
}

func TestPyramidBlendingMatchesGo(t *testing.T) {
	for _, tc := range []struct{ levels, R, C int }{
		{1, 5, 6}, {2, 9, 7}, {3, 21, 27}, {4, 32, 32}, {4, 13, 40},
	} {
		t.Run(fmt.Sprintf("L%d_%dx%d", tc.levels, tc.R, tc.C), func(t *testing.T) {
			prog, err := PyramidBlending(tc.levels)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := pyrFuncCount(prog), 14*tc.levels-13; got != want {
				t.Errorf("%d stages, want %d", got, want)
			}
			ps := map[string]int64{"R": int64(tc.R), "C": int64(tc.C)}
			runPyrRef(t, prog, ps, fillPyramidBlending, uint64(tc.levels), func(in map[string]*scop.Buffer) map[string]*scop.Buffer {
				return pyramidBlendingRef(tc.levels, tc.R, tc.C, in)
			}, 0)
		})
	}
}

func TestPyramidBlendingDefaults(t *testing.T) {
	prog := checkPyrDefaults(t, "pyramid_blending", 43)
	for _, a := range prog.Arrays {
		if a.Name != "blend" {
			continue
		}
		shape, err := a.Shape(map[string]int64{"R": PyramidRows, "C": PyramidCols})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(shape) != fmt.Sprint([]int64{3, PyramidRows + 4, PyramidCols + 4}) || !a.LiveOut {
			t.Errorf("blend: shape %v, live-out %v", shape, a.LiveOut)
		}
	}
}

// TestPyramidBlendingIdentity blends an image with itself: whatever the
// mask, collapsing the blended Laplacian pyramid gives the image back
// (up to rounding), which checks the algorithm, not just the port.
func TestPyramidBlendingIdentity(t *testing.T) {
	prog, err := PyramidBlending(PyramidLevels)
	if err != nil {
		t.Fatal(err)
	}
	same := func(name string, b *scop.Buffer, seed uint64) {
		if name == "img2" {
			name = "img1"
		}
		fillPyramidBlending(name, b, seed)
	}
	bufs, in := runPyr(t, prog, map[string]int64{"R": 37, "C": 30}, same, 5)
	img := pyrPlaneOf(in["img1"])
	pyrInteriorClose(t, "blend", bufs["blend"], 2, 1e-5, func(k, i, j int) float64 { return float64(img.at(k, i, j)) })
}
