// Package bigprog generates large straight-line C programs, thousands of
// statements long, as unrolled kernels and generated filters are: the
// input that measures how the analysis (deps) and the scheduler scale
// with the number of statements (issue 44 item 3).
package bigprog
