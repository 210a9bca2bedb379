package draw

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// chartColours are the columns' bar colours: Okabe and Ito's eight
// (colour-blind safe), then four of Paul Tol's for runs with more
// columns.
var chartColours = []color.RGBA{
	{0x00, 0x72, 0xb2, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0x00, 0x9e, 0x73, 0xff}, {0xcc, 0x79, 0xa7, 0xff},
	{0x56, 0xb4, 0xe9, 0xff}, {0xd5, 0x5e, 0x00, 0xff}, {0xf0, 0xe4, 0x42, 0xff}, {0x99, 0x99, 0x99, 0xff},
	{0x33, 0x22, 0x88, 0xff}, {0x88, 0x22, 0x55, 0xff}, {0x99, 0x99, 0x33, 0xff}, {0x44, 0xaa, 0x99, 0xff},
}

// The chart's fixed sizes, in points.
const (
	chartPad      = 8
	chartTitleH   = 34 // the title and a gap under it
	chartPlotH    = 300
	captionSize   = 8.5
	captionLeadH  = 11.5
	legendGap     = 14
	markerSize    = 7
	barSlotPoints = 18
	yLabelW       = 16
)

var (
	limitStyle = vgdraw.LineStyle{Color: color.Black, Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
	statusGrey = color.Gray{Y: 0x60}
)

// sans sets a font to Liberation Sans, whose metrics gonum lays text out
// with.
func sans(f *font.Font, size float64) {
	f.Typeface, f.Variant, f.Size = "Liberation", "Sans", font.Length(size)
}

func sansStyle(size float64) text.Style {
	sty := text.Style{Color: color.Black, Handler: plot.DefaultTextHandler}
	sans(&sty.Font, size)
	return sty
}

// benchChart is the laid-out chart of a run: the title across the top,
// the plot (axes and bars) on the left, the legend to its right, outside
// the plot, and the caption (machine, date, how the run was made, what
// the marks mean) across the bottom.
type benchChart struct {
	w, h     vg.Length
	title    string
	plot     *plot.Plot
	bars     *barsPlotter
	plotRect vg.Rectangle // where the plot (axes and data area) is drawn
	legend   plot.Legend
	legendW  vg.Length
	caption  []string // its lines, wrapped to the width
	yLabel   string   // the vertical axis's label, left of the plot
}

// newBenchChart lays a run's chart out.
func newBenchChart(b *Bench) *benchChart {
	s := b.speedups()
	sc := scaleOf(s)
	ch := &benchChart{title: fmt.Sprintf("%s: speed-up over %s (log scale)", b.Suite, b.Baseline)}
	if b.Dataset != "" {
		ch.title = fmt.Sprintf("%s %s: speed-up over %s (log scale)", b.Suite, b.Dataset, b.Baseline)
	}
	p := plot.New()
	// The axis label is drawn beside the plot (benchChart.draw): gonum
	// pads the data area for a rotated label as if it stood upright.
	ch.yLabel = "speed-up (" + b.Baseline + "'s time / time)"
	sans(&p.X.Tick.Label.Font, 10)
	sans(&p.Y.Tick.Label.Font, 9)
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = ratioTicks{}
	p.Y.Min, p.Y.Max = sc.lo, sc.hi
	p.Add(plotGrid{})
	labels := p.Y.Tick.Label
	sans(&labels.Font, 7.5)
	ch.bars = &barsPlotter{s: s, sc: sc, labels: labels}
	p.Add(ch.bars)
	p.NominalX(s.groups...)
	if len(s.groups) > 6 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = vgdraw.XRight
		p.X.Tick.Label.YAlign = vgdraw.YCenter
	}
	ch.plot = p

	ch.legend = plot.NewLegend()
	sans(&ch.legend.TextStyle.Font, 10)
	ch.legend.Left, ch.legend.Top = true, true
	ch.legend.Padding = vg.Points(3)
	ch.legend.ThumbnailWidth = vg.Points(16)
	for j, name := range s.cols {
		ch.legend.Add(name, swatch{c: chartColours[j%len(chartColours)]})
	}
	if sc.has(limitLine) {
		ch.legend.Add("DRAM limit", swatch{c: color.Black, line: true})
	}
	if sc.has(limitAbove) || sc.has(limitBelow) {
		ch.legend.Add("DRAM limit, off scale", swatch{c: color.Black, marker: true})
	}
	ch.legendW = ch.legend.Rectangle(vgdraw.Canvas{}).Size().X

	plotW := vg.Points(math.Max(420, 60+float64(len(s.groups)*(len(s.cols)*barSlotPoints+22))))
	ch.w = yLabelW + plotW + legendGap + ch.legendW + chartPad
	ch.caption = wrapText(sansStyle(captionSize), b.captionParagraphs(s, sc), ch.w-2*chartPad)
	captionH := vg.Length(len(ch.caption))*captionLeadH + chartPad
	ch.h = chartTitleH + chartPlotH + captionH
	ch.plotRect = vg.Rectangle{Min: vg.Point{X: yLabelW, Y: captionH}, Max: vg.Point{X: yLabelW + plotW, Y: ch.h - chartTitleH}}
	return ch
}

// has says whether some group's limit is shown as m.
func (sc chartScale) has(m limitMark) bool {
	for _, x := range sc.marks {
		if x == m {
			return true
		}
	}
	return false
}

// dataRect is the plot's data area on a canvas of the chart's size.
func (ch *benchChart) dataRect(c vgdraw.Canvas) vg.Rectangle {
	return ch.plot.DataCanvas(vgdraw.Canvas{Canvas: c.Canvas, Rectangle: ch.plotRect}).Rectangle
}

// legendRect is where the legend goes: right of the plot, its top at
// the data area's.
func (ch *benchChart) legendRect(data vg.Rectangle) vg.Rectangle {
	x := ch.plotRect.Max.X + legendGap
	return vg.Rectangle{Min: vg.Point{X: x, Y: data.Min.Y}, Max: vg.Point{X: x + ch.legendW, Y: data.Max.Y}}
}

// draw draws the chart on a canvas of its size.
func (ch *benchChart) draw(c vgdraw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	title := sansStyle(13)
	title.XAlign, title.YAlign = vgdraw.XCenter, vgdraw.YTop
	c.FillText(title, vg.Point{X: ch.w / 2, Y: ch.h - chartPad}, ch.title)

	ch.plot.Draw(vgdraw.Canvas{Canvas: c.Canvas, Rectangle: ch.plotRect})
	data := ch.dataRect(c)
	ch.legend.Draw(vgdraw.Canvas{Canvas: c.Canvas, Rectangle: ch.legendRect(data)})
	yl := sansStyle(10)
	yl.Rotation, yl.XAlign, yl.YAlign = math.Pi/2, vgdraw.XCenter, vgdraw.YTop
	c.FillText(yl, vg.Point{X: chartPad / 2, Y: (data.Min.Y + data.Max.Y) / 2}, ch.yLabel)

	cap := sansStyle(captionSize)
	cap.Color = color.Gray{Y: 0x30}
	cap.YAlign = vgdraw.YTop
	y := ch.plotRect.Min.Y - 2
	for _, line := range ch.caption {
		c.FillText(cap, vg.Point{X: chartPad, Y: y}, line)
		y -= captionLeadH
	}
}

// svg writes the chart as SVG.
func (ch *benchChart) svg() (string, error) {
	canvas := vgsvg.New(ch.w, ch.h)
	ch.draw(vgdraw.New(canvas))
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return "", err
	}
	// gonum lays text out with Liberation Sans's metrics: name the fonts
	// that share them (Arimo, Arial) before a generic fallback.
	return strings.ReplaceAll(buf.String(), "font-family:Liberation Sans;", "font-family:Liberation Sans, Arimo, Arial, Helvetica, sans-serif;"), nil
}

// BenchSVG charts a benchmark run (bench's JSON): for each benchmark
// and the geometric mean, one bar per column (the baseline's left out)
// from 1 to its speed-up over the baseline, on a log scale; the speed-up
// the DRAM limit allows (the compulsory bytes at the measured streaming
// bandwidth) as a dashed line where it is within reach of the bars'
// scale, and as a marker with its value at the chart's edge where it is
// not; the legend right of the plot; and a caption with the machine,
// the date and how the run was made. The chart is drawn with
// gonum.org/v1/plot.
func BenchSVG(b *Bench) (string, error) {
	return newBenchChart(b).svg()
}

// captionParagraphs says what the chart shows and how it was measured:
// the machine and the date; the run's threads, calls, allocator and
// sizes; and what the chart's marks mean, each where the chart has one.
func (b *Bench) captionParagraphs(s speedups, sc chartScale) []string {
	var paras []string
	host := "machine not recorded"
	if m := b.Machine; m != nil {
		cpu := m.CPU
		if cpu == "" {
			cpu = "unknown CPU"
		}
		host = fmt.Sprintf("%s, %d %s", cpu, m.Cores, pluralS(m.Cores, "core", "cores"))
		if m.Memory > 0 {
			host += fmt.Sprintf(", %.1f GiB", float64(m.Memory)/(1<<30))
		}
		var tools []string
		for _, t := range []struct{ name, v string }{{"gcc ", m.GCC}, {"LLVM ", m.LLVM}, {"clang ", m.Clang}} {
			if t.v != "" {
				tools = append(tools, t.name+t.v)
			}
		}
		if len(tools) > 0 {
			host += "; " + strings.Join(tools, ", ")
		}
	}
	paras = append(paras, "Machine: "+host+"; "+b.date()+".")

	run := fmt.Sprintf("%d %s, median of %d timed %s after %d warm-up %s per cell",
		b.Threads, pluralS(b.Threads, "thread", "threads"), b.Repeat, pluralS(b.Repeat, "call", "calls"), b.Warmup, pluralS(b.Warmup, "call", "calls"))
	if b.Allocator != "" {
		run += fmt.Sprintf(", %s allocator (freed large blocks reused: buffers allocated on every call fault their pages once)", b.Allocator)
	} else {
		run += ", system allocator (the page faults of buffers allocated on every call included)"
	}
	if size := b.commonSize(); size != "" {
		run += ", size " + size
	}
	paras = append(paras, "Run: "+run+".")

	var marks []string
	if sc.has(limitLine) {
		marks = append(marks, "dashed line: the speed-up the DRAM limit allows (inputs read and outputs written once"+b.bandwidth()+")")
	}
	if sc.has(limitAbove) || sc.has(limitBelow) {
		marks = append(marks, fmt.Sprintf("triangle: that limit, more than %g times beyond the bars, with its value", limitReach))
	}
	noisy, missing := false, false
	for g := range s.groups {
		for j := range s.cols {
			noisy = noisy || s.noisy[g][j]
			missing = missing || s.status[g][j] != ""
		}
	}
	if noisy {
		marks = append(marks, "~: a noisy time (its timed calls spread widely), or a mean resting on one")
	}
	if missing {
		marks = append(marks, "grey text: a cell with no speed-up, and why")
	}
	if len(marks) > 0 {
		paras = append(paras, "Marks: "+strings.Join(marks, "; ")+".")
	}
	return paras
}

// date is the run's date for the caption.
func (b *Bench) date() string {
	if b.Machine == nil || b.Machine.Date == "" {
		return "date not recorded"
	}
	d, err := time.Parse(time.RFC3339, b.Machine.Date)
	if err != nil {
		return b.Machine.Date
	}
	return d.UTC().Format("2006-01-02 15:04 UTC")
}

func (b *Bench) bandwidth() string {
	if b.Machine == nil || b.Machine.Bandwidth <= 0 {
		return ""
	}
	return fmt.Sprintf(" at the measured %.1f GB/s", b.Machine.Bandwidth/1e9)
}

// commonSize is the size every row shares, or "".
func (b *Bench) commonSize() string {
	if len(b.Rows) == 0 {
		return ""
	}
	for _, r := range b.Rows[1:] {
		if r.Size != b.Rows[0].Size {
			return ""
		}
	}
	return b.Rows[0].Size
}

// wrapText breaks paragraphs into lines no wider than w in sty, at
// spaces (a word wider than w gets a line of its own).
func wrapText(sty text.Style, paras []string, w vg.Length) []string {
	var lines []string
	for _, p := range paras {
		line := ""
		for _, word := range strings.Fields(p) {
			next := word
			if line != "" {
				next = line + " " + word
			}
			if line != "" && sty.Width(next) > w {
				lines = append(lines, line)
				next = word
			}
			line = next
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// barsPlotter draws bars from 1 (the baseline) to each ratio, on the
// plot's (log) scale, the baseline line, the limits and the ratios as
// labels; a cell with no ratio gets its status in grey.
type barsPlotter struct {
	s      speedups
	sc     chartScale
	labels vgdraw.TextStyle
	// limitYs records the heights the limit lines were drawn at (for
	// the tests).
	limitYs []vg.Length
}

const groupWidth = 0.8

func (bp *barsPlotter) barX(g, c int) (float64, float64) {
	w := groupWidth / float64(len(bp.s.cols))
	x0 := float64(g) - groupWidth/2 + float64(c)*w
	return x0, x0 + w
}

func (bp *barsPlotter) Plot(c vgdraw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	bp.limitYs = nil
	vertical := func(xalign vgdraw.XAlignment) vgdraw.TextStyle {
		sty := bp.labels
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = xalign, vgdraw.YCenter
		return sty
	}
	if n := len(bp.s.groups); n > 1 && bp.s.groups[n-1] == "geomean" {
		// The mean is not a benchmark: a rule sets it apart.
		sep := vgdraw.LineStyle{Color: color.Gray{Y: 0xaa}, Width: vg.Points(0.6)}
		c.StrokeLine2(sep, trX(float64(n)-1.5), c.Min.Y, trX(float64(n)-1.5), c.Max.Y)
	}
	// The bars, then the limits, then the labels on white, so that a
	// limit line crossing a label leaves it readable.
	for g, vals := range bp.s.ratio {
		for j, v := range vals {
			if math.IsNaN(v) {
				continue
			}
			x0, x1 := bp.barX(g, j)
			y0, y1 := trY(1), trY(v)
			pts := []vg.Point{{X: trX(x0), Y: y0}, {X: trX(x1), Y: y0}, {X: trX(x1), Y: y1}, {X: trX(x0), Y: y1}}
			c.FillPolygon(chartColours[j%len(chartColours)], pts)
		}
	}
	for g := range bp.s.groups {
		x0, _ := bp.barX(g, 0)
		_, x1 := bp.barX(g, len(bp.s.cols)-1)
		lim := bp.s.limit[g]
		switch bp.sc.marks[g] {
		case limitLine:
			y := trY(lim)
			c.StrokeLine2(limitStyle, trX(x0-0.04), y, trX(x1+0.04), y)
			bp.limitYs = append(bp.limitYs, y)
		case limitAbove, limitBelow:
			bp.marker(c, trX(float64(g)), bp.sc.marks[g] == limitAbove, lim)
		}
	}
	for g, vals := range bp.s.ratio {
		for j, v := range vals {
			x0, x1 := bp.barX(g, j)
			mid := trX((x0 + x1) / 2)
			if math.IsNaN(v) {
				if st := bp.s.status[g][j]; st != "" {
					sty := vertical(vgdraw.XLeft)
					sty.Color = statusGrey
					onWhite(c, sty, vg.Point{X: mid, Y: trY(1) + vg.Points(2)}, st, true)
				}
				continue
			}
			// Vertical labels, so that narrow bars keep them apart.
			sty, off, up := vertical(vgdraw.XLeft), vg.Points(2), true
			if v < 1 {
				sty.XAlign, off, up = vgdraw.XRight, -off, false
			}
			label := ratioText(v)
			if bp.s.noisy[g][j] {
				label = "~" + label
			}
			onWhite(c, sty, vg.Point{X: mid, Y: trY(v) + off}, label, up)
		}
	}
	base := vgdraw.LineStyle{Color: color.Gray{Y: 0x40}, Width: vg.Points(0.8)}
	c.StrokeLine2(base, trX(-0.5), trY(1), trX(float64(len(bp.s.groups))-0.5), trY(1))
}

// onWhite draws a vertical label from at upwards (or downwards) on a
// white box.
func onWhite(c vgdraw.Canvas, sty vgdraw.TextStyle, at vg.Point, label string, up bool) {
	w, h := sty.Width(label), sty.Height(label)
	y0, y1 := at.Y, at.Y+w
	if !up {
		y0, y1 = at.Y-w, at.Y
	}
	c.FillPolygon(color.White, []vg.Point{{X: at.X - h/2, Y: y0}, {X: at.X + h/2, Y: y0}, {X: at.X + h/2, Y: y1}, {X: at.X - h/2, Y: y1}})
	c.FillText(sty, at, label)
}

// marker draws a limit off the scale: a triangle at the chart's top (up)
// or bottom edge pointing the limit's way, in the band scaleOf left for
// it, its value next to it.
func (bp *barsPlotter) marker(c vgdraw.Canvas, x vg.Length, up bool, lim float64) {
	sty := bp.labels
	sty.XAlign = vgdraw.XCenter
	h, w := vg.Points(markerSize), vg.Points(markerSize)/2
	if up {
		tip := c.Max.Y - vg.Points(2)
		c.FillPolygon(color.Black, []vg.Point{{X: x, Y: tip}, {X: x - w, Y: tip - h}, {X: x + w, Y: tip - h}})
		sty.YAlign = vgdraw.YTop
		c.FillText(sty, vg.Point{X: x, Y: tip - h - vg.Points(1.5)}, ratioText(lim))
		return
	}
	tip := c.Min.Y + vg.Points(2)
	c.FillPolygon(color.Black, []vg.Point{{X: x, Y: tip}, {X: x - w, Y: tip + h}, {X: x + w, Y: tip + h}})
	sty.YAlign = vgdraw.YBottom
	c.FillText(sty, vg.Point{X: x, Y: tip + h + vg.Points(1.5)}, ratioText(lim))
}

func (bp *barsPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(bp.s.groups)) - 0.5, bp.sc.lo, bp.sc.hi
}

// swatch is a legend entry: a filled square, a dashed line or a marker
// triangle.
type swatch struct {
	c            color.Color
	line, marker bool
}

func (s swatch) Thumbnail(c *vgdraw.Canvas) {
	switch {
	case s.line:
		y := (c.Min.Y + c.Max.Y) / 2
		c.StrokeLine2(limitStyle, c.Min.X, y, c.Max.X, y)
	case s.marker:
		x, w := (c.Min.X+c.Max.X)/2, vg.Points(markerSize)/2
		c.FillPolygon(s.c, []vg.Point{{X: x, Y: c.Max.Y}, {X: x - w, Y: c.Max.Y - vg.Points(markerSize)}, {X: x + w, Y: c.Max.Y - vg.Points(markerSize)}})
	default:
		c.FillPolygon(s.c, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	}
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

// plotGrid draws horizontal grid lines at the ratio ticks.
type plotGrid struct{}

func (plotGrid) Plot(c vgdraw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ls := vgdraw.LineStyle{Color: color.Gray{Y: 0xdd}, Width: vg.Points(0.5)}
	for _, t := range (ratioTicks{}).Ticks(plt.Y.Min, plt.Y.Max) {
		c.StrokeLine2(ls, trX(plt.X.Min), trY(t.Value), trX(plt.X.Max), trY(t.Value))
	}
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
