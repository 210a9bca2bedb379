package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/bench"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/tiling"
)

const runCmdHelp = `
Compiles SOURCE as 'tilefuse compile' does (same --target, --fuse, --tile,
--func and --parallel, which is on by default here), builds it with a
generated harness (opt, llc and cc: Debian packages llvm-14 and gcc),
runs it on deterministic inputs, prints the median time of the timed
calls, and checks every array against a reference.

Sizes: --dataset MINI|SMALL|MEDIUM|LARGE|EXTRALARGE for PolyBench kernels
(default MINI); pipelines run at their default sizes (PolyMage's benchmark
sizes for polymage/NAME); --size N=V,... sets (or overrides) parameters,
and gives a C file's. Sizes that make an access leave its array are
refused.

Each run calls the function --warmup times untimed, then --repeat times
timed (clock_gettime); arrays the program updates in place get their
inputs back before every call. --threads sets OMP_NUM_THREADS.

--ref picks the reference: exec is the reference executor (the
definition of the program's meaning), c the naive C of the original
schedule built with cc -O2, auto the executor for small runs without
transcendental math calls and the naive C otherwise, none no check. The
check is bit for bit (--tol 0, the default: a legal schedule keeps every
element's order of operations), or within the relative tolerance --tol;
the largest relative error is reported either way.

--keep DIR keeps what was built and run there: the IR, the generated
harness, the objects, the executables and the input and output arrays
(the gcc build's in DIR/gcc). Without it they live in a temporary
directory that is removed on every exit, an interrupt (SIGINT, SIGTERM)
included.

--gcc (on by default) also builds the naive C of the original schedule
with gcc -O3 -march=native -ffp-contract=off, with --parallel its
outermost parallel loops under OpenMP pragmas and -fopenmp (bench's gcc
column), runs it on the same inputs with the same threads and calls, and
prints its median time and tilefuse's speed-up over it; --gcc=false
skips it.

Phases that take a second or more (the compiler's stages, opt/llc, the
link, the runs, the reference, and each slow timed call) are shown on
the standard error as they pass a second and when they end.

Exit status 1 when the result is wrong or the compiled code crashes.
` + limitsHelp + sourceHelp

func runRun(e *env, args []string) int {
	cmd := lookup("run")
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	cf := addCompileFlags(fs, true)
	cf.jscop = addJSCoP(fs)
	dataset := fs.String("dataset", "", "PolyBench dataset: MINI, SMALL, MEDIUM, LARGE or EXTRALARGE")
	size := fs.String("size", "", "parameter values N=V,...")
	threads := fs.Int("threads", 0, "OpenMP threads (OMP_NUM_THREADS; 0 keeps the environment's)")
	repeat := fs.Int("repeat", 5, "timed calls")
	warmup := fs.Int("warmup", 1, "untimed calls before the timed ones")
	ref := fs.String("ref", "auto", "reference: auto, exec, c or none")
	tol := fs.Float64("tol", 0, "relative tolerance of the check (0: bit for bit)")
	keep := fs.String("keep", "", "keep the build and run files in this directory")
	gcc := fs.Bool("gcc", true, "also time the naive C built by gcc -O3 -march=native and print the speed-up")
	pos, err := parseInterspersed(fs, e, cmd, runCmdHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(err error) int {
		fmt.Fprintln(e.stderr, strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitUsage
	}
	if len(pos) != 1 {
		return fail(fmt.Errorf("tilefuse run: want one SOURCE; usage: tilefuse run %s", cmd.args))
	}
	reference, ok := map[string]runner.Reference{"auto": runner.RefAuto, "exec": runner.RefExec, "c": runner.RefC, "none": runner.RefNone}[*ref]
	switch {
	case !ok:
		return fail(fmt.Errorf("tilefuse run: unknown reference %q (auto, exec, c or none)", *ref))
	case *repeat < 1:
		return fail(fmt.Errorf("tilefuse run: --repeat must be at least 1"))
	case *warmup < 0:
		return fail(fmt.Errorf("tilefuse run: --warmup must not be negative"))
	case *threads < 0:
		return fail(fmt.Errorf("tilefuse run: --threads must not be negative"))
	case *tol < 0 || math.IsNaN(*tol):
		return fail(fmt.Errorf("tilefuse run: --tol must not be negative"))
	}
	j, err := cf.check("run", pos[0])
	if err != nil {
		return fail(err)
	}
	if status, done := cf.userTree(e, "run", j); done {
		return status
	}
	params, label, err := runSizes("run", j, *dataset, *size)
	if err != nil {
		return fail(err)
	}
	if j.opts.Strategy == compiler.Auto {
		j.opts.Estimate = params // auto's cost model sizes the tiles for this run
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		return fail(fmt.Errorf("tilefuse run: %v", err))
	}
	inputs, err := sourceInputs(j.source, j.p, params)
	if err != nil {
		return fail(fmt.Errorf("tilefuse run: %s: %v", j.source, err))
	}
	// A signal stops the tools and the program and removes the work
	// directory on the way out.
	ctx, stop, caught := interruptible()
	defer stop()
	stopped := func() (int, bool) {
		if s := caught(); s != nil {
			fmt.Fprintf(e.stderr, "tilefuse run: %v: stopped; work files removed\n", s)
			return signalStatus(s), true
		}
		return 0, false
	}
	prog := newProgress(e.stderr, "run")
	mod, auto, err := j.emitModule(ctx, prog)
	if st, ok := stopped(); ok {
		return st
	}
	if err != nil {
		return fail(fmt.Errorf("tilefuse run: %s: %v", j.source, err))
	}
	w := *warmup
	if w == 0 {
		w = -1 // runner.Options: 0 means the default, negative none
	}
	ir := mod.IR
	if j.opts.Target == emit.CUDA {
		warn := func(msg string) { fmt.Fprintf(e.stderr, "tilefuse run: %s: %s\n", j.source, msg) }
		end := prog.phase("llc (PTX)")
		_, ir, err = cudaHost(ctx, tc, mod, warn)
		end()
		if st, ok := stopped(); ok {
			return st
		}
		if err != nil {
			return fail(fmt.Errorf("tilefuse run: %s: %v", j.source, err))
		}
	}
	opts := runner.Options{
		Params: params, Threads: *threads, Warmup: w, Repeat: *repeat,
		Reference: reference, Tolerance: *tol, Dir: *keep, Inputs: inputs,
		Phases: prog.runnerPhases(""),
	}
	res, err := tc.RunContext(ctx, j.p, runner.Kernel{IR: ir, Func: mod.Func}, opts)
	if st, ok := stopped(); ok {
		return st
	}
	var ke *runner.KernelError
	switch {
	case errors.As(err, &ke):
		fmt.Fprintf(e.stderr, "tilefuse run: %s: the compiled code failed: %s\n", j.source, strings.ReplaceAll(ke.Error(), "\n", "; "))
		return exitCheck
	case err != nil:
		return fail(fmt.Errorf("tilefuse run: %s: %v", j.source, err))
	}
	prog.timedCalls("", res.Times)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s)\n", j.source, label, runConfig(j, *threads))
	if auto != "" {
		fmt.Fprintln(&b, auto)
	}
	fmt.Fprintf(&b, "median %s over %d runs (min %s, max %s)\n", seconds(res.Median), len(res.Times), seconds(slices.Min(res.Times)), seconds(slices.Max(res.Times)))
	if *gcc {
		base, desc, err := gccBaseline(ctx, tc, j, opts, prog)
		if st, ok := stopped(); ok {
			return st
		}
		if err != nil {
			// The comparison is extra: its failure is a warning.
			fmt.Fprintf(e.stderr, "tilefuse run: %s: no gcc time: %s\n", j.source, strings.ReplaceAll(err.Error(), "\n", "; "))
		} else {
			fmt.Fprintf(&b, "gcc median %s over %d runs (min %s, max %s): %s\n", seconds(base.Median), len(base.Times), seconds(slices.Min(base.Times)), seconds(slices.Max(base.Times)), desc)
			fmt.Fprintf(&b, "speed-up %s over gcc\n", speedup(base.Median, res.Median))
		}
	}
	if res.Check != nil {
		fmt.Fprintf(&b, "check %s\n", res.Check)
	}
	e.stdout.Write([]byte(b.String()))
	if res.Check != nil && !res.Check.OK() {
		return exitCheck
	}
	return exitOK
}

// gccBaseline times the naive C of the job's program built by gcc as
// bench's gcc column builds it (-O3 -march=native -ffp-contract=off;
// with --parallel the outermost parallel loops under OpenMP pragmas and
// -fopenmp), with opts's sizes, inputs, threads and calls, unchecked. It
// returns the result and a description of the build.
func gccBaseline(ctx context.Context, tc *runner.Toolchain, j *compileJob, opts runner.Options, prog *progress) (*runner.Result, string, error) {
	name := "gcc"
	if !j.opts.Parallel {
		name = "gcc-serial"
	}
	peers, err := bench.Peers([]string{name}, false, exec.LookPath)
	if err != nil {
		return nil, "", err
	}
	peer := peers[0]
	if peer.CC == "" {
		peer.CC = tc.CC // cc, which takes gcc's flags
	}
	var src string
	if j.opts.Parallel {
		src, err = bench.ParallelC(j.p, j.opts.Func)
	} else {
		src, err = runner.NaiveC(j.p, j.opts.Func)
	}
	if err != nil {
		return nil, "", err
	}
	opts.Reference, opts.Expected, opts.Tolerance = runner.RefNone, nil, 0
	if opts.Dir != "" {
		opts.Dir = filepath.Join(opts.Dir, "gcc")
	}
	opts.Phases = prog.runnerPhases("gcc ")
	res, err := tc.RunContext(ctx, j.p, runner.Kernel{C: src, Func: j.opts.Func, CC: peer.CC, CFlags: peer.Flags}, opts)
	if err != nil {
		return nil, "", err
	}
	prog.timedCalls("gcc ", res.Times)
	what := "naive C"
	if j.opts.Parallel {
		what = "naive C with OpenMP pragmas on the outermost parallel loops"
	}
	return res, fmt.Sprintf("%s, %s %s", what, filepath.Base(peer.CC), strings.Join(peer.Flags, " ")), nil
}

// speedup prints base/t as "2.50x" (how many times faster t is).
func speedup(base, t time.Duration) string {
	if base <= 0 || t <= 0 {
		return "?"
	}
	return bench.FormatRatio(float64(base) / float64(t))
}

// runSizes gives every parameter its value: the dataset's (PolyBench) or
// the defaults (pipelines), then --size. label describes them.
func runSizes(cmd string, j *compileJob, dataset, size string) (map[string]int64, string, error) {
	params := map[string]int64{}
	var label []string
	name, isPolyBench := strings.CutPrefix(j.source, "polybench/")
	pipeline, isPipeline := strings.CutPrefix(j.source, "pipelines/")
	pm, isPolyMage := strings.CutPrefix(j.source, "polymage/")
	switch {
	case isPolyBench:
		if dataset == "" {
			dataset = "MINI"
		}
		d, err := polybench.ParseDataset(dataset)
		if err != nil {
			return nil, "", fmt.Errorf("tilefuse %s: --dataset: %v", cmd, strings.TrimPrefix(err.Error(), "polybench: "))
		}
		k, _ := polybench.Lookup(name)
		params = k.Sizes(d)
		label = append(label, d.String())
	case dataset != "":
		return nil, "", fmt.Errorf("tilefuse %s: --dataset applies to PolyBench kernels; give %s's sizes with --size", cmd, j.source)
	case isPipeline:
		for _, e := range builtinEntries() {
			if e.Name == pipeline {
				params = e.Defaults
			}
		}
	case isPolyMage:
		if e, ok := polymage.Lookup(pm); ok {
			params = e.Defaults
		}
	}
	if size != "" {
		for _, kv := range strings.Split(size, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.TrimSpace(k)
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if !ok || err != nil {
				return nil, "", fmt.Errorf("tilefuse %s: --size %s: %q is not NAME=INTEGER", cmd, size, kv)
			}
			if !slices.Contains(j.p.Params, k) {
				return nil, "", fmt.Errorf("tilefuse %s: --size: %s has no parameter %q (parameters: %s)", cmd, j.source, k, strings.Join(j.p.Params, ", "))
			}
			params[k] = n
		}
	}
	for _, p := range j.p.Params {
		v, ok := params[p]
		if !ok {
			return nil, "", fmt.Errorf("tilefuse %s: no value for parameter %s of %s; give it with --size %s=V", cmd, p, j.source, p)
		}
		label = append(label, fmt.Sprintf("%s=%d", p, v))
	}
	// Checked before any building: an access out of its array would run
	// wild in the C code.
	if err := j.p.CheckParams(params); err != nil {
		return nil, "", fmt.Errorf("tilefuse %s: %s: %v", cmd, j.source, err)
	}
	if err := runner.CheckBounds(j.p, params); err != nil {
		return nil, "", err
	}
	return params, strings.Join(label, " "), nil
}

func runConfig(j *compileJob, threads int) string {
	o := j.opts
	s := "fuse " + o.Strategy.String()
	if len(o.Tile.Sizes) > 0 {
		s += ", tile " + tiling.FormatSizes(o.Tile.Sizes)
	}
	if o.Target != emit.CPU {
		s += ", target " + o.Target.String()
		for _, x := range []struct {
			name  string
			sizes []int64
		}{{"threads", o.GPU.Threads}, {"blocks", o.GPU.Blocks}} {
			if len(x.sizes) > 0 {
				s += ", " + x.name + " " + tiling.FormatSizes(x.sizes)
			}
		}
	}
	if o.Parallel && !j.gpu() {
		s += ", parallel"
		switch {
		case threads == 1:
			s += ", 1 thread"
		case threads > 1:
			s += fmt.Sprintf(", %d threads", threads)
		}
	}
	return s
}

// seconds prints a duration in seconds, for scripts.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'g', 6, 64) + " s"
}
