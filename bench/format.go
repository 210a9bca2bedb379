package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tilefuse/tilefuse/runner"
)

// FormatDuration prints d with three significant digits in the largest
// unit that keeps it at least 1: 950 ns, 12.3 µs, 1.23 ms, 45.6 s.
func FormatDuration(d time.Duration) string {
	units := []struct {
		name string
		size time.Duration
	}{{"s", time.Second}, {"ms", time.Millisecond}, {"µs", time.Microsecond}}
	for _, u := range units {
		if d >= u.size {
			return sig3(float64(d)/float64(u.size)) + " " + u.name
		}
	}
	return fmt.Sprintf("%d ns", int64(d))
}

// sig3 prints a value of at least 1 with three significant digits (or
// all its integer digits).
func sig3(v float64) string {
	switch {
	case v < 9.995:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 99.95:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// FormatRatio prints a ratio as 1.23x (three significant digits).
func FormatRatio(r float64) string {
	if r < 1 {
		return strconv.FormatFloat(r, 'f', 2, 64) + "x"
	}
	return sig3(r) + "x"
}

// footnote is a numbered remark on a cell.
type footnote struct {
	row, col int
	text     string
}

// footnotes numbers the cells that need explaining, row by row: every
// cell whose status is a Failure.
func (t *Table) footnotes() ([]footnote, map[[2]int]int) {
	var notes []footnote
	index := map[[2]int]int{}
	for i, r := range t.Rows {
		for j, c := range r.Cells {
			if !c.Status.Failure() {
				continue
			}
			msg := c.Err
			if msg == "" {
				msg = c.Check
			}
			index[[2]int{i, j}] = len(notes) + 1
			notes = append(notes, footnote{i, j, oneLine(msg, 600)})
		}
	}
	return notes, index
}

// oneLine joins the lines of s with "; " and cuts it to at most limit
// runes.
func oneLine(s string, limit int) string {
	var parts []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	s = strings.Join(parts, "; ")
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "..."
	}
	return s
}

// Header is the description of the run that starts the text table.
func (t *Table) Header() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tilefuse bench %s", t.Suite)
	if t.Dataset != "" {
		fmt.Fprintf(&b, ", dataset %s", t.Dataset)
	}
	if size, ok := t.commonSize(); ok && size != t.Dataset {
		fmt.Fprintf(&b, ", size %s", size)
	}
	fmt.Fprintf(&b, ", %d %s, median of %d timed %s after %d warm-up %s",
		t.Threads, plural(t.Threads, "thread", "threads"), t.Repeat, plural(t.Repeat, "call", "calls"), t.Warmup, plural(t.Warmup, "call", "calls"))
	if t.Repeat > 1 {
		// Config.runRow: a round per timed call, the columns in turn.
		b.WriteString(" each, the columns' runs interleaved")
	}
	if t.Warmup > 1 {
		fmt.Fprintf(&b, ", a warm-up ending once it took %v", runner.WarmupBudget)
	}
	if t.Allocator != "" {
		fmt.Fprintf(&b, ", %s allocator (freed large blocks reused)", t.Allocator)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// commonSize is the size label every row shares, if they all do.
func (t *Table) commonSize() (string, bool) {
	if len(t.Rows) == 0 {
		return "", false
	}
	s := t.Rows[0].Size
	for _, r := range t.Rows[1:] {
		if r.Size != s {
			return "", false
		}
	}
	return s, true
}

// WriteText writes the table for people: a header, one line per
// benchmark with each column's median time and ratio (or its status and
// a footnote number), the geometric means, the tilefuse compile times,
// the legend, the footnotes and the machine.
func WriteText(w io.Writer, t *Table) error {
	var b strings.Builder
	b.WriteString(t.Header() + "\n")
	if t.Column(t.Baseline) >= 0 {
		fmt.Fprintf(&b, "ratio: %s's time / the column's time (above 1: faster than %s)\n", t.Baseline, t.Baseline)
	}
	if t.Tolerance > 0 {
		fmt.Fprintf(&b, "checks: tilefuse's bit for bit, the peers' within relative tolerance %g\n", t.Tolerance)
	}
	b.WriteString("\n")
	notes, index := t.footnotes()

	_, sameSize := t.commonSize()
	lead := []string{"benchmark"}
	if !sameSize {
		lead = append(lead, "size")
	}
	// Each column is a time and a ratio, right-aligned apart, or a
	// status across both.
	type cellText struct{ time, ratio, status string }
	grid := make([][]cellText, len(t.Rows))
	for i, r := range t.Rows {
		grid[i] = make([]cellText, len(t.Columns))
		for j, c := range r.Cells {
			switch {
			case c.Status == OK:
				ct := cellText{time: FormatDuration(c.Median)}
				if c.Noisy() {
					ct.time = noisyMark + ct.time
				}
				if ratio, ok := t.Ratio(i, j); ok {
					ct.ratio = FormatRatio(ratio)
				}
				grid[i][j] = ct
			case index[[2]int{i, j}] > 0:
				grid[i][j] = cellText{status: fmt.Sprintf("%s [%d]", c.Status, index[[2]int{i, j}])}
			default:
				grid[i][j] = cellText{status: string(c.Status)}
			}
		}
	}
	geo := make([]string, len(t.Columns))
	for j := range t.Columns {
		if m, n, ok := t.Geomean(j); ok {
			geo[j] = FormatRatio(m)
			if t.GeomeanNoisy(j) > 0 {
				geo[j] = noisyMark + geo[j]
			}
			if n < len(t.Rows) {
				geo[j] += fmt.Sprintf(" (%d/%d)", n, len(t.Rows))
			}
		}
	}
	tw, rw, cw := make([]int, len(t.Columns)), make([]int, len(t.Columns)), make([]int, len(t.Columns))
	for j, c := range t.Columns {
		cw[j] = width(c.Name)
		for i := range t.Rows {
			tw[j] = max(tw[j], width(grid[i][j].time))
			rw[j] = max(rw[j], width(grid[i][j].ratio))
		}
		cw[j] = max(cw[j], tw[j]+1+rw[j], width(geo[j]))
		for i := range t.Rows {
			cw[j] = max(cw[j], width(grid[i][j].status))
		}
		// The ratios align under the ratio part of the cells.
		tw[j] = cw[j] - 1 - rw[j]
	}
	var lines [][]string
	lines = append(lines, append(append([]string{}, lead...), columnNames(t)...))
	// The limit column: the compulsory bytes at the measured bandwidth.
	var bw float64
	if t.Machine != nil {
		bw = t.Machine.Bandwidth
	}
	limits := make([]string, len(t.Rows))
	limitWidth := 0
	for i, r := range t.Rows {
		if l := r.Limit(bw); l > 0 {
			limits[i] = FormatDuration(l)
			limitWidth = max(limitWidth, width("limit"), width(limits[i]))
		}
	}
	if limitWidth > 0 {
		lines[0] = append(lines[0], "limit")
	}
	for i, r := range t.Rows {
		line := []string{r.Name}
		if !sameSize {
			line = append(line, r.Size)
		}
		for j := range t.Columns {
			ct := grid[i][j]
			if ct.status != "" {
				line = append(line, ct.status)
			} else {
				line = append(line, pad(ct.time, tw[j], true)+" "+pad(ct.ratio, rw[j], true))
			}
		}
		if limitWidth > 0 {
			line = append(line, limits[i])
		}
		lines = append(lines, line)
	}
	geoLine := make([]string, len(lead))
	geoLine[0] = "geomean"
	for j := range t.Columns {
		geoLine = append(geoLine, pad(geo[j], cw[j], true))
	}
	lines = append(lines, geoLine)
	widths := append(make([]int, len(lead)), cw...)
	if limitWidth > 0 {
		geoLine = append(geoLine, "")
		lines[len(lines)-1] = geoLine
		widths = append(widths, limitWidth)
	}
	writeAligned(&b, lines, widths)
	if limitWidth > 0 {
		fmt.Fprintf(&b, "limit: the inputs read and the outputs written once at the streaming bandwidth measured before the run (%.1f GB/s)\n", bw/1e9)
	}
	writeNoisy(&b, t)
	writeBests(&b, t)

	// Compile times of the tilefuse columns.
	var tf []int
	for j, c := range t.Columns {
		if c.Kind == Tilefuse {
			tf = append(tf, j)
		}
	}
	if len(tf) > 0 && len(t.Rows) > 0 {
		b.WriteString("\ncompile time (schedule, AST, emit; opt and llc)\n")
		lines = [][]string{{"benchmark"}}
		for _, j := range tf {
			lines[0] = append(lines[0], t.Columns[j].Name)
		}
		total := make([]time.Duration, len(tf))
		complete := make([]bool, len(tf))
		for k := range complete {
			complete[k] = true
		}
		for _, r := range t.Rows {
			line := []string{r.Name}
			for k, j := range tf {
				c := r.Cells[j]
				if c.Compile > 0 {
					line = append(line, FormatDuration(c.Compile))
					total[k] += c.Compile
				} else {
					line = append(line, "-")
					complete[k] = false
				}
			}
			lines = append(lines, line)
		}
		line := []string{"total"}
		partial := false
		for k := range tf {
			s := FormatDuration(total[k])
			if !complete[k] {
				s += "*"
				partial = true
			}
			line = append(line, s)
		}
		lines = append(lines, line)
		widths := make([]int, len(lines[0]))
		for _, l := range lines {
			for k := 1; k < len(l); k++ {
				widths[k] = max(widths[k], width(l[k]))
			}
		}
		for _, l := range lines[1:] {
			for k := 1; k < len(l); k++ {
				l[k] = pad(l[k], widths[k], true)
			}
		}
		writeAligned(&b, lines, nil)
		if partial {
			b.WriteString("* of the benchmarks that compiled\n")
		}
	}

	if len(t.Columns) > 0 {
		b.WriteString("\ncolumns\n")
		lines = nil
		for _, c := range t.Columns {
			lines = append(lines, []string{"  " + c.Name, c.Description})
		}
		writeAligned(&b, lines, nil)
	}
	if len(notes) > 0 {
		b.WriteString("\nnotes\n")
		for k, n := range notes {
			st := string(t.Rows[n.row].Cells[n.col].Status)
			// A check's verdict starts with its status already.
			text := strings.TrimPrefix(n.text, st+": ")
			fmt.Fprintf(&b, "  [%d] %s, %s: %s: %s\n", k+1, t.Rows[n.row].Name, t.Columns[n.col].Name, st, text)
		}
	}
	if t.Machine != nil {
		fmt.Fprintf(&b, "\nmachine: %s\n", t.Machine)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeBests says, for each Best column, which column each row's cell
// came from.
func writeBests(b *strings.Builder, t *Table) {
	for j, col := range t.Columns {
		if col.Kind != Best {
			continue
		}
		from := map[string][]string{}
		for _, r := range t.Rows {
			if c := r.Cells[j]; c.From != "" {
				from[c.From] = append(from[c.From], r.Name)
			}
		}
		var parts []string
		for _, o := range col.Of {
			if len(from[o]) > 0 {
				parts = append(parts, o+" on "+strings.Join(from[o], ", "))
			}
		}
		if len(parts) == 0 {
			parts = []string{"none ok"}
		}
		fmt.Fprintf(b, "%s: %s: %s\n", col.Name, col.Description, strings.Join(parts, "; "))
	}
}

// noisyMark marks a Noisy cell's time and a geometric mean that rests
// on one.
const noisyMark = "~"

// writeNoisy explains the noisy marks of the text table: the cells, and
// a warning for each geometric mean that rests on them.
func writeNoisy(b *strings.Builder, t *Table) {
	n := t.Noisy()
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "%s noisy: the timed calls spread over more than %.0f%% of their median ((max - min) / median): do not trust the time (%d %s)\n",
		noisyMark, NoisySpread*100, n, plural(n, "cell", "cells"))
	for j, c := range t.Columns {
		k := t.GeomeanNoisy(j)
		if k == 0 {
			continue
		}
		_, rows, _ := t.Geomean(j)
		fmt.Fprintf(b, "warning: the geomean of %s rests on %d noisy %s of %d (its cells' or %s's): rerun with more --repeat, or on a quieter machine\n",
			c.Name, k, plural(k, "row", "rows"), rows, t.Baseline)
	}
}

func columnNames(t *Table) []string {
	var names []string
	for _, c := range t.Columns {
		names = append(names, c.Name)
	}
	return names
}

func width(s string) int { return utf8.RuneCountInString(s) }

// pad pads s with spaces to n runes, on the left when right is set.
func pad(s string, n int, right bool) string {
	if k := n - width(s); k > 0 {
		if right {
			return strings.Repeat(" ", k) + s
		}
		return s + strings.Repeat(" ", k)
	}
	return s
}

// writeAligned writes lines as columns separated by two spaces, each at
// least as wide as min[k]; trailing spaces are cut.
func writeAligned(b *strings.Builder, lines [][]string, minw []int) {
	var widths []int
	for _, l := range lines {
		for k, s := range l {
			if k >= len(widths) {
				widths = append(widths, 0)
			}
			widths[k] = max(widths[k], width(s))
			if k < len(minw) {
				widths[k] = max(widths[k], minw[k])
			}
		}
	}
	for _, l := range lines {
		var line strings.Builder
		for k, s := range l {
			if k > 0 {
				line.WriteString("  ")
			}
			line.WriteString(pad(s, widths[k], false))
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// csvHeader names the fields of WriteCSV's lines.
var csvHeader = []string{"suite", "benchmark", "size", "column", "kind", "status", "median_s", "ratio", "compile_s", "max_rel_err", "note"}

// WriteCSV writes one line per cell (benchmark by benchmark) and then one
// per column's geometric mean (benchmark "geomean", the ratio and the
// number of rows it is over in the note). Times are in seconds; fields
// without a value are empty.
func WriteCSV(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader)
	_, index := t.footnotes()
	for i, r := range t.Rows {
		for j, c := range r.Cells {
			col := t.Columns[j]
			rec := []string{t.Suite, r.Name, r.Size, col.Name, string(col.Kind), string(c.Status), "", "", "", "", ""}
			if c.Status == OK || c.Status == Wrong {
				rec[6] = float(c.Median.Seconds())
			}
			if ratio, ok := t.Ratio(i, j); ok {
				rec[7] = float(ratio)
			}
			if c.Compile > 0 {
				rec[8] = float(c.Compile.Seconds())
			}
			if c.Check != "" {
				rec[9] = float(c.MaxRelErr)
			}
			if index[[2]int{i, j}] > 0 {
				rec[10] = oneLine(firstNonEmpty(c.Err, c.Check), 2000)
			}
			if c.From != "" {
				rec[10] = "from " + c.From
			}
			cw.Write(rec)
		}
	}
	for j, col := range t.Columns {
		m, n, ok := t.Geomean(j)
		rec := []string{t.Suite, "geomean", "", col.Name, string(col.Kind), "", "", "", "", "", fmt.Sprintf("over %d of %d", n, len(t.Rows))}
		if ok {
			rec[7] = float(m)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// float prints a number for CSV: the shortest form that reads back
// exactly; Inf and NaN as Go spells them.
func float(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// The JSON form of a table. Times are seconds; absent values are left
// out (omitempty) or null.
type (
	jsonTable struct {
		Suite     string        `json:"suite"`
		Dataset   string        `json:"dataset,omitempty"`
		Threads   int           `json:"threads"`
		Warmup    int           `json:"warmup"`
		Repeat    int           `json:"repeat"`
		Tolerance float64       `json:"peer_tolerance"`
		Baseline  string        `json:"baseline"`
		Machine   *Machine      `json:"machine,omitempty"`
		Allocator string        `json:"allocator,omitempty"`
		Columns   []Column      `json:"columns"`
		Rows      []jsonRow     `json:"rows"`
		Geomean   []jsonGeomean `json:"geomean"`
	}
	jsonRow struct {
		Benchmark string           `json:"benchmark"`
		Size      string           `json:"size"`
		Params    map[string]int64 `json:"params,omitempty"`
		Cells     []jsonCell       `json:"cells"`
		// Compulsory and Limit: see Row.Compulsory and Row.Limit.
		Compulsory int64    `json:"compulsory_bytes,omitempty"`
		Limit      *float64 `json:"limit_s,omitempty"`
	}
	jsonCell struct {
		Column    string    `json:"column"`
		Status    Status    `json:"status"`
		Median    *float64  `json:"median_s,omitempty"`
		Times     []float64 `json:"times_s,omitempty"`
		Ratio     *float64  `json:"ratio,omitempty"`
		Compile   *float64  `json:"compile_s,omitempty"`
		Check     string    `json:"check,omitempty"`
		MaxRelErr *float64  `json:"max_rel_err,omitempty"`
		Error     string    `json:"error,omitempty"`
		// Spread is (max - min) / median of the timed calls; Noisy says
		// it is above NoisySpread.
		Spread *float64 `json:"spread,omitempty"`
		Noisy  bool     `json:"noisy,omitempty"`
		// From, in a Best column, names the column the cell is from.
		From string `json:"from,omitempty"`
	}
	jsonGeomean struct {
		Column string   `json:"column"`
		Ratio  *float64 `json:"ratio"`
		Count  int      `json:"count"`
		// Noisy counts the rows of the mean whose cells are noisy.
		Noisy int `json:"noisy,omitempty"`
	}
)

// WriteJSON writes the table as one indented JSON object: the run's
// settings, the machine, the columns, the rows with every cell (times in
// seconds, each timed call's too) and the geometric means.
func WriteJSON(w io.Writer, t *Table) error {
	jt := jsonTable{
		Suite: t.Suite, Dataset: t.Dataset, Threads: t.Threads, Warmup: t.Warmup, Repeat: t.Repeat,
		Allocator: t.Allocator,
		Tolerance: t.Tolerance, Baseline: t.Baseline, Machine: t.Machine, Columns: t.Columns,
		Rows: []jsonRow{}, Geomean: []jsonGeomean{},
	}
	if jt.Columns == nil {
		jt.Columns = []Column{}
	}
	for i, r := range t.Rows {
		jr := jsonRow{Benchmark: r.Name, Size: r.Size, Params: r.Params, Cells: []jsonCell{}, Compulsory: r.Compulsory}
		if t.Machine != nil {
			if l := r.Limit(t.Machine.Bandwidth); l > 0 {
				jr.Limit = ptr(l.Seconds())
			}
		}
		for j, c := range r.Cells {
			jc := jsonCell{Column: t.Columns[j].Name, Status: c.Status, Check: c.Check, Error: c.Err, From: c.From}
			if c.Status == OK || c.Status == Wrong {
				jc.Median = ptr(c.Median.Seconds())
				for _, d := range c.Times {
					jc.Times = append(jc.Times, d.Seconds())
				}
			}
			if ratio, ok := t.Ratio(i, j); ok {
				jc.Ratio = ptr(ratio)
			}
			if sp, ok := c.Spread(); ok && (c.Status == OK || c.Status == Wrong) {
				jc.Spread, jc.Noisy = ptr(sp), c.Noisy()
			}
			if c.Compile > 0 {
				jc.Compile = ptr(c.Compile.Seconds())
			}
			if c.Check != "" {
				// JSON has no infinity: a mismatch of integers (or NaN
				// against a number) is the largest double.
				jc.MaxRelErr = ptr(math.Min(c.MaxRelErr, math.MaxFloat64))
			}
			jr.Cells = append(jr.Cells, jc)
		}
		jt.Rows = append(jt.Rows, jr)
	}
	for j, col := range t.Columns {
		g := jsonGeomean{Column: col.Name}
		m, n, ok := t.Geomean(j)
		g.Count = n
		if ok {
			g.Ratio = ptr(m)
		}
		g.Noisy = t.GeomeanNoisy(j)
		jt.Geomean = append(jt.Geomean, g)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jt)
}

func ptr(v float64) *float64 { return &v }
