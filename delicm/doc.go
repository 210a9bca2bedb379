// Package delicm maps a temporary scalar that carries a value through a
// loop onto the array element the value is finally stored to, as Polly's
// DeLICM does (Kruse and Grosser, "DeLICM: Scalar Dependence Removal at
// Zero Memory Cost", CGO 2018): the code a programmer (or loop-invariant
// code motion) wrote as
//
//	w = A[i][j];
//	for (k = 0; k < j; k++)
//	  w -= A[i][k] * A[k][j];
//	A[i][j] = w / A[j][j];
//
// becomes A[i][j] -= A[i][k] * A[k][j] in the loop, with the copies in and
// out of w gone. The scalar's one storage cell serialised every instance
// of every statement that touched it (PolyBench's ludcmp has no two loops
// the scheduler could permute, so nothing to tile or run in parallel);
// mapped onto A[i][j], the dependences are those of lu, which tiles.
//
// A family is a final statement F that reads the scalar without writing
// it and stores to an array element A[g] (g affine in F's iterators),
// with the statements whose writes of the scalar reach F, directly or
// through one another. Every access to the scalar in the family becomes
// an access to A[g], g's iterators being the loops the family shares
// (the first iterators of each statement). Statements left as copies of
// an element onto itself are deleted, and the scalar with its last
// access.
//
// Legality is decided exactly, not by matching the pattern: the renamed
// program must have the original's value-based dataflow (package deps),
// read for read up to the renaming, with the same reads seeing values
// from before the program and the same last writes of every live-out
// element. Then every instance computes the same value from the same
// operands as in the original, in the same order of operations, and the
// result is bit for bit the original's. A family whose check fails
// (another read of A[g] while the scalar is live, a final statement that
// also reads A[g], instances of the scalar's writer that no final
// statement follows), or runs out of the operation budget, keeps its
// scalar. Only scalars of the same element type as the target array are
// mapped: the values are stored as they were computed.
package delicm
