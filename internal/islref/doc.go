// Package islref is the isl reference for the whole compiler: it evaluates
// calculator programs (package presburger/calc) with libisl and checks what
// tilefuse printed against isl's answers, gives isl's dataflow
// (ComputeFlow, for package deps), reads schedule trees in isl's YAML
// (for package scheduletree) and generates isl's AST of a schedule (for
// package ast), and it times isl operations for side-by-side benchmarks.
//
// Everything but this file needs the build tag isl and cgo, and links
// -lisl (Debian: apt-get install libisl-dev). Library packages never import
// it; only tests and benchmarks do.
//
// Eval and Run.Check are the differential oracle; Equal compares two texts.
// Time (a calculator statement) and TimeOp (one set operation on two sets)
// give isl's ns/op for side-by-side benchmarks with tilefuse.
//
// Every isl object a Run creates is owned by the Run and freed by Free, one
// isl_ctx per Run; isl operations work on copies, so values can be shared
// between statements without reference-count bookkeeping.
package islref
