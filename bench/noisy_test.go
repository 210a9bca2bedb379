package bench

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// TestNoisy: a cell is flagged when its timed calls spread over more
// than NoisySpread of their median, and only an OK cell with two calls
// or more.
func TestNoisy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status Status
		times  []float64 // ms
		spread float64   // -1: none
		noisy  bool
	}{
		{"steady", OK, []float64{10, 10, 10}, 0, false},
		{"within", OK, []float64{9, 10, 11}, 0.2, false},
		{"at the limit", OK, []float64{9, 10, 11.5}, 0.25, false},
		{"above", OK, []float64{9, 10, 12}, 0.3, true},
		{"one outlier", OK, []float64{10, 10, 10, 10, 52}, 4.2, true},
		{"order does not matter", OK, []float64{12, 9, 10}, 0.3, true},
		{"even count", OK, []float64{8, 10, 12, 14}, 6.0 / 11, true},
		{"one call", OK, []float64{10}, -1, false},
		{"no calls", OK, nil, -1, false},
		{"wrong", Wrong, []float64{1, 10, 100}, 9.9, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Cell{Status: tc.status}
			for _, v := range tc.times {
				c.Times = append(c.Times, ms(v))
			}
			c.Median = Median(c.Times)
			sp, ok := c.Spread()
			if ok != (tc.spread >= 0) || ok && math.Abs(sp-tc.spread) > 1e-9 {
				t.Errorf("Spread() = %v, %v; want %v", sp, ok, tc.spread)
			}
			if c.Noisy() != tc.noisy {
				t.Errorf("Noisy() = %v, want %v", c.Noisy(), tc.noisy)
			}
		})
	}
}

// TestNoisyGeomean: a geometric mean over a noisy cell, the column's or
// the baseline's, is marked and warned about; one over steady cells is
// not.
func TestNoisyGeomean(t *testing.T) {
	steady := func(v float64) Cell {
		return Cell{Status: OK, Median: ms(v), Times: []time.Duration{ms(v), ms(v), ms(v)}}
	}
	noisy := func(v float64) Cell {
		return Cell{Status: OK, Median: ms(v), Times: []time.Duration{ms(v / 2), ms(v), ms(v * 2)}}
	}
	for _, tc := range []struct {
		name  string
		rows  [][3]Cell // base, a, b
		noisy [3]int    // GeomeanNoisy per column
		warn  []string  // columns warned about
	}{
		{"steady", [][3]Cell{{steady(10), steady(5), steady(20)}, {steady(10), steady(5), steady(20)}}, [3]int{}, nil},
		{"a noisy cell", [][3]Cell{{steady(10), noisy(5), steady(20)}, {steady(10), steady(5), steady(20)}}, [3]int{0, 1, 0}, []string{"a"}},
		{"a noisy baseline", [][3]Cell{{noisy(10), steady(5), steady(20)}, {steady(10), steady(5), steady(20)}}, [3]int{1, 1, 1}, []string{"base", "a", "b"}},
		{"noisy but out of the mean", [][3]Cell{{steady(10), steady(5), {Status: Crashed}}, {steady(10), steady(5), noisy(20)}}, [3]int{0, 0, 1}, []string{"b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := &Table{Suite: "s", Baseline: "base", Repeat: 3, Columns: []Column{{Name: "base"}, {Name: "a"}, {Name: "b"}}}
			for i, r := range tc.rows {
				tab.Rows = append(tab.Rows, Row{Name: string(rune('p' + i)), Cells: r[:]})
			}
			for j := range tab.Columns {
				if got := tab.GeomeanNoisy(j); got != tc.noisy[j] {
					t.Errorf("GeomeanNoisy(%d) = %d, want %d", j, got, tc.noisy[j])
				}
			}
			var b bytes.Buffer
			if err := WriteText(&b, tab); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			for _, c := range tab.Columns {
				warned := strings.Contains(text, "warning: the geomean of "+c.Name+" rests on")
				want := false
				for _, w := range tc.warn {
					want = want || w == c.Name
				}
				if warned != want {
					t.Errorf("column %s warned %v, want %v:\n%s", c.Name, warned, want, text)
				}
			}
			if marked := strings.Contains(text, "~"); marked != (len(tc.warn) > 0 || tab.Noisy() > 0) {
				t.Errorf("marks %v with %d noisy cells:\n%s", marked, tab.Noisy(), text)
			}
		})
	}
}
