package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/bench"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
	"github.com/tilefuse/tilefuse/tiling/tune"
)

const tuneCmdHelp = `
Tunes the tile sizes of post-tiling fusion for SOURCE on this machine:
the candidates are every combination of 8, 16, ..., 512 for the innermost
tile members (the rows and columns of an image; outer members such as
channels keep their defaults), ranked by tilefuse's cost model (package
tiling/tune: recomputation of overlapped tiles, working set against the
caches sysfs reports, tiles per thread). They are then compiled, built,
run and checked against the reference in the model's order, the default
sizes first, until --budget is spent or --top candidates ran. The table
shows each trial's rank in the model and its median time; the fastest
verified sizes are saved in the user's cache directory (tilefuse/tune),
keyed by the program, the strategy and the machine, where --tile tuned
(compile, run) finds them.

Sizes are --dataset or --size as for 'tilefuse run' (default: the
pipeline's own). The run's threads are --threads (default: the CPUs).

--calibrate (no SOURCE) fits the model's constants to this machine
instead: harris and unsharp_mask at 1024 x 1024, each at nine tile sizes
whose working sets span the caches, run in interleaved rounds; the
constants that make the model's costs proportional to the times (least
squares) are kept in the cache directory and used by later tunings (and
by --fuse auto). The trials of every program already tuned on this
machine join the fit, each at the sizes it was tuned at, so that the
model learns what the run sizes cost: tune a few programs, then
calibrate again.
`

func runTune(e *env, args []string) int {
	cmd := lookup("tune")
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	cf := addCompileFlags(fs, true)
	dataset := fs.String("dataset", "", "PolyBench dataset: MINI, SMALL, MEDIUM, LARGE or EXTRALARGE")
	size := fs.String("size", "", "parameter values N=V,...")
	threads := fs.Int("threads", runtime.NumCPU(), "OpenMP threads of the runs")
	repeat := fs.Int("repeat", 3, "timed calls per candidate")
	budget := fs.Duration("budget", 5*time.Minute, "start no candidate after this time")
	top := fs.Int("top", 0, "run at most this many candidates (0: as the budget allows)")
	format := fs.String("format", "table", "table or json")
	calib := fs.Bool("calibrate", false, "calibrate the cost model on this machine (a short micro-benchmark) instead of tuning a SOURCE")
	*cf.fuse = "post"
	pos, err := parseInterspersed(fs, e, cmd, tuneCmdHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(err error) int {
		fmt.Fprintln(e.stderr, strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitUsage
	}
	if *calib {
		return runCalibrate(e, pos, *threads)
	}
	switch {
	case len(pos) != 1:
		return fail(fmt.Errorf("tilefuse tune: want one SOURCE; usage: tilefuse tune %s", cmd.args))
	case *repeat < 1:
		return fail(errors.New("tilefuse tune: --repeat must be at least 1"))
	case *threads < 1:
		return fail(errors.New("tilefuse tune: --threads must be at least 1"))
	case *top < 0:
		return fail(errors.New("tilefuse tune: --top must not be negative"))
	case *format != "table" && *format != "json":
		return fail(fmt.Errorf("tilefuse tune: unknown format %q (table or json)", *format))
	case *cf.tile != "":
		return fail(errors.New("tilefuse tune: --tile is what tune chooses; leave it out"))
	}
	j, err := cf.check("tune", pos[0])
	if err != nil {
		return fail(err)
	}
	if j.opts.Strategy != compiler.Post {
		return fail(fmt.Errorf("tilefuse tune: --fuse %s: the model sizes the tiles of post-tiling fusion; tune --fuse post", j.opts.Strategy))
	}
	if j.gpu() {
		return fail(errors.New("tilefuse tune: tunes CPU code (--target cpu)"))
	}
	params, label, err := runSizes("tune", j, *dataset, *size)
	if err != nil {
		return fail(err)
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		return fail(fmt.Errorf("tilefuse tune: %v", err))
	}
	inputs, err := sourceInputs(j.source, j.p, params)
	if err != nil {
		return fail(fmt.Errorf("tilefuse tune: %s: %v", j.source, err))
	}
	ctx, stop, caught := interruptible()
	defer stop()
	t := &tuner{e: e, j: j, tc: tc, params: params, inputs: inputs, threads: *threads, repeat: *repeat,
		machine: tune.ReadMachine("/sys", *threads), prog: bench.NewProgress(e.stderr, bench.IsTerminal(e.stderr)).Named("tilefuse tune")}
	rec, err := t.tune(ctx, *budget, *top)
	if s := caught(); s != nil {
		fmt.Fprintf(e.stderr, "tilefuse tune: %v: stopped\n", s)
		return signalStatus(s)
	}
	if err != nil {
		return fail(fmt.Errorf("tilefuse tune: %s: %v", j.source, err))
	}
	if *format == "json" {
		b, _ := json.MarshalIndent(rec, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		fmt.Fprint(e.stdout, tuneTable(rec, label))
	}
	if len(rec.Best) == 0 {
		fmt.Fprintf(e.stderr, "tilefuse tune: %s: no candidate ran and verified\n", j.source)
		return exitCheck
	}
	dir, err := tune.Dir()
	if err == nil {
		err = rec.Save(dir, tune.Key(rec.Program, rec.Strategy, t.machine))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse tune: not saved: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// tuner runs one tuning.
type tuner struct {
	e       *env
	j       *compileJob
	tc      *runner.Toolchain
	params  map[string]int64
	inputs  map[string]*scop.Buffer
	threads int
	repeat  int
	machine tune.Machine
	prog    *bench.Progress
}

// tune ranks the candidates by the model, then runs them in that order
// (the default sizes first) within budget and top.
func (t *tuner) tune(ctx context.Context, budget time.Duration, top int) (*tune.Record, error) {
	start := time.Now()
	ref := t.j.opts
	ref.Estimate = t.params
	ref.Stop = compiler.StageFuse
	r, err := compileIn(ctx, t.j.timeout, t.j.p, ref)
	if err != nil {
		return nil, err
	}
	shape, err := tune.ShapeOf(r.Fusion, r.Program, t.params)
	if err != nil {
		return nil, err
	}
	trials, calibrated := tune.RankFor(shape, t.machine)
	def := tune.DefaultInner(shape.Tuned())
	order := make([]int, 0, len(trials))
	for i, tr := range trials {
		if slices.Equal(tr.Sizes, def) {
			order = append([]int{i}, order...)
		} else {
			order = append(order, i)
		}
	}
	rec := &tune.Record{Source: t.j.source, Program: tune.Digest(t.j.p.String()), Strategy: t.j.opts.Strategy.String(),
		Machine: t.machine.String(), Threads: t.threads, Params: t.params, Model: trials[0].Sizes, Calibrated: calibrated, When: time.Now().UTC()}
	exp, err := t.tc.ExpectContext(ctx, t.j.p, runner.Options{Params: t.params, Inputs: t.inputs})
	if err != nil {
		return nil, err
	}
	total := len(order)
	if top > 0 {
		total = min(top, total)
	}
	t.prog.Begin(total)
	defer t.prog.End()
	ran := 0
	var kept []*keptTrial
	defer func() {
		for _, k := range kept {
			k.pr.Close()
		}
	}()
	for _, i := range order {
		if time.Since(start) > budget || (top > 0 && ran >= top) || ctx.Err() != nil {
			break
		}
		ran++
		tr := &trials[i]
		row, col := sizesName(tr.Sizes), fmt.Sprintf("(model rank %d)", tr.Rank)
		t.prog.Start(row, col)
		pr, med, err := t.trial(ctx, tr.Sizes, exp)
		if err != nil {
			tr.Err = strings.ReplaceAll(err.Error(), "\n", "; ")
			t.prog.Done(row, col, bench.Cell{Status: bench.Failed, Err: tr.Err})
			continue
		}
		tr.Median = med
		t.prog.Done(row, col, bench.Cell{Status: bench.OK, Median: med})
		kept = t.keep(append(kept, &keptTrial{tr: tr, pr: pr}), def, rec.Model)
	}
	// The finalists run again, interleaved, so that a change in the
	// machine's load while the candidates ran one after another does not
	// pick the winner.
	if len(kept) > 1 && ctx.Err() == nil {
		t.prog.Note("%d finalists, %d interleaved rounds", len(kept), finalRounds)
		for range finalRounds {
			for _, k := range kept {
				times, err := k.pr.Time(ctx, 1, 1)
				if err != nil {
					return nil, err
				}
				k.times = append(k.times, times...)
			}
		}
		for _, k := range kept {
			k.tr.Median, k.tr.Final = bench.Median(k.times), true
		}
	}
	var best time.Duration
	for _, k := range kept {
		if best == 0 || k.tr.Median < best {
			best, rec.Best = k.tr.Median, k.tr.Sizes
		}
	}
	rec.Trials = trials
	return rec, ctx.Err()
}

// finalRounds are the interleaved rounds of the finalists; finalists the
// fastest trials kept for them, besides the default and the model's pick.
const (
	finalRounds = 5
	finalists   = 3
)

// keptTrial is a built candidate kept for the final rounds.
type keptTrial struct {
	tr    *tune.Trial
	pr    *runner.Prepared
	times []time.Duration
}

// keep returns the trials to keep for the final rounds: the default
// sizes, the model's pick and the fastest others, closing the rest.
func (t *tuner) keep(kept []*keptTrial, def, model []int64) []*keptTrial {
	sort.SliceStable(kept, func(i, k int) bool { return kept[i].tr.Median < kept[k].tr.Median })
	var out []*keptTrial
	fast := 0
	for _, k := range kept {
		switch {
		case slices.Equal(k.tr.Sizes, def) || slices.Equal(k.tr.Sizes, model):
			out = append(out, k)
		case fast < finalists:
			fast++
			out = append(out, k)
		default:
			k.pr.Close()
		}
	}
	return out
}

// trial compiles, builds, runs and checks one candidate; the caller
// closes the built kernel.
func (t *tuner) trial(ctx context.Context, inner []int64, exp *runner.Expected) (*runner.Prepared, time.Duration, error) {
	opts := t.j.opts
	opts.InnerTile = inner
	r, err := compileIn(ctx, t.j.timeout, t.j.p, opts)
	if err != nil {
		return nil, 0, err
	}
	pr, err := t.tc.Prepare(ctx, t.j.p, runner.Kernel{IR: r.Module.IR, Func: r.Module.Func}, runner.Options{
		Params: t.params, Inputs: t.inputs, Expected: exp, Threads: t.threads,
	})
	if err != nil {
		return nil, 0, err
	}
	times, got, err := pr.Execute(ctx, 1, t.repeat)
	if err == nil {
		var chk *runner.Check
		if chk, err = pr.Check(ctx, got); err == nil && chk != nil && !chk.OK() {
			err = fmt.Errorf("wrong result: %s", chk)
		}
	}
	if err != nil {
		pr.Close()
		return nil, 0, err
	}
	return pr, bench.Median(times), nil
}

// sizesName prints inner sizes as 32x256.
func sizesName(s []int64) string {
	return strings.ReplaceAll(tiling.FormatSizes(s), ",", "x")
}

// tuneTable prints a record: the trials that ran, fastest first, then
// the model's pick against the tuned best.
func tuneTable(rec *tune.Record, label string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s, --fuse %s, %d threads (%s)\n", rec.Source, label, rec.Strategy, rec.Threads, rec.Machine)
	if rec.Calibrated {
		b.WriteString("model: this machine's calibrated constants\n")
	} else {
		b.WriteString("model: default constants (tilefuse tune --calibrate fits them to this machine)\n")
	}
	ran := slices.Clone(rec.Trials)
	ran = slices.DeleteFunc(ran, func(tr tune.Trial) bool { return tr.Median == 0 && tr.Err == "" })
	sort.SliceStable(ran, func(i, k int) bool {
		a, c := ran[i], ran[k]
		if (a.Err == "") != (c.Err == "") {
			return a.Err == ""
		}
		return a.Median < c.Median
	})
	lines := [][]string{{"sizes", "model rank", "median", "note"}}
	for _, tr := range ran {
		med, note := bench.FormatDuration(tr.Median), "first run"
		if tr.Final {
			note = fmt.Sprintf("finalist: median of %d interleaved rounds", finalRounds)
		}
		if tr.Err != "" {
			med, note = "-", tr.Err
		}
		lines = append(lines, []string{sizesName(tr.Sizes), fmt.Sprint(tr.Rank), med, note})
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "  %-10s %10s %10s  %s\n", l[0], l[1], l[2], l[3])
	}
	fmt.Fprintf(&b, "%d of %d candidates ran\n", len(ran), len(rec.Trials))
	find := func(s []int64) *tune.Trial {
		for i := range rec.Trials {
			if slices.Equal(rec.Trials[i].Sizes, s) {
				return &rec.Trials[i]
			}
		}
		return nil
	}
	if best := find(rec.Best); best != nil {
		fmt.Fprintf(&b, "tuned best: %s, %s\n", sizesName(best.Sizes), bench.FormatDuration(best.Median))
		if m := find(rec.Model); m != nil && m.Median > 0 {
			fmt.Fprintf(&b, "model's pick: %s, %s (%.2fx the tuned best)\n", sizesName(m.Sizes), bench.FormatDuration(m.Median), float64(m.Median)/float64(best.Median))
		} else if m != nil {
			fmt.Fprintf(&b, "model's pick: %s, not run\n", sizesName(m.Sizes))
		}
	}
	return b.String()
}

// tunedSizes finds the sizes 'tilefuse tune' saved for j's program and
// strategy on this machine (--tile tuned).
func tunedSizes(cmd string, j *compileJob) ([]int64, error) {
	if j.opts.Strategy != compiler.Post {
		return nil, fmt.Errorf("tilefuse %s: --tile tuned: tune sizes the tiles of --fuse post, not %s", cmd, j.opts.Strategy)
	}
	dir, err := tune.Dir()
	if err != nil {
		return nil, fmt.Errorf("tilefuse %s: --tile tuned: %v", cmd, err)
	}
	for _, threads := range tunedThreads() {
		key := tune.Key(tune.Digest(j.p.String()), j.opts.Strategy.String(), tune.ReadMachine("/sys", threads))
		rec, err := tune.Load(dir, key)
		if errors.Is(err, tune.ErrNotTuned) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("tilefuse %s: --tile tuned: %v", cmd, err)
		}
		return rec.Best, nil
	}
	return nil, fmt.Errorf("tilefuse %s: --tile tuned: %s is not tuned for --fuse %s on this machine; run 'tilefuse tune %s' first", cmd, j.source, j.opts.Strategy, j.source)
}

// tunedThreads are the thread counts whose records --tile tuned takes,
// in order: OMP_NUM_THREADS's, then the CPUs'.
func tunedThreads() []int {
	var out []int
	if n, err := strconv.Atoi(os.Getenv("OMP_NUM_THREADS")); err == nil && n > 0 {
		out = append(out, n)
	}
	if n := runtime.NumCPU(); !slices.Contains(out, n) {
		out = append(out, n)
	}
	return out
}

// benchTuned gives bench --tile tuned each benchmark's tuned sizes on
// threads threads; a benchmark without a record keeps the defaults, with
// a note.
func benchTuned(prog *bench.Progress, threads int) func(b *bench.Benchmark) []int64 {
	dir, dirErr := tune.Dir()
	return func(b *bench.Benchmark) []int64 {
		if dirErr != nil {
			prog.Note("--tile tuned: %v", dirErr)
			return nil
		}
		key := tune.Key(tune.Digest(b.Prog.String()), compiler.Post.String(), tune.ReadMachine("/sys", threads))
		rec, err := tune.Load(dir, key)
		if err != nil {
			prog.Note("%s: %v on %d threads: post's default tile sizes (run tilefuse tune)", b.Name, err, threads)
			return nil
		}
		return rec.Best
	}
}

// runCalibrate is tune --calibrate.
func runCalibrate(e *env, pos []string, threads int) int {
	if len(pos) != 0 {
		fmt.Fprintln(e.stderr, "tilefuse tune: --calibrate takes no SOURCE")
		return exitUsage
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse tune: %v\n", err)
		return exitUsage
	}
	ctx, stop, caught := interruptible()
	defer stop()
	c, err := calibrate(ctx, e.stdout, tc, threads, bench.NewProgress(e.stderr, bench.IsTerminal(e.stderr)).Named("tilefuse tune"))
	if s := caught(); s != nil {
		fmt.Fprintf(e.stderr, "tilefuse tune: %v: stopped\n", s)
		return signalStatus(s)
	}
	if err == nil {
		var dir string
		if dir, err = tune.Dir(); err == nil {
			err = c.Save(dir, tune.ReadMachine("/sys", threads))
		}
	}
	var noisy *tune.NoFitError
	switch {
	case errors.As(err, &noisy):
		fmt.Fprintf(e.stderr, "tilefuse tune: --calibrate: %v: nothing saved; calibrate on a quieter machine\n", err)
		return exitCheck
	case err != nil:
		fmt.Fprintf(e.stderr, "tilefuse tune: --calibrate: %s\n", oneLine(err))
		return exitUsage
	}
	return exitOK
}
