// Package draw makes pictures of what tilefuse computes: the tiles of a
// stage's iteration space with the footprints its fused producers
// recompute (Tiles), schedule trees (TreeSVG, TreeDOT) and benchmark
// results (BenchSVG, BenchHTML).
//
// The tile and tree pictures are hand-written SVG: every element a test
// may count has a class (and data- attributes with its coordinates), and
// everything is computed from the exact presburger sets at fixed
// parameter values, never from formulas. The benchmark chart is drawn by
// gonum.org/v1/plot.
package draw

import (
	"fmt"
	"html"
	"strings"
)

// svg accumulates an SVG document.
type svg struct {
	b strings.Builder
}

func (s *svg) open(w, h float64) {
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">`+"\n",
		num(w), num(h), num(w), num(h))
	fmt.Fprintf(&s.b, `<rect class="background" x="0" y="0" width="%s" height="%s" fill="white"/>`+"\n", num(w), num(h))
}

func (s *svg) close() string {
	s.b.WriteString("</svg>\n")
	return s.b.String()
}

func (s *svg) raw(format string, args ...any) {
	fmt.Fprintf(&s.b, format, args...)
}

// text writes a text element; anchor is start, middle or end.
func (s *svg) text(x, y float64, size float64, anchor, class, str string, extra ...string) {
	attrs := ""
	if len(extra) > 0 {
		attrs = " " + strings.Join(extra, " ")
	}
	fmt.Fprintf(&s.b, `<text class="%s" x="%s" y="%s" font-size="%s" text-anchor="%s"%s>%s</text>`+"\n",
		class, num(x), num(y), num(size), anchor, attrs, esc(str))
}

// num prints a coordinate with at most two decimals.
func num(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func esc(s string) string { return html.EscapeString(s) }

// abbreviate shortens s to at most n runes, with an ellipsis.
func abbreviate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
