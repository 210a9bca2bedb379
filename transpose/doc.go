// Package transpose gives a read-only array that a statement reads
// across its rows a transposed copy, so the statement gets an innermost
// loop along which every access is contiguous (what BLAS packing does
// for matrix products, decided here from the access functions alone).
//
// PolyBench's syrk is the case:
//
//	for (i ...) for (k ...) for (j = 0; j <= i; j++)
//	  C[i][j] += alpha * A[i][k] * A[j][k];
//
// With j innermost, C[i][j] is contiguous and A[i][k] invariant, but
// A[j][k] walks a column; with k innermost every read is contiguous but
// C[i][j] is a reduction, one chain of dependent floating-point additions
// whose order must be kept. No loop order gives both. Reading A[j][k]
// from a copy At[k][j] = A[j][k], made once before the program, does:
// j innermost is then contiguous everywhere and free of dependences, so
// it vectorizes, and the scheduler picks it. Each element of A is read
// by a whole loop's worth of instances, so the copy (one read and one
// write of each element, in cache-friendly tiles) costs little against
// the reads it serves.
//
// A read R of array A in statement S is given a copy when
//   - no statement writes A (its values are those from before the
//     program, so a copy made first holds the same values as A at every
//     read);
//   - S has no loop already good: none along which S's write moves with
//     unit stride in its last subscript and every read is invariant or
//     moves with unit stride in its last subscript;
//   - there is a loop d along which S's write moves with unit stride in
//     its last subscript, every read other than the copied ones is
//     invariant or unit-stride along d, and each copied read R has d in
//     exactly one subscript p, with coefficient 1, p not its last;
//   - R reads each element many times: its subscripts' rank is below S's
//     depth.
//
// The copy moves dimension p to the end; reads of the same array with
// the same permutation share one copy, which covers exactly the elements
// they read (the union of their footprints). The copy is a temporary
// array (the emitter keeps it in the per-thread workspace, allocated once
// per compiled function), written by a new statement scheduled before
// every other: the program's time gains a leading dimension, 0 for the
// copy and 1 for the rest. Every instance computes the same value from
// the same operands in the same order as before, so results are bit for
// bit the original's.
package transpose
