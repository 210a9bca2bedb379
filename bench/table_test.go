package bench

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestGeomean(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		want float64
		ok   bool
	}{
		{"empty", nil, 0, false},
		{"one", []float64{2.5}, 2.5, true},
		{"two", []float64{2, 8}, 4, true},
		{"reciprocals", []float64{0.25, 4}, 1, true},
		{"three", []float64{1, 10, 100}, 10, true},
		{"ones", []float64{1, 1, 1, 1}, 1, true},
		// Many large values: the mean of logarithms does not overflow
		// where the product would.
		{"large", []float64{1e300, 1e300, 1e300}, 1e300, true},
		{"zero", []float64{1, 0}, 0, false},
		{"negative", []float64{2, -2}, 0, false},
		{"infinite", []float64{math.Inf(1)}, 0, false},
		{"NaN", []float64{math.NaN(), 1}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Geomean(tc.xs)
			if ok != tc.ok || !cmp.Equal(got, tc.want, cmpopts.EquateApprox(1e-12, 0)) {
				t.Errorf("Geomean(%v) = %v, %v; want %v, %v", tc.xs, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestRatio(t *testing.T) {
	ok := func(d time.Duration) Cell { return Cell{Status: OK, Median: d} }
	for _, tc := range []struct {
		name       string
		base, cell Cell
		want       float64
		ok         bool
	}{
		{"faster", ok(10 * time.Millisecond), ok(5 * time.Millisecond), 2, true},
		{"slower", ok(10 * time.Millisecond), ok(40 * time.Millisecond), 0.25, true},
		{"same", ok(3 * time.Second), ok(3 * time.Second), 1, true},
		{"wrong cell", ok(time.Second), Cell{Status: Wrong, Median: time.Second}, 0, false},
		{"wrong baseline", Cell{Status: Wrong, Median: time.Second}, ok(time.Second), 0, false},
		{"baseline not installed", Cell{Status: NotInstalled}, ok(time.Second), 0, false},
		{"build failed", ok(time.Second), Cell{Status: BuildFailed}, 0, false},
		{"zero time", ok(time.Second), ok(0), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gotOK := Ratio(tc.base, tc.cell)
			if gotOK != tc.ok || !cmp.Equal(got, tc.want, cmpopts.EquateApprox(1e-12, 0)) {
				t.Errorf("Ratio = %v, %v; want %v, %v", got, gotOK, tc.want, tc.ok)
			}
		})
	}
}

// TestTableGeomean: a column's geometric mean is over the rows where
// both it and the baseline are OK, and says how many.
func TestTableGeomean(t *testing.T) {
	tab := sampleTable()
	type g struct {
		Mean float64
		N    int
		OK   bool
	}
	var got []g
	for j := range tab.Columns {
		m, n, ok := tab.Geomean(j)
		got = append(got, g{m, n, ok})
	}
	want := []g{
		{math.Sqrt(2 * 4), 2, true},      // none: gemm 2x, heat-3d 4x; jacobi-2d is WRONG
		{8, 1, true},                     // smart: gemm only (build failed, timed out)
		{1, 2, true},                     // gcc, the baseline; jacobi-2d crashed
		{math.Sqrt(0.5 * 0.25), 2, true}, // gcc-serial
		{0, 0, false},                    // polly: not installed
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
		t.Errorf("geometric means (-want +got):\n%s", diff)
	}
	if n := tab.Failures(); n != 9 {
		t.Errorf("Failures() = %d, want 9 (WRONG, build failed, crashed, timed out, and a failed row of 5)", n)
	}
	tab.Baseline = "nothing"
	if _, _, ok := tab.Geomean(0); ok {
		t.Error("a geometric mean without a baseline column")
	}
}
