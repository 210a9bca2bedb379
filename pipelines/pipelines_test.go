package pipelines

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// grid is a 2-D view of a buffer for the Go references.
type grid struct{ b *scop.Buffer }

func newGrid(t scop.ElemType, rows, cols int64) grid {
	b, err := scop.NewBuffer(t, []int64{rows, cols})
	if err != nil {
		panic(err)
	}
	return grid{b}
}

func (g grid) at(i, j int64) int64 { return i*g.b.Shape[1] + j }

func (g grid) f32(i, j int64) float32       { return float32(g.b.Load(g.at(i, j)).F) }
func (g grid) setF32(i, j int64, v float32) { g.b.Store(g.at(i, j), scop.Value{F: float64(v)}) }
func (g grid) int(i, j int64) int64         { return g.b.Load(g.at(i, j)).I }

// blurRef computes Blur directly, with the same f32 operations in the
// same order.
func blurRef(ps map[string]int64, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	R, C := ps["R"], ps["C"]
	src := grid{in["in"]}
	blurx, out := newGrid(scop.F32, R, C+2), newGrid(scop.F32, R, C)
	for x := int64(1); x <= R; x++ {
		for y := int64(0); y < C+2; y++ {
			sum := float32(src.f32(x-1, y)+src.f32(x, y)) + src.f32(x+1, y)
			blurx.setF32(x-1, y, sum/3)
		}
	}
	for x := int64(1); x <= R; x++ {
		for y := int64(1); y <= C; y++ {
			sum := float32(blurx.f32(x-1, y-1)+blurx.f32(x-1, y)) + blurx.f32(x-1, y+1)
			out.setF32(x-1, y-1, sum/3)
		}
	}
	return map[string]*scop.Buffer{"blurx": blurx.b, "out": out.b}
}

// producerConsumerRef computes ProducerConsumer as the tutorial's C does,
// with sin taken in float64 and rounded, as the reference executor
// documents for f32 calls.
func producerConsumerRef(ps map[string]int64, _ map[string]*scop.Buffer) map[string]*scop.Buffer {
	R, C := ps["R"], ps["C"]
	prod, cons := newGrid(scop.F32, R+1, C+1), newGrid(scop.F32, R, C)
	for x := int64(0); x <= R; x++ {
		for y := int64(0); y <= C; y++ {
			prod.setF32(x, y, float32(math.Sin(float64(float32(int32(x*y))))))
		}
	}
	for x := int64(0); x < R; x++ {
		for y := int64(0); y < C; y++ {
			sum := float32(float32(prod.f32(x, y)+prod.f32(x, y+1))+prod.f32(x+1, y)) + prod.f32(x+1, y+1)
			cons.setF32(x, y, sum/4)
		}
	}
	return map[string]*scop.Buffer{"producer": prod.b, "consumer": cons.b}
}

// histEqRef computes HistEq: histogram, prefix sum, remap.
func histEqRef(ps map[string]int64, in map[string]*scop.Buffer) map[string]*scop.Buffer {
	R, C := ps["R"], ps["C"]
	src := grid{in["in"]}
	var hist, cdf [256]int32
	for x := int64(0); x < R; x++ {
		for y := int64(0); y < C; y++ {
			hist[src.int(x, y)]++
		}
	}
	cdf[0] = hist[0]
	for k := 1; k < 256; k++ {
		cdf[k] = cdf[k-1] + hist[k]
	}
	out := newGrid(scop.U8, R, C)
	for x := int64(0); x < R; x++ {
		for y := int64(0); y < C; y++ {
			v := cdf[src.int(x, y)] * 255 / int32(R*C)
			out.b.Store(out.at(x, y), scop.Value{I: int64(uint8(v))})
		}
	}
	h, c := newGrid(scop.I32, 1, 256), newGrid(scop.I32, 1, 256)
	for k := range 256 {
		h.b.Store(int64(k), scop.Value{I: int64(hist[k])})
		c.b.Store(int64(k), scop.Value{I: int64(cdf[k])})
	}
	h.b.Shape, c.b.Shape = []int64{256}, []int64{256}
	return map[string]*scop.Buffer{"hist": h.b, "cdf": c.b, "out": out.b}
}

// fillBytes gives a u8 image values over the whole range, so that every
// histogram bin can be hit.
func fillBytes(b *scop.Buffer, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range b.Len() {
		b.Store(i, scop.Value{I: int64(r.IntN(256))})
	}
}

func TestPipelinesMatchGo(t *testing.T) {
	tests := []struct {
		name   string
		build  func() (*scop.Program, error)
		params []map[string]int64
		fill   func(b *scop.Buffer, seed uint64)
		ref    func(map[string]int64, map[string]*scop.Buffer) map[string]*scop.Buffer
	}{
		{"blur", Blur, []map[string]int64{{"R": 1, "C": 1}, {"R": 7, "C": 9}, {"R": 32, "C": 17}}, (*scop.Buffer).Fill, blurRef},
		{"producer_consumer", ProducerConsumer, []map[string]int64{{"R": 4, "C": 4}, {"R": 8, "C": 8}, {"R": 23, "C": 41}}, nil, producerConsumerRef},
		{"histeq", HistEq, []map[string]int64{{"R": 1, "C": 1}, {"R": 5, "C": 3}, {"R": 40, "C": 60}}, fillBytes, histEqRef},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := tc.build()
			if err != nil {
				t.Fatal(err)
			}
			for seed, ps := range tc.params {
				bufs, err := refexec.Alloc(prog, ps)
				if err != nil {
					t.Fatal(err)
				}
				inputs := map[string]*scop.Buffer{}
				for _, a := range prog.Arrays {
					if a.LiveIn {
						tc.fill(bufs[a.Name], uint64(seed))
						inputs[a.Name] = bufs[a.Name].Clone()
					}
				}
				if err := refexec.Run(prog, ps, bufs); err != nil {
					t.Fatalf("%v: %v", ps, err)
				}
				for name, want := range tc.ref(ps, inputs) {
					m, err := scop.Compare(bufs[name], want, 0)
					if err != nil {
						t.Fatalf("%v: %s: %v", ps, name, err)
					}
					if m != nil {
						t.Errorf("%v: %s: %s", ps, name, m)
					}
				}
			}
		})
	}
}

// TestDefaults checks that each pipeline builds and accepts its default
// parameters, and that its arrays have the documented shapes there.
func TestDefaults(t *testing.T) {
	shapes := map[string]map[string][]int64{
		"blur":              {"in": {BlurRows + 2, BlurCols + 2}, "blurx": {BlurRows, BlurCols + 2}, "out": {BlurRows, BlurCols}},
		"producer_consumer": {"producer": {PCRows + 1, PCCols + 1}, "consumer": {PCRows, PCCols}},
		"histeq":            {"in": {HistEqRows, HistEqCols}, "hist": {256}, "cdf": {256}, "out": {HistEqRows, HistEqCols}},
	}
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			prog, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			if err := prog.CheckParams(e.Defaults); err != nil {
				t.Fatal(err)
			}
			if len(prog.Arrays) != len(shapes[e.Name]) {
				t.Errorf("%d arrays, want %d", len(prog.Arrays), len(shapes[e.Name]))
			}
			for _, a := range prog.Arrays {
				got, err := a.Shape(e.Defaults)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(shapes[e.Name][a.Name], got); diff != "" {
					t.Errorf("array %s shape (-want +got):\n%s", a.Name, diff)
				}
			}
		})
	}
}
