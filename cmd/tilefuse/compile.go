package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"tilefuse/ast"
	"tilefuse/emit"
	"tilefuse/polybench"
	"tilefuse/runner"
	"tilefuse/scheduletree"
	"tilefuse/scop"
)

const compileHelp = `
Compiles SOURCE to LLVM IR: schedules it (--fuse, as 'tilefuse tree'),
tiles the outermost permutable band of every subtree (--tile), generates
the loops (as 'tilefuse ast') and emits one function. -o OUT writes OUT.ll
(the IR, for LLVM 14's opt and llc) and OUT.h (a C header declaring the
function); with -c it builds the IR (opt -O3, llc -O3, -mcpu=native) and
writes the object file OUT instead, which needs opt and llc (Debian
package llvm-14). Nothing is written unless compilation succeeds.

The function has the C signature of the source function: size parameters
as int, arrays as pointers, floating scalars by value, in the source's
order. For a C file with function f it is called f (a drop-in
replacement: link the object in place of f's definition, with -fopenmp
or -lgomp when --parallel is given); for polybench/NAME it is PolyBench's
kernel_NAME; --func picks the function when SOURCE has several.

--tile T,... gives the tile size of each band member; the last size
repeats for further members. --parallel runs the outermost coincident
loops on OpenMP threads (libgomp). --target cuda emits NVPTX kernels with
host code; cuda-emulate runs the same kernel mapping on the CPU.
` + sourceHelp

// compileFlags are the options compile and run share.
type compileFlags struct {
	target, fuse, tile, fn *string
	parallel               *bool
}

func addCompileFlags(fs *flag.FlagSet, parallel bool) *compileFlags {
	return &compileFlags{
		target:   fs.String("target", "cpu", "cpu, cuda or cuda-emulate"),
		fuse:     fs.String("fuse", "smart", "none (original order), min, smart or max"),
		tile:     fs.String("tile", "", "tile sizes T,... of the outermost permutable bands"),
		fn:       fs.String("func", "", "the C function to compile, when SOURCE has several"),
		parallel: fs.Bool("parallel", parallel, "run the outermost coincident loops in parallel"),
	}
}

// compileJob is a checked command line of compile or run.
type compileJob struct {
	source string
	p      *scop.Program
	target emit.Target
	fuse   string
	tiles  []int64
	fn     string // the emitted function's name
	par    bool
}

// check validates the flags and loads SOURCE; errors are one line.
func (f *compileFlags) check(cmd, source string) (*compileJob, error) {
	j := &compileJob{source: source, fuse: *f.fuse, par: *f.parallel}
	switch *f.target {
	case "cpu":
		j.target = emit.CPU
	case "cuda":
		j.target = emit.CUDA
	case "cuda-emulate":
		j.target = emit.CUDAEmulate
	default:
		return nil, fmt.Errorf("tilefuse %s: unknown target %q (cpu, cuda or cuda-emulate)", cmd, *f.target)
	}
	switch j.fuse {
	case "none", "min", "smart", "max":
	default:
		return nil, fmt.Errorf("tilefuse %s: unknown fusion heuristic %q (none, min, smart or max)", cmd, j.fuse)
	}
	if *f.tile != "" {
		for _, s := range strings.Split(*f.tile, ",") {
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil || v <= 0 {
				return nil, fmt.Errorf("tilefuse %s: --tile %s: %q is not a positive tile size", cmd, *f.tile, s)
			}
			j.tiles = append(j.tiles, v)
		}
	}
	p, err := loadOne(cmd, source, *f.fn)
	if err != nil {
		return nil, err
	}
	j.p = p
	j.fn = emittedName(source, p)
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

// emitModule runs the pipeline: schedule, tile, generate, emit.
func (j *compileJob) emitModule() (*emit.Module, error) {
	t, err := scheduleProgram(j.p, j.fuse)
	if err != nil {
		return nil, err
	}
	if len(j.tiles) > 0 {
		if t, err = tileOutermost(t, j.tiles); err != nil {
			return nil, err
		}
	}
	n, err := ast.Generate(t, ast.Options{Parallel: j.par})
	if err != nil {
		return nil, err
	}
	return emit.Emit(j.p, n, emit.Options{Target: j.target, Func: j.fn, Parallel: j.par})
}

// tileOutermost tiles every permutable band that has no permutable band
// above it: member k by sizes[k], the last size repeating.
func tileOutermost(t scheduletree.Tree, sizes []int64) (scheduletree.Tree, error) {
	var paths []scheduletree.Path
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindBand && n.Band().Permutable {
			paths = append(paths, append(scheduletree.Path{}, p...))
			return false
		}
		return true
	})
	// The bands head disjoint subtrees: tiling one (a band inserted below
	// it) moves no other's path.
	for i := range paths {
		n, err := t.At(paths[i])
		if err != nil {
			return t, err
		}
		m := n.Band().Members()
		s := make([]int64, m)
		for k := range s {
			s[k] = sizes[min(k, len(sizes)-1)]
		}
		if t, err = t.TileBand(paths[i], s); err != nil {
			return t, err
		}
	}
	return t, nil
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
	cf := addCompileFlags(fs, false)
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
	var tc *runner.Toolchain
	if *obj {
		// Before the work: a missing toolchain is the likeliest failure.
		if tc, err = runner.FindToolchain(); err != nil {
			return fail(fmt.Errorf("tilefuse compile: -c: %v", err))
		}
	}
	mod, err := j.emitModule()
	if err != nil {
		return fail(fmt.Errorf("tilefuse compile: %s: %v", j.source, err))
	}
	if *obj {
		if err := tc.Object(mod.IR, *out); err != nil {
			return fail(fmt.Errorf("tilefuse compile: building %s: %v", *out, err))
		}
		return exitOK
	}
	base := strings.TrimSuffix(*out, ".ll")
	if err := runner.WriteFileAtomic(base+".ll", []byte(mod.IR)); err != nil {
		return fail(fmt.Errorf("tilefuse compile: %v", err))
	}
	if err := runner.WriteFileAtomic(base+".h", []byte(mod.Header)); err != nil {
		os.Remove(base + ".ll") // both files or neither
		return fail(fmt.Errorf("tilefuse compile: %v", err))
	}
	return exitOK
}
