package draw

import "math"

// speedups is the chart's data: per group (benchmark, then the
// geometric mean) each shown column's ratio (NaN: none, and then the
// cell's status says why), whether its time is noisy, and the group's
// limit speed-up (NaN: unknown).
type speedups struct {
	groups []string
	cols   []string
	ratio  [][]float64 // [group][col]
	noisy  [][]bool
	status [][]string // the status of a cell with no ratio ("" for none)
	limit  []float64
}

func (b *Bench) speedups() speedups {
	var s speedups
	for _, c := range b.Columns {
		if c.Name != b.Baseline {
			s.cols = append(s.cols, c.Name)
		}
	}
	if len(s.cols) == 0 { // only the baseline: show it
		s.cols = []string{b.Baseline}
	}
	row := func() ([]float64, []bool, []string) {
		vals := make([]float64, len(s.cols))
		for i := range vals {
			vals[i] = math.NaN()
		}
		return vals, make([]bool, len(s.cols)), make([]string, len(s.cols))
	}
	for _, r := range b.Rows {
		s.groups = append(s.groups, r.Benchmark)
		vals, noisy, status := row()
		var base float64
		baseNoisy := false
		for _, c := range r.Cells {
			if c.Column == b.Baseline && c.Status == "ok" && c.Median != nil {
				base, baseNoisy = *c.Median, c.Noisy
			}
		}
		for _, c := range r.Cells {
			for i, name := range s.cols {
				if c.Column != name {
					continue
				}
				// Only a checked run's time is a bar: a WRONG cell's
				// is not a speed-up.
				if c.Status == "ok" && c.Ratio != nil && *c.Ratio > 0 {
					vals[i], noisy[i] = *c.Ratio, c.Noisy || baseNoisy
				} else if c.Status != "ok" {
					status[i] = c.Status
				}
			}
		}
		s.ratio, s.noisy, s.status = append(s.ratio, vals), append(s.noisy, noisy), append(s.status, status)
		lim := math.NaN()
		if r.Limit != nil && *r.Limit > 0 && base > 0 {
			lim = base / *r.Limit
		}
		s.limit = append(s.limit, lim)
	}
	if len(b.Rows) > 1 {
		s.groups = append(s.groups, "geomean")
		vals, noisy, status := row()
		for i, name := range s.cols {
			for _, g := range b.Geomean {
				if g.Column == name && g.Ratio != nil && *g.Ratio > 0 {
					vals[i], noisy[i] = *g.Ratio, g.Noisy > 0
				}
			}
		}
		s.ratio, s.noisy, s.status = append(s.ratio, vals), append(s.noisy, noisy), append(s.status, status)
		s.limit = append(s.limit, math.NaN())
	}
	return s
}

// limitReach is how far beyond the bars' range a limit may lie and still
// stretch the scale: one further off would squash every bar into a
// corner of the chart (a limit at 1000x over bars of 3x), so it is
// marked at the chart's edge with its value instead of drawn as a line.
const limitReach = 3.0

// limitMark is how a group's limit is shown.
type limitMark int

const (
	noLimit    limitMark = iota
	limitLine            // a dashed line at the limit, within the scale
	limitAbove           // a marker at the top edge: the limit is far above the bars
	limitBelow           // a marker at the bottom edge: far below them
)

// chartScale is the chart's vertical range and how each group's limit
// is shown.
type chartScale struct {
	lo, hi float64
	marks  []limitMark
	// markLo and markHi bound the bands at the edges that hold the
	// markers (lo..markLo and markHi..hi); markLo = lo and markHi = hi
	// when there are none.
	markLo, markHi float64
}

// scaleOf makes the range hold every bar (from 1) with room for its
// label above (a fifth of the decades shown) and the limits within
// reach of the bars; bands for the markers of the others come on top.
func scaleOf(s speedups) chartScale {
	barLo, barHi := 1.0, 1.0
	for _, vals := range s.ratio {
		for _, v := range vals {
			if !math.IsNaN(v) {
				barLo, barHi = math.Min(barLo, v), math.Max(barHi, v)
			}
		}
	}
	sc := chartScale{marks: make([]limitMark, len(s.groups))}
	inLo, inHi := barLo, barHi
	above, below := false, false
	for g, l := range s.limit {
		switch {
		case math.IsNaN(l):
		case l > barHi*limitReach:
			sc.marks[g], above = limitAbove, true
		case l < barLo/limitReach:
			sc.marks[g], below = limitBelow, true
		default:
			sc.marks[g] = limitLine
			inLo, inHi = math.Min(inLo, l), math.Max(inHi, l)
		}
	}
	lo, hi := inLo/1.5, inHi*1.5
	for range 5 {
		room := math.Pow(10, 0.2*math.Log10(hi/lo))
		lo = math.Min(inLo/1.5, barLo/room)
		hi = math.Max(inHi*1.5, barHi*room)
	}
	sc.markLo, sc.markHi = lo, hi
	band := math.Pow(hi/lo, 0.14)
	if above {
		hi *= band
	}
	if below {
		lo /= band
	}
	sc.lo, sc.hi = lo, hi
	return sc
}
