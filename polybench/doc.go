// Package polybench holds the 30 kernels of PolyBench/C 4.2.1 as C source
// text, together with the problem sizes of the five standard datasets.
//
// # Source text
//
// Each kernel is stored in kernels/<name>.c exactly as its kernel function
// reads after the C preprocessor has run over the PolyBench sources with the
// default configuration:
//
//   - the default DATA_TYPE of the benchmark: double everywhere, except
//     deriche (float, so SCALAR_VAL(1.0) is 1.0f and EXP_FUN/POW_FUN are
//     expf/powf), floyd-warshall (int) and nussinov (int table, with
//     "typedef char base;" for the sequence);
//   - POLYBENCH_PADDING_FACTOR 0 and no C99 variable-length-array
//     prototypes, so an array parameter reads e.g. "double A[ 1000 + 0][1200 + 0]";
//   - the loop bounds _PB_X become the lower-case int parameters x;
//   - SCALAR_VAL, SQRT_FUN, EXP_FUN, POW_FUN and nussinov's match and
//     max_score macros are expanded; comments are gone; "#pragma scop" and
//     "#pragma endscop" are kept where PolyBench has them.
//
// Only the kernel function (and any typedef it needs) is kept; the
// initialisation, printing and main functions are not. Local declarations
// that PolyBench has inside the kernel function are kept as they are.
//
// # Array extents and dataset sizes
//
// PolyBench defaults to LARGE_DATASET, so the array extents in the C text
// are the LARGE constants of each benchmark's header. The loops, however,
// are bounded by the int parameters (Kernel.Params), whose values for every
// dataset are given by Kernel.Sizes. For the MINI, SMALL and MEDIUM datasets
// the parameters are smaller than the extents, which is fine: PolyBench's
// loops only touch the leading part of each array. For EXTRALARGE they are
// larger than the LARGE extents, so a caller that executes a kernel with
// EXTRALARGE sizes must allocate (and declare) larger arrays itself.
//
// # Faithful quirks of PolyBench 4.2.1
//
// A few details of the original sources are reproduced as they are rather
// than "fixed":
//
//   - heat-3d bounds its time loop by the macro TSTEPS rather than
//     _PB_TSTEPS, so after preprocessing the loop reads "t <= 500" and the
//     tsteps parameter is unused in the body;
//   - kernel_doitgen is the only kernel function not declared static;
//   - durbin's local array is declared "double z[2000];" (plain N, no
//     padding term), with alpha, beta and sum declared one per line;
//   - atax and bicg have a smaller M for EXTRALARGE (1800) than for LARGE
//     (1900), so their sizes are not monotone across datasets.
package polybench
