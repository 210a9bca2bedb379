package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/bench"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
)

const benchHelp = `
Runs a benchmark suite, polybench (the 30 PolyBench/C kernels) or polymage
(the PolyMage pipelines), under tilefuse's fusion strategies and under peer
compilers, checks every run against the reference and prints a table of
median times and speed-ups.

Columns. --strategies auto,none,min,smart,max,post (the default) are tilefuse's
columns: each benchmark is compiled as 'tilefuse compile --fuse S
--parallel [--tile T,...]' would (in this process, through the compiler
package; --timeout stops a compilation cleanly) and built with opt and
llc. --tile tuned gives the post column the sizes 'tilefuse tune' saved
for each benchmark on --threads threads (the defaults, with a note, for
one not tuned). --peers gcc,gcc-serial,polly,polly-par
(the default) compile the naive C of the original schedule, with #pragma
omp parallel for on its parallel outer loops: gcc is gcc -O3 -march=native
-fopenmp; gcc-serial the same binary on one thread; polly clang-14 -O3
-march=native -mllvm -polly (Polly's defaults: serial, with its
matrix-multiplication pattern); polly-par the same with -mllvm
-polly-parallel -mllvm -polly-pattern-matching-based-opts=false, linked
with libgomp ("not installed" without clang-14). With both Polly columns
the table adds best-polly, the faster verified of the two per row
(--baseline best-polly gives ratios against it). The peers also get -ffp-contract=off, so
that they compute what tilefuse's code and the reference compute, bit for
bit: --fp-contract drops it and lets them fuse multiplies and adds into
FMA instructions, which changes the last bits of results (and an integer
made from a float by one), so their checks then allow the relative error
--tol (default 1e-4 then, 0 otherwise).

Halide. The peers halide, halide-app, halide-auto, halide-adams and halide-li (named
in --peers, not run by default) build a PolyMage pipeline from a Halide generator written for it
in this repository (bench/halide/src: the same algorithm, sizes, element
types, borders and layout as tilefuse's port), compiled with Halide 14
for the host CPU with strict_float (no reassociation, no FMAs; dropped
with --fp-contract) and called through a wrapper with the pipeline's C
signature, on --threads threads: halide is the expert manual schedule
(Halide's published app schedule where one exists), halide-auto the
Mullapudi2016 autoscheduler, halide-adams Adams2019 (its built-in weights)
and halide-li Li2018, each given the run's sizes and --threads as its
parallelism. The target is derived from the CPU's flags (/proc/cpuinfo),
keeping only the features whose instructions the CPU has: Halide 14's
own host target names avx512_sapphirerapids on AMD Zen 4, whose code
then stops with an illegal instruction. A Halide pipeline that fails its
own checks or crashes is reported as that cell's failure, with the
reason, and the run goes on. Generators and
pipelines are cached in the user's cache directory (tilefuse/halide), so
only a run with a new generator or size pays their build. A pipeline
without a generator shows "no generator"; without Halide (apt-get install
libhalide14-0-dev g++) the columns show "not installed".

halide-app checks the halide column: --halide-src DIR names a Halide v14
source tree (git clone https://github.com/halide/Halide; git checkout
v14.0.0; the apps/ directory is what is read), and the column builds
each app's own generator (apps/camera_pipe, interpolate, harris,
unsharp, bilateral_grid, local_laplacian), unchanged, with its own
schedule and the derived target, and calls it through a wrapper with
the pipeline's C signature at the run's sizes. Its cells are timed
only: the apps' algorithms differ from the ports' (constants, borders,
rounding; bench/halide/README.md lists how), so their arrays cannot
equal the reference. Without --halide-src the column is skipped as not
installed.

Sizes. --dataset MINI|SMALL|MEDIUM|LARGE|EXTRALARGE picks PolyBench's
dataset (default LARGE, PolyBench's own default and the size papers
report; MINI or SMALL for a quick look; EXTRALARGE overruns the arrays
the sources declare and is refused row by row). For polymage, --size
default (PolyMage's benchmark sizes, the default), small (each pipeline's
small test size), WxH (an image W columns wide and H rows high: C=W,
R=H) or NAME=V,... (parameter values for every pipeline).

Runs. Each benchmark's columns are built first, then run in --repeat
rounds (default 5): each round runs every column in turn, starting one
column later than the round before, each in a process of its own that calls the function --warmup times untimed
(default 10; fewer once the untimed calls have taken a second) and once
timed, so that a change in the machine's load falls on all columns
alike. The warm-up is several calls because on VMs a page stays slow for
its first passes after it is touched: blur's calls take 3-10 ms, then
2, then 1.5 ms and reach their steady 1.1 ms after about ten, a cost a
long-running program does not pay. A cell shows the median of its timed calls; one
whose calls spread over more than 25% of their median ((max - min) /
median) is marked ~ as noisy, and so is a geomean that rests on such
cells, with a warning under the table. --threads sets OMP_NUM_THREADS
(default: every core; gcc-serial runs on one). --timeout bounds each
compilation, each cell's build, each of its runs and each benchmark's
reference (default 10m; 0 for none).

Checks. Every run is checked against the reference (the reference
executor for small runs, the naive C built with cc -O2 otherwise),
computed once per benchmark: tilefuse's columns bit for bit, the peers
within the relative tolerance --tol. A wrong result shows as WRONG in its
cell, a failed build as "build failed", a crash, timeout or other failure
as such, each with its reason in a note under the table.

Allocation. --alloc caching runs every column, peers included, with
tilefuse's caching allocator preloaded (LD_PRELOAD; bench/shim/cachealloc.c):
large blocks a program frees are handed out again, so that code which
allocates whole-image buffers on every call pays their first-touch page
faults once; the default, system, is what users get.

Limit. Before the run, bench measures the streaming bandwidth with every
thread (a scale kernel over 256 MiB arrays, best of ten passes;
bench/shim/stream.c) and prints a limit column: the bytes of each
benchmark's inputs read once and outputs written once at that bandwidth,
the floor of a memory-bound program. --limit=false skips the measurement
and the column (a few seconds, mostly first-touched pages).

Output. --format table (default), csv (one line per cell, then the
geometric means; times in seconds) or json (everything, with the
machine: CPU model, cores, memory, Go, LLVM, gcc and clang versions);
--json FILE also writes the JSON to FILE, whatever the format; --html
FILE writes one self-contained page: the speed-up chart of 'tilefuse
plot' (inline SVG), the machine and the table.
The ratio of a cell is the --baseline column's time over the cell's
(above 1: faster than the baseline; default gcc, or the first column when
gcc is not one), and the geometric mean of a column is over the
benchmarks where both cells are right. The table also gives the compile
time of every tilefuse strategy: scheduling, tiling, AST generation and
emission, then opt and llc. Progress goes to standard error:
one line redrawn on a terminal, a line per cell otherwise.

--only NAMES (comma-separated) runs those benchmarks alone (in the
suite's order, by name).

Exit status 1 when any cell is not right (WRONG, build failed, crashed,
timed out, failed); the table is printed all the same.
` + limitsHelp

func runBench(e *env, args []string) int {
	cmd := lookup("bench")
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	dataset := fs.String("dataset", "LARGE", "PolyBench dataset: MINI, SMALL, MEDIUM, LARGE or EXTRALARGE")
	size := fs.String("size", "default", "PolyMage sizes: default, small, WxH or NAME=V,...")
	only := fs.String("only", "", "run only these benchmarks (comma-separated)")
	threads := fs.Int("threads", runtime.NumCPU(), "OpenMP threads")
	repeat := fs.Int("repeat", 5, "timed calls per cell")
	warmup := fs.Int("warmup", 10, "untimed calls before the timed ones (at most a second of them)")
	strategies := fs.String("strategies", strings.Join(defaultBenchStrategies(), ","), "tilefuse's fusion strategies (schedule: the pipeline's own)")
	tile := fs.String("tile", "", "tile sizes T,... for every strategy")
	peers := fs.String("peers", strings.Join(bench.DefaultPeers, ","), "peer compilers")
	baseline := fs.String("baseline", "gcc", "the column ratios are relative to")
	format := fs.String("format", "table", "table, csv or json")
	jsonFile := fs.String("json", "", "also write the JSON output to this file")
	htmlFile := fs.String("html", "", "also write the chart and table as one HTML page to this file")
	tol := fs.Float64("tol", 0, "relative tolerance of the peers' checks (default 0, or 1e-4 with --fp-contract)")
	contract := fs.Bool("fp-contract", false, "let the peers contract multiplies and adds into FMAs")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit of each compilation, build and run (0: none)")
	limit := fs.Bool("limit", true, "measure the streaming bandwidth first and print the limit column")
	halideSrc := fs.String("halide-src", "", "Halide v14 source tree whose apps the halide-app peer builds")
	alloc := fs.String("alloc", "system", "allocator of every column's runs: system, or caching (freed large blocks reused)")
	limits := addLimitFlags(fs, false)
	pos, err := parseInterspersed(fs, e, cmd, benchHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse bench: "+format+"\n", args...)
		return exitUsage
	}
	if len(pos) != 1 || (pos[0] != "polybench" && pos[0] != "polymage") {
		return fail("want one suite, polybench or polymage; usage: tilefuse bench %s", cmd.args)
	}
	suite := pos[0]
	switch {
	case *repeat < 1:
		return fail("--repeat must be at least 1")
	case *warmup < 0:
		return fail("--warmup must not be negative")
	case *threads < 1:
		return fail("--threads must be at least 1")
	case !(*tol >= 0):
		return fail("--tol must not be negative")
	case *timeout < 0:
		return fail("--timeout must not be negative")
	case *alloc != "system" && *alloc != "caching":
		return fail("unknown allocator %q (system or caching)", *alloc)
	case *format != "table" && *format != "csv" && *format != "json":
		return fail("unknown format %q (table, csv or json)", *format)
	case suite == "polymage" && set["dataset"]:
		return fail("--dataset applies to polybench; give polymage's sizes with --size")
	case suite == "polybench" && set["size"]:
		return fail("--size applies to polymage; give polybench's with --dataset")
	}
	var limitOpts compiler.Options
	if err := limits.apply("bench", &limitOpts); err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	var tileSizes []int64
	if *tile != "tuned" {
		if tileSizes, err = parseTile("bench", *tile); err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitUsage
		}
	}
	strats, err := listOption("--strategies", *strategies, compiler.StrategyNames())
	if err != nil {
		return fail("%v", err)
	}
	var strategyCols []compiler.Strategy
	for _, name := range strats {
		s, _ := compiler.ParseStrategy(name) // listOption checked the names
		strategyCols = append(strategyCols, s)
	}
	peerNames, err := listOption("--peers", *peers, bench.PeerNames)
	if err != nil {
		return fail("%v", err)
	}
	if len(strats)+len(peerNames) == 0 {
		return fail("no columns: give --strategies or --peers")
	}
	cols := append(slices.Clone(strats), peerNames...)
	cols = append(cols, bench.BestColumns(cols)...)
	if !slices.Contains(cols, *baseline) {
		if set["baseline"] {
			return fail("--baseline %s is not a column (%s)", *baseline, strings.Join(cols, ", "))
		}
		*baseline = cols[0]
	}
	// The rows: names, then sizes and programs.
	var names []string
	if suite == "polybench" {
		for _, k := range polybench.Kernels() {
			names = append(names, k.Name)
		}
	} else {
		for _, en := range polymage.All() {
			names = append(names, en.Name)
		}
	}
	if *only != "" {
		// The suite's order, whatever the order of --only.
		chosen, err := listOption("--only", *only, names)
		if err != nil {
			return fail("%v", err)
		}
		names = slices.DeleteFunc(names, func(n string) bool { return !slices.Contains(chosen, n) })
	}
	var ds polybench.Dataset
	var sz bench.Size
	if suite == "polybench" {
		if ds, err = polybench.ParseDataset(*dataset); err != nil {
			return fail("--dataset: %v", strings.TrimPrefix(err.Error(), "polybench: "))
		}
	} else if sz, err = bench.ParseSize(*size); err != nil {
		return fail("%v", err)
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		return fail("%v", err)
	}
	if *contract && !set["tol"] {
		*tol = 1e-4
	}
	if *halideSrc != "" && !slices.Contains(peerNames, "halide-app") {
		return fail("--halide-src is for the halide-app peer; add it to --peers")
	}
	specs, err := bench.Peers(peerNames, bench.PeerOptions{Contract: *contract, HalideSrc: *halideSrc})
	if err != nil {
		return fail("%v", err)
	}
	tools := bench.Tools{Opt: tc.Opt}
	for _, p := range specs {
		switch {
		case p.CC == "", p.Halide != nil:
		case strings.HasPrefix(p.Name, "polly"):
			tools.Clang = p.CC
		default:
			tools.GCC = p.CC
		}
	}
	if tools.GCC == "" {
		tools.GCC, _ = exec.LookPath("gcc")
	}

	var benches []*bench.Benchmark
	for _, name := range names {
		if suite == "polybench" {
			benches = append(benches, polybenchRow(name, ds))
		} else {
			benches = append(benches, polymageRow(name, sz))
		}
	}
	cfg := bench.Config{
		Suite: suite, Strategies: strategyCols, Tile: tileSizes, Peers: specs, Baseline: *baseline,
		Threads: *threads, Warmup: *warmup, Repeat: *repeat, Tolerance: *tol, Timeout: *timeout,
		Limits:    limitOpts,
		Toolchain: tc, Progress: bench.NewProgress(e.stderr, bench.IsTerminal(e.stderr)),
		Machine: bench.Describe(tools),
	}
	if suite == "polybench" {
		cfg.Dataset = ds.String()
	}
	if *tile == "tuned" {
		cfg.InnerTile = benchTuned(cfg.Progress, *threads)
	}
	if tools.GCC != "" && *limit {
		dir, err := os.MkdirTemp("", "tilefuse-stream-")
		if err != nil {
			return fail("%v", err)
		}
		bw, err := bench.MeasureBandwidth(context.Background(), tools.GCC, dir, *threads)
		os.RemoveAll(dir)
		if err != nil {
			fmt.Fprintf(e.stderr, "tilefuse bench: measuring the streaming bandwidth: %v (no limit column)\n", oneLine(err))
		} else {
			cfg.Machine.Bandwidth = bw
		}
	}
	if *alloc == "caching" {
		dir, err := os.MkdirTemp("", "tilefuse-alloc-")
		if err != nil {
			return fail("%v", err)
		}
		defer os.RemoveAll(dir)
		so, err := bench.BuildCachingAllocator(context.Background(), tools.GCC, dir)
		if err != nil {
			return fail("building the caching allocator: %v", oneLine(err))
		}
		cfg.Env, cfg.Allocator = []string{"LD_PRELOAD=" + so}, "caching"
	}
	// An interrupt stops the tools and programs and removes every work
	// directory before the command exits.
	ctx, stop, caught := interruptible()
	defer stop()
	cfg.Context = ctx
	t := bench.Run(cfg, benches)
	if s := caught(); s != nil {
		fmt.Fprintf(e.stderr, "tilefuse bench: %v: stopped; work files removed\n", s)
		return signalStatus(s)
	}
	switch *format {
	case "csv":
		err = bench.WriteCSV(e.stdout, t)
	case "json":
		err = bench.WriteJSON(e.stdout, t)
	default:
		err = bench.WriteText(e.stdout, t)
	}
	if err == nil && *jsonFile != "" {
		var buf bytes.Buffer
		if err = bench.WriteJSON(&buf, t); err == nil {
			err = fileError(writeWhole(*jsonFile, buf.Bytes()))
		}
	}
	if err == nil && *htmlFile != "" {
		err = writeBenchHTML(*htmlFile, t)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse bench: %v\n", err)
		return exitUsage
	}
	if n := t.Failures(); n > 0 {
		fmt.Fprintf(e.stderr, "tilefuse bench: %d %s not right (see the notes)\n", n, plural(n, "cell is", "cells are"))
		return exitCheck
	}
	return exitOK
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// listOption reads a comma list; an empty one is no names.
func listOption(what, s string, known []string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	return bench.ParseList(what, s, known)
}

// polybenchRow prepares a PolyBench kernel at dataset d.
func polybenchRow(name string, d polybench.Dataset) *bench.Benchmark {
	source := "polybench/" + name
	b := &bench.Benchmark{Name: name, Source: source, Size: d.String()}
	k, _ := polybench.Lookup(name)
	b.Params = k.Sizes(d)
	b.Prog, b.Err = loadOne("bench", source, "")
	if b.Err == nil {
		b.Func = emittedName(source, b.Prog)
		b.Err = checkSizes(b)
	}
	return b
}

// polymageRow prepares a PolyMage pipeline at the sizes sz asks for.
func polymageRow(name string, sz bench.Size) *bench.Benchmark {
	source := "polymage/" + name
	b := &bench.Benchmark{Name: name, Source: source}
	en, _ := polymage.Lookup(name)
	if b.Params, b.Err = sz.Apply(en.Defaults, en.Small, "C", "R"); b.Err != nil {
		b.Size = "?"
		return b
	}
	b.Size = bench.Label(b.Params, slices.Sorted(maps.Keys(b.Params)), "C", "R")
	if b.Prog, b.Err = loadOne("bench", source, ""); b.Err != nil {
		return b
	}
	b.Size = bench.Label(b.Params, b.Prog.Params, "C", "R")
	b.Func = emittedName(source, b.Prog)
	if b.Err = checkSizes(b); b.Err == nil {
		b.Inputs, b.Err = sourceInputs(source, b.Prog, b.Params)
	}
	return b
}

// checkSizes refuses sizes outside the program's context or that make
// an access leave its array.
func checkSizes(b *bench.Benchmark) error {
	if err := b.Prog.CheckParams(b.Params); err != nil {
		return err
	}
	return runner.CheckBounds(b.Prog, b.Params)
}

// defaultBenchStrategies are bench's tilefuse columns unless chosen:
// auto first, then every other strategy but schedule, which only
// pipelines that write a schedule have.
func defaultBenchStrategies() []string {
	out := []string{compiler.Auto.String()}
	for _, n := range compiler.StrategyNames() {
		if n != compiler.Schedule.String() && n != compiler.Auto.String() {
			out = append(out, n)
		}
	}
	return out
}
