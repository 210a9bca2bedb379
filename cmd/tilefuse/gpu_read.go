package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"
)

func gpuReadCmd(e *env, cmd *command, args []string) int {
	fs := flag.NewFlagSet("gpu read", flag.ContinueOnError)
	pos, err := parseInterspersed(fs, e, cmd, gpuHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	if len(pos) != 1 {
		fmt.Fprintf(e.stderr, "tilefuse gpu read: want one ARCHIVE; usage: tilefuse gpu %s\n", cmd.args)
		return exitUsage
	}
	m, r, err := readGPUArchive(pos[0])
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse gpu read: %v\n", err)
		return exitUsage
	}
	if equal, all := writeGPUTable(e.stdout, m, r); equal < all {
		return exitCheck
	}
	return exitOK
}

// writeGPUTable prints the verified table of a run and returns how many
// binaries computed the reference's output bit for bit, of how many.
func writeGPUTable(w io.Writer, m *gpuManifest, r *gpuResults) (equal, all int) {
	byBin := map[string]gpuResult{}
	for _, res := range r.Results {
		byBin[res.Bin] = res
	}
	fmt.Fprintf(w, "target %s, strategy %s, built %s; run %s on %s\n", m.Target, m.Strategy, m.Built, r.Date, r.Machine)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program\tsize\tresult\tfirst call\tsteady\tcalls\treference")
	var failures []string
	for _, ent := range m.Entries {
		all++
		res, ok := byBin[ent.Bin]
		result, first, steady, calls := "not run", "-", "-", "-"
		switch {
		case !ok:
		case res.Status == "ok" && res.Got == ent.Want:
			result = "equal"
			equal++
		case res.Status == "ok":
			result = "DIFFERS"
			if len(ent.Math) > 0 {
				result += " (math)"
			}
		case res.Status == "failed":
			result = "FAILED"
			failures = append(failures, fmt.Sprintf("%s %s: %s", ent.Source, ent.Size, res.Err))
		}
		if ok && len(res.Times) > 0 {
			first = gpuMillis(res.Times[0])
			calls = fmt.Sprint(len(res.Times))
			if len(res.Times) > 1 {
				steady = gpuMillis(medianNanos(res.Times[1:]))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ent.Source, ent.Size, result, first, steady, calls, ent.Reference)
	}
	tw.Flush()
	fmt.Fprintf(w, "%d of %d equal to the reference bit for bit\n", equal, all)
	fmt.Fprintln(w, "first call: loads the driver, the context and the module; steady: the median of the other calls; each call copies the arrays in and out (transfers and kernels are not timed apart)")
	if slices.ContainsFunc(m.Entries, func(e gpuEntry) bool { return len(e.Math) > 0 }) {
		fmt.Fprintln(w, "(math): the kernels call math functions, whose GPU results need not equal glibc's")
	}
	for _, f := range failures {
		fmt.Fprintf(w, "failed: %s\n", f)
	}
	return equal, all
}

func medianNanos(ns []int64) int64 {
	s := slices.Clone(ns)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func gpuMillis(ns int64) string {
	return fmt.Sprintf("%.3f ms", float64(ns)/float64(time.Millisecond))
}
