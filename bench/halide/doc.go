// Package halide builds PolyMage pipelines with Halide, for bench's
// Halide peer columns: the performance bar of hand-scheduled image
// pipelines, measured by the same harness as every other column.
//
// # Generators
//
// src holds, for each pipeline NAME that has one, a Halide generator
// NAME.cpp (C++, Halide 14) computing exactly what tilefuse's port in
// package polymage computes: the same sizes and borders, element types,
// array layout and order of floating-point operations, so that under
// Halide's strict_float the results equal the reference's bit for bit
// (local_laplacian's exp is libm's, called through the wrapper: Halide's
// own differs in the last bits). Where the port's stages are 0 on a
// ghost ring, the generator selects 0 there, and its reads are clamped
// to the box of what they read, so that Halide's bounds inference, which
// cannot see the selects, does not widen each coarser pyramid level.
// Halide's innermost dimension is the column, so a generator's x is the
// port's last index. The generator holds two schedules, chosen by
// Halide's auto_schedule parameter: the expert one written in it
// (following Halide's published app schedule where one exists), and the
// Mullapudi2016 autoscheduler's, given the benchmark's sizes as
// estimates (generator parameters named after the program's).
//
// NAME_wrap.c defines the benchmark's function with tilefuse's C
// signature (sizes as int, arrays as pointers, in the program's order):
// it describes the arrays as Halide buffers (innermost dimension first,
// with the mins of the port's index offsets), gives Halide's thread
// pool OMP_NUM_THREADS threads, and calls the compiled pipeline. runner
// builds it as a peer's C, linked with the pipeline's static library
// (runner.Kernel's Objects), so the harness calls it unchanged.
//
// # Builds
//
// Install.Kernel compiles a generator with g++ against libHalide and
// Halide's generator main (GenGen.cpp, compiled once into an object that
// every generator links: it includes all of Halide.h), runs it for the
// host CPU, and returns the kernel. Every step is cached under Install.Cache (the user's cache directory,
// tilefuse/halide), keyed by a hash of the sources, the arguments and
// the installed Halide and g++, so a repeated run builds nothing. The
// target is the host's CPU: a cache shared by machines of different
// CPUs would hand one machine's pipelines to another.
//
// # Place in the design
//
// The package sits under bench and imports runner (for its Kernel) and
// internal/ctool; bench imports it for the peers halide and halide-auto.
package halide
