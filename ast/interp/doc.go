// Package interp executes an AST (package ast) on real arrays: the loops
// and conditions of the AST, and at each User node the statement's body
// from the scop.Program, compiled by the reference executor
// (refexec.Compile) so that arithmetic, rounding and bounds checks are
// exactly the reference semantics. It is the oracle for code generation:
// an AST that computes the same arrays as refexec.Run, bit for bit, is
// correct, whatever its schedule.
//
// # What it owns
//
//   - Run: execution of an AST with the program's statement bodies.
//   - Stats: what a run executed, counted dynamically: statement
//     instances, loads (per array) and stores per statement, calls per
//     math function (a select evaluates only its chosen branch), and the
//     tile-local buffers allocated with the peak of their live bytes;
//     the peak of temporary memory (tile-local buffers and the
//     temporary arrays used in memory) and, on request (RunWith), the
//     loads served by the store just before (store-to-load forwarding,
//     through a hook at every loop iteration and every access). These
//     are the counts of Halide's tutorial (seed 002) and of the
//     tile-size cost model.
//   - Tile-local buffers: an ast.Alloc allocates a buffer of its shape
//     (evaluated at the current loop values) that the statements access
//     as the named array until the matching ast.Free, shadowing a program
//     array of that name. A folded dimension (ast.Alloc.Fold) is a ring:
//     the element idx lives at (idx - origin) mod F. Fresh buffers hold a
//     poison pattern (Poison), so that reading data no statement wrote
//     shows up in the results.
package interp
