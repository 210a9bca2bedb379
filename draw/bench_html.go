package draw

import (
	"fmt"
	"strconv"
	"strings"
)

// seconds prints a time with three significant digits in a unit that
// keeps it at least 1.
func seconds(s float64) string {
	for _, u := range []struct {
		name string
		size float64
	}{{"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}} {
		if s >= u.size {
			return strconv.FormatFloat(s/u.size, 'g', 3, 64) + " " + u.name
		}
	}
	return strconv.FormatFloat(s*1e9, 'f', 0, 64) + " ns"
}

// BenchHTML is one self-contained page for a benchmark run: the chart
// (BenchSVG, the same layout as 'tilefuse plot' draws) inline, the
// machine and date, the columns and the table of median times with
// speed-ups.
func BenchHTML(b *Bench) (string, error) {
	chart, err := BenchSVG(b)
	if err != nil {
		return "", err
	}
	if i := strings.Index(chart, "<svg"); i > 0 {
		chart = chart[i:] // no XML declaration inside HTML
	}
	var h strings.Builder
	title := "tilefuse bench " + b.Suite
	if b.Dataset != "" {
		title += " " + b.Dataset
	}
	fmt.Fprintf(&h, `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<title>%s</title>
<style>
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f0f0f0; }
td.name, th.name { text-align: left; }
td.bad { color: #b00; }
td.noisy { color: #777; }
.machine { color: #555; }
figure { margin: 1em 0; }
</style>
</head>
<body>
<h1>%s</h1>
`, esc(title), esc(title))
	alloc := "the system allocator"
	if b.Allocator != "" {
		alloc = "the " + b.Allocator + " allocator"
	}
	fmt.Fprintf(&h, "<p class=\"machine\">%s; %s<br/>%d threads, %d warm-up and %d timed %s per cell, %s; speed-ups are the %s column's time over each column's.</p>\n",
		esc(b.Machine.String()), esc(b.date()), b.Threads, b.Warmup, b.Repeat, pluralS(b.Repeat, "call", "calls"), esc(alloc), esc(b.Baseline))
	fmt.Fprintf(&h, "<figure>\n%s</figure>\n", chart)
	h.WriteString("<h2>Columns</h2>\n<ul>\n")
	for _, c := range b.Columns {
		fmt.Fprintf(&h, "<li><b>%s</b> (%s): %s</li>\n", esc(c.Name), esc(c.Kind), esc(c.Description))
	}
	h.WriteString("</ul>\n<h2>Table</h2>\n<table>\n<tr><th class=\"name\">benchmark</th><th class=\"name\">size</th>")
	for _, c := range b.Columns {
		fmt.Fprintf(&h, "<th>%s</th>", esc(c.Name))
	}
	h.WriteString("<th>DRAM limit</th></tr>\n")
	for _, r := range b.Rows {
		fmt.Fprintf(&h, "<tr><td class=\"name\">%s</td><td class=\"name\">%s</td>", esc(r.Benchmark), esc(r.Size))
		for _, col := range b.Columns {
			cellText, class := "", ""
			for _, c := range r.Cells {
				if c.Column != col.Name {
					continue
				}
				switch {
				case c.Status == "ok" && c.Median != nil:
					cellText = seconds(*c.Median)
					if c.Ratio != nil {
						cellText += " (" + strconv.FormatFloat(*c.Ratio, 'g', 3, 64) + "×)"
					}
					if c.Noisy {
						cellText, class = "~"+cellText, "noisy"
					}
				default:
					cellText, class = c.Status, "bad"
				}
				if c.Error != "" {
					cellText = fmt.Sprintf(`<span title="%s">%s</span>`, esc(c.Error), esc(cellText))
				} else {
					cellText = esc(cellText)
				}
			}
			if class != "" {
				fmt.Fprintf(&h, "<td class=\"%s\">%s</td>", class, cellText)
			} else {
				fmt.Fprintf(&h, "<td>%s</td>", cellText)
			}
		}
		lim := ""
		if r.Limit != nil {
			lim = seconds(*r.Limit)
		}
		fmt.Fprintf(&h, "<td>%s</td></tr>\n", lim)
	}
	h.WriteString("<tr><td class=\"name\"><b>geomean</b></td><td></td>")
	for _, col := range b.Columns {
		text := ""
		for _, g := range b.Geomean {
			if g.Column == col.Name && g.Ratio != nil {
				text = fmt.Sprintf("%s× (%d)", strconv.FormatFloat(*g.Ratio, 'g', 3, 64), g.Count)
			}
		}
		fmt.Fprintf(&h, "<td>%s</td>", esc(text))
	}
	h.WriteString("<td></td></tr>\n</table>\n</body>\n</html>\n")
	return h.String(), nil
}

func pluralS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
