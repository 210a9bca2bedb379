package tune

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/tilefuse/tilefuse/internal/safefile"
)

// Sample is one measured run for the calibration: the model's features
// of the candidate and its time in seconds.
type Sample struct {
	Features []float64
	Seconds  float64
}

// prior is how strongly Fit pulls each constant towards the defaults
// (per sample, in relative error): the samples of one calibration do
// not always tell every level apart (a working set never in L3, say),
// and a constant they do not see keeps its default.
const prior = 0.05

// Fit finds the constants that make the model's cost proportional to
// the measured times: least squares over (k, k·L1, ..., k·Row), so that
// seconds ≈ k·(features · (1, L1, ..., Row)), in relative error (each
// row weighted by 1/seconds), with the constants pulled weakly towards
// def and kept at least 0 (a constant the fit drives negative is
// fixed at 0 and the rest fitted again). It returns the constants and
// k, the seconds per unit of cost.
func Fit(samples []Sample, def Costs) (Costs, float64, error) {
	if len(samples) < 2 {
		return def, 0, errors.New("tune: fit: too few samples")
	}
	d := def.vector()
	free := make([]bool, nFeatures)
	for i := range free {
		free[i] = true
	}
	for {
		beta, err := solve(samples, d, free)
		if err != nil {
			return def, 0, err
		}
		if beta[fArith] <= 0 {
			return def, 0, &NoFitError{"the times do not grow with the work"}
		}
		neg := false
		for i := 1; i < nFeatures; i++ {
			if free[i] && beta[i] < 0 {
				free[i], neg = false, true
			}
		}
		if !neg {
			k := beta[fArith]
			c := Costs{L1: beta[fL1] / k, L2: beta[fL2] / k, L3: beta[fL3] / k, Memory: beta[fMemory] / k, Tile: beta[fTile] / k, Row: beta[fRow] / k}
			return c, k, nil
		}
	}
}

// solve is the weighted least-squares problem of Fit over the free
// unknowns (the others 0), with the prior rows.
func solve(samples []Sample, def []float64, free []bool) ([]float64, error) {
	var cols []int
	for i, f := range free {
		if f {
			cols = append(cols, i)
		}
	}
	rows := len(samples) + nFeatures - 1
	a := mat.NewDense(rows, len(cols), nil)
	b := mat.NewVecDense(rows, nil)
	for r, s := range samples {
		if s.Seconds <= 0 || len(s.Features) != nFeatures {
			return nil, fmt.Errorf("tune: fit: sample %d: %d features, %g s", r, len(s.Features), s.Seconds)
		}
		for j, c := range cols {
			a.Set(r, j, s.Features[c]/s.Seconds)
		}
		b.SetVec(r, 1)
	}
	// Prior rows: prior·(β_i - def_i·β_0)/(def_i·β_0) = 0, linear once
	// scaled by β_0's typical size, the first pass's: the mean of
	// seconds/arith over the samples.
	k0 := 0.0
	for _, s := range samples {
		k0 += s.Seconds / max(s.Features[fArith], 1) / float64(len(samples))
	}
	for i := 1; i < nFeatures; i++ {
		r := len(samples) + i - 1
		scale := prior / (max(def[i], 1e-9) * k0)
		for j, c := range cols {
			switch c {
			case i:
				a.Set(r, j, scale)
			case fArith:
				a.Set(r, j, -scale*def[i])
			}
		}
	}
	var x mat.VecDense
	if err := x.SolveVec(a, b); err != nil {
		return nil, fmt.Errorf("tune: fit: %v", err)
	}
	beta := make([]float64, nFeatures)
	for j, c := range cols {
		beta[c] = x.AtVec(j)
	}
	return beta, nil
}

// NoFitError is Fit's error when the times have no fit with a positive
// cost per operation: the runs' noise exceeds what the work changes.
type NoFitError struct{ Why string }

func (e *NoFitError) Error() string { return "tune: fit: " + e.Why }

// Calibration is the fitted constants of a machine, with the samples'
// fit: the median relative error of the model's times.
type Calibration struct {
	Machine  string
	Costs    Costs
	Seconds  float64 // per unit of cost
	Samples  int
	MedError float64
}

// calibrationFile is the machine's calibration in the records' dir.
func calibrationFile(dir string, m Machine) string {
	return filepath.Join(dir, "costs-"+Key("calibration", "", m)+".json")
}

// LoadCosts returns the calibrated constants of m in dir, or the
// defaults and false when m is not calibrated.
func LoadCosts(dir string, m Machine) (Costs, bool) {
	b, err := os.ReadFile(calibrationFile(dir, m))
	if err != nil {
		return DefaultCosts, false
	}
	var c Calibration
	if json.Unmarshal(b, &c) != nil || c.Machine != m.String() {
		return DefaultCosts, false
	}
	return c.Costs, true
}

// Save writes c for m in dir.
func (c *Calibration) Save(dir string, m Machine) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return safefile.Write(calibrationFile(dir, m), append(b, '\n'))
}
