package main

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"tilefuse/ast"
	"tilefuse/ast/interp"
	"tilefuse/scop"
	"tilefuse/scop/charness"
)

// printStats runs n with p's statement bodies in the interpreter on
// deterministic inputs and writes what it executed: per statement the
// instances, loads and stores, the calls of each math function, and the
// tile-local memory (the counts of seed 002's tutorial).
func printStats(w io.Writer, p *scop.Program, n ast.Node, params map[string]int64, label string) error {
	bufs, err := charness.Inputs(p, params)
	if err != nil {
		return err
	}
	st, err := interp.Run(p, n, params, bufs)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# %s at %s\n", p.Name, label)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "statement\tinstances\tloads\tstores\t")
	var total struct{ inst, loads, stores int64 }
	for _, s := range p.Stmts {
		c := st.Stmts[s.Name]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", s.Name, c.Instances, c.Loads, c.Stores)
		total.inst += c.Instances
		total.loads += c.Loads
		total.stores += c.Stores
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t\n", total.inst, total.loads, total.stores)
	tw.Flush()
	fns := make([]string, 0, len(st.Calls))
	for f := range st.Calls {
		fns = append(fns, f)
	}
	sort.Strings(fns)
	for _, f := range fns {
		fmt.Fprintf(w, "calls to %s: %d\n", f, st.Calls[f])
	}
	fmt.Fprintf(w, "tile-local buffers: %d allocated, %d bytes in all, peak %d bytes\n", st.Allocs, st.AllocBytes, st.PeakLocalBytes)
	return nil
}
