package polymage

import (
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// unsharpRef computes UnsharpMask with plain loops, with the f32
// operations of the pipeline in the same order. Products are converted
// explicitly so that Go cannot fuse them with the sums (the pipeline
// rounds each operation).
func unsharpRef(R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	img := volOf[float32](in["img"])
	blurx := newVol[float32](3, R, C+4)
	blury := newVol[float32](3, R, C)
	sharpen := newVol[float32](3, R, C)
	mask := newVol[float32](3, R, C)
	var weight, threshold float64 = UnsharpWeight, UnsharpThreshold
	w, thr := float32(weight), float32(threshold)
	for c := range 3 {
		for x := 2; x < R+2; x++ {
			for y := range C + 4 {
				s := *img.at(c, x-2, y) + float32(*img.at(c, x-1, y)*4)
				s += float32(*img.at(c, x, y) * 6)
				s += float32(*img.at(c, x+1, y) * 4)
				s += *img.at(c, x+2, y)
				*blurx.at(c, x-2, y) = s * 0.0625
			}
		}
		for x := 2; x < R+2; x++ {
			for y := 2; y < C+2; y++ {
				bx := func(d int) float32 { return *blurx.at(c, x-2, y+d) }
				s := bx(-2) + float32(bx(-1)*4)
				s += float32(bx(0) * 6)
				s += float32(bx(1) * 4)
				s += bx(2)
				*blury.at(c, x-2, y-2) = s * 0.0625
			}
		}
		for x := 2; x < R+2; x++ {
			for y := 2; y < C+2; y++ {
				v, b := *img.at(c, x, y), *blury.at(c, x-2, y-2)
				sh := float32(v*(1+w)) - float32(b*w)
				*sharpen.at(c, x-2, y-2) = sh
				d := v - b
				if d < 0 {
					d = -d
				}
				if d < thr {
					*mask.at(c, x-2, y-2) = v
				} else {
					*mask.at(c, x-2, y-2) = sh
				}
			}
		}
	}
	return map[string]*scop.Buffer{
		"blurx": blurx.buffer(scop.F32), "blury": blury.buffer(scop.F32),
		"sharpen": sharpen.buffer(scop.F32), "mask": mask.buffer(scop.F32),
	}
}

func TestUnsharpMaskMatchesGo(t *testing.T) {
	e, _ := Lookup("unsharp_mask")
	for seed, ps := range []map[string]int64{e.Small, {"R": 1, "C": 1}, {"R": 7, "C": 13}} {
		prog, in, got := execEntry(t, e, ps, uint64(seed))
		expectArrays(t, prog, ps, got, unsharpRef(int(ps["R"]), int(ps["C"]), in), 0)
	}
}
