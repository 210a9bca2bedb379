package draw

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// benchJSON writes the JSON of a run with the baseline column "gcc"
// (time 1 s in every row) and the given columns: ratios[r][c] is column
// c's speed-up in row r (0: the cell failed), limits[r] the row's DRAM
// limit speed-up (0: none).
func benchJSON(t *testing.T, cols []string, ratios [][]float64, limits []float64) *Bench {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"suite": "polymage", "threads": 2, "warmup": 10, "repeat": 5, "baseline": "gcc", "allocator": "caching",
"machine": {"cpu": "Test CPU", "cores": 4, "stream_bytes_per_s": 1e10, "date": "2026-01-02T03:04:05Z"},
"columns": [{"name": "gcc", "kind": "peer"}`)
	for _, c := range cols {
		fmt.Fprintf(&b, `, {"name": %q, "kind": "peer"}`, c)
	}
	b.WriteString(`], "rows": [`)
	for r, row := range ratios {
		if r > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"benchmark": "b%d", "size": "64x64", "cells": [{"column": "gcc", "status": "ok", "median_s": 1, "ratio": 1}`, r)
		for c, v := range row {
			if v == 0 {
				fmt.Fprintf(&b, `, {"column": %q, "status": "WRONG", "median_s": 0.5}`, cols[c])
				continue
			}
			fmt.Fprintf(&b, `, {"column": %q, "status": "ok", "median_s": %g, "ratio": %g}`, cols[c], 1/v, v)
		}
		b.WriteString("]")
		if limits[r] > 0 {
			fmt.Fprintf(&b, `, "limit_s": %g`, 1/limits[r])
		}
		b.WriteString("}")
	}
	b.WriteString(`], "geomean": []}`)
	bench, err := ReadBench([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return bench
}

func TestScaleOf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ratios [][]float64
		limits []float64
		want   []limitMark // per group, the geomean's last
	}{
		{"within reach", [][]float64{{2, 4}, {3, 30}}, []float64{8, 60}, []limitMark{limitLine, limitLine, noLimit}},
		// The README's old chart: bars to 36x, limits at 1000x.
		{"far above", [][]float64{{2, 4}, {3, 36}}, []float64{1000, 80}, []limitMark{limitAbove, limitLine, noLimit}},
		// gcc faster than the DRAM floor: the data stays in cache.
		{"far below", [][]float64{{2, 4}, {3, 5}}, []float64{0.01, 0}, []limitMark{limitBelow, noLimit, noLimit}},
		{"one row", [][]float64{{2, 0}}, []float64{5}, []limitMark{limitLine}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols := []string{"x", "y"}
			s := benchJSON(t, cols, tc.ratios, tc.limits).speedups()
			sc := scaleOf(s)
			if diff := cmp.Diff(tc.want, sc.marks); diff != "" {
				t.Errorf("marks (-want +got):\n%s", diff)
			}
			// Every bar and every drawn limit is inside the range, with
			// room above the bars; no marker band without a marker.
			for g, vals := range s.ratio {
				for _, v := range vals {
					if !math.IsNaN(v) && (v <= sc.lo || v*1.2 > sc.markHi) {
						t.Errorf("bar %g outside [%g, %g]", v, sc.lo, sc.markHi)
					}
				}
				if sc.marks[g] == limitLine && (s.limit[g] <= sc.lo || s.limit[g] >= sc.markHi) {
					t.Errorf("limit line %g outside [%g, %g]", s.limit[g], sc.lo, sc.markHi)
				}
				if sc.marks[g] == limitAbove && s.limit[g] < sc.hi {
					t.Errorf("limit %g within the scale (top %g) but marked", s.limit[g], sc.hi)
				}
			}
			if sc.has(limitAbove) != (sc.markHi < sc.hi) || sc.has(limitBelow) != (sc.markLo > sc.lo) {
				t.Errorf("marker bands %g..%g of %g..%g for marks %v", sc.markLo, sc.markHi, sc.lo, sc.hi, sc.marks)
			}
		})
	}
}

// svgPath matches the straight two-point paths of gonum's SVG (in the
// chart's own coordinates: y grows upwards).
var svgPath = regexp.MustCompile(`<path d="M([-0-9.e]+),([-0-9.e]+)L([-0-9.e]+),([-0-9.e]+)" style="([^"]*)"`)

// uprightTexts maps each text of the SVG outside rotated groups to its
// positions, in the chart's coordinates (gonum writes them flipped:
// y = -y').
func uprightTexts(t *testing.T, svg string) map[string][]vg.Point {
	t.Helper()
	out := map[string][]vg.Point{}
	var walk func(e elem)
	walk = func(e elem) {
		if e.XMLName.Local == "g" && strings.Contains(e.attr("transform"), "rotate") {
			return
		}
		if e.XMLName.Local == "text" {
			out[e.Text] = append(out[e.Text], vg.Point{X: svgNum(t, e.attr("x")), Y: -svgNum(t, e.attr("y"))})
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(parseSVG(t, svg))
	return out
}

func inside(r vg.Rectangle, x, y vg.Length) bool {
	const eps = 0.5
	return x >= r.Min.X-eps && x <= r.Max.X+eps && y >= r.Min.Y-eps && y <= r.Max.Y+eps
}

// TestBenchChartLayout checks the drawn SVG against the layout: the
// legend right of the plot (outside its rectangle), every dashed limit
// line inside the data area (the legend's swatch aside), a marker
// instead of a line for a limit off the scale, and the caption within
// the width, naming the machine, the date and the allocator.
func TestBenchChartLayout(t *testing.T) {
	many := []string{"auto", "post", "gcc-serial", "polly", "polly-par", "halide", "halide-app", "halide-auto", "halide-adams", "pluto"}
	for _, tc := range []struct {
		name   string
		b      *Bench
		lines  int // dashed limit lines in the data area
		marker bool
	}{
		{"testdata", readTestBench(t), 1, false},
		{"far limit", benchJSON(t, []string{"none", "post"}, [][]float64{{2, 4}, {3, 36}}, []float64{1000, 80}), 1, true},
		{"ten peers", benchJSON(t, many, [][]float64{{1, 2, 0.5, 3, 2, 4, 4, 1.5, 2, 0}, {2, 3, 0.6, 1, 2, 5, 5, 2, 3, 0}}, []float64{6, 0}), 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := newBenchChart(tc.b)
			svg, err := ch.svg()
			if err != nil {
				t.Fatal(err)
			}
			data := ch.dataRect(vgdraw.New(vgsvg.New(ch.w, ch.h)))
			legend := ch.legendRect(data)
			if legend.Min.X < ch.plotRect.Max.X || legend.Max.X > ch.w {
				t.Errorf("legend %v not between the plot %v and the edge %v", legend, ch.plotRect, ch.w)
			}
			whole := vg.Rectangle{Max: vg.Point{X: ch.w, Y: ch.h}}
			lines := 0
			for _, m := range svgPath.FindAllStringSubmatch(svg, -1) {
				if !strings.Contains(m[5], "stroke-dasharray") {
					continue
				}
				x0, y0, x1, y1 := svgNum(t, m[1]), svgNum(t, m[2]), svgNum(t, m[3]), svgNum(t, m[4])
				switch {
				case inside(data, x0, y0) && inside(data, x1, y1):
					lines++
				case inside(legend, x0, y0) && inside(legend, x1, y1):
				default:
					t.Errorf("a dashed line (%v,%v)-(%v,%v) outside the data area %v and the legend %v", x0, y0, x1, y1, data, legend)
				}
			}
			if lines != tc.lines {
				t.Errorf("%d limit lines, want %d", lines, tc.lines)
			}
			if got := len(ch.bars.limitYs); got != tc.lines {
				t.Errorf("the plotter drew %d limit lines, want %d", got, tc.lines)
			}
			texts := uprightTexts(t, svg)
			for s, ps := range texts {
				for _, p := range ps {
					if !inside(whole, p.X, p.Y) {
						t.Errorf("text %q at %v off the canvas %v", s, p, whole)
					}
				}
			}
			for _, s := range ch.bars.s.cols {
				ps := texts[s]
				if len(ps) != 1 || !inside(legend, ps[0].X, ps[0].Y) || inside(data, ps[0].X, ps[0].Y) {
					t.Errorf("legend entry %q at %v, want one in the legend %v, outside the data %v", s, ps, legend, data)
				}
			}
			hasMarker := len(texts["DRAM limit, off scale"]) == 1
			if hasMarker != tc.marker {
				t.Errorf("legend has the off-scale marker: %v, want %v", hasMarker, tc.marker)
			}
			capt := sansStyle(captionSize)
			for _, line := range ch.caption {
				if capt.Width(line) > ch.w-2*chartPad {
					t.Errorf("caption line wider than the chart: %q", line)
				}
				if len(texts[line]) != 1 || texts[line][0].Y > ch.plotRect.Min.Y {
					t.Errorf("caption line %q at %v, want one below the plot", line, texts[line])
				}
			}
			caption := strings.Join(ch.caption, " ")
			for _, want := range []string{"Machine: ", " cores", "Run: 2 threads", "UTC"} {
				if !strings.Contains(caption, want) {
					t.Errorf("caption lacks %q:\n%s", want, caption)
				}
			}
		})
	}
}

func svgNum(t *testing.T, s string) vg.Length {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return vg.Length(v)
}

// TestBenchChartCaption checks the caption's facts for the test run,
// and for a run whose JSON predates the date.
func TestBenchChartCaption(t *testing.T) {
	b := readTestBench(t)
	got := b.captionParagraphs(b.speedups(), scaleOf(b.speedups()))
	want := []string{
		"Machine: Example CPU @ 2.0GHz, 2 cores, 8.0 GiB; gcc 12.2.0, LLVM 14.0.6; 2026-12-07 13:00 UTC.",
		"Run: 2 threads, median of 3 timed calls after 1 warm-up call per cell, system allocator (the page faults of buffers allocated on every call included), size 64x64.",
		"Marks: dashed line: the speed-up the DRAM limit allows (inputs read and outputs written once at the measured 20.0 GB/s); grey text: a cell with no speed-up, and why.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("caption (-want +got):\n%s", diff)
	}
	b.Machine.Date = ""
	if d := b.date(); d != "date not recorded" {
		t.Errorf("date of an undated run: %q", d)
	}
	far := benchJSON(t, []string{"post"}, [][]float64{{4}}, []float64{1000})
	got = far.captionParagraphs(far.speedups(), scaleOf(far.speedups()))
	if !strings.Contains(got[1], "caching allocator") || !strings.Contains(got[2], "triangle: that limit") || strings.Contains(got[2], "dashed") {
		t.Errorf("caption of a caching run with a far limit:\n%s", strings.Join(got, "\n"))
	}
}

// TestBenchChartGolden keeps the test run's chart as a golden file
// (go test ./draw -update rewrites it): a change of layout shows in the
// diff, and the file can be viewed.
func TestBenchChartGolden(t *testing.T) {
	svg, err := BenchSVG(readTestBench(t))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "bench_chart.svg", svg)
}
