package dsl_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// TestRun executes the test pipelines on the reference executor and
// compares their arrays with direct Go computations: cases, floor
// division, strides, recurrences and reductions mean what the package
// documentation says.
func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		p      func() *dsl.Pipeline
		params map[string]int64
		ref    func(ps map[string]int64, in *scop.Buffer) map[string][]float64
	}{
		{"cases", smooth, map[string]int64{"N": 6}, func(ps map[string]int64, in *scop.Buffer) map[string][]float64 {
			n := ps["N"]
			at := func(x, y int64) uint16 { return uint16(in.Load(x*n + y).I) }
			var out []float64
			for x := range n {
				for y := range n {
					v := at(x, y)
					if x > 0 && y > 0 && x < n-1 && y < n-1 {
						v = (at(x-1, y) + at(x+1, y) + at(x, y-1) + at(x, y+1)) / 4
					}
					out = append(out, float64(v))
				}
			}
			return map[string][]float64{"out": out}
		}},
		{"sampling", resample, map[string]int64{"N": 5}, func(ps map[string]int64, in *scop.Buffer) map[string][]float64 {
			n := ps["N"]
			at := func(i int64) float32 { return float32(in.Load(i).F) }
			var down, up []float64
			for x := range n {
				down = append(down, float64((at(2*x)+at(2*x+1))/2))
			}
			for x := range 2 * n {
				up = append(up, down[x/2])
			}
			return map[string][]float64{"down": down, "up": up}
		}},
		{"recurrence", scan, map[string]int64{"N": 7}, func(ps map[string]int64, in *scop.Buffer) map[string][]float64 {
			n := ps["N"]
			s, tt := make([]float64, n), make([]float64, n)
			for x := range n {
				s[x] = in.Load(x).F
				if x > 0 {
					s[x] += s[x-1]
				}
			}
			for a := range n {
				for b := int64(0); b <= a; b++ {
					tt[a] += s[b]
				}
			}
			for x := range n {
				tt[x] *= in.Load(x).F
			}
			return map[string][]float64{"s": s, "t": tt}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := tc.p().Build()
			if err != nil {
				t.Fatal(err)
			}
			bufs, err := refexec.Alloc(prog, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			in := bufs["in"]
			in.Fill(7)
			orig := in.Clone()
			if err := refexec.Run(prog, tc.params, bufs); err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.ref(tc.params, orig) {
				b := bufs[name]
				if b.Len() != int64(len(want)) {
					t.Fatalf("%s has %d elements, want %d", name, b.Len(), len(want))
				}
				for i, w := range want {
					v := b.Load(int64(i))
					got := v.F
					if !b.Type.IsFloat() {
						got = float64(v.I)
					}
					if got != w {
						t.Errorf("%s[%d] = %v, want %v", name, i, got, w)
					}
				}
			}
		})
	}
}

// TestHistogramRun checks the data-dependent write and read end to end.
func TestHistogramRun(t *testing.T) {
	prog, err := histCDF().Build()
	if err != nil {
		t.Fatal(err)
	}
	ps := map[string]int64{"R": 3, "C": 5}
	bufs, err := refexec.Alloc(prog, ps)
	if err != nil {
		t.Fatal(err)
	}
	bufs["in"].Fill(3)
	var hist [256]int64
	for i := range bufs["in"].Len() {
		hist[bufs["in"].Load(i).I]++
	}
	if err := refexec.Run(prog, ps, bufs); err != nil {
		t.Fatal(err)
	}
	sum := int64(0)
	for k := range 256 {
		sum += hist[k]
		if got := bufs["hist"].Load(int64(k)).I; got != hist[k] {
			t.Errorf("hist[%d] = %d, want %d", k, got, hist[k])
		}
		if got := bufs["cdf"].Load(int64(k)).I; got != sum {
			t.Errorf("cdf[%d] = %d, want %d", k, got, sum)
		}
	}
}
