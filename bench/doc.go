// Package bench runs benchmark suites (PolyBench kernels, PolyMage
// pipelines) under several compilers and tabulates the results: the
// command `tilefuse bench` is a thin layer over it.
//
// # Columns
//
// A table has one row per benchmark and one column per way of compiling
// it. Tilefuse columns are fusion strategies (none, min, smart, max: the
// schedule of `tilefuse compile --fuse`), each compiled to LLVM IR and
// built with opt and llc by package runner. Peer columns build the naive C
// of the program (ParallelC: the original schedule printed by
// ast.PrintProgram with #pragma omp parallel for on its parallel outer
// loops) with another compiler:
//
//	gcc         gcc -O3 -march=native -fopenmp, on every thread
//	gcc-serial  the same binary on one thread (OMP_NUM_THREADS=1)
//	polly       clang-14 -O3 -march=native -mllvm -polly -mllvm
//	            -polly-parallel -mllvm -polly-pattern-matching-based-opts=false
//	            -lgomp, on every thread; "not installed" without clang-14
//
//	halide      a Halide 14 generator of the pipeline (package halide),
//	            with the expert manual schedule, on every thread
//	halide-auto the same generator scheduled by Mullapudi2016
//
// The Halide peers are PolyMage's only: a row without a generator gets a
// NoGenerator cell, which, like NotInstalled, is no failure. Their
// pipelines are built with strict_float, and called through a wrapper
// with the program's C signature, so the harness is the same as every
// other column's; building the generator and the pipeline is part of the
// cell's build (cached between runs, see package halide).
//
// Each peer also gets -ffp-contract=off (NoContract) unless the command
// asks otherwise: at -O3 -march=native both compilers contract a multiply
// and an add into a fused multiply-add, which rounds once instead of twice.
// Tilefuse's LLVM IR does not contract, nor does the reference; with
// contraction the peers' results differ in the last bits (and an integer
// computed from a float, such as a pixel, by one), so the checks would
// need a tolerance that integers do not have, and the times would compare
// arithmetic as well as schedules.
//
// # Cells
//
// Every cell is run by runner.Run: warm-up calls, then Repeat timed calls
// whose median is the cell's time, then a check of every array against the
// reference (computed once per row by runner.Expect: the reference
// executor for small runs, the naive C built with cc -O2 otherwise). A
// cell's Status says what happened; only an OK cell has a ratio, and a
// WRONG cell (the check failed), a build failure, a crash or a timeout is
// shown as such in the table with the reason in a footnote, never left
// out. Tilefuse columns are checked bit for bit (a legal schedule keeps
// every element's order of operations); peers within Config.Tolerance, 0
// (bit for bit) unless they contract.
//
// # Ratios and geometric means
//
// The ratio of a cell is the baseline's time divided by the cell's time:
// the speed-up over the baseline column (above 1 is faster). It exists
// when both the cell and the row's baseline cell are OK. The geometric
// mean of a column is over the rows where the ratio exists, and says over
// how many.
//
// # Output
//
// WriteText prints an aligned table (times with units, ratios as 1.23x),
// the geometric means, the compile times of the tilefuse strategies
// (scheduling, AST generation and emission, then opt and llc) and the
// footnotes; WriteCSV one line per cell (times in seconds) and one per
// geometric mean; WriteJSON the whole Table with the Machine it ran on.
//
// # Place in the design
//
// bench sits beside cmd/tilefuse above everything else: it imports runner,
// ast, scheduler and scop, and nothing imports it but the command. It
// knows nothing of the benchmark suites themselves: the command loads the
// programs, sizes and inputs (Benchmark) and supplies the compiler of the
// tilefuse columns (Config.Compile).
package bench
