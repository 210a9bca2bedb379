package polymage

import (
	"fmt"
	"math"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// localLaplacianRef computes LocalLaplacian with plain loops, every f32
// operation in the DSL's order (products rounded before they are added,
// so nothing fuses; exp in float64, rounded, as the reference executor
// computes f32 calls), and returns every stage by name.
func localLaplacianRef(J, K int, alpha, beta float64, R, C int, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	const g = 2
	out := map[string]*scop.Buffer{}
	rows := func(l int) int { return R>>l + 2*g }
	cols := func(l int) int { return C>>l + 2*g }
	inside := func(i, j, xl, yl int) bool { return ghostInside(i, j, xl, yl, R, C, g) }
	// fill computes a plane of lead planes (flat when lead is 0) over
	// rows of level xl and columns of level yl: fn on the interior, or
	// everywhere if all, and 0 elsewhere.
	fill := func(name string, lead, xl, yl int, all bool, fn func(k, i, j int) float32) *pyrPlane {
		p := newPyrFlat(rows(xl), cols(yl))
		if lead > 0 {
			p = newPyrPlane(lead, rows(xl), cols(yl))
		}
		for k := range p.lead {
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
	// [1 3 3 1]/8 over fine lines 2v-3 .. 2v.
	reduce := func(at func(v int) float32, v int) float32 {
		c := 2*v - 2
		return float32((at(c-1) + float32(at(c)*3) + float32(at(c+1)*3) + at(c+2)) * 0.125)
	}
	// 0.25/0.75 between the coarse line under fine v and its neighbour
	// on v's side.
	expand := func(at func(v int) float32, v int) float32 {
		h := v / 2
		if v%2 == 0 {
			return float32(at(h)*0.25) + float32(at(h+1)*0.75)
		}
		return float32(at(h+2)*0.25) + float32(at(h+1)*0.75)
	}
	gaussian := func(f *pyrPlane, l, lead int, name string) *pyrPlane {
		dx := fill("Dx_"+name+fmt.Sprint(l), lead, l, l-1, false, func(k, i, j int) float32 {
			return reduce(func(v int) float32 { return f.at(k, v, j) }, i)
		})
		return fill("D_"+name+fmt.Sprint(l), lead, l, l, false, func(k, i, j int) float32 {
			return reduce(func(v int) float32 { return dx.at(k, i, v) }, j)
		})
	}
	upsample := func(f *pyrPlane, l, lead int, name string) *pyrPlane {
		ux := fill("Ux_"+name+fmt.Sprint(l), lead, l, l+1, false, func(k, i, j int) float32 {
			return expand(func(v int) float32 { return f.at(k, v, j) }, i)
		})
		return fill("U_"+name+fmt.Sprint(l), lead, l, l, false, func(k, i, j int) float32 {
			return expand(func(v int) float32 { return ux.at(k, i, v) }, j)
		})
	}

	src := in["img_colour"]
	colour := func(ch, i, j int) float32 {
		return float32(src.Load(int64((ch*(R+4)+i)*(C+4) + j)).I)
	}
	w2, w1, w0 := roundF32(0.299), roundF32(0.587), roundF32(0.114)
	grey := fill("img", 0, 0, 0, true, func(_, i, j int) float32 {
		return (float32(colour(2, i, j)*w2) + float32(colour(1, i, j)*w1) + float32(colour(0, i, j)*w0)) / 65535
	})
	inG := []*pyrPlane{grey}
	for l := 1; l < J; l++ {
		inG = append(inG, gaussian(inG[l-1], l, 0, "inGPyramid_L"))
	}

	top := (K - 1) * 256
	a := roundF32(alpha / float64(K-1))
	lut := make([]float32, 2*top+1)
	for r := -top; r <= top; r++ {
		fx := float32(r) / 256
		e := float32(math.Exp(float64(float32(-fx*fx) / 2)))
		lut[r+top] = float32(a*fx) * e
	}
	lb, err := scop.NewBuffer(scop.F32, []int64{int64(len(lut))})
	if err != nil {
		panic(err)
	}
	for i, v := range lut {
		lb.Store(int64(i), scop.Value{F: float64(v)})
	}
	out["remapLUT"] = lb

	step, b32 := roundF32(1/float64(K-1)), roundF32(beta)
	g0 := fill("gPyramid_L0", K, 0, 0, true, func(k, i, j int) float32 {
		v := grey.at(0, i, j)
		il := float32(k) * step
		idx := min(max(int(int32(float32(v*float32(top)))), 0), top)
		return float32((v-il)*b32) + il + lut[idx-256*k+top]
	})
	gP := []*pyrPlane{g0}
	for l := 1; l < J; l++ {
		gP = append(gP, gaussian(gP[l-1], l, K, "gPyramid_L"))
	}
	lP := make([]*pyrPlane, J)
	lP[J-1] = gP[J-1]
	for l := J - 2; l >= 0; l-- {
		u, gl := upsample(gP[l+1], l, K, "lPyramid_L"), gP[l]
		lP[l] = fill(fmt.Sprintf("lPyramid_L%d", l), K, l, l, true, func(k, i, j int) float32 { return gl.at(k, i, j) - u.at(k, i, j) })
	}
	outL := make([]*pyrPlane, J)
	for l := range J {
		ig, lp := inG[l], lP[l]
		lev := func(i, j int) float32 { return float32(ig.at(0, i, j) * float32(K-1)) }
		nr, nc := rows(l), cols(l)
		index := make([]int, nr*nc)
		ib, err := scop.NewBuffer(scop.I32, []int64{int64(nr), int64(nc)})
		if err != nil {
			panic(err)
		}
		for n := range index {
			index[n] = min(max(int(int32(lev(n/nc, n%nc))), 0), K-2)
			ib.Store(int64(n), scop.IntValue(scop.I32, int64(index[n])))
		}
		out[fmt.Sprintf("outLIndex_L%d", l)] = ib
		lf := fill(fmt.Sprintf("outLWeight_L%d", l), 0, l, l, true, func(_, i, j int) float32 {
			return lev(i, j) - float32(index[i*nc+j])
		})
		outL[l] = fill(fmt.Sprintf("outLPyramid_L%d", l), 0, l, l, true, func(_, i, j int) float32 {
			li, w := index[i*nc+j], lf.at(0, i, j)
			return float32(lp.at(li, i, j)*(1-w)) + float32(lp.at(li+1, i, j)*w)
		})
	}
	outG := outL[J-1]
	for l := J - 2; l >= 0; l-- {
		u, ol := upsample(outG, l, 0, "outGPyramid_L"), outL[l]
		name := fmt.Sprintf("outGPyramid_L%d", l)
		if l == 0 {
			name = "result_ref_gray"
		}
		outG = fill(name, 0, l, l, true, func(_, i, j int) float32 { return u.at(0, i, j) + ol.at(0, i, j) })
	}

	eps := roundF32(0.01)
	res, err := scop.NewBuffer(scop.U16, []int64{3, int64(R), int64(C)})
	if err != nil {
		panic(err)
	}
	for ch := range 3 {
		for i := range R {
			for j := range C {
				v := float32(outG.at(0, i+2, j+2)*(colour(ch, i+2, j+2)/65535+eps)) / (grey.at(0, i+2, j+2) + eps)
				v = min(max(v, 0), 1)
				res.Store(int64((ch*R+i)*C+j), scop.IntValue(scop.U16, int64(float32(v*65535))))
			}
		}
	}
	out["laplacian"] = res
	return out
}

func TestLocalLaplacianMatchesGo(t *testing.T) {
	for _, tc := range []struct {
		J, K        int
		alpha, beta float64
		R, C        int
	}{
		{1, 2, 1, 1, 5, 6},
		{2, 3, 2, 0.5, 9, 7},
		{3, 4, 1, 1, 21, 27},
		{4, 8, 1, 1, 32, 32},
		{LaplacianPyramid, LaplacianIntensity, LaplacianAlpha, LaplacianBeta, 24, 20},
	} {
		t.Run(fmt.Sprintf("J%d_K%d_%dx%d", tc.J, tc.K, tc.R, tc.C), func(t *testing.T) {
			prog, err := LocalLaplacian(tc.J, tc.K, tc.alpha, tc.beta)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := pyrFuncCount(prog), 13*tc.J-6; got != want {
				t.Errorf("%d stages, want %d", got, want)
			}
			ps := map[string]int64{"R": int64(tc.R), "C": int64(tc.C)}
			runPyrRef(t, prog, ps, fillLaplacian, uint64(tc.J), func(in map[string]*scop.Buffer) map[string]*scop.Buffer {
				return localLaplacianRef(tc.J, tc.K, tc.alpha, tc.beta, tc.R, tc.C, in)
			}, 0)
		})
	}
}

func TestLocalLaplacianDefaults(t *testing.T) {
	checkPyrDefaults(t, "local_laplacian", 98)
}

// TestLocalLaplacianIdentity runs the filter with no detail change
// (alpha 0) and no tone change (beta 1): every intensity level's image is
// the input, so collapsing the output pyramid gives the grey image back
// and the colour output is the grey image recoloured by the input's
// ratios, grey (colour + eps) / (grey + eps), up to rounding.
func TestLocalLaplacianIdentity(t *testing.T) {
	prog, err := LocalLaplacian(4, 8, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	const R, C = 35, 29
	bufs, in := runPyr(t, prog, map[string]int64{"R": R, "C": C}, fillLaplacian, 9)
	grey := pyrPlaneOf(bufs["img"])
	pyrInteriorClose(t, "result_ref_gray", bufs["result_ref_gray"], 2, 1e-5, func(_, i, j int) float64 { return float64(grey.at(0, i, j)) })
	src := in["img_colour"]
	pyrInteriorClose(t, "laplacian", bufs["laplacian"], 0, 2, func(k, i, j int) float64 {
		col := float64(src.Load(int64((k*(R+4)+i+2)*(C+4)+j+2)).I) / 65535
		v := float64(grey.at(0, i+2, j+2))
		return math.Floor(65535 * min(max(v*(col+0.01)/(v+0.01), 0), 1))
	})
}
