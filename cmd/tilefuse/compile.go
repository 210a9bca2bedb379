package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/internal/safefile"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

const compileHelp = `
Compiles SOURCE to LLVM IR: schedules it (--fuse, as 'tilefuse tree'),
tiles the outermost permutable band of every subtree (--tile), generates
the loops (as 'tilefuse ast') and emits one function. With no --fuse or
--tile, strategy auto decides both: post-tiling fusion with the cost
model's tile sizes where it fuses stages (the pipelines), otherwise min
with its bands of two or more members tiled 32 where tiles bring reuse
or parallelism, not where rows stream ('tilefuse explain
--fuse auto SOURCE' says what it picked). -o OUT writes OUT.ll
(the IR, for LLVM 14's opt and llc) and OUT.h (a C header declaring the
function); with -c it builds the IR (opt -O3, llc -O3, -mcpu=native) and
writes the object file OUT instead, which needs opt and llc (Debian
package llvm-14); a large module is built in pieces on every core
(llvm-split, then objcopy keeps only the function global). Nothing is
written unless compilation succeeds.

The function has the C signature of the source function: size parameters
as int, arrays as pointers, floating scalars by value, in the source's
order. For a C file with function f it is called f (a drop-in
replacement: link the object in place of f's definition, with -fopenmp
or -lgomp unless --parallel=false); for polybench/NAME it is PolyBench's
kernel_NAME; --func picks the function when SOURCE has several.

--tile T,... gives the tile size of each band member; the last size
repeats for further members. --parallel (the default; --parallel=false
for serial code) runs the outermost coincident loops on OpenMP threads
(libgomp).

--tree TREE compiles a schedule tree of SOURCE (JSON or isl YAML, as
'tilefuse tree' writes them) instead of scheduling it (not with --fuse):
the tree must schedule exactly SOURCE's instances, and a tree that
breaks a dependence or marks a member coincident that carries one is
refused with a pair of instances (exit status 1) unless --unchecked is
given. 'tilefuse run' takes the same flags.

--fuse post is post-tiling fusion ('tilefuse explain' shows its
decisions): the cheap pointwise stages are first inlined into their
consumers (--inline=false keeps them), then the live-out spaces are
tiled (default 32 rows by 256 columns, outer members of constant
extent up to 8, such as an image's
channels, whole, others 1) and their producers are computed inside each
tile, in tile-local buffers. --max-recompute R (default 1.5) keeps a
producer out of the tiles when they would run more than R times its
instances (estimated at 2048 per size parameter), as a coarse pyramid
level read by a fine one's tiles would; 0 removes the bound.

--target cuda maps the schedule to a GPU (gpumap.Map: the outer parallel
members of each nest to blocks, the next ones, or the point members of
tiles, to threads, with 'kernel' and 'thread' marks; marks already in the
tree are kept; band members stay in the scheduler's order, where the cpu
target moves the member of best locality innermost) and emits NVPTX kernels with host code of the same C
signature that runs them through the CUDA driver (libcuda.so.1, opened at
run time: link with -ldl). -o OUT writes OUT.kernel.ll (the kernels,
nvptx64-nvidia-cuda), OUT.ptx (llc -march=nvptx64 -mcpu=sm_80, when llc
is found), OUT.ll (the host IR, with the PTX embedded when it was made)
and OUT.h; with -c the object file OUT holds the host code and the PTX.
--target cuda-emulate emits the same kernels for the CPU (blocks one
after the other, each block's threads an OpenMP team, barriers as
GOMP_barrier): it links and runs like the cpu target and checks the
mapping without a GPU. --thread-sizes X,Y,Z bounds the threads of a block
(default 32,8,1; the emulation is faster with small blocks such as 4,2)
and --block-sizes X,Y,Z the blocks of a grid; loops longer than that take
several iterations per thread or block.
` + limitsHelp + sourceHelp

// compileFlags are the options compile and run share.
type compileFlags struct {
	target, fuse, tile, fn  *string
	threadSizes, blockSizes *string
	parallel                *bool
	maxRecompute            *float64
	inline                  *bool
	keepScalars             *bool
	keepLayout              *bool
	recomputeTables         *bool
	limits                  *limitFlags
	tree                    *string
	unchecked               *bool
	// jscop is --jscop where the command has it (compile, run).
	jscop *jscopFiles
	fs    *flag.FlagSet
}

func addCompileFlags(fs *flag.FlagSet, parallel bool) *compileFlags {
	return &compileFlags{
		target:          fs.String("target", "cpu", "cpu, cuda or cuda-emulate"),
		fuse:            fs.String("fuse", compiler.Auto.String(), "fusion strategy: "+compiler.StrategyChoices()),
		tile:            fs.String("tile", "", "tile sizes T,... of the outermost permutable bands, or tuned: the sizes 'tilefuse tune' chose (--fuse post)"),
		fn:              fs.String("func", "", "the C function to compile, when SOURCE has several"),
		parallel:        fs.Bool("parallel", parallel, "run the outermost coincident loops in parallel"),
		threadSizes:     fs.String("thread-sizes", "", "GPU targets: the most threads per block along x,y,z (default 32,8,1)"),
		blockSizes:      fs.String("block-sizes", "", "GPU targets: the most blocks along x,y,z (default 65535,65535,65535)"),
		maxRecompute:    addMaxRecompute(fs),
		inline:          addInline(fs),
		keepScalars:     addKeepScalars(fs),
		keepLayout:      addKeepLayout(fs),
		recomputeTables: fs.Bool("recompute-tables", false, "compute constant tables (a stage that reads no input and no parameter, as camera_pipe's tone curve) at every call: by default the CPU code computes them on a calling thread's first call and keeps them"),
		limits:          addLimitFlags(fs, true),
		tree:            fs.String("tree", "", "compile this schedule tree of SOURCE (JSON or isl YAML) instead of scheduling it"),
		unchecked:       fs.Bool("unchecked", false, "with --tree or --jscop: compile the schedule even if it is illegal for SOURCE"),
		fs:              fs,
	}
}

// userTree reads --tree into j's options: the tree must schedule
// exactly SOURCE's instances and, unless --unchecked, respect its
// dependences and band flags; an illegal tree is refused with its
// witness (status exitCheck). done reports that the command must end
// with status.
func (f *compileFlags) userTree(e *env, cmd string, j *compileJob) (status int, done bool) {
	fused := false
	f.fs.Visit(func(fl *flag.Flag) { fused = fused || fl.Name == "fuse" })
	if f.jscop != nil && len(*f.jscop) > 0 {
		return f.jscopSchedule(e, cmd, j, fused)
	}
	switch {
	case *f.tree == "" && *f.unchecked:
		fmt.Fprintf(e.stderr, "tilefuse %s: --unchecked applies to a --tree TREE\n", cmd)
		return exitUsage, true
	case *f.tree == "":
		return exitOK, false
	case fused:
		fmt.Fprintf(e.stderr, "tilefuse %s: --fuse schedules SOURCE; it does not apply to --tree\n", cmd)
		return exitUsage, true
	}
	t, err := readTreeFile(*f.tree)
	if err == nil {
		err = scheduletree.Validate(t)
	}
	if err == nil {
		j.p, err = compiler.ProgramForTree(j.p, t)
	}
	if err == nil {
		err = compiler.CheckTree(j.p, t)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse %s: %s: %s\n", cmd, *f.tree, oneLine(err))
		return exitUsage, true
	}
	if !*f.unchecked {
		if status, refused := refuseIllegal(e, cmd, *f.tree, j.p, t); refused {
			return status, true
		}
	}
	j.opts.Tree = &t
	return exitOK, false
}

// jscopSchedule reads --jscop into j's options, checked as userTree
// checks a --tree.
func (f *compileFlags) jscopSchedule(e *env, cmd string, j *compileJob, fused bool) (status int, done bool) {
	switch {
	case *f.tree != "":
		fmt.Fprintf(e.stderr, "tilefuse %s: --tree and --jscop both give the schedule; pick one\n", cmd)
		return exitUsage, true
	case fused:
		fmt.Fprintf(e.stderr, "tilefuse %s: --fuse schedules SOURCE; it does not apply to --jscop\n", cmd)
		return exitUsage, true
	}
	t, status, done := jscopTree(e, cmd, j.p, *f.jscop, *f.unchecked)
	if done {
		return status, true
	}
	j.opts.Tree = &t
	return exitOK, false
}

// addMaxRecompute registers --max-recompute, post-tiling fusion's bound.
func addMaxRecompute(fs *flag.FlagSet) *float64 {
	return fs.Float64("max-recompute", fusion.DefaultMaxRecompute, "--fuse post: fuse a space only when its tiles run at most this many times its instances (estimated; 0 or less: no bound)")
}

// addInline registers --inline, strategy post's first step.
func addInline(fs *flag.FlagSet) *bool {
	return fs.Bool("inline", true, "--fuse post: first substitute the cheap pointwise stages into their consumers (package inline)")
}

// addKeepScalars registers --keep-scalars.
func addKeepScalars(fs *flag.FlagSet) *bool {
	return fs.Bool("keep-scalars", false, "keep every temporary scalar: by default the scheduling strategies first map a scalar that carries a value through a loop onto the array element it is stored to, where the dataflow allows it exactly (package delicm)")
}

// addKeepLayout registers --keep-layout.
func addKeepLayout(fs *flag.FlagSet) *bool {
	return fs.Bool("keep-layout", false, "keep every array's layout: by default min and post (so auto) give a read-only array that a statement reads across its rows, where no loop order makes every access contiguous, a transposed copy (package transpose)")
}

// recomputeOption is the compiler's MaxRecompute for the flag's value v.
func recomputeOption(v float64) float64 {
	if v <= 0 {
		return -1
	}
	return v
}

// compileJob is a checked command line of compile or run.
type compileJob struct {
	source string
	p      *scop.Program
	opts   compiler.Options
	// timeout bounds the compilation (--timeout; 0: none).
	timeout time.Duration
}

// gpu reports whether the job targets a GPU (or its emulation).
func (j *compileJob) gpu() bool { return j.opts.Target.GPU() }

// positiveList reads "A,B,..." of positive integers for flag name.
func positiveList(cmd, name, s string, most int) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("tilefuse %s: --%s %s: %q is not a positive size", cmd, name, s, f)
		}
		out = append(out, v)
	}
	if len(out) > most {
		return nil, fmt.Errorf("tilefuse %s: --%s %s: at most %d sizes (x,y,z)", cmd, name, s, most)
	}
	return out, nil
}

// parseStrategy reads --fuse for command cmd.
func parseStrategy(cmd, name string) (compiler.Strategy, error) {
	s, err := compiler.ParseStrategy(name)
	if err != nil {
		return s, fmt.Errorf("tilefuse %s: %v", cmd, err)
	}
	return s, nil
}

// parseTile reads --tile for command cmd ("" is no tiling).
func parseTile(cmd, tile string) ([]int64, error) {
	if tile == "" {
		return nil, nil
	}
	sizes, err := tiling.ParseSizes(tile)
	if err != nil {
		return nil, fmt.Errorf("tilefuse %s: --tile %s: %v", cmd, tile, err)
	}
	return sizes, nil
}

// check validates the flags and loads SOURCE; errors are one line.
func (f *compileFlags) check(cmd, source string) (*compileJob, error) {
	j := &compileJob{source: source, opts: compiler.Options{Parallel: *f.parallel, MaxRecompute: recomputeOption(*f.maxRecompute), NoInline: !*f.inline, KeepScalars: *f.keepScalars, KeepLayout: *f.keepLayout,
		RecomputeTables: *f.recomputeTables}}
	var err error
	if err = f.limits.apply(cmd, &j.opts); err != nil {
		return nil, err
	}
	j.timeout = *f.limits.timeout
	if j.opts.Target, err = emit.ParseTarget(*f.target); err != nil {
		return nil, fmt.Errorf("tilefuse %s: %v", cmd, err)
	}
	if j.opts.Strategy, err = parseStrategy(cmd, *f.fuse); err != nil {
		return nil, err
	}
	tuned := *f.tile == "tuned"
	if !tuned {
		if j.opts.Tile.Sizes, err = parseTile(cmd, *f.tile); err != nil {
			return nil, err
		}
	}
	for _, x := range []struct {
		name string
		flag *string
		dst  *[]int64
	}{{"thread-sizes", f.threadSizes, &j.opts.GPU.Threads}, {"block-sizes", f.blockSizes, &j.opts.GPU.Blocks}} {
		if *x.flag == "" {
			continue
		}
		if !j.gpu() {
			return nil, fmt.Errorf("tilefuse %s: --%s applies to --target cuda and cuda-emulate", cmd, x.name)
		}
		v, err := positiveList(cmd, x.name, *x.flag, 3)
		if err != nil {
			return nil, err
		}
		*x.dst = v
	}
	p, err := loadOne(cmd, source, *f.fn)
	if err != nil {
		return nil, err
	}
	j.p = p
	j.opts.Func = emittedName(source, p)
	if tuned {
		if j.opts.InnerTile, err = tunedSizes(cmd, j); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// emittedName is the name of the source function: PolyBench's
// kernel_NAME for a built-in kernel, the program's name otherwise (the C
// function, or the pipeline).
func emittedName(source string, p *scop.Program) string {
	if name, ok := strings.CutPrefix(source, "polybench/"); ok {
		if k, ok := polybench.Lookup(name); ok {
			return k.Func
		}
	}
	b := []byte(p.Name)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "kernel"
	}
	return string(b)
}

// emitModule runs the spine: schedule, tile, fuse, map, generate, emit,
// showing the slow stages on prog. It also returns what strategy auto
// picked ("" without --fuse auto).
func (j *compileJob) emitModule(ctx context.Context, prog *progress) (*emit.Module, string, error) {
	r, err := prog.compile(ctx, j)
	if err != nil {
		return nil, "", err
	}
	return r.Module, r.Auto, nil
}

// cudaHost compiles a CUDA module's kernels to PTX with llc and returns
// the PTX and the host IR with it embedded. Kernels that call libdevice
// (__nv_expf, ...) get it linked in first when libdevice.10.bc is found
// (CUDA_HOME, CUDA_PATH, /usr/local/cuda, Debian's nvidia-cuda-toolkit),
// else libclc's NVPTX bitcode (Debian's libclc-14, or TILEFUSE_LIBCLC)
// through emit.LibclcShim; without either, or with a function neither
// provides, it fails naming the functions: a PTX module with an external
// call is never written, since the driver would not load it.
func cudaHost(ctx context.Context, tc *runner.Toolchain, mod *emit.Module) (ptx, host string, err error) {
	dir, err := os.MkdirTemp("", "tilefuse-ptx-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "kernel.ll"), filepath.Join(dir, "kernel.ptx")
	if err := os.WriteFile(in, []byte(mod.KernelIR), 0o644); err != nil {
		return "", "", err
	}
	tool := func(name string, args ...string) error {
		if msg, err := exec.CommandContext(ctx, name, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", filepath.Base(name), err, strings.TrimSpace(string(msg)))
		}
		return nil
	}
	if calls := emit.CUDAMathCalls(mod.KernelIR); len(calls) > 0 {
		libs, err := cudaMath(calls, dir, tc)
		if err != nil {
			return "", "", err
		}
		linked := filepath.Join(dir, "linked.bc")
		if err := tool(llvmLink(tc), append(append([]string{"--only-needed", in}, libs...), "-o", linked)...); err != nil {
			return "", "", err
		}
		in = linked
	}
	if err := tool(tc.LLC, "-O3", "-march=nvptx64", "-mcpu=sm_80", in, "-o", out); err != nil {
		return "", "", err
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return "", "", err
	}
	if ext := emit.PTXExterns(string(data)); len(ext) > 0 {
		return "", "", fmt.Errorf("the PTX calls %s, which nothing defines: the CUDA driver would not load it", strings.Join(ext, ", "))
	}
	host, err = mod.EmbedPTX(string(data))
	return string(data), host, err
}

// cudaMath returns the bitcode files that define the libdevice functions
// calls for llvm-link: libdevice.10.bc, or a shim (written in dir) and
// libclc's bitcode.
func cudaMath(calls []string, dir string, tc *runner.Toolchain) ([]string, error) {
	names := strings.Join(calls, ", ")
	if llvmLink(tc) == "" {
		return nil, fmt.Errorf("the kernels call %s, and llvm-link (LLVM 14) was not found to link their definitions: apt-get install llvm-14", names)
	}
	if lib := libdevice(); lib != "" {
		return []string{lib}, nil
	}
	clc := libclc()
	if clc == "" {
		return nil, fmt.Errorf("the kernels call %s, and neither CUDA's libdevice.10.bc (set CUDA_HOME) nor libclc's NVPTX bitcode (apt-get install libclc-14, or set TILEFUSE_LIBCLC) was found: the CUDA driver would not load the PTX", names)
	}
	shim, err := emit.LibclcShim(calls)
	if err != nil {
		return nil, err
	}
	f := filepath.Join(dir, "libclc-shim.ll")
	if err := os.WriteFile(f, []byte(shim), 0o644); err != nil {
		return nil, err
	}
	return []string{f, clc}, nil
}

// libclc finds libclc's NVPTX bitcode: TILEFUSE_LIBCLC when set (a path;
// none when it does not exist), else Debian libclc-14's.
func libclc() string {
	f := os.Getenv("TILEFUSE_LIBCLC")
	if f == "" {
		f = "/usr/lib/clc/nvptx64--nvidiacl.bc"
	}
	if _, err := os.Stat(f); err != nil {
		return ""
	}
	return f
}

// libdevice finds CUDA's libdevice.10.bc.
func libdevice() string {
	var dirs []string
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if d := os.Getenv(v); d != "" {
			dirs = append(dirs, filepath.Join(d, "nvvm", "libdevice"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/nvvm/libdevice", "/usr/lib/nvidia-cuda-toolkit/libdevice", "/usr/lib/cuda/nvvm/libdevice")
	for _, d := range dirs {
		f := filepath.Join(d, "libdevice.10.bc")
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return ""
}

// llvmLink finds LLVM 14's llvm-link, next to llc first.
func llvmLink(tc *runner.Toolchain) string {
	for _, name := range []string{filepath.Join(filepath.Dir(tc.LLC), "llvm-link"), "llvm-link-14", "llvm-link"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// parseInterspersed parses flags given before or after the positional
// arguments (tilefuse run polybench/gemm --dataset MINI) and returns the
// positional ones; "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, e *env, cmd *command, help string, args []string) ([]string, error) {
	if err := parseFlags(fs, e, cmd, help, args); err != nil {
		return nil, err
	}
	var pos []string
	for rest := fs.Args(); len(rest) > 0; rest = fs.Args() {
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
		if err := fs.Parse(args); err != nil {
			fmt.Fprintf(e.stderr, "tilefuse %s: %v (see 'tilefuse %s -h')\n", cmd.name, err, cmd.name)
			return nil, err
		}
	}
	return pos, nil
}

func runCompile(e *env, args []string) int {
	cmd := lookup("compile")
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	cf := addCompileFlags(fs, true)
	cf.jscop = addJSCoP(fs)
	obj := fs.Bool("c", false, "build the IR and write the object file OUT")
	out := fs.String("o", "", "the output: OUT.ll and OUT.h, or with -c the object file OUT")
	pos, err := parseInterspersed(fs, e, cmd, compileHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(err error) int {
		fmt.Fprintln(e.stderr, strings.ReplaceAll(err.Error(), "\n", "; "))
		return exitUsage
	}
	if len(pos) != 1 {
		return fail(fmt.Errorf("tilefuse compile: want one SOURCE; usage: tilefuse compile %s", cmd.args))
	}
	if *out == "" {
		return fail(fmt.Errorf("tilefuse compile: -o OUT is required; usage: tilefuse compile %s", cmd.args))
	}
	j, err := cf.check("compile", pos[0])
	if err != nil {
		return fail(err)
	}
	if status, done := cf.userTree(e, "compile", j); done {
		return status
	}
	var tc *runner.Toolchain
	if *obj {
		// Before the work: a missing toolchain is the likeliest failure.
		if tc, err = runner.FindToolchain(); err != nil {
			return fail(fmt.Errorf("tilefuse compile: -c: %v", err))
		}
	}
	ctx, stop, caught := interruptible()
	defer stop()
	stopped := func() (int, bool) {
		if s := caught(); s != nil {
			fmt.Fprintf(e.stderr, "tilefuse compile: %v: stopped; nothing written\n", s)
			return signalStatus(s), true
		}
		return 0, false
	}
	prog := newProgress(e.stderr, "compile")
	mod, _, err := j.emitModule(ctx, prog)
	if st, ok := stopped(); ok {
		return st
	}
	if err != nil {
		return fail(fmt.Errorf("tilefuse compile: %s: %v", j.source, err))
	}
	// For CUDA, the host IR needs the kernels' PTX, from llc.
	hostIR, ptx := mod.IR, ""
	if j.opts.Target == emit.CUDA && mod.KernelIR != "" {
		ptc := tc
		if ptc == nil {
			ptc, _ = runner.FindToolchain()
		}
		if ptc != nil {
			end := prog.phase("llc (PTX)")
			ptx, hostIR, err = cudaHost(ctx, ptc, mod)
			end()
			if st, ok := stopped(); ok {
				return st
			}
			if err != nil {
				return fail(fmt.Errorf("tilefuse compile: %s: %v", j.source, err))
			}
		} else {
			fmt.Fprintf(e.stderr, "tilefuse compile: llc (LLVM 14) not found: no PTX; the host code needs %s defined\n", mod.PTXSymbol)
		}
	}
	if *obj {
		end := prog.phase("opt/llc")
		err := tc.ObjectContext(ctx, hostIR, *out)
		end()
		if st, ok := stopped(); ok {
			return st
		}
		if err != nil {
			return fail(fmt.Errorf("tilefuse compile: building %s: %v", *out, err))
		}
		return exitOK
	}
	base := strings.TrimSuffix(*out, ".ll")
	files := []safefile.File{{Name: base + ".ll", Data: []byte(hostIR)}, {Name: base + ".h", Data: []byte(mod.Header)}}
	if j.opts.Target == emit.CUDA {
		files = append(files, safefile.File{Name: base + ".kernel.ll", Data: []byte(mod.KernelIR)})
		if ptx != "" {
			files = append(files, safefile.File{Name: base + ".ptx", Data: []byte(ptx)})
		}
	}
	// All files or none: each goes to a temporary file first, and a
	// failure leaves the files already there as they were.
	if err := safefile.WriteAll(files); err != nil {
		return fail(fmt.Errorf("tilefuse compile: %v", fileError(err)))
	}
	return exitOK
}
