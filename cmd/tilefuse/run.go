package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
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
column), runs it on the same inputs with the same threads and calls,
twice: as users run it (the system allocator) and with its page faults
taken out (the caching allocator of bench --alloc caching preloaded: the
naive C allocates its intermediates on every call, and on these VMs a
first-touched page costs about 12 us, so most of its time can be page
faults). It prints both medians and tilefuse's speed-up over each
(tilefuse's own run as is, so the second ratio is the conservative
one), and for a PolyBench kernel or PolyMage pipeline the best peer
column of bench and the command that measures it; --gcc=false skips it.

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
		end := prog.phase("llc (PTX)")
		_, ir, err = cudaHost(ctx, tc, mod)
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
		if st, ok := gccComparison(ctx, e, &b, tc, j, opts, res, prog, stopped); ok {
			return st
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

// gccComparison times the gcc build twice, as users run it and with
// its page faults taken out (the caching allocator preloaded, so that
// the intermediates it allocates on every call are first touched once),
// writes both medians and tilefuse's speed-up over each to b, and names
// the best peer bench knows for the source. A failure of the comparison
// is a warning; it returns a status and true only when a signal stopped
// it.
func gccComparison(ctx context.Context, e *env, b *strings.Builder, tc *runner.Toolchain, j *compileJob, opts runner.Options, res *runner.Result, prog *progress, stopped func() (int, bool)) (int, bool) {
	warn := func(what string, err error) {
		fmt.Fprintf(e.stderr, "tilefuse run: %s: %s: %s\n", j.source, what, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	base, desc, cc, err := gccBaseline(ctx, tc, j, opts, prog, nil)
	if st, ok := stopped(); ok {
		return st, true
	}
	if err != nil {
		warn("no gcc time", err)
		return 0, false
	}
	line := func(r *runner.Result, what string) {
		fmt.Fprintf(b, "gcc median %s over %d runs (min %s, max %s): %s\n", seconds(r.Median), len(r.Times), seconds(slices.Min(r.Times)), seconds(slices.Max(r.Times)), what)
	}
	line(base, desc+", the system allocator (as users run it)")
	speed := fmt.Sprintf("speed-up %s over gcc as is", speedup(base.Median, res.Median))
	steady, err := gccWithoutPageFaults(ctx, tc, j, opts, prog, cc)
	if st, ok := stopped(); ok {
		return st, true
	}
	if err != nil {
		warn("no gcc time under the caching allocator", err)
	} else {
		line(steady, "the same build under the caching allocator (bench --alloc caching: the large blocks it frees are reused, so the first-touch page faults of the intermediates it allocates on every call are paid once)")
		speed += fmt.Sprintf(", %s over gcc with its page faults taken out", speedup(steady.Median, res.Median))
	}
	fmt.Fprintln(b, speed)
	if peer := bestPeer(j.source); peer != "" {
		fmt.Fprintln(b, peer)
	}
	return 0, false
}

// gccWithoutPageFaults runs the gcc build of gccBaseline with the
// caching allocator preloaded.
func gccWithoutPageFaults(ctx context.Context, tc *runner.Toolchain, j *compileJob, opts runner.Options, prog *progress, cc string) (*runner.Result, error) {
	dir, err := os.MkdirTemp("", "tilefuse-alloc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	so, err := bench.BuildCachingAllocator(ctx, cc, dir)
	if err != nil {
		return nil, err
	}
	if opts.Dir != "" {
		opts.Dir = filepath.Join(opts.Dir, "caching")
	}
	res, _, _, err := gccBaseline(ctx, tc, j, opts, prog, []string{"LD_PRELOAD=" + so})
	return res, err
}

// bestPeer names the fastest peer bench knows for a built-in source,
// and the command that measures it; empty for other sources.
func bestPeer(source string) string {
	suite, name, ok := strings.Cut(source, "/")
	switch {
	case !ok:
		return ""
	case suite == "polymage":
		return fmt.Sprintf("best peer: Halide 14 with Halide's own expert schedule, the Adams2019 or the Mullapudi2016 autoscheduler, whichever is fastest (tilefuse bench polymage --only %s --peers halide,halide-adams,halide-auto --alloc caching)", name)
	case suite == "polybench":
		return fmt.Sprintf("best peer: Polly, serial with its matrix-product pattern or parallel, whichever is faster (tilefuse bench polybench --only %s --peers polly,polly-par, the best-polly column)", name)
	}
	return ""
}

// gccBaseline times the naive C of the job's program built by gcc as
// bench's gcc column builds it (-O3 -march=native -ffp-contract=off;
// with --parallel the outermost parallel loops under OpenMP pragmas and
// -fopenmp), with opts's sizes, inputs, threads and calls, unchecked. It
// returns the result, a description of the build and the compiler. env
// adds to the runs' environment.
func gccBaseline(ctx context.Context, tc *runner.Toolchain, j *compileJob, opts runner.Options, prog *progress, env []string) (*runner.Result, string, string, error) {
	name := "gcc"
	if !j.opts.Parallel {
		name = "gcc-serial"
	}
	peers, err := bench.Peers([]string{name}, bench.PeerOptions{Look: exec.LookPath})
	if err != nil {
		return nil, "", "", err
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
		return nil, "", "", err
	}
	opts.Reference, opts.Expected, opts.Tolerance = runner.RefNone, nil, 0
	opts.Env = append(slices.Clone(opts.Env), env...)
	if opts.Dir != "" {
		opts.Dir = filepath.Join(opts.Dir, "gcc")
	}
	opts.Phases = prog.runnerPhases("gcc ")
	res, err := tc.RunContext(ctx, j.p, runner.Kernel{C: src, Func: j.opts.Func, CC: peer.CC, CFlags: peer.Flags}, opts)
	if err != nil {
		return nil, "", "", err
	}
	prog.timedCalls("gcc ", res.Times)
	what := "naive C"
	if j.opts.Parallel {
		what = "naive C with OpenMP pragmas on the outermost parallel loops"
	}
	return res, fmt.Sprintf("%s, %s %s", what, filepath.Base(peer.CC), strings.Join(peer.Flags, " ")), peer.CC, nil
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
	if o.Tree != nil {
		// --tree or --jscop: the schedule is the file's, not a strategy's.
		s = "the given schedule"
	}
	if len(o.Tile.Sizes) > 0 && o.Tree == nil {
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
