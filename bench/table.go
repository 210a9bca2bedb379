package bench

import (
	"math"
	"time"
)

// Kind tells tilefuse's columns from the peers'.
type Kind string

const (
	Tilefuse Kind = "tilefuse" // a fusion strategy of tilefuse
	Peer     Kind = "peer"     // another compiler on the naive C
	Best     Kind = "best"     // the fastest verified of other columns (AddBest)
)

// Column is one way of compiling the benchmarks.
type Column struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Description says how the column is built and run, for the legend.
	Description string `json:"description"`
	// Of names the columns a Best column picks from.
	Of []string `json:"of,omitempty"`
}

// Status is the outcome of one cell.
type Status string

const (
	OK           Status = "ok"
	Wrong        Status = "WRONG"         // ran, but the check against the reference failed
	BuildFailed  Status = "build failed"  // scheduling, code generation or the compiler failed
	Crashed      Status = "crashed"       // the compiled code died
	PeerFailed   Status = "peer failed"   // the peer's own runtime refused the run (Halide's bounds checks)
	TimedOut     Status = "timed out"     // compiling or running took longer than Config.Timeout
	NotInstalled Status = "not installed" // the peer's compiler is missing
	NoGenerator  Status = "no generator"  // the Halide peer has no generator for the benchmark
	NoSchedule   Status = "no schedule"   // strategy schedule on a benchmark whose source writes none
	NoneOK       Status = "none ok"       // a Best column's row where none of its columns is OK
	Failed       Status = "failed"        // anything else: sizes, inputs, the reference
)

// Cell is the result of one benchmark under one column.
type Cell struct {
	Status Status
	// Times are the timed calls, Median their median (runs that got to
	// the check: OK and Wrong cells).
	Times  []time.Duration
	Median time.Duration
	// Compile is the time tilefuse took to compile the benchmark
	// (scheduling, AST generation and emission, then opt and llc), for
	// the tilefuse columns whose compilation finished.
	Compile time.Duration
	// Check describes the comparison with the reference (runner's
	// Check.String), when one was made.
	Check string
	// MaxRelErr is the check's largest relative error.
	MaxRelErr float64
	// Err is why the cell is not OK: the check's verdict, the build's or
	// the run's diagnostics.
	Err string
	// From, in a Best column, is the column whose cell this is.
	From string
}

// NoisySpread is the spread of a cell's timed calls, (max - min) /
// median, above which its time is not to be trusted: the machine was
// busy, or the code's time varies too much for the calls made.
const NoisySpread = 0.25

// Spread is (max - min) / median of the cell's timed calls; false with
// fewer than two calls or no positive median.
func (c Cell) Spread() (float64, bool) {
	if len(c.Times) < 2 || c.Median <= 0 {
		return 0, false
	}
	lo, hi := c.Times[0], c.Times[0]
	for _, d := range c.Times[1:] {
		lo, hi = min(lo, d), max(hi, d)
	}
	return float64(hi-lo) / float64(c.Median), true
}

// Noisy reports whether the cell is OK but its spread is above
// NoisySpread.
func (c Cell) Noisy() bool {
	s, ok := c.Spread()
	return c.Status == OK && ok && s > NoisySpread
}

// Row is one benchmark across the columns.
type Row struct {
	Name string
	// Size labels the sizes it ran at ("MINI", "2048x2048").
	Size   string
	Params map[string]int64
	// Cells has one entry per column of the table, in order.
	Cells []Cell
	// Compulsory is the bytes any code must move: the program's input
	// arrays read once and its output arrays written once.
	Compulsory int64
}

// Limit is the time the compulsory bytes take at bandwidth (bytes per
// second), the floor of a memory-bound benchmark; 0 when unknown.
func (r Row) Limit(bandwidth float64) time.Duration {
	if bandwidth <= 0 || r.Compulsory <= 0 {
		return 0
	}
	return time.Duration(float64(r.Compulsory) / bandwidth * 1e9)
}

// Table is the result of a benchmark run.
type Table struct {
	// Suite is "polybench" or "polymage"; Dataset the PolyBench dataset,
	// if any.
	Suite   string
	Dataset string
	Threads int
	Warmup  int
	Repeat  int
	// Tolerance is the relative error the peers' checks allow.
	Tolerance float64
	// Baseline names the column ratios are relative to.
	Baseline string
	Columns  []Column
	Rows     []Row
	// Machine describes where it ran (nil if unknown).
	Machine *Machine
	// Allocator is "caching" when every column ran under the caching
	// allocator, "" for the system's.
	Allocator string
}

// Column returns the index of the column called name, or -1.
func (t *Table) Column(name string) int {
	for i, c := range t.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// Ratio is the speed-up of a cell over its row's baseline cell,
// baseline time / cell time; false when either is not OK or has no time.
func (t *Table) Ratio(row, col int) (float64, bool) {
	b := t.Column(t.Baseline)
	if b < 0 {
		return 0, false
	}
	r := t.Rows[row]
	return Ratio(r.Cells[b], r.Cells[col])
}

// Ratio is base's median over c's: how many times faster c is. It exists
// when both cells are OK with positive times.
func Ratio(base, c Cell) (float64, bool) {
	if base.Status != OK || c.Status != OK || base.Median <= 0 || c.Median <= 0 {
		return 0, false
	}
	return float64(base.Median) / float64(c.Median), true
}

// Geomean is the geometric mean of a column's ratios and the number of
// rows it is over (the rows where the ratio exists); false when there is
// none.
func (t *Table) Geomean(col int) (mean float64, n int, ok bool) {
	var xs []float64
	for i := range t.Rows {
		if r, ok := t.Ratio(i, col); ok {
			xs = append(xs, r)
		}
	}
	mean, ok = Geomean(xs)
	return mean, len(xs), ok
}

// GeomeanNoisy counts the rows of a column's geometric mean (those
// where the ratio exists) whose cell or baseline cell is Noisy: a mean
// that rests on them is not to be trusted either.
func (t *Table) GeomeanNoisy(col int) int {
	b := t.Column(t.Baseline)
	n := 0
	for i, r := range t.Rows {
		if _, ok := t.Ratio(i, col); ok && (r.Cells[col].Noisy() || r.Cells[b].Noisy()) {
			n++
		}
	}
	return n
}

// Noisy counts the Noisy cells.
func (t *Table) Noisy() int {
	n := 0
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Noisy() {
				n++
			}
		}
	}
	return n
}

// Geomean is the geometric mean of xs, computed as the exponential of
// the mean logarithm (no overflow for long lists); false when xs is empty
// or holds a value that is not positive and finite.
func Geomean(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0, false
		}
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs))), true
}

// Failure reports whether a cell of status s is not right: neither OK
// nor a peer that could not take part (NotInstalled, NoGenerator,
// NoSchedule), nor a Best column's NoneOK (whose columns have their
// own failures).
func (s Status) Failure() bool {
	return s != OK && s != NotInstalled && s != NoGenerator && s != NoSchedule && s != NoneOK
}

// Failures counts the cells whose status is a Failure.
func (t *Table) Failures() int {
	n := 0
	for _, r := range t.Rows {
		for _, c := range r.Cells {
			if c.Status.Failure() {
				n++
			}
		}
	}
	return n
}
