package polymage

import (
	"fmt"
	"math"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// interpolateRef computes Interpolate with plain loops, every f32
// operation in the DSL's order, and returns every stage by name.
func interpolateRef(levels, R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	const g = 1
	out := map[string]*scop.Buffer{}
	rows := func(l int) int { return R>>l + 2*g }
	cols := func(l int) int { return C>>l + 2*g }
	inside := func(i, j, xl, yl int) bool { return ghostInside(i, j, xl, yl, R, C, g) }
	// fill computes a plane of 4 channels over rows of level xl and
	// columns of level yl: fn on the interior (everywhere if all), else 0.
	fill := func(name string, xl, yl int, all bool, fn func(k, i, j int) float32) *pyrPlane {
		p := newPyrPlane(4, rows(xl), cols(yl))
		for k := range 4 {
			for i := range p.rows {
				for j := range p.cols {
					if all || inside(i, j, xl, yl) {
						p.set(k, i, j, fn(k, i, j))
					}
				}
			}
		}
		out[name] = p.buffer()
		return p
	}

	img := pyrPlaneOf(in["img"])
	ds := []*pyrPlane{fill("downsampled_L0", 0, 0, true, func(k, i, j int) float32 {
		if k < 3 {
			return img.at(k, i, j) * img.at(3, i, j)
		}
		return img.at(3, i, j)
	})}
	for l := 1; l < levels; l++ {
		f := ds[l-1]
		// [1 2 1]/4 centred on fine row 2x-1, then on column 2y-1.
		dx := fill(fmt.Sprintf("Dx_%d", l), l, l-1, false, func(k, i, j int) float32 {
			return float32((f.at(k, 2*i-2, j) + float32(f.at(k, 2*i-1, j)*2) + f.at(k, 2*i, j)) * 0.25)
		})
		ds = append(ds, fill(fmt.Sprintf("D_%d", l), l, l, false, func(k, i, j int) float32 {
			return float32((dx.at(k, i, 2*j-2) + float32(dx.at(k, i, 2*j-1)*2) + dx.at(k, i, 2*j)) * 0.25)
		}))
	}
	interp := ds[levels-1]
	for l := levels - 2; l >= 0; l-- {
		f, d := interp, ds[l]
		// Fine line v lies over coarse (v+1)/2 and (v+2)/2: the same one
		// for odd v, the two neighbours for even v.
		ux := fill(fmt.Sprintf("Ux_%d", l), l, l+1, false, func(k, i, j int) float32 {
			return (f.at(k, (i+1)/2, j) + f.at(k, (i+2)/2, j)) / 2
		})
		uy := fill(fmt.Sprintf("Uy_%d", l), l, l, false, func(k, i, j int) float32 {
			return (ux.at(k, i, (j+1)/2) + ux.at(k, i, (j+2)/2)) / 2
		})
		interp = fill(fmt.Sprintf("interpolated_L%d", l), l, l, false, func(k, i, j int) float32 {
			return d.at(k, i, j) + float32((1-d.at(3, i, j))*uy.at(k, i, j))
		})
	}
	norm := newPyrPlane(3, R, C)
	for k := range 3 {
		for i := range R {
			for j := range C {
				norm.set(k, i, j, interp.at(k, i+1, j+1)/interp.at(3, i+1, j+1))
			}
		}
	}
	out["interpolate"] = norm.buffer()
	return out
}

func TestInterpolateMatchesGo(t *testing.T) {
	for _, tc := range []struct{ levels, R, C int }{
		{1, 4, 3}, {2, 7, 9}, {3, 20, 17}, {4, 32, 32}, {6, 33, 40},
	} {
		t.Run(fmt.Sprintf("L%d_%dx%d", tc.levels, tc.R, tc.C), func(t *testing.T) {
			prog, err := Interpolate(tc.levels)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := pyrFuncCount(prog), 5*tc.levels-3; got != want {
				t.Errorf("%d stages, want %d", got, want)
			}
			ps := map[string]int64{"R": int64(tc.R), "C": int64(tc.C)}
			runPyrRef(t, prog, ps, fillInterpolate, uint64(tc.levels), func(in map[string]*scop.Buffer) map[string]*scop.Buffer {
				return interpolateRef(tc.levels, tc.R, tc.C, in)
			}, 0)
		})
	}
}

// TestInterpolateSmall runs the registered entry at its small size, all
// 10 levels (the coarse ones all ring), and checks that the output is
// finite: the input's holes are filled from coarser levels.
func TestInterpolateSmall(t *testing.T) {
	e, _ := Lookup("interpolate")
	prog := checkPyrDefaults(t, "interpolate", 47)
	R, C := int(e.Small["R"]), int(e.Small["C"])
	runPyrRef(t, prog, e.Small, fillInterpolate, 7, func(in map[string]*scop.Buffer) map[string]*scop.Buffer {
		out := interpolateRef(InterpolateLevels, R, C, in)
		b := out["interpolate"]
		for i := range b.Len() {
			if v := b.Load(i).F; math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("output element %d is %v", i, v)
			}
		}
		return out
	}, 0)
}

// TestInterpolateOpaque checks that an opaque image (alpha 1
// everywhere) comes out exactly as it went in: nothing is filled in.
func TestInterpolateOpaque(t *testing.T) {
	prog, err := Interpolate(5)
	if err != nil {
		t.Fatal(err)
	}
	opaque := func(name string, b *scop.Buffer, seed uint64) {
		fillRing(b, seed, 255, 1)
		for i := b.Len() * 3 / 4; i < b.Len(); i++ {
			b.Store(i, scop.Value{F: 1})
		}
	}
	bufs, in := runPyr(t, prog, map[string]int64{"R": 40, "C": 36}, opaque, 3)
	img := pyrPlaneOf(in["img"])
	pyrInteriorClose(t, "interpolate", bufs["interpolate"], 0, 0, func(k, i, j int) float64 { return float64(img.at(k, i+1, j+1)) })
}
