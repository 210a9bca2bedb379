package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/internal/ctool"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
)

// Kernel is the compiled program under test: a function with the
// signature of ast.PrintProgram's function for the program.
type Kernel struct {
	// IR is LLVM IR text defining Func; opt and llc build it.
	IR string
	// C is a C translation unit defining Func, built with cc -O2 when IR
	// is empty (a peer's code, or the naive C itself).
	C string
	// CC and CFlags, when set, build C instead with another compiler
	// driver (a path or a name on PATH: clang-14 for Polly) and other
	// flags (gcc -O3 -march=native -fopenmp for a peer): the defaults are
	// Toolchain.CC and -O2 -ffp-contract=off -w. The harness is built
	// and linked by Toolchain.CC all the same, with -fopenmp, so code
	// that calls libgomp (OpenMP pragmas, Polly's parallel loops) links.
	CC     string
	CFlags []string
	// Objects and LDFlags, when set, are more object files or static
	// libraries and more linker flags for the link of the harness: the
	// code C calls (a Halide pipeline and its runtime, say).
	Objects []string
	LDFlags []string
	// Func is the function's name.
	Func string
}

// Options control Run.
type Options struct {
	// Params gives every size parameter a value.
	Params map[string]int64
	// Threads sets OMP_NUM_THREADS for the run; 0 leaves the environment
	// as it is.
	Threads int
	// Warmup is the number of untimed calls before the timed ones: 0 means
	// 1, a negative number none.
	Warmup int
	// Repeat is the number of timed calls (at least 1).
	Repeat int
	// Reference picks what the outputs are checked against.
	Reference Reference
	// Tolerance is the relative error allowed in floating-point elements:
	// |got - want| <= Tolerance * max(|got|, |want|, 1). Zero asks for
	// equality bit for bit, which holds when the evaluation order of every
	// element's operations is unchanged (a legal schedule keeps it; only
	// reassociation or math functions from another library change it).
	Tolerance float64
	// ExecLimit is the most statement instances RefAuto leaves to the
	// reference executor (0 means DefaultExecLimit).
	ExecLimit int64
	// Dir, when set, keeps the build and run files there for inspection;
	// otherwise they live in a temporary directory that Run removes.
	Dir string
	// Env adds "KEY=value" entries to the environment of the timed run
	// (bench's caching allocator: LD_PRELOAD).
	Env []string
	// Timeout bounds every build step and run (0: none).
	Timeout time.Duration
	// Inputs, when set, gives the contents of live-in arrays (by name,
	// at their shapes at Params) in place of the generated ones: a
	// benchmark's own input generator, say. Arrays it does not name get
	// the generated contents (Inputs). They are read, never written, and
	// shared by the runs (not copied): they must not change while a
	// Prepared made with them is in use.
	Inputs map[string]*scop.Buffer
	// Expected, when set, is the reference's result for these Params and
	// Inputs, computed once by Toolchain.Expect and shared by the runs of
	// several kernels; Reference is then ignored.
	Expected *Expected
	// Phases, when set, is told as each phase of the run starts, by
	// name: "opt/llc" (building IR) or "cc" (building C), "link" (the
	// harness, compiled and linked), "run" (the warm-up and timed calls)
	// and "reference"; the function it returns is called when the phase
	// ends. A command shows slow phases with it.
	Phases func(name string) (end func())
}

// phase starts the phase name of opts.Phases; the result ends it.
func (opts *Options) phase(name string) (end func()) {
	if opts.Phases == nil {
		return func() {}
	}
	if end := opts.Phases(name); end != nil {
		return end
	}
	return func() {}
}

// Expected is what the reference computes from a run's inputs: the
// contents of every array after the program.
type Expected struct {
	Reference Reference // the oracle used (never RefAuto)
	Arrays    map[string]*scop.Buffer
}

// DefaultExecLimit is the default Options.ExecLimit: a few seconds of the
// reference executor.
const DefaultExecLimit = 2_000_000

// Reference is the oracle of a run.
type Reference int

const (
	// RefAuto uses the reference executor when the program runs at most
	// Options.ExecLimit statement instances and calls no transcendental
	// function (the executor's come from Go's math package, the
	// compiled code's from libm), and the naive C otherwise.
	RefAuto Reference = iota
	// RefExec is scop/refexec, the definition of the program's meaning.
	RefExec
	// RefC is the naive C of the program: ast.PrintProgram of the
	// original schedule, built with cc -O2 -ffp-contract=off.
	RefC
	// RefNone skips the check.
	RefNone
)

func (r Reference) String() string {
	switch r {
	case RefAuto:
		return "auto"
	case RefExec:
		return "reference executor"
	case RefC:
		return "naive C (cc -O2)"
	case RefNone:
		return "none"
	}
	return fmt.Sprintf("Reference(%d)", int(r))
}

// KernelError is a run of the compiled code that failed (a crash, a
// signal, a timeout): a wrong result rather than a bad build.
type KernelError struct{ *ToolError }

// Result is what a run measured.
type Result struct {
	// Times are the timed calls in order; Median is their median (the
	// mean of the middle two for an even count).
	Times  []time.Duration
	Median time.Duration
	// Check is the comparison with the reference; nil with RefNone.
	Check *Check
	// Outputs are the array arguments after the last call.
	Outputs map[string]*scop.Buffer
	// Build is the time spent building the kernel into an object file
	// (opt and llc for IR, the C compiler for C), harness and link
	// excluded.
	Build time.Duration
}

// Check is the outcome of comparing a run's arrays with the reference's.
type Check struct {
	Reference Reference // the oracle used (never RefAuto)
	Tolerance float64
	// Bitwise reports that every array equals the reference's bit for bit.
	Bitwise bool
	// MaxRelErr is the largest relative error over all floating-point
	// elements, |got - want| / max(|got|, |want|, 1) (+Inf for a NaN
	// against a number); integers differing count as +Inf.
	MaxRelErr float64
	// Diffs describes each array that differs beyond the tolerance.
	Diffs []string
}

// OK reports whether the run's outputs are right.
func (c *Check) OK() bool { return len(c.Diffs) == 0 }

func (c *Check) String() string {
	switch {
	case c.Bitwise:
		return fmt.Sprintf("ok: equal bit for bit to the %s", c.Reference)
	case c.OK():
		return fmt.Sprintf("ok: within relative tolerance %g of the %s (max relative error %.3g)", c.Tolerance, c.Reference, c.MaxRelErr)
	}
	tol := "bit for bit"
	if c.Tolerance > 0 {
		tol = fmt.Sprintf("within relative tolerance %g", c.Tolerance)
	}
	return fmt.Sprintf("WRONG: differs from the %s (%s; max relative error %.3g): %s", c.Reference, tol, c.MaxRelErr, strings.Join(c.Diffs, "; "))
}

// Run builds k with a harness for p at opts.Params, runs it on inputs
// from Inputs, times it, and checks its arrays against the reference.
// A wrong result is reported in Result.Check, not as an error; errors are
// bad parameters, failed builds and crashed runs.
func (tc *Toolchain) Run(p *scop.Program, k Kernel, opts Options) (*Result, error) {
	return tc.RunContext(context.Background(), p, k, opts)
}

// RunContext is Run under ctx: when ctx ends, the tool or program
// running is killed and RunContext returns an error wrapping ctx.Err(),
// having removed its temporary directory, as on every other return.
func (tc *Toolchain) RunContext(ctx context.Context, p *scop.Program, k Kernel, opts Options) (res *Result, err error) {
	defer stopped(ctx, &err)
	if opts.Repeat < 1 {
		return nil, fmt.Errorf("runner: repeat count %d is not positive", opts.Repeat)
	}
	warmup := opts.Warmup
	switch {
	case warmup == 0:
		warmup = 1
	case warmup < 0:
		warmup = 0
	}
	pr, err := tc.Prepare(ctx, p, k, opts)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	end := opts.phase("run")
	times, got, err := pr.Execute(ctx, warmup, opts.Repeat)
	end()
	if err != nil {
		return nil, err
	}
	res = &Result{Times: times, Median: median(times), Outputs: got, Build: pr.Build}
	if res.Check, err = pr.Check(ctx, got); err != nil {
		return nil, err
	}
	return res, nil
}

// stopped makes *err, when ctx has ended, an error that wraps ctx.Err().
func stopped(ctx context.Context, err *error) {
	if cerr := ctx.Err(); *err != nil && cerr != nil && !errors.Is(*err, cerr) {
		*err = fmt.Errorf("runner: stopped: %w (%v)", cerr, *err)
	}
}

// Prepared is a kernel built with its harness (Prepare), ready to be
// run several times, each time a process of its own (Execute), and its
// arrays checked (Check): bench interleaves the runs of several kernels
// so that a change in the machine's load touches them all alike.
type Prepared struct {
	tc   *Toolchain
	p    *scop.Program
	k    Kernel
	opts Options
	ref  Reference
	ses  *session
	bin  string
	// Build is the time spent building the kernel's object (opt and
	// llc, or the C compiler), harness and link excluded.
	Build time.Duration
}

// Prepare builds k with a harness for p at opts.Params in a directory
// (opts.Dir, or a temporary one that Close removes) holding the inputs.
// opts.Timeout bounds the build, and each Execute and Check apart.
// Repeat and Warmup are not used (Execute's arguments say). Close it.
func (tc *Toolchain) Prepare(ctx context.Context, p *scop.Program, k Kernel, opts Options) (pr *Prepared, err error) {
	defer stopped(ctx, &err)
	if k.Func == "" {
		return nil, errors.New("runner: the kernel has no function name")
	}
	if k.IR == "" && k.C == "" {
		return nil, errors.New("runner: the kernel has neither IR nor C")
	}
	if err := p.CheckParams(opts.Params); err != nil {
		return nil, err
	}
	if err := CheckBounds(p, opts.Params); err != nil {
		return nil, err
	}
	pr = &Prepared{tc: tc, p: p, k: k, opts: opts, ref: opts.Reference}
	if pr.ref == RefAuto && opts.Expected == nil {
		pr.ref = chooseReference(p, opts.Params, opts.ExecLimit)
	}
	sopts := opts
	sopts.Timeout = 0 // per step, below
	if pr.ses, err = newSession(ctx, p, sopts, "tilefuse-run-"); err != nil {
		return nil, err
	}
	pr.bin = filepath.Join(pr.ses.dir, "kernel")
	sctx, cancel := pr.step(ctx)
	defer cancel()
	if pr.Build, err = tc.build(sctx, p, opts.Params, k, pr.ses.dir, pr.bin, &pr.opts); err != nil {
		pr.Close()
		return nil, err
	}
	return pr, nil
}

// step is ctx bounded by opts.Timeout.
func (pr *Prepared) step(ctx context.Context) (context.Context, context.CancelFunc) {
	if pr.opts.Timeout > 0 {
		return context.WithTimeout(ctx, pr.opts.Timeout)
	}
	return context.WithCancel(ctx)
}

// Execute runs the harness once on the inputs: warmup untimed calls,
// then repeat timed ones. It returns the times and the arrays after the
// last call. A program that fails (a crash, a signal, opts.Timeout) is a
// *KernelError; one stopped because ctx ended is not.
func (pr *Prepared) Execute(ctx context.Context, warmup, repeat int) (times []time.Duration, got map[string]*scop.Buffer, err error) {
	return pr.run(ctx, warmup, repeat, true)
}

// Time is Execute without reading the arrays back: a timing round whose
// arrays nobody checks (an image pipeline's outputs are hundreds of
// megabytes a call).
func (pr *Prepared) Time(ctx context.Context, warmup, repeat int) ([]time.Duration, error) {
	times, _, err := pr.run(ctx, warmup, repeat, false)
	return times, err
}

func (pr *Prepared) run(ctx context.Context, warmup, repeat int, decode bool) (times []time.Duration, got map[string]*scop.Buffer, err error) {
	defer stopped(ctx, &err)
	if repeat < 1 {
		return nil, nil, fmt.Errorf("runner: repeat count %d is not positive", repeat)
	}
	sctx, cancel := pr.step(ctx)
	defer cancel()
	out := filepath.Join(pr.ses.dir, "out.bin")
	if !decode {
		out = os.DevNull
	}
	times, got, err = pr.tc.execute(sctx, pr.p, pr.ses.in, pr.bin, pr.ses.inFile, out, pr.opts.Threads, max(warmup, 0), repeat, pr.opts.Env...)
	var te *ToolError
	if errors.As(err, &te) && ctx.Err() == nil {
		return nil, nil, &KernelError{te}
	}
	return times, got, err
}

// Check compares arrays got from Execute with opts.Expected, or with the
// reference opts.Reference computes (RefAuto resolved as Run does); nil
// with RefNone.
func (pr *Prepared) Check(ctx context.Context, got map[string]*scop.Buffer) (c *Check, err error) {
	defer stopped(ctx, &err)
	ref := pr.ref
	var want map[string]*scop.Buffer
	switch {
	case pr.opts.Expected != nil:
		ref, want = pr.opts.Expected.Reference, pr.opts.Expected.Arrays
	case ref == RefNone:
		return nil, nil
	default:
		sctx, cancel := pr.step(ctx)
		defer cancel()
		end := pr.opts.phase("reference")
		want, err = pr.tc.reference(sctx, pr.p, pr.opts.Params, ref, pr.k.Func, pr.ses.in, pr.ses.dir, pr.ses.inFile)
		end()
		if err != nil {
			return nil, fmt.Errorf("runner: reference (%s): %w", ref, err)
		}
	}
	if c, err = compare(pr.p, got, want, pr.opts.Tolerance); err != nil {
		return nil, err
	}
	c.Reference = ref
	return c, nil
}

// Close removes the temporary directory (not opts.Dir).
func (pr *Prepared) Close() {
	if pr.ses != nil {
		pr.ses.close()
		pr.ses = nil
	}
}

// buildHarness builds k (in dir, files named after base) and links it
// with the harness into bin. It returns the time spent building k's
// object.
func (tc *Toolchain) buildHarness(ctx context.Context, p *scop.Program, params map[string]int64, k Kernel, dir, bin string) (time.Duration, error) {
	return tc.build(ctx, p, params, k, dir, bin, &Options{})
}

// build is buildHarness telling opts.Phases.
func (tc *Toolchain) build(ctx context.Context, p *scop.Program, params map[string]int64, k Kernel, dir, bin string, opts *Options) (time.Duration, error) {
	base := filepath.Base(bin)
	obj := filepath.Join(dir, base+".o")
	start := time.Now()
	name := "opt/llc"
	if k.IR == "" {
		name = "cc"
	}
	end := opts.phase(name)
	defer func() { end() }()
	if k.IR != "" {
		if err := os.WriteFile(filepath.Join(dir, base+".ll"), []byte(k.IR), 0o644); err != nil {
			return 0, err
		}
		if err := tc.object(ctx, k.IR, obj); err != nil {
			return 0, err
		}
	} else {
		cc, flags := tc.CC, []string{"-O2", "-ffp-contract=off", "-w"}
		if k.CC != "" {
			cc = k.CC
		}
		if k.CFlags != nil {
			flags = k.CFlags
		}
		if err := ctool.Compile(ctx, cc, nil, k.C, filepath.Join(dir, base+".c"), obj, append([]string{"-c"}, flags...)); err != nil {
			return 0, err
		}
	}
	build := time.Since(start)
	end()
	end = opts.phase("link")
	h, err := Harness(p, params, k.Func)
	if err != nil {
		return 0, err
	}
	hobj := filepath.Join(dir, base+"_main.o")
	if err := ctool.Compile(ctx, tc.CC, nil, h, filepath.Join(dir, base+"_main.c"), hobj, []string{"-c", "-O2"}); err != nil {
		return 0, err
	}
	objs := append([]string{obj, hobj}, k.Objects...)
	return build, tc.link(ctx, bin, objs, k.LDFlags...)
}

// runInputs is Inputs for the harness's arrays alone (its function's
// arguments: charness.Arguments), with the live-in arrays of given used
// in place of the generated ones.
func runInputs(p *scop.Program, params map[string]int64, given map[string]*scop.Buffer) (map[string]*scop.Buffer, error) {
	args := map[string]bool{}
	for _, a := range charness.ArrayArgs(p) {
		args[a.Name] = true
	}
	for name, b := range given {
		a := p.Array(name)
		if a == nil || !args[name] {
			return nil, fmt.Errorf("runner: input %s is not an array argument of %s", name, p.Name)
		}
		if !a.LiveIn {
			return nil, fmt.Errorf("runner: input %s: array %s is not live-in", name, name)
		}
		shape, err := a.Shape(params)
		if err != nil {
			return nil, err
		}
		if b.Type != a.Type || !slices.Equal(b.Shape, shape) {
			return nil, fmt.Errorf("runner: input %s has type %v and shape %v, want %v and %v", name, b.Type, b.Shape, a.Type, shape)
		}
	}
	return charness.Arguments(p, params, given)
}

// Expect computes, with the reference opts.Reference (RefAuto resolved
// as Run does; RefNone is refused), the arrays a run of p at
// opts.Params on opts.Inputs must end with, so that several kernels' runs
// (Options.Expected) share one reference computation. Params, Inputs,
// Reference, ExecLimit, Dir, Timeout and Phases are used.
func (tc *Toolchain) Expect(p *scop.Program, opts Options) (*Expected, error) {
	return tc.ExpectContext(context.Background(), p, opts)
}

// ExpectContext is Expect under ctx, as RunContext is Run.
func (tc *Toolchain) ExpectContext(ctx context.Context, p *scop.Program, opts Options) (*Expected, error) {
	if err := p.CheckParams(opts.Params); err != nil {
		return nil, err
	}
	if err := CheckBounds(p, opts.Params); err != nil {
		return nil, err
	}
	ref := opts.Reference
	switch ref {
	case RefAuto:
		ref = chooseReference(p, opts.Params, opts.ExecLimit)
	case RefNone:
		return nil, errors.New("runner: Expect needs a reference")
	}
	ses, err := newSession(ctx, p, opts, "tilefuse-ref-")
	if err != nil {
		return nil, err
	}
	defer ses.close()
	ctx, dir, in, inFile := ses.ctx, ses.dir, ses.in, ses.inFile
	end := opts.phase("reference")
	want, err := tc.reference(ctx, p, opts.Params, ref, "tilefuse_reference", in, dir, inFile)
	end()
	if err != nil {
		return nil, fmt.Errorf("runner: reference (%s): %w", ref, err)
	}
	return &Expected{Reference: ref, Arrays: want}, nil
}

// execute runs a harness binary and reads back its times and arrays
// (shaped like in).
func (tc *Toolchain) execute(ctx context.Context, p *scop.Program, in map[string]*scop.Buffer, bin, inFile, outFile string, threads, warmup, repeat int, extra ...string) ([]time.Duration, map[string]*scop.Buffer, error) {
	env := extra
	if threads > 0 {
		env = append(env[:len(env):len(env)], fmt.Sprintf("OMP_NUM_THREADS=%d", threads))
	}
	stdout, err := ctool.Output(ctx, env, bin, inFile, outFile, strconv.Itoa(warmup), strconv.Itoa(repeat))
	if err != nil {
		return nil, nil, err
	}
	var times []time.Duration
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		if ns, ok := strings.CutPrefix(sc.Text(), "tilefuse-time "); ok {
			v, err := strconv.ParseInt(ns, 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("runner: bad time line %q", sc.Text())
			}
			times = append(times, time.Duration(v))
		}
	}
	if len(times) != repeat {
		return nil, nil, fmt.Errorf("runner: the harness reported %d times for %d runs", len(times), repeat)
	}
	if outFile == os.DevNull {
		return times, nil, nil
	}
	f, err := os.Open(outFile)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	out, err := charness.DecodeFrom(bufio.NewReaderSize(f, 1<<20), p, in)
	return times, out, err
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// compare checks every array argument of got against want.
func compare(p *scop.Program, got, want map[string]*scop.Buffer, tol float64) (*Check, error) {
	c := &Check{Tolerance: tol, Bitwise: true}
	for _, a := range charness.ArrayArgs(p) {
		g, w := got[a.Name], want[a.Name]
		if g == nil || w == nil {
			return nil, fmt.Errorf("runner: no output for array %s", a.Name)
		}
		if !bytes.Equal(g.Data, w.Data) {
			c.Bitwise = false
		}
		c.MaxRelErr = math.Max(c.MaxRelErr, maxRelErr(g, w))
		m, err := scop.Compare(g, w, tol)
		if err != nil {
			return nil, err
		}
		if m != nil {
			c.Diffs = append(c.Diffs, fmt.Sprintf("array %s at %s", a.Name, m))
		}
	}
	return c, nil
}

// maxRelErr is the largest relative error of got's elements against
// want's, in the measure of Options.Tolerance.
func maxRelErr(got, want *scop.Buffer) float64 {
	worst := 0.0
	for i := int64(0); i < got.Len(); i++ {
		g, w := got.Load(i), want.Load(i)
		if !got.Type.IsFloat() {
			if g.I != w.I {
				return math.Inf(1)
			}
			continue
		}
		if math.IsNaN(g.F) || math.IsNaN(w.F) {
			if math.IsNaN(g.F) != math.IsNaN(w.F) {
				worst = math.Inf(1)
			}
			continue
		}
		if g.F == w.F {
			continue
		}
		d := math.Abs(g.F - w.F)
		if math.IsInf(d, 0) || math.IsNaN(d) {
			return math.Inf(1)
		}
		worst = math.Max(worst, d/math.Max(1, math.Max(math.Abs(g.F), math.Abs(w.F))))
	}
	return worst
}

// session is what one Run or Expect works in: a directory (opts.Dir, or
// a temporary one removed by close, which the caller defers so that every
// return removes it: a cancelled context, which kills the tools and the
// program, returns too), the deadline of opts.Timeout, and the inputs,
// also written to inFile in charness's format.
type session struct {
	ctx    context.Context
	dir    string
	in     map[string]*scop.Buffer
	inFile string
	close  func()
}

func newSession(ctx context.Context, p *scop.Program, opts Options, prefix string) (*session, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &session{dir: opts.Dir, ctx: ctx}
	var cleanups []func()
	s.close = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	if s.dir == "" {
		tmp, err := os.MkdirTemp("", prefix)
		if err != nil {
			return nil, err
		}
		s.dir = tmp
		cleanups = append(cleanups, func() { os.RemoveAll(tmp) })
	} else if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, err
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		s.ctx, cancel = context.WithTimeout(s.ctx, opts.Timeout)
		cleanups = append(cleanups, cancel)
	}
	fail := func(err error) (*session, error) {
		s.close()
		return nil, err
	}
	in, err := runInputs(p, opts.Params, opts.Inputs)
	if err != nil {
		return fail(err)
	}
	// The session holds the harness's arrays alone: a pipeline's
	// intermediates, which the reference executor allocates for itself,
	// are whole images that a kept session (tune keeps five, bench one
	// per column) would hold for nothing.
	s.in, s.inFile = in, filepath.Join(s.dir, "in.bin")
	if err := writeInputs(s.inFile, p, in); err != nil {
		return fail(err)
	}
	return s, nil
}

// writeInputs writes the harness's input file from the buffers, one
// array at a time.
func writeInputs(path string, p *scop.Program, in map[string]*scop.Buffer) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := charness.EncodeTo(f, p, in); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
