// Package emit generates LLVM IR (LLVM 14 assembly, typed pointers)
// from an AST of package ast, through github.com/llir/llvm.
//
// # What it owns
//
//   - Emit: one function per program that runs the AST, with the C
//     calling convention of the function ast.PrintProgram prints, so that
//     its object file links in place of that function: arguments in
//     p.ArgNames() order, parameters as int, arrays as noalias pointers to
//     their elements (_Bool as a byte), zero-dimensional arrays by value.
//     The program's other arrays are zeroed locals (calloc, or a stack
//     slot for a scalar), freed at the end. The module has its target
//     triple and data layout set.
//   - Module.Header: a C header declaring the function.
//   - Parallel loops: a For with Parallel set is outlined (with
//     Options.Parallel) into an internal function of a context pointer and
//     started with GOMP_parallel(fn, ctx, 0, 0); each thread runs a
//     contiguous share of the iterations (omp_get_thread_num and
//     omp_get_num_threads) or, with Options.Dynamic, asks libgomp for
//     iterations one at a time (GOMP_loop_dynamic_start/next,
//     GOMP_loop_end_nowait). The object links against libgomp.
//   - Teams (team.go): a sequential loop around parallel loops (a time
//     loop) runs in one GOMP_parallel region instead of one per parallel
//     loop and iteration: every thread walks the sequential loops and
//     guards, runs its static share of each parallel loop and waits at a
//     GOMP_barrier after it; the code between runs on thread 0, then a
//     barrier. Not with Options.Dynamic, nor around a tile-local buffer
//     allocated outside the parallel loops.
//   - Vectorizer-friendly IR: i64 induction variables in rotated loops,
//     affine index arithmetic with nsw, inbounds GEPs of row-major
//     offsets, alias scopes that say distinct arrays never overlap (the
//     outlined functions load their pointers from the context, where
//     noalias arguments cannot say it), and the accesses of a parallel or
//     vector loop in an access group its loop metadata declares parallel
//     (llvm.loop.parallel_accesses), so the vectorizer needs no runtime
//     checks.
//   - Tile-local buffers: ast.Alloc places its buffer once per call of
//     the function running it (so once per thread in an outlined
//     parallel loop, reused by every tile) when its size is constant: in
//     the stack frame while the frame's buffers stay within 2 MiB, else
//     malloc'ed in the entry block and freed before the function returns.
//     A buffer of parametric size (a row of C columns) is one block per
//     Alloc and call, grown where the Alloc appears when an iteration
//     needs more and freed before the function returns. A scalar buffer
//     is a stack slot. The array's statements use the buffer with the
//     Alloc's shape (a folded dimension's subscript is (i - origin) mod
//     fold: an and for a power of two, else urem, origin <= i being the
//     builder's promise), and ast.Free uncovers the array it shadowed. A scalar buffer's slot serves every
//     iteration, so its accesses stay out of the access groups.
//   - Outlined nests (outline.go): in a function of 16 statements or
//     more (a post-tiling fusion tile body), each loop nest inside a loop
//     becomes an internal noinline function, called with its captures as
//     arguments (arrays noalias, constant-size buffers dereferenceable),
//     so that opt and llc build small functions, in parallel pieces.
//     On x86-64 a nest inside a loop whose statements call libm (sinf,
//     expf, ...) is outlined in a function of any size: llc would
//     otherwise put a vzeroupper before the call on every iteration when
//     vector code runs beside the nest (10% of producer_consumer on
//     AMD Zen).
//   - Accumulators (accumulate.go): a sequential loop that runs one
//     statement updating an element that does not move with the loop
//     keeps the element in a stack slot (a register after SROA), copied
//     in before the loop and out after it, where Options.Accumulators
//     (scop.Program.Accumulators) says no other read of the loop meets
//     the element: LLVM cannot promote it itself when the other reads
//     are of the same array (nussinov 3.80 -> 3.33 s at LARGE, trmm
//     159 -> 144 ms).
//   - Integer division by a variable of at most 32 bits divides doubles,
//     exactly, so that the loop vectorizes (arith.go, fpDiv).
//   - A select branches to the operand it chooses, unless
//     Options.Speculable names it (scop.Program.SpeculableSelects: both
//     operands safe to evaluate); then both are computed and a select
//     instruction picks one, which vectorizes where the branch did not
//     (LLVM cannot see that a load from a tile-local buffer stays in it).
//
// # GPU targets
//
// Target CUDA emits the program as GPU kernels with host code of the
// same C signature; CUDAEmulate emits the same kernels for the host CPU,
// so that the mapping runs and is checked where there is no GPU.
//
// The mapping is read from the AST Emit receives (gpu.go): a Mark
// "kernel" maps the perfect loop nest directly below it (up to three
// loops, the innermost on x) to blocks, a Mark "thread" below it the nest
// below itself to threads; a Mark "serial" (or any other node) ends a
// nest. A loop mapped to blocks runs lower + blockIdx*stride, stepping by
// gridDim*stride, one mapped to threads likewise with threadIdx and
// blockDim, so any grid and block size is correct. Without marks, a
// parallel loop (For.Parallel, the AST's outermost coincident loop) is
// spread over all threads of all blocks along x. Code of the host level
// that runs statements outside any of these becomes a kernel of one
// thread: the arrays stay in device memory for the whole call.
//
// gpumap.Map puts the default mapping into a schedule tree as
// such marks, before AST generation: at the outermost band with a leading
// coincident member, a kernel whose block loops are those members (at
// most two; non-coincident members before them stay on the host); below
// it, on every path, the first band with a leading coincident member
// gives the thread loops (at most two; the point band of a tile band);
// when none is found, the block band is strip-mined by
// Options.ThreadSizes (tile loops to blocks, point loops to threads).
// A permutable band without a leading coincident member (a time-skewed
// stencil, or its tile band) is replaced by its wavefront (s0 + s1, s1,
// ...), which runs serially (on the host, or in each block between
// barriers) with the next member parallel. Only the leading coincident
// members of a band go to blocks, as tiling copies flags that may hold
// only with the earlier members fixed. The GPU targets generate the AST
// from the mapped tree without ast.Options.Parallel: the marks carry the
// mapping.
//
// Inside a kernel (gpu_kernel.go), code outside the thread loops runs in
// every thread of a block with the same values (block level). There a
// subtree without thread loops runs in thread 0 only, a thread nest that
// does not use all block dimensions in the threads with index 0 in the
// others, and code that no loop of some grid dimension encloses in the
// blocks with index 0 in it: every instance runs once. These phases are
// separated by barriers: before a phase when another ran since the last
// barrier, and at the end of each iteration of a block-level serial loop
// (of a loop over blocks only when it allocates shared memory: its
// iterations are independent). This is conservative: threads communicate
// through global memory too. A buffer allocated at block level (an
// ast.Alloc, a tile-local buffer) is shared by the block's threads: a
// static shared array when its shape has constant bounds (CUDA:
// addrspace(3); the emulation: a per-block area the launch allocates
// before the teams run), otherwise allocated by thread 0 and published
// through a shared pointer after a barrier. Inside thread loops code is
// as on the CPU: serial loops, private buffers (malloc, which CUDA
// devices provide).
//
// A launch's sizes are computed on the host (gpu_host.go): per dimension
// the largest trip count of the loops mapped to it, a constant when a
// loop's upper bound minus its lower bound is one (a tile's points), else
// from the range the bounds take over the ranges of the kernel's outer
// loops, bounded by Options.ThreadSizes (default 32, 8, 1) and
// Options.BlockSizes (default 65535 each).
//
// CUDA (cuda.go): Module.KernelIR is an nvptx64-nvidia-cuda module with
// one function per kernel (Module.Kernels), declared in !nvvm.annotations,
// using the llvm.nvvm.read.ptx.sreg intrinsics and llvm.nvvm.barrier0;
// llc -march=nvptx64 -mcpu=sm_80 makes the PTX. sqrt, fabs, floor, ceil,
// round, fmin and fmax are LLVM intrinsics NVPTX selects; the other math
// functions call libdevice (__nv_exp, __nv_powf, ...), which must then be
// linked in (llvm-link with libdevice.10.bc) before llc, or the driver
// refuses the PTX ('tilefuse compile' links it in when it finds it).
// Array arguments of a kernel are noalias only when the kernel has no
// barrier (LLVM would otherwise let loads of a noalias array move above a
// barrier). Module.IR is the host module: it reads the PTX text from an
// external constant (Module.PTXSymbol) that Module.EmbedPTX defines.
// Each call opens libcuda.so.1 with dlopen and creates a
// context and loads the module (once, cuModuleLoadDataEx with the JIT's
// error log), copies every array to the device (the program's
// temporaries too, zeroed), runs the host-level code with its launches
// (cuLaunchKernel), synchronizes, copies the written array arguments back
// and frees the device memory. A failing driver call prints its name, the
// error number and name on stderr and aborts. The object links with -ldl.
//
// CUDAEmulate (emulate.go): the host code is the CPU target's; a launch
// loops over the blocks (z, y, x) and runs each on an OpenMP team of the
// block's size (GOMP_parallel; the thread index from
// omp_get_thread_num, x fastest; a smaller team aborts), with
// GOMP_barrier for barriers. The object links against libgomp, as the
// CPU target's. Math calls are the CPU's, so results are bitwise those of
// the CPU target.
//
// Not done: shared memory for arrays the AST does not allocate (no
// copy-in/copy-out promotion of global arrays), libdevice-free math,
// streams or overlap of copies with kernels, copying only the arrays a
// kernel uses, a device choice other than device 0, and the malloc heap
// of the device (8 MiB by default) is not raised for large private or
// non-constant shared buffers.
//
// # Semantics
//
// AST expressions are i64 arithmetic: floor division, ceiling division
// and modulo by positive constants round as isl's (towards negative
// infinity), exact division is C's /, && and || are computed in full (no
// AST expression can fail). Statement bodies mean what ast.PrintProgram's
// C means, which is what the reference executor (scop/refexec) computes:
//
//   - integers at their own width, wrapping (C's narrow types are
//     promoted and truncated back, which is the same); signed / and %
//     truncate, computed wider (or guarded, for int64_t) where INT_MIN /
//     -1 would be undefined in LLVM; floor division and modulo of signed
//     values in int64; unsigned ones by udiv and urem;
//   - f32 arithmetic in float, f64 in double, with no fast-math flags;
//     fmin and fmax as llvm.minnum and llvm.maxnum; sqrt, fabs, floor,
//     ceil and round as LLVM intrinsics, the other math functions as libm
//     calls (expf for f32); on x86-64 a libm call's result passes
//     through an empty inline asm that redefines xmm1-xmm15, so that
//     LLVM 14 breaks the false dependency of the next int-to-float
//     conversion on the callee's registers (sinf in a loop ran at half
//     speed without it);
//   - conversions as C's (float to narrow integers through int64, then
//     wrapped, as the reference does; where C leaves it undefined, the
//     reference's int64 saturates and NaN is 0, which two selects add
//     to fptosi);
//   - a select evaluates only its chosen operand, && and || only the
//     operands needed (branches and phis; SimplifyCFG makes selects where
//     that is safe).
//
// Affine subscripts of int or int64_t type are computed in i64 with nsw:
// C's int arithmetic there cannot overflow in a valid program, and the
// polyhedral model assumes it does not.
//
// # Pitfalls of llir
//
// llir prints a float constant from its float64 value, so f32 constants
// are made from float64(float32(x)); self-referential metadata (loop IDs,
// alias scopes) is registered in Module.MetadataDefs with its ID set; llir
// does not type-check calls, so the tests run every module through
// opt -verify.
package emit
