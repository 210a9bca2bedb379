package tune

import (
	"math"
	"testing"
)

// synthetic is a pipeline of four stencil stages fused into an output's
// tiles, big enough that the candidates' working sets span every level.
func synthetic() Shape {
	g := Group{Name: "out", Extent: []int64{4096, 4096}, Ref: []int64{32, 256}, GlobalBytes: 8}
	g.Stages = append(g.Stages, Stage{Name: "out", Instances: 4096 * 4096, Accesses: 10, Ratio: 1, Buffer: -1})
	for i := range 4 {
		g.Buffers = append(g.Buffers, Buffer{Array: "b", Elem: 4, Dims: []BufferDim{{Extent: 32 + 2*float64(i+1), Member: 0, Scale: 1}, {Extent: 256 + 2*float64(i+1), Member: 1, Scale: 1}}})
		g.Stages = append(g.Stages, Stage{Name: "s", Instances: 4096 * 4096, Accesses: 6, Ratio: (32 + 2*float64(i+1)) * (256 + 2*float64(i+1)) / (32 * 256), Buffer: i})
		g.FitHalo(len(g.Stages) - 1)
	}
	return Shape{Groups: []Group{g}}
}

// TestFit fits constants to times the model itself makes with known
// ones: the fit predicts them all, and keeps constants at 0 or above.
func TestFit(t *testing.T) {
	m := Machine{L1: 32 << 10, L2: 512 << 10, L3: 8 << 20, Threads: 2}
	s := synthetic()
	truth := Costs{L1: 2, L2: 3, L3: 6, Memory: 20, Tile: 500, Row: 40}
	const k = 1e-9
	var samples []Sample
	for _, c := range Candidates(2, Values) {
		e := truth.Cost(s, m, c)
		samples = append(samples, Sample{Features: e.Features, Seconds: k * e.Cost})
	}
	got, gotK, err := Fit(samples, DefaultCosts)
	if err != nil {
		t.Fatal(err)
	}
	// The constants are not all identifiable (with every stage's
	// accesses per instance fixed, the arithmetic trades against the
	// common part of the load costs); what must hold is that the fitted
	// model predicts every time.
	for i, smp := range samples {
		pred := gotK * dot(smp.Features, got.vector())
		if math.Abs(pred-smp.Seconds) > 0.01*smp.Seconds {
			t.Errorf("candidate %v: predicted %g s, measured %g s (fit %+v, k %g)", Candidates(2, Values)[i], pred, smp.Seconds, got, gotK)
		}
	}
	for i, v := range got.vector() {
		if v < 0 {
			t.Errorf("constant %d is negative: %+v", i, got)
		}
	}
	// Times that fall as the work grows have no fit with k > 0.
	bad := []Sample{{Features: []float64{1, 0, 0, 0, 0, 1, 0}, Seconds: 2}, {Features: []float64{2, 0, 0, 0, 0, 1, 0}, Seconds: 1}, {Features: []float64{4, 0, 0, 0, 0, 1, 0}, Seconds: 0.5}}
	if _, _, err := Fit(bad, DefaultCosts); err == nil {
		t.Error("Fit of times falling with the work: no error")
	}
	if _, _, err := Fit(samples[:1], DefaultCosts); err == nil {
		t.Error("Fit of one sample: no error")
	}
}

// TestCalibrationFile: Save then LoadCosts; another machine is not
// calibrated.
func TestCalibrationFile(t *testing.T) {
	dir := t.TempDir()
	m := Machine{L1: 32 << 10, L2: 512 << 10, L3: 8 << 20, Threads: 2}
	if _, ok := LoadCosts(dir, m); ok {
		t.Fatal("calibrated before Save")
	}
	c := &Calibration{Machine: m.String(), Costs: Costs{L1: 1, L2: 2, L3: 3, Memory: 4, Tile: 5, Row: 6}, Seconds: 1e-9, Samples: 10}
	if err := c.Save(dir, m); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadCosts(dir, m)
	if !ok || got != c.Costs {
		t.Errorf("LoadCosts = %+v, %v; want %+v", got, ok, c.Costs)
	}
	m.Threads = 4
	if _, ok := LoadCosts(dir, m); ok {
		t.Error("a machine with other threads is calibrated")
	}
}
