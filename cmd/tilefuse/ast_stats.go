package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"text/tabwriter"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
)

// printStats runs n with p's statement bodies in the interpreter on
// deterministic inputs and writes what it executed: per statement the
// instances, loads and stores, the calls of each math function, and the
// tile-local memory, the loads served by the store just before and the
// peak of temporary memory (the counts of seed 002's tutorial).
func printStats(w io.Writer, p *scop.Program, n ast.Node, params map[string]int64, label string) error {
	bufs, err := charness.Inputs(p, params)
	if err != nil {
		return err
	}
	st, err := interp.RunWith(p, n, params, bufs, interp.Options{Forwarding: true})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# %s at %s\n", p.Name, label)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "statement\tinstances\tloads\tstores\toriginal\tratio\t")
	var total struct{ inst, loads, stores, orig int64 }
	arrayLoads, arrayStores := map[string]int64{}, map[string]int64{}
	for _, s := range p.Stmts {
		c := st.Stmts[s.Name]
		orig, err := instances(s, params)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t\n", s.Name, c.Instances, c.Loads, c.Stores, orig, ratio(c.Instances, orig))
		total.inst += c.Instances
		total.loads += c.Loads
		total.stores += c.Stores
		total.orig += orig
		for a, n := range c.ArrayLoads {
			arrayLoads[a] += n
		}
		arrayStores[s.Write.Array] += c.Stores
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%s\t\n", total.inst, total.loads, total.stores, total.orig, ratio(total.inst, total.orig))
	tw.Flush()
	// Per array, and where its accesses went: a tile-local buffer or the
	// array in memory.
	local := map[string]bool{}
	ast.Walk(n, func(x ast.Node) bool {
		if a, ok := x.(*ast.Alloc); ok {
			local[a.Array] = true
		}
		return true
	})
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "array\tloads\tstores\tmemory\t")
	for _, a := range p.Arrays {
		where := "global"
		switch {
		case local[a.Name]:
			where = "tile-local"
		case a.Rank() == 0:
			where = "scalar"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", a.Name, arrayLoads[a.Name], arrayStores[a.Name], where)
	}
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
	if st.Forwarded > 0 {
		fmt.Fprintf(w, "loads served by the store just before: %d (Halide's count of loads: %d)\n", st.Forwarded, st.Loads-st.Forwarded)
	}
	fmt.Fprintf(w, "temporary memory: peak %d bytes\n", st.TempPeakBytes)
	return nil
}

// instances counts a statement's instances at params: its executions in
// the original program.
func instances(s *scop.Stmt, params map[string]int64) (int64, error) {
	d, err := s.Domain.FixParams(params)
	if err != nil {
		return 0, err
	}
	return d.Count()
}

// ratio prints executed / original instances ("-" for none).
func ratio(executed, original int64) string {
	if original == 0 {
		return "-"
	}
	return strconv.FormatFloat(float64(executed)/float64(original), 'f', 3, 64)
}
