package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/bench/halide"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// Benchmark is one row to run: a program at its sizes, with its inputs.
type Benchmark struct {
	// Name is the row's name ("gemm"); Source what Config.Compile
	// compiles ("polybench/gemm").
	Name, Source string
	// Size labels the sizes ("MINI", "2048x2048").
	Size string
	Prog *scop.Program
	// Func is the name every column's function gets (PolyBench's
	// kernel_NAME, the pipeline's name).
	Func   string
	Params map[string]int64
	// Inputs are the contents of live-in arrays the benchmark brings;
	// the others get runner's generated ones.
	Inputs map[string]*scop.Buffer
	// Err, when set, is why the benchmark could not be prepared: every
	// cell of its row is Failed with it.
	Err error
}

// CompileFunc compiles b with a tilefuse strategy to LLVM IR defining
// b.Func, giving up when ctx is done.
type CompileFunc func(ctx context.Context, b *Benchmark, strategy compiler.Strategy) (ir string, err error)

// PeerSpec is a peer column: a C compiler and its flags for the naive C.
type PeerSpec struct {
	Name string
	// CC is the compiler driver's path; empty when it is not installed.
	CC    string
	Flags []string
	// Serial runs the binary on one thread (OMP_NUM_THREADS=1).
	Serial bool
	// Missing names what is not installed, when CC is empty.
	Missing string
	// Halide, for the Halide peers, is the installation that builds the
	// pipeline's generator (see package halide); CC is then g++. The
	// pipeline gets Schedule, and strict_float unless Contract.
	Halide   *halide.Install
	Schedule halide.Schedule
	Contract bool
	// HalideSrc, for halide-app, is the Halide v14 source tree whose
	// apps' own generators the column builds (halide.AppKernel).
	HalideSrc string
}

// PeerNames are the known peers, in column order.
var PeerNames = []string{"gcc", "gcc-serial", "polly", "polly-par", "halide", "halide-app", "halide-auto", "halide-adams", "halide-li"}

// DefaultPeers are the peers a run gets unless it names others: the
// Halide peers build a generator per pipeline and have none for
// PolyBench, so they are asked for by name.
var DefaultPeers = []string{"gcc", "gcc-serial", "polly", "polly-par"}

// halideSchedules are the Halide peers' schedules.
var halideSchedules = map[string]halide.Schedule{
	"halide": halide.Manual, "halide-app": halide.Manual, "halide-auto": halide.Auto, "halide-adams": halide.Adams, "halide-li": halide.Li,
}

// PeerOptions are what Peers needs besides the names.
type PeerOptions struct {
	// Contract lets the peers contract multiplies and adds (no
	// NoContract flag, no strict_float).
	Contract bool
	// Look finds a program (LookPath when nil).
	Look func(string) (string, error)
	// HalideSrc is the Halide v14 source tree of halide-app (--halide-src);
	// without one the column is skipped as not installed.
	HalideSrc string
}

// NoHalideSource is what halide-app misses without PeerOptions.HalideSrc.
const NoHalideSource = "a Halide v14 source tree (--halide-src DIR)"

// The compilers' flags. Peers build C objects; runner links them with
// libgomp (-fopenmp), which Polly's parallel loops call too. Polly runs
// in two modes, each as it is best: polly with its defaults (serial,
// with the pattern-matching optimisations that turn a matrix product
// into a tiled kernel on packed copies), and polly-par parallel
// (-polly-parallel: OpenMP loops) without them. The pair is excluded:
// LLVM 14's Polly puts the packed copies in buffers of the calling
// function that every OpenMP thread's outlined loop shares (seen in the
// IR of gemm), and issue 39 reports wrong results from it. On an AMD
// EPYC with 2 threads the pair computed gemm 1000x1100x1200, 2mm at
// LARGE's sizes and bench's MINI and MEDIUM gemm, 2mm, 3mm and syr2k
// right, so the wrong results are not reproduced here; a peer must be
// right by construction, not by luck. The table's best-polly column
// takes the faster verified of the two (AddBest).
var (
	gccFlags      = []string{"-O3", "-march=native", "-fopenmp"}
	pollyFlags    = []string{"-O3", "-march=native", "-mllvm", "-polly"}
	pollyParFlags = []string{"-O3", "-march=native", "-mllvm", "-polly", "-mllvm", "-polly-parallel", "-mllvm", "-polly-pattern-matching-based-opts=false"}
	clangPolly    = "clang-14"
)

// NoContract is the flag that keeps gcc and clang from contracting a
// multiply and an add into a fused multiply-add (which they do at -O3
// -march=native where the CPU has FMA): with it, a peer computes what
// tilefuse's code and the reference compute, bit for bit.
const NoContract = "-ffp-contract=off"

// Peers returns the specifications of the named peers, finding their
// compilers with o.Look: gcc for gcc and gcc-serial, clang-14 for polly
// and polly-par, Halide's files and g++ for the Halide peers
// (halide.Find), and for halide-app also o.HalideSrc, which must be
// Halide's source tree (halide.CheckSource). Unless o.Contract is set,
// their flags end with NoContract and Halide builds with strict_float.
// An unknown name is an error.
func Peers(names []string, o PeerOptions) ([]PeerSpec, error) {
	contract, look := o.Contract, o.Look
	if look == nil {
		look = LookPath
	}
	var out []PeerSpec
	flags := func(f []string) []string {
		f = slices.Clone(f)
		if !contract {
			f = append(f, NoContract)
		}
		return f
	}
	for _, name := range names {
		var p PeerSpec
		var prog string
		switch name {
		case "gcc":
			p, prog = PeerSpec{Name: name, Flags: flags(gccFlags)}, "gcc"
		case "gcc-serial":
			p, prog = PeerSpec{Name: name, Flags: flags(gccFlags), Serial: true}, "gcc"
		case "polly":
			// Serial code: no OpenMP loops (clang without -fopenmp
			// ignores the naive C's pragmas).
			p, prog = PeerSpec{Name: name, Flags: flags(pollyFlags), Serial: true}, clangPolly
		case "polly-par":
			p, prog = PeerSpec{Name: name, Flags: flags(pollyParFlags)}, clangPolly
		case "halide", "halide-app", "halide-auto", "halide-adams", "halide-li":
			p = PeerSpec{Name: name, Contract: contract, Schedule: halideSchedules[name]}
			if name == "halide-app" && o.HalideSrc != "" {
				if err := halide.CheckSource(o.HalideSrc); err != nil {
					return nil, fmt.Errorf("--halide-src: %w", err)
				}
				p.HalideSrc = o.HalideSrc
			}
			in, err := halide.Find(look)
			var miss *halide.MissingError
			switch {
			case errors.As(err, &miss):
				p.Missing = miss.What
			case err != nil:
				return nil, err
			case name == "halide-app" && p.HalideSrc == "":
				p.Missing = NoHalideSource
			default:
				p.Halide, p.CC = in, in.CXX
			}
			out = append(out, p)
			continue
		default:
			return nil, fmt.Errorf("unknown peer %q (%s)", name, strings.Join(PeerNames, ", "))
		}
		if path, err := look(prog); err == nil {
			p.CC = path
		} else {
			p.Missing = prog
		}
		out = append(out, p)
	}
	return out, nil
}

// LookPath finds a program on PATH by name (exec.LookPath) and checks
// that a file given by its absolute path exists: the look of Peers.
func LookPath(name string) (string, error) {
	if filepath.IsAbs(name) {
		if _, err := os.Stat(name); err != nil {
			return "", err
		}
		return name, nil
	}
	return exec.LookPath(name)
}

// description says how a peer's column is built and run.
func (p PeerSpec) description(threads int) string {
	if p.CC == "" {
		return fmt.Sprintf("not installed (%s not found)", p.Missing)
	}
	if p.Serial {
		threads = 1
	}
	if p.HalideSrc != "" {
		return fmt.Sprintf("Halide 14's own v14 app generators from %s, their own schedules, target=%s, %d %s; timed only: the apps' algorithms differ from the ports' (bench/halide/README.md)",
			p.HalideSrc, p.halideOptions(nil, threads).Target(), threads, plural(threads, "thread", "threads"))
	}
	if p.Halide != nil {
		return fmt.Sprintf("Halide 14 generator, %s, target=%s, %d %s", p.Schedule, p.halideOptions(nil, threads).Target(), threads, plural(threads, "thread", "threads"))
	}
	return fmt.Sprintf("naive C, %s %s, %d %s", baseName(p.CC), strings.Join(p.Flags, " "), threads, plural(threads, "thread", "threads"))
}

func baseName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// Config is what Run needs besides the benchmarks.
type Config struct {
	// Suite and Dataset label the table.
	Suite, Dataset string
	// Strategies are tilefuse's columns, compiled in this process by
	// compiler.Compile (or by Compile, when set) with Parallel and the
	// tile sizes Tile (none when empty).
	Strategies []compiler.Strategy
	Tile       []int64
	// InnerTile, when set, gives the innermost tile sizes of a benchmark
	// under post-tiling fusion (compiler.Options.InnerTile: the sizes
	// `tilefuse tune` chose); nil keeps the defaults.
	InnerTile func(b *Benchmark) []int64
	Compile   CompileFunc
	// Peers are the peers' columns, after the strategies.
	Peers []PeerSpec
	// Baseline names the column ratios are relative to.
	Baseline string
	// Threads is OMP_NUM_THREADS of every column but gcc-serial (at
	// least 1); Warmup and Repeat the untimed and timed calls of a cell.
	Threads, Warmup, Repeat int
	// Tolerance is the relative error the peers' checks allow (tilefuse's
	// are bit for bit): 0 unless the peers contract (NoContract).
	Tolerance float64
	// Timeout bounds each compilation, and each cell's build and run,
	// and each row's reference (0: none).
	Timeout time.Duration
	// Limits gives the work limits of each compilation: only its fields
	// MaxOps, MaxPieces, ScheduleWork and MaxNodes are used (zero: the
	// defaults).
	Limits compiler.Options
	// Env adds "KEY=value" entries to every cell's run: LD_PRELOAD of
	// the caching allocator (BuildCachingAllocator) for Allocator
	// "caching", which labels the table.
	Env       []string
	Allocator string
	Toolchain *runner.Toolchain
	Progress  *Progress
	Machine   *Machine
	// Context, when set, stops the run when it ends (an interrupt): the
	// tools and programs running are killed, every work directory is
	// removed, and the cells left fail at once.
	Context context.Context
}

// ctx is the run's context.
func (c *Config) ctx() context.Context {
	if c.Context == nil {
		return context.Background()
	}
	return c.Context
}

// Columns lists the table's columns for c.
func (c *Config) Columns() []Column {
	var cols []Column
	for _, s := range c.Strategies {
		d := "tilefuse --fuse " + s.String() + " --parallel"
		if len(c.Tile) > 0 {
			d += " --tile " + tiling.FormatSizes(c.Tile)
		}
		d += fmt.Sprintf(", opt/llc -O3 -mcpu=native, %d %s", c.Threads, plural(c.Threads, "thread", "threads"))
		cols = append(cols, Column{Name: s.String(), Kind: Tilefuse, Description: d})
	}
	for _, p := range c.Peers {
		cols = append(cols, Column{Name: p.Name, Kind: Peer, Description: p.description(c.Threads)})
	}
	return cols
}

// NewTable is the empty table of a run: its settings and columns.
func (c *Config) NewTable() *Table {
	return &Table{
		Suite: c.Suite, Dataset: c.Dataset, Threads: c.Threads, Warmup: c.Warmup, Repeat: c.Repeat,
		Tolerance: c.Tolerance, Baseline: c.Baseline, Columns: c.Columns(), Machine: c.Machine,
		Allocator: c.Allocator,
	}
}

// Run runs every benchmark under every column and returns the table. It
// does not stop at a failure: every cell gets its status.
func Run(cfg Config, benches []*Benchmark) *Table {
	t := cfg.NewTable()
	cfg.Progress.Begin(len(benches) * len(t.Columns))
	defer cfg.Progress.End()
	for _, b := range benches {
		if cfg.ctx().Err() != nil {
			break // interrupted: the rows so far
		}
		t.Rows = append(t.Rows, cfg.runRow(b, t.Columns))
		// A row's arrays (inputs, references, every column's outputs:
		// gigabytes for an image pipeline) are garbage now: give them
		// back before the next row allocates its own.
		debug.FreeOSMemory()
	}
	t.addBests()
	return t
}

// runRow runs one benchmark's cells. It builds every column's code
// first, then runs the columns in turn, round after round: each round
// runs every column once (starting one column later than the round
// before), in a process of its own, Warmup untimed calls
// and one timed call, so that a change in the machine's load during the
// row falls on every column alike rather than on one column's calls
// (Repeat rounds make a cell's Repeat times). Only the last round's
// arrays are read back, and each column's are checked and dropped at
// once (an image pipeline's are hundreds of megabytes per column).
func (cfg *Config) runRow(b *Benchmark, cols []Column) Row {
	row := Row{Name: b.Name, Size: b.Size, Params: b.Params, Cells: make([]Cell, len(cols))}
	done := func(j int, c Cell) {
		row.Cells[j] = c
		cfg.Progress.Done(b.Name, cols[j].Name, c)
	}
	fail := func(err error) Row {
		for j := range cols {
			done(j, Cell{Status: Failed, Err: err.Error()})
		}
		return row
	}
	if b.Err != nil {
		return fail(b.Err)
	}
	row.Compulsory = compulsory(b)
	cfg.Progress.Start(b.Name, "reference")
	exp, err := cfg.Toolchain.ExpectContext(cfg.ctx(), b.Prog, runner.Options{Params: b.Params, Inputs: b.Inputs, Timeout: cfg.Timeout})
	if err != nil {
		return fail(fmt.Errorf("no reference to check against: %v", err))
	}

	// Build every column.
	var built []*builtCell
	defer func() {
		for _, bc := range built {
			bc.pr.Close()
		}
	}()
	prepared := func(j int, bc *builtCell, c Cell) {
		if bc == nil {
			done(j, c)
			return
		}
		bc.col = j
		built = append(built, bc)
	}
	for j, s := range cfg.Strategies {
		cfg.Progress.Start(b.Name, s.String())
		bc, c := cfg.prepareStrategy(b, s, exp)
		prepared(j, bc, c)
	}
	var naive string
	var naiveErr error
	for k, p := range cfg.Peers {
		j := len(cfg.Strategies) + k
		cfg.Progress.Start(b.Name, p.Name)
		if p.CC == "" {
			done(j, Cell{Status: NotInstalled, Err: p.Missing + " not found"})
			continue
		}
		if p.Halide != nil {
			bc, c := cfg.prepareHalide(b, p, exp)
			prepared(j, bc, c)
			continue
		}
		if naive == "" && naiveErr == nil {
			naive, naiveErr = ParallelC(b.Prog, b.Func)
		}
		if naiveErr != nil {
			done(j, Cell{Status: BuildFailed, Err: "printing the naive C: " + naiveErr.Error()})
			continue
		}
		threads := cfg.Threads
		if p.Serial {
			threads = 1
		}
		k := runner.Kernel{C: naive, Func: b.Func, CC: p.CC, CFlags: p.Flags}
		bc, c := cfg.prepare(b, k, exp, threads, cfg.Tolerance)
		prepared(j, bc, c)
	}

	// The rounds, then the checks.
	// Each round starts one column later than the one before: with
	// identical code, the column run right after another ran 3% slower
	// (harris, auto then post), so no column always follows the same one.
	rounds := max(cfg.Repeat, 1)
	for r := 0; r < rounds; r++ {
		for i := range built {
			bc := built[(i+r)%len(built)]
			if bc.failed {
				continue
			}
			cfg.Progress.Start(b.Name, cols[bc.col].Name)
			c, ok := cfg.execute(bc, r == rounds-1)
			switch {
			case !ok:
				bc.failed = true
				done(bc.col, c)
			case r == rounds-1:
				// Checked at once, so that one column's arrays are
				// held at a time.
				done(bc.col, cfg.check(bc))
				bc.got = nil
			}
		}
	}
	return row
}

// builtCell is a column's code built for a row, and its runs so far.
type builtCell struct {
	col     int
	pr      *runner.Prepared
	compile time.Duration // tilefuse's compilation and the build
	times   []time.Duration
	got     map[string]*scop.Buffer
	failed  bool // a run failed; its cell is done
	// halideTarget is the Halide target of a Halide peer's pipeline.
	halideTarget string
	// unchecked, when set, says why the cell is timed only: it has no
	// reference to equal (the halide-app peer).
	unchecked string
}

// buildCtx is the context of one cell's build: the run's, bounded by
// Timeout.
func (cfg *Config) buildCtx() (context.Context, context.CancelFunc) {
	if cfg.Timeout > 0 {
		return context.WithTimeout(cfg.ctx(), cfg.Timeout)
	}
	return cfg.ctx(), func() {}
}

// prepareStrategy compiles b with tilefuse's strategy s and builds it;
// nil and the cell when it fails.
func (cfg *Config) prepareStrategy(b *Benchmark, s compiler.Strategy, exp *runner.Expected) (*builtCell, Cell) {
	if s == compiler.Schedule && (b.Prog == nil || b.Prog.Calls == nil || !b.Prog.Calls.Written) {
		return nil, Cell{Status: NoSchedule, Err: b.Name + "'s source writes no call schedule"}
	}
	ctx, cancel := cfg.buildCtx()
	defer cancel()
	start := time.Now()
	compile := cfg.Compile
	if compile == nil {
		compile = cfg.compile
	}
	ir, err := compile(ctx, b, s)
	gen := time.Since(start)
	switch {
	case err != nil && cfg.ctx().Err() != nil:
		return nil, Cell{Status: Failed, Err: err.Error()}
	case err != nil && ctx.Err() != nil:
		return nil, Cell{Status: TimedOut, Err: fmt.Sprintf("compiling took longer than %v", cfg.Timeout)}
	case err != nil:
		return nil, Cell{Status: BuildFailed, Err: err.Error()}
	}
	bc, c := cfg.prepare(b, runner.Kernel{IR: ir, Func: b.Func}, exp, cfg.Threads, 0)
	if bc != nil {
		bc.compile = gen + bc.pr.Build
	}
	return bc, c
}

// prepare builds one kernel with its harness; nil and the cell when it
// fails.
func (cfg *Config) prepare(b *Benchmark, k runner.Kernel, exp *runner.Expected, threads int, tol float64) (*builtCell, Cell) {
	start := time.Now()
	opts := runner.Options{
		Params: b.Params, Inputs: b.Inputs, Expected: exp, Threads: threads,
		Tolerance: tol, Timeout: cfg.Timeout, Env: cfg.Env,
	}
	if exp == nil {
		opts.Reference = runner.RefNone
	}
	pr, err := cfg.Toolchain.Prepare(cfg.ctx(), b.Prog, k, opts)
	if err != nil {
		return nil, cfg.failure(err, time.Since(start), "building")
	}
	return &builtCell{pr: pr}, Cell{}
}

// execute runs one round of a built cell: Warmup untimed calls and one
// timed call. It returns false and the cell when the run fails.
func (cfg *Config) execute(bc *builtCell, last bool) (Cell, bool) {
	start := time.Now()
	var times []time.Duration
	var err error
	if last {
		times, bc.got, err = bc.pr.Execute(cfg.ctx(), cfg.Warmup, 1)
	} else {
		// Only the last round's arrays are checked: the others are not
		// read back (a column's outputs can be gigabytes a round).
		times, err = bc.pr.Time(cfg.ctx(), cfg.Warmup, 1)
	}
	if err != nil {
		return cfg.runFailure(bc, err, time.Since(start)), false
	}
	bc.times = append(bc.times, times...)
	return Cell{}, true
}

// check makes the cell of a built cell whose rounds all ran: its times,
// and the check of its last round's arrays.
func (cfg *Config) check(bc *builtCell) Cell {
	c := Cell{Status: OK, Times: bc.times, Median: Median(bc.times), Compile: bc.compile}
	if bc.unchecked != "" {
		c.Check = bc.unchecked
		return c
	}
	start := time.Now()
	chk, err := bc.pr.Check(cfg.ctx(), bc.got)
	if err != nil {
		c := cfg.failure(err, time.Since(start), "checking")
		c.Compile = bc.compile
		return c
	}
	if chk != nil {
		c.Check, c.MaxRelErr = chk.String(), chk.MaxRelErr
		if !chk.OK() {
			c.Status, c.Err = Wrong, chk.String()
		}
	}
	return c
}

// failure is the cell of a step (building, running) that failed with
// err after d.
func (cfg *Config) failure(err error, d time.Duration, step string) Cell {
	var ke *runner.KernelError
	var te *runner.ToolError
	switch {
	case cfg.ctx().Err() != nil:
		return Cell{Status: Failed, Err: err.Error()}
	case cfg.Timeout > 0 && d >= cfg.Timeout:
		return Cell{Status: TimedOut, Err: fmt.Sprintf("%s took longer than %v", step, cfg.Timeout)}
	case errors.As(err, &ke):
		return Cell{Status: Crashed, Err: ke.Error()}
	case errors.As(err, &te):
		return Cell{Status: BuildFailed, Err: te.Error()}
	}
	return Cell{Status: Failed, Err: err.Error()}
}

// Median is the median of ts (the mean of the middle two for an even
// count), as runner's Result.Median.
func Median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	n := len(s)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// compile is the default CompileFunc: compiler.Compile in this process,
// with the parallel loops and tile sizes of the column's legend.
func (cfg *Config) compile(ctx context.Context, b *Benchmark, s compiler.Strategy) (string, error) {
	opts := compiler.Options{
		Strategy: s, Tile: tiling.Policy{Sizes: cfg.Tile}, Parallel: true, Func: b.Func,
		MaxOps: cfg.Limits.MaxOps, MaxPieces: cfg.Limits.MaxPieces, ScheduleWork: cfg.Limits.ScheduleWork, MaxNodes: cfg.Limits.MaxNodes,
	}
	if s == compiler.Post && cfg.InnerTile != nil {
		opts.InnerTile = cfg.InnerTile(b)
	}
	if s == compiler.Auto {
		opts.Estimate = b.Params // the cost model sizes the tiles for this run
	}
	r, err := compiler.Compile(ctx, b.Prog, opts)
	if err != nil {
		return "", err
	}
	return r.Module.IR, nil
}

// ParallelC is the naive C the peers compile: the original schedule's
// loops, with #pragma omp parallel for on the outermost parallel loops,
// printed as the function fn.
func ParallelC(p *scop.Program, fn string) (string, error) {
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.None, Parallel: true, Stop: compiler.StageAST})
	if err != nil {
		return "", err
	}
	return r.C(fn)
}

// compulsory is the bytes of b's input arrays and output arrays (an array
// both read and written counts twice).
func compulsory(b *Benchmark) int64 {
	var n int64
	for _, a := range b.Prog.Arrays {
		shape, err := a.Shape(b.Params)
		if err != nil {
			return 0
		}
		size := int64(a.Type.Size())
		for _, d := range shape {
			size *= d
		}
		if a.LiveIn {
			n += size
		}
		if a.LiveOut {
			n += size
		}
	}
	return n
}
