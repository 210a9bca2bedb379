// Package jscop reads and writes JSCoP, the JSON form of a static control
// part that Polly exports (opt -polly-export-jscop) and imports
// (opt -polly-import-jscop), and maps it onto tilefuse's scop.Program of the
// same code.
//
// A JSCoP file has a context (a parameter set), the arrays (name, sizes,
// element type) and, per statement, its name, iteration domain, schedule (a
// map to a flat time space: JSCoP has no schedule tree) and access
// relations of kind "read" or "write", all in isl notation. It has no
// statement bodies: what a statement computes stays in the LLVM IR, so a
// JSCoP is either written for Polly to import (FromProgram, Export) or read
// for its schedule, applied to tilefuse's program of the same source
// (Match, Tree).
//
// Where Polly's conventions differ from tilefuse's (Match bridges them):
//
//   - Statements: Polly names a statement after its LLVM basic block,
//     Stmt_<block> (Stmt_for_body3 with value names, clang
//     -fno-discard-value-names and opt -polly-use-llvm-names; Stmt2
//     without). One block holds every assignment of one loop body that
//     no loop separates, so a Polly statement may be several tilefuse
//     statements (S0, S1, ... in textual order); Polly also keeps scalar
//     temporaries in registers, so a tilefuse statement that writes a
//     scalar has no Polly statement. Match pairs statements by what
//     they write (array, element and domain), not by name.
//   - Arrays: Polly calls an array MemRef_<C name> (MemRef0 without
//     value names), its first size "*" (a pointer parameter has no outer
//     extent). Scalar function arguments appear only as reads of
//     zero-dimensional MemRef_<name>[] and are not listed in "arrays";
//     registers carried between statements are MemRef_<value>__phi or
//     MemRef_<value> with kind read or write and no listed array.
//   - Parameters: Polly's are LLVM values, named as the C parameters with
//     value names and p_0, p_1, ... without; their context is the range
//     of the C type (int), where tilefuse's holds only the sizes the
//     program is defined for. Polly's importer gives a schedule's
//     parameters its own by position, so Export writes Polly's list in
//     Polly's order.
//   - Dimensions: Polly names a domain's dimensions i0, i1, ...; they are
//     the enclosing loops, outermost first, as tilefuse's iterators are.
//
// Polly makes one static control part (one JSCoP file) of each region it
// can model, so a program may be several JSCoPs (2mm's two loop nests
// are two): Match takes them all, Tree orders them as the program does,
// and Export refuses a tree that interleaves their instances.
//
// Files this package writes for tilefuse's own programs (FromProgram) use
// tilefuse's names (S0, the C array names); Match reads both.
package jscop
