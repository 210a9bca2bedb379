package emit

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

// Target selects what Emit generates.
type Target int

// The targets.
const (
	// CPU is a host function with GOMP parallel loops.
	CPU Target = iota
	// CUDA is NVPTX kernels with host launch code.
	CUDA
	// CUDAEmulate runs the kernel mapping on the host.
	CUDAEmulate
)

func (t Target) String() string {
	switch t {
	case CPU:
		return "cpu"
	case CUDA:
		return "cuda"
	case CUDAEmulate:
		return "cuda-emulate"
	}
	return fmt.Sprintf("Target(%d)", int(t))
}

// Targets lists every target, in the order help texts name them.
var Targets = []Target{CPU, CUDA, CUDAEmulate}

// ParseTarget reads a target's name: cpu, cuda or cuda-emulate.
func ParseTarget(name string) (Target, error) {
	for _, t := range Targets {
		if t.String() == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown target %q (cpu, cuda or cuda-emulate)", name)
}

// GPU reports whether t maps the program to a GPU (or emulates one).
func (t Target) GPU() bool { return t == CUDA || t == CUDAEmulate }

// The default target: x86-64 Linux, as LLVM 14 lays it out.
const (
	DefaultTriple     = "x86_64-pc-linux-gnu"
	DefaultDataLayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
)

// Options control Emit.
type Options struct {
	Target Target
	// Func is the emitted function's name (default: the program's name).
	Func string
	// Parallel outlines the loops marked For.Parallel into GOMP_parallel
	// regions; without it they run serially.
	Parallel bool
	// Dynamic distributes a parallel loop's iterations with the GOMP
	// dynamic schedule (one iteration per request) instead of one
	// contiguous block per thread.
	Dynamic bool
	// Triple and DataLayout describe the target machine (default
	// DefaultTriple and, for it, DefaultDataLayout); for CUDA, the host's.
	Triple, DataLayout string
	// ThreadSizes bound the threads per block along x, y and z for the
	// loops mapped to threads (default DefaultThreadSizes: 32, 8, 1); a
	// launch uses fewer where its loops have fewer iterations. BlockSizes
	// bound the blocks along x, y and z (default DefaultBlockSizes).
	// Loops longer than the grid or the block take several iterations
	// per block or thread. Targets CUDA and CUDAEmulate only.
	ThreadSizes, BlockSizes []int64
	// Initialized names the temporary arrays every read of which finds a
	// write before it (deps.Flow's MayNoSource has none of their reads):
	// the CPU target does not zero their workspace at each call.
	Initialized map[string]bool
	// KeepTables (CPU only) computes the constant tables of the program
	// (scop.Program.ConstantArrays; KeptTables lists those it applies to)
	// on a calling thread's first call and keeps them in the workspace
	// for its later calls.
	KeepTables bool
	// Cold names statements that run a negligible share of the work (an
	// image border's clamped values, a tiny pyramid level): the loops that
	// run only such statements ask LLVM not to vectorize or unroll them,
	// which saves compile time and costs no measurable speed.
	Cold map[string]bool
	// Speculable names the selects whose operands may both be evaluated
	// (scop.Program.SpeculableSelects): they become select instructions,
	// which vectorize, instead of branches to the chosen operand.
	Speculable map[*scop.Select]bool
	// Accumulators says per statement and iterator whether a sequential
	// loop running the statement alone over that iterator may keep the
	// element it updates in a register (scop.Program.Accumulators):
	// loaded before the loop, stored after it (accumulate.go).
	Accumulators map[string][]bool
}

// Module is the result of Emit.
type Module struct {
	// IR is the LLVM 14 assembly of the module (for CUDA, the host
	// module: see KernelIR).
	IR string
	// Header is a C header declaring the function.
	Header string
	// Func is the name of the emitted function.
	Func string
	// For target CUDA: KernelIR is the NVPTX module of the kernels (for
	// llc -march=nvptx64 -mcpu=sm_80), Kernels their names in launch
	// order of appearance, and PTXSymbol the external constant through
	// which IR, the host module, reads the PTX text: EmbedPTX defines it.
	KernelIR  string
	Kernels   []string
	PTXSymbol string
	ptxDecl   string
}

// Emit returns the LLVM IR of one function that runs the AST n of program
// p, with the C calling convention of the function ast.PrintProgram
// prints for them, so that its object file can replace that function.
func Emit(p *scop.Program, n ast.Node, opts Options) (mod *Module, err error) {
	switch opts.Target {
	case CPU:
	case CUDA, CUDAEmulate:
		if err := checkSizes(opts); err != nil {
			return nil, err
		}
		// Parallelism comes from the mapping; inside kernels loops run
		// serially.
		opts.Parallel, opts.Dynamic = false, false
	default:
		return nil, fmt.Errorf("emit: unknown target %d", int(opts.Target))
	}
	if p == nil {
		return nil, errors.New("emit: no program")
	}
	if err := refuseUnbounded(n); err != nil {
		return nil, err
	}
	fn := opts.Func
	if fn == "" {
		fn = p.Name
	}
	if !cIdent.MatchString(fn) {
		return nil, fmt.Errorf("emit: function name %q is not a C identifier", fn)
	}
	if opts.Triple == "" {
		opts.Triple = DefaultTriple
	}
	if opts.DataLayout == "" && opts.Triple == DefaultTriple {
		opts.DataLayout = DefaultDataLayout
	}
	header, err := headerText(p, fn)
	if err != nil {
		return nil, err
	}
	// Lowering reports errors by panicking with an emitError deep in the
	// recursion; they end here.
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(emitError)
			if !ok {
				panic(r)
			}
			mod, err = nil, ee.err
		}
	}()
	e := &emitter{p: p, opts: opts, fn: fn, m: ir.NewModule(), decls: map[string]*ir.Func{}}
	e.m.TargetTriple = opts.Triple
	e.m.DataLayout = opts.DataLayout
	e.m.SourceFilename = p.Name
	var cuda *cudaDev
	switch opts.Target {
	case CUDAEmulate:
		g := newGPUGen(e, e, emulator{})
		e.body = g.host
	case CUDA:
		cuda = newCUDA(e)
		cuda.g = newGPUGen(e, cuda.ke, cuda)
		e.body = cuda.body
	}
	e.program(n)
	if len(e.ws) > 0 {
		header = strings.Replace(header, "\n#endif\n", workspaceNote(e.ws, e.kept)+"\n#endif\n", 1)
	}
	mod = &Module{Header: header, Func: fn}
	if cuda != nil {
		cuda.finish()
		mod.KernelIR = cuda.ke.m.String()
		mod.Kernels = cuda.g.kernels
		mod.PTXSymbol = cuda.ptx.Name()
		mod.ptxDecl = cuda.ptx.LLString()
	}
	mod.IR = e.m.String()
	return mod, nil
}

var cIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// emitError carries an error out of the lowering recursion.
type emitError struct{ err error }

func fail(format string, args ...any) {
	panic(emitError{fmt.Errorf("emit: "+format, args...)})
}

// emitter holds what one module's generation shares.
type emitter struct {
	p     *scop.Program
	opts  Options
	fn    string
	m     *ir.Module
	decls map[string]*ir.Func // external functions by name
	// ws lists the temporary arrays kept in the per-thread workspace.
	ws []string
	// kept lists the constant tables among them (kept.go), sorted.
	kept []string
	mdID int64 // next metadata ID
	nOut int   // outlined functions so far
	// body generates the function's body from the AST (default: the
	// CPU's lowering, fnState.node); the GPU targets replace it.
	body func(fs *fnState, ev *env, n ast.Node)
	// libm prefixes the math library's function names (CUDA: __nv_).
	libm string
	strs map[string]*ir.Global // string constants by text
}

// declare returns the external function name, declaring it on first use.
func (e *emitter) declare(name string, ret types.Type, params ...types.Type) *ir.Func {
	if f, ok := e.decls[name]; ok {
		return f
	}
	if name == e.fn {
		fail("function name %s is also the name of a function the code calls", name)
	}
	ps := make([]*ir.Param, len(params))
	for i, t := range params {
		ps[i] = ir.NewParam("", t)
	}
	f := e.m.NewFunc(name, ret, ps...)
	e.decls[name] = f
	return f
}

// def registers a metadata tuple as a numbered definition: loop IDs refer
// to themselves, which llir prints only for registered nodes.
func (e *emitter) def(distinct bool, fields ...metadata.Field) *metadata.Tuple {
	t := &metadata.Tuple{MetadataID: metadata.MetadataID(e.mdID), Distinct: distinct, Fields: fields}
	e.mdID++
	e.m.MetadataDefs = append(e.m.MetadataDefs, t)
	return t
}

// newFunc adds a function definition with C linkage or, for outlined
// regions, internal linkage.
func (e *emitter) newFunc(name string, internal bool, params ...*ir.Param) *ir.Func {
	f := e.m.NewFunc(name, types.Void, params...)
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind)
	if internal {
		f.Linkage = enum.LinkageInternal
	}
	return f
}
