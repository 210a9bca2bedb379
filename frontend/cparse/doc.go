// Package cparse is tilefuse's C front end: it reads static control parts
// written in C, such as the PolyBench/C kernels after preprocessing, and
// builds one scop.Program per function definition. It owns the C subset,
// its lexer and recursive-descent parser (no cgo), and the translation of
// C semantics into the program model; scop.Program.Finish checks the
// result and derives the access relations.
//
// # Input
//
// A file holds typedefs of scalar types, global variables, prototypes and
// function definitions. Parse reads all of it: preprocessor lines are
// skipped, except "#pragma scop" and "#pragma endscop" at the top level
// of a function body: the statements between them are compiled, or the
// whole body when there are none (a final "return;" is dropped). Code
// outside the region must be valid syntax of the subset (no pointers,
// structs, sizeof or string literals anywhere) but is not compiled.
//
// ParseFunc and ParseFile read real C files: the top-level scanner splits
// the tokens into function definitions ("name ( ... ) {", brackets
// balanced) and declarations, and only the chosen function is parsed;
// other functions, prototypes, structs, GNU attributes, asm labels and
// builtins are skipped, typedefs of scalar types and globals of the
// subset are kept. ParseFile runs the C preprocessor (cpp or gcc -E, with
// -I and -D) on files with directives other than #pragma, and follows
// its line markers, so that positions name the user's files and lines.
//
// Array parameters take their extents from their declarations (A[N][M],
// A[restrict N]); restrict pointers (double *restrict A) and pointers to
// rows (double (*restrict A)[M]) lack the first, which
// "#pragma tilefuse array A[n][M], ..." in the body gives, in constants,
// object-like macros and size parameters. Pointers without restrict are
// refused: parameters are assumed not to overlap.
//
// # Program model
//
// Integer scalar parameters are the size parameters, in signature order,
// with the context "every parameter >= 0"; Program.Args is the signature.
// Every other parameter is an array: floating scalars are zero-dimensional,
// array parameters have the declared extents (constants and size
// parameters). Parameters and globals are live-in; array parameters and
// globals are live-out when the region writes them (scalar parameters are
// copies, never live-out). Integer locals that some for loop of the region
// initialises are loop iterators; other locals are temporaries, renamed
// (x_1, ...) where a name is already taken.
//
// Each assignment (=, op=, ++, --, or a declaration's initializer) is one
// statement, S0, S1, ... in order; a chained a = b = c is b = c, then
// a = b. A local initialised before the region with a constant (PolyBench
// correlation's "double eps = 0.1;") gets its initialisation as a statement
// at the start of the program, since code outside the region is not run.
//
// # Domains and schedules
//
// Loop bounds and if conditions must be affine in the enclosing iterators
// and the size parameters, except an if condition that reads memory (a
// data-dependent condition, see Bodies). They are translated into isl notation exactly:
// min, max, floord and ceild (as in Pluto and CLooG output) map to isl's;
// C's truncating / and % by a constant, and ternaries, split into pieces
// on a condition; a comparison used as a number is 0 or 1. A loop runs
// while its condition, a combination with && and || of comparisons of the
// iterator with bounds, bounds the iterator in the direction it moves, so
// the domain is the lower bound, the condition and, for steps other than
// one, an existentially quantified stride constraint. The else branch
// gets the negated condition.
//
// Schedules are 2d+1: a loop contributes its position in the enclosing body
// and its iterator, negated for loops that count down; a statement its
// position. Blocks and if statements add no dimension (their statements
// take consecutive positions), and all schedules are padded with zeros to
// one length.
//
// # Bodies
//
// Expressions are typed by C's rules for an LP64 target (char is signed,
// long has 64 bits): integer promotion, the usual arithmetic conversions,
// int-typed comparisons (scop Bool, cast to i32 where used as a number),
// every conversion an explicit scop.Cast. The math functions of
// scop.MathFuncs are accepted in their double and float (f suffix) forms,
// with fabs as abs. Subscripts must be affine or read memory; C division
// and remainder by a constant become floor division and modulo where the
// dividend's sign is known on the statement's domain, and are rejected
// elsewhere.
//
// Data-dependent control follows pet's model (guard.go): a subscript that
// reads memory (B[idx[i]], H[bin[i]] += 1) makes its access a may-access
// over the array's whole extent, and a write so subscripted marks the
// statement MayWrite; an if whose condition reads memory (if (A[i] > 0))
// stays in the body of each statement it guards, as A[f] = cond ? e :
// A[f], so that only the chosen operand is evaluated. A data-dependent
// write subscript under such a condition, and a guarded block of several
// statements that writes what its condition reads, are rejected.
//
// A while loop with a data-dependent exit (while.go) is accepted when it
// bounds itself: the trailing statements of its body step integer
// scalars, its counters, by constants, each counter is assigned an
// affine start by the assignments just before the loop, and a conjunct
// of its condition compares a counter with a bound in the direction it
// moves (k = 0; while (k < n && A[k] > 0) { ...; k++; }). It becomes a
// loop over a new iterator t >= 0 bounded by those conjuncts, in which
// the counters read as start + step*t; the other conjuncts set a new int
// flag, 1 before the loop and flag ? rest : 0 at the start of each
// iteration, that guards the body as a data-dependent if does. The model
// is exact; a while loop without such a bound is rejected.
//
// # Errors
//
// Parse and ParseFunc return the first problem as a *scop.Error with a
// file:line:col position; no input makes them panic.
package cparse
