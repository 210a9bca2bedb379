package draw

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
)

// Bench is the JSON that 'tilefuse bench --format json' writes (package
// bench's WriteJSON), as far as the chart reads it.
type Bench struct {
	Suite    string        `json:"suite"`
	Dataset  string        `json:"dataset"`
	Threads  int           `json:"threads"`
	Warmup   int           `json:"warmup"`
	Repeat   int           `json:"repeat"`
	Baseline string        `json:"baseline"`
	Machine  *BenchMachine `json:"machine"`
	Columns  []struct {
		Name        string `json:"name"`
		Kind        string `json:"kind"`
		Description string `json:"description"`
	} `json:"columns"`
	Rows []struct {
		Benchmark string `json:"benchmark"`
		Size      string `json:"size"`
		Cells     []struct {
			Column string   `json:"column"`
			Status string   `json:"status"`
			Median *float64 `json:"median_s"`
			Ratio  *float64 `json:"ratio"`
			Noisy  bool     `json:"noisy"`
			Error  string   `json:"error"`
		} `json:"cells"`
		Limit *float64 `json:"limit_s"`
	} `json:"rows"`
	Geomean []struct {
		Column string   `json:"column"`
		Ratio  *float64 `json:"ratio"`
		Count  int      `json:"count"`
	} `json:"geomean"`
}

// BenchMachine is the JSON's machine description.
type BenchMachine struct {
	CPU       string  `json:"cpu"`
	Cores     int     `json:"cores"`
	Memory    int64   `json:"memory_bytes"`
	OS        string  `json:"os"`
	Go        string  `json:"go"`
	LLVM      string  `json:"llvm"`
	GCC       string  `json:"gcc"`
	Clang     string  `json:"clang"`
	Bandwidth float64 `json:"stream_bytes_per_s"`
}

// String describes the machine in one line.
func (m *BenchMachine) String() string {
	if m == nil {
		return "machine unknown"
	}
	cpu := m.CPU
	if cpu == "" {
		cpu = "unknown CPU"
	}
	parts := []string{fmt.Sprintf("%s, %d cores", cpu, m.Cores)}
	if m.Memory > 0 {
		parts[0] += fmt.Sprintf(", %.1f GiB", float64(m.Memory)/(1<<30))
	}
	if m.OS != "" {
		parts = append(parts, m.OS)
	}
	tools := []string{}
	for _, t := range []struct{ name, v string }{{"", m.Go}, {"LLVM ", m.LLVM}, {"gcc ", m.GCC}, {"clang ", m.Clang}} {
		if t.v != "" {
			tools = append(tools, t.name+t.v)
		}
	}
	if len(tools) > 0 {
		parts = append(parts, strings.Join(tools, ", "))
	}
	if m.Bandwidth > 0 {
		parts = append(parts, fmt.Sprintf("stream %.1f GB/s", m.Bandwidth/1e9))
	}
	return strings.Join(parts, "; ")
}

// ReadBench reads bench's JSON.
func ReadBench(data []byte) (*Bench, error) {
	var b Bench
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("reading the bench JSON: %v", err)
	}
	if len(b.Columns) == 0 {
		return nil, fmt.Errorf("reading the bench JSON: no columns")
	}
	return &b, nil
}

// chartColours are the columns' bar colours (colour-blind safe).
var chartColours = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
	{0x56, 0xb4, 0xe9, 0xff}, {0xd5, 0x5e, 0x00, 0xff}, {0xf0, 0xe4, 0x42, 0xff}, {0x99, 0x99, 0x99, 0xff},
}

// speedups is the chart's data: per group (benchmark, then the
// geometric mean) each shown column's ratio (NaN: none) and the
// group's limit speed-up (NaN: unknown).
type speedups struct {
	groups []string
	cols   []string
	ratio  [][]float64 // [group][col]
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
	for _, r := range b.Rows {
		s.groups = append(s.groups, r.Benchmark)
		vals := make([]float64, len(s.cols))
		var base float64
		for i := range vals {
			vals[i] = math.NaN()
		}
		for _, c := range r.Cells {
			if c.Column == b.Baseline && c.Status == "ok" && c.Median != nil {
				base = *c.Median
			}
			for i, name := range s.cols {
				if c.Column == name && c.Ratio != nil && *c.Ratio > 0 {
					vals[i] = *c.Ratio
				}
			}
		}
		s.ratio = append(s.ratio, vals)
		lim := math.NaN()
		if r.Limit != nil && *r.Limit > 0 && base > 0 {
			lim = base / *r.Limit
		}
		s.limit = append(s.limit, lim)
	}
	if len(b.Rows) > 1 {
		s.groups = append(s.groups, "geomean")
		vals := make([]float64, len(s.cols))
		for i, name := range s.cols {
			vals[i] = math.NaN()
			for _, g := range b.Geomean {
				if g.Column == name && g.Ratio != nil && *g.Ratio > 0 {
					vals[i] = *g.Ratio
				}
			}
		}
		s.ratio = append(s.ratio, vals)
		s.limit = append(s.limit, math.NaN())
	}
	return s
}

// barsPlotter draws bars from 1 (the baseline) to each ratio, on the
// plot's (log) scale, the baseline line, the limit marks and the ratios
// as labels.
type barsPlotter struct {
	s      speedups
	ymin   float64
	ymax   float64
	labels vgdraw.TextStyle
}

const groupWidth = 0.8

func (bp *barsPlotter) barX(g, c int) (float64, float64) {
	w := groupWidth / float64(len(bp.s.cols))
	x0 := float64(g) - groupWidth/2 + float64(c)*w
	return x0, x0 + w
}

func (bp *barsPlotter) Plot(c vgdraw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for g, vals := range bp.s.ratio {
		for j, v := range vals {
			if math.IsNaN(v) {
				continue
			}
			x0, x1 := bp.barX(g, j)
			y0, y1 := trY(1), trY(v)
			pts := []vg.Point{{X: trX(x0), Y: y0}, {X: trX(x1), Y: y0}, {X: trX(x1), Y: y1}, {X: trX(x0), Y: y1}}
			c.FillPolygon(chartColours[j%len(chartColours)], pts)
			// Vertical labels, so that narrow bars keep them apart.
			sty := bp.labels
			sty.Rotation = math.Pi / 2
			sty.XAlign = vgdraw.XLeft
			sty.YAlign = vgdraw.YCenter
			off := vg.Points(2)
			if v < 1 {
				sty.XAlign = vgdraw.XRight
				off = -off
			}
			c.FillText(sty, vg.Point{X: trX((x0 + x1) / 2), Y: y1 + off}, ratioText(v))
		}
		if lim := bp.s.limit[g]; !math.IsNaN(lim) {
			x0, _ := bp.barX(g, 0)
			_, x1 := bp.barX(g, len(bp.s.cols)-1)
			ls := vgdraw.LineStyle{Color: color.Black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
			c.StrokeLine2(ls, trX(x0-0.04), trY(lim), trX(x1+0.04), trY(lim))
		}
	}
	base := vgdraw.LineStyle{Color: color.Gray{Y: 0x40}, Width: vg.Points(0.8)}
	c.StrokeLine2(base, trX(-0.5), trY(1), trX(float64(len(bp.s.groups))-0.5), trY(1))
}

func (bp *barsPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(bp.s.groups)) - 0.5, bp.ymin, bp.ymax
}

// swatch is a legend entry: a filled square, or a dashed line.
type swatch struct {
	c    color.Color
	line bool
}

func (s swatch) Thumbnail(c *vgdraw.Canvas) {
	if s.line {
		y := (c.Min.Y + c.Max.Y) / 2
		c.StrokeLine2(vgdraw.LineStyle{Color: s.c, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}, c.Min.X, y, c.Max.X, y)
		return
	}
	c.FillPolygon(s.c, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// ratioTicks marks 1, 2 and 5 times the powers of ten over up to three
// decades, the powers of ten alone over more (every other one over
// more than eight).
type ratioTicks struct{}

func (ratioTicks) Ticks(lo, hi float64) []plot.Tick {
	decades := math.Log10(hi / lo)
	mults := []float64{1, 2, 5}
	step := 1.0
	if decades > 3 {
		mults = []float64{1}
	}
	if decades > 8 {
		step = 2
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)) - 1; e <= math.Ceil(math.Log10(hi)); e++ {
		if math.Mod(e, step) != 0 {
			continue
		}
		for _, m := range mults {
			v := m * math.Pow(10, e)
			if v < lo*0.999 || v > hi*1.001 {
				continue
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: ratioText(v)})
		}
	}
	return ticks
}

// compact prints a positive number with three significant digits, large
// ones with k and M.
func compact(v float64) string {
	switch {
	case v >= 1e9:
		return strings.Replace(strconv.FormatFloat(v, 'g', 3, 64), "e+", "e", 1)
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// ratioText prints a speed-up: 2.5×, 1.2k×, and a slow-down below
// 0.01 as a fraction, 1/350×.
func ratioText(v float64) string {
	if v < 0.01 {
		return "1/" + compact(1/v) + "×"
	}
	return compact(v) + "×"
}

// BenchSVG charts a benchmark run (bench's JSON): for each benchmark
// and the geometric mean, one bar per column (the baseline's left out)
// from 1 to its speed-up over the baseline, on a log scale, with the
// speed-up the DRAM limit allows (the compulsory bytes at the measured
// streaming bandwidth) as a dashed line where the JSON has it. The chart
// is drawn by gonum.org/v1/plot.
func BenchSVG(b *Bench) (string, error) {
	s := b.speedups()
	// The range: the bars (from 1) with room for their labels, a fifth
	// of the height, and the limits; then room for the legend.
	barLo, barHi, limLo, limHi := 1.0, 1.0, math.Inf(1), math.Inf(-1)
	for g, vals := range s.ratio {
		for _, v := range vals {
			if !math.IsNaN(v) {
				barLo, barHi = math.Min(barLo, v), math.Max(barHi, v)
			}
		}
		if l := s.limit[g]; !math.IsNaN(l) {
			limLo, limHi = math.Min(limLo, l), math.Max(limHi, l)
		}
	}
	lo, hi := math.Min(barLo, limLo)/1.5, math.Max(barHi, limHi)*1.5
	for range 5 {
		room := math.Pow(10, 0.2*math.Log10(hi/lo))
		lo = math.Min(math.Min(barLo, limLo)/1.5, barLo/room)
		hi = math.Max(math.Max(barHi, limHi)*1.5, barHi*room)
	}
	hi *= math.Pow(hi/lo, 0.2)
	p := plot.New()
	sans := func(f *font.Font, size float64) {
		f.Typeface, f.Variant, f.Size = "Liberation", "Sans", font.Length(size)
	}
	title := fmt.Sprintf("%s: speed-up over %s (log scale)", b.Suite, b.Baseline)
	if b.Dataset != "" {
		title = fmt.Sprintf("%s %s: speed-up over %s (log scale)", b.Suite, b.Dataset, b.Baseline)
	}
	p.Title.Text = title
	sans(&p.Title.TextStyle.Font, 13)
	p.Y.Label.Text = "speed-up (baseline time / time)"
	sans(&p.Y.Label.TextStyle.Font, 10)
	sans(&p.X.Tick.Label.Font, 10)
	sans(&p.Y.Tick.Label.Font, 9)
	sans(&p.Legend.TextStyle.Font, 10)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = ratioTicks{}
	p.Y.Min, p.Y.Max = lo, hi
	p.Add(plotGrid{})
	labels := p.Y.Tick.Label
	sans(&labels.Font, 7.5)
	bp := &barsPlotter{s: s, ymin: lo, ymax: hi, labels: labels}
	p.Add(bp)
	p.NominalX(s.groups...)
	if len(s.groups) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = vgdraw.XRight
		p.X.Tick.Label.YAlign = vgdraw.YCenter
	}
	for j, name := range s.cols {
		p.Legend.Add(name, swatch{c: chartColours[j%len(chartColours)]})
	}
	hasLimit := false
	for _, l := range s.limit {
		hasLimit = hasLimit || !math.IsNaN(l)
	}
	if hasLimit {
		p.Legend.Add("DRAM limit", swatch{c: color.Black, line: true})
	}
	p.Legend.Top = true
	p.Legend.XOffs = -vg.Points(8)
	p.Legend.Padding = vg.Points(2)
	w := vg.Points(math.Max(420, 60+float64(len(s.groups)*(len(s.cols)*18+22))))
	wt, err := p.WriterTo(w, vg.Points(300), "svg")
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return "", err
	}
	// gonum lays text out with Liberation Sans's metrics: name the fonts
	// that share them (Arimo, Arial) before a generic fallback.
	return strings.ReplaceAll(buf.String(), "font-family:Liberation Sans;", "font-family:Liberation Sans, Arimo, Arial, Helvetica, sans-serif;"), nil
}

// plotGrid draws horizontal grid lines at the ratio ticks.
type plotGrid struct{}

func (plotGrid) Plot(c vgdraw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ls := vgdraw.LineStyle{Color: color.Gray{Y: 0xdd}, Width: vg.Points(0.5)}
	for _, t := range (ratioTicks{}).Ticks(plt.Y.Min, plt.Y.Max) {
		c.StrokeLine2(ls, trX(plt.X.Min), trY(t.Value), trX(plt.X.Max), trY(t.Value))
	}
}
