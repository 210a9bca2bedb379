package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/tilefuse/tilefuse/bench"
	"github.com/tilefuse/tilefuse/draw"
)

const plotHelp = `
Charts the JSON of a benchmark run ('tilefuse bench --format json', or
its --json FILE): for each benchmark and the geometric mean, a bar per
column from 1 to its speed-up over the run's baseline column, on a log
scale, with the speed-up the DRAM limit allows (the inputs read and the
outputs written once at the measured streaming bandwidth) as a dashed
line where the run measured it. The chart is drawn with gonum's plot
package. --format svg (default) writes the chart; html writes one
self-contained page: the chart inline, the machine, the columns and the
table of times and speed-ups ('tilefuse bench --html FILE' writes the
same page after a run).
`

func runPlot(e *env, args []string) int {
	cmd := lookup("plot")
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	out := fs.String("o", "", "the output file (default: standard output)")
	format := fs.String("format", "svg", "svg or html")
	pos, err := parseInterspersed(fs, e, cmd, plotHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse plot: "+format+"\n", args...)
		return exitUsage
	}
	if len(pos) != 1 {
		return fail("want one BENCH.json; usage: tilefuse plot %s", cmd.args)
	}
	if *format != "svg" && *format != "html" {
		return fail("unknown format %q (svg or html)", *format)
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return fail("%v", fileError(err))
	}
	b, err := draw.ReadBench(data)
	if err != nil {
		return fail("%s: %v", pos[0], err)
	}
	var page string
	if *format == "html" {
		page, err = draw.BenchHTML(b)
	} else {
		page, err = draw.BenchSVG(b)
	}
	if err != nil {
		return fail("%v", err)
	}
	if *out == "" {
		fmt.Fprint(e.stdout, page)
		return exitOK
	}
	if err := writeWhole(*out, []byte(page)); err != nil {
		return fail("%v", fileError(err))
	}
	return exitOK
}

// writeBenchHTML writes the page of 'plot --format html' for a run.
func writeBenchHTML(name string, t *bench.Table) error {
	var buf bytes.Buffer
	if err := bench.WriteJSON(&buf, t); err != nil {
		return err
	}
	b, err := draw.ReadBench(buf.Bytes())
	if err != nil {
		return err
	}
	page, err := draw.BenchHTML(b)
	if err != nil {
		return err
	}
	return fileError(writeWhole(name, []byte(page)))
}
