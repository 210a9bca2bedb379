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
//   - Vectorizer-friendly IR: i64 induction variables in rotated loops,
//     affine index arithmetic with nsw, inbounds GEPs of row-major
//     offsets, alias scopes that say distinct arrays never overlap (the
//     outlined functions load their pointers from the context, where
//     noalias arguments cannot say it), and the accesses of a parallel or
//     vector loop in an access group its loop metadata declares parallel
//     (llvm.loop.parallel_accesses), so the vectorizer needs no runtime
//     checks.
//   - Tile-local buffers: ast.Alloc mallocs its buffer where it appears
//     (per iteration, so per thread, inside a parallel loop; a scalar
//     buffer is a stack slot of the function running it), the array's
//     statements use it with the Alloc's shape, and ast.Free frees it and
//     uncovers the array it shadowed. A scalar buffer's slot serves every
//     iteration, so its accesses stay out of the access groups.
//
// Only the CPU target exists; CUDA and CUDAEmulate return an error.
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
//     calls (expf for f32);
//   - conversions as C's (float to narrow integers through int64, then
//     wrapped, as the reference does);
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
