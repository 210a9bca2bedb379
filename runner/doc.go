// Package runner builds compiled programs into executables, runs them on
// deterministic inputs, times them and checks their results against a
// reference. It takes LLVM IR as text (or C, for peers and baselines) and
// knows nothing of how the IR was made; the only contract is the
// function's signature, that of ast.PrintProgram's function for the same
// scop.Program: size parameters as int, arrays as pointers, zero-
// dimensional arrays (scalars) by value, in Program.ArgNames order.
//
// # Toolchain
//
// FindToolchain finds LLVM 14's opt and llc (plain names, then the -14
// suffixes, then /usr/lib/llvm-14/bin, always as a pair) and a C compiler
// (cc, then gcc); the error names the Debian packages to install (llvm-14,
// gcc). Object builds IR into an object file: opt -O3 -mcpu=native, then
// llc -O3 -mcpu=native -relocation-model=pic -filetype=obj. A large
// module (over 96 KiB of IR with several functions) is built in pieces
// when llvm-split (beside opt) and objcopy are found: llvm-split cuts it
// into one module per CPU, opt (with -O2's unrolling threshold, see
// pieceOptFlags) and llc build them on one worker per CPU, largest
// first, "cc -r" joins the objects and objcopy makes local again every
// symbol the source did not export. opt and llc are single-threaded,
// and this roughly halves the build of a post-tiling fusion pipeline on
// two cores (the emitter outlines a large tile body's nests, so that
// the functions are small enough to share out). Executables
// are linked by cc with -fopenmp (libgomp, for the GOMP calls of
// parallel loops), -lm and -ldl.
//
// # Harness
//
// Harness generates a C main that declares the function itself, so it is
// compiled apart from the function and linked with its object. It
// allocates every array argument (64-byte aligned), reads their contents
// from a file in scop/charness's format (the arrays' bytes in argument
// order, written from Go by charness.EncodeTo, the inputs being
// charness.Arguments: the values the reference executor gets), calls the
// function WARMUP times untimed and REPEAT times timed with
// clock_gettime(CLOCK_MONOTONIC), printing each time, and writes the
// arrays back in the same format. Arrays the program writes are restored
// from the inputs before every call but the first: a program that updates
// in place (a stencil, gemm's C) computes the same in every call, and the
// outputs are those of one call. Parameter values are compiled into the
// harness.
//
// # Verification
//
// Run builds and runs a Kernel, then computes the expected arrays from the
// same inputs with the reference: the reference executor (scop/refexec,
// the definition of a program's meaning) or the naive C of the program
// (NaiveC: the C of compiler.Compile with strategy none, built with
// cc -O2 -ffp-contract=off in the same harness). RefAuto takes the
// executor for runs of at most Options.ExecLimit statement instances
// without transcendental math calls (Go's math package and libm may
// differ in the last bit), the naive C otherwise.
//
// Every array argument is compared, inputs included (a kernel must not
// write where it should not). The check is bit for bit by default, which
// a legal schedule guarantees as long as the code generator does not
// reassociate: the dependences it respects include every element's chain
// of updates, so each element sees the same operations in the same order.
// Options.Tolerance allows a relative error instead; the largest relative
// error is reported in either case.
//
// Benchmarks (the bench command) need a little more: Kernel.CC and
// Kernel.CFlags build a peer's C with its own compiler and flags (gcc -O3
// -march=native -fopenmp, clang-14 with Polly), Options.Inputs gives a
// benchmark's own input contents, Expect computes the reference once and
// Options.Expected shares it between the runs of several kernels, and
// Result.Build is the time spent building the kernel's object.
//
// Before anything runs, CheckBounds checks that every access stays in its
// array at the given sizes, since the C code would not notice: PolyBench's
// sources declare the LARGE dataset's extents, so EXTRALARGE is refused.
package runner
