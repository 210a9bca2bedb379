// Package simplex owns the exact rational and integer feasibility machinery
// of the presburger library: a rational simplex tableau, redundancy and
// implicit-equality detection, and exact integer sampling (integer
// emptiness).
//
// Constraints over n variables are rows of length 1+n: row[0] is the
// constant and row[1..n] the coefficients; an inequality means
// row[0] + Σ row[j]·x_j >= 0 and an equality means = 0. Inputs are never
// modified. All coefficient arithmetic goes through package arith, so an
// int64 overflow panics with arith.Overflow instead of wrapping (tableau row
// updates whose intermediate products overflow are redone with math/big and
// only fail if the reduced row does not fit; basis reduction that overflows
// is skipped, leaving a slower but still exact search); work is
// capped by a Budget whose exhaustion panics with BudgetExceeded. Callers
// recover both into errors. A wrong answer is never returned: every integer
// sample is checked against the input constraints before it is returned.
//
// Algorithms:
//
//   - Tableau: a rational simplex tableau in the style of isl and MLIR's
//     Presburger library: rows over a common per-row denominator, the sample
//     point at the columns' zero, equalities pinned by killing a column,
//     Bland's rule against cycling, and an undo log for Snapshot/Rollback.
//     Min/Max, redundancy (minimise a constraint with its own restriction
//     lifted) and implicit equalities (maximise a constraint: is it stuck at
//     zero) are pivoting loops on it.
//   - IntegerSample follows isl: (1) solve the equalities over the integers
//     by unimodular column operations (extended gcd / Hermite normal form)
//     into a lattice x = x0 + V·y; (2) check rational emptiness; (3) find
//     the implicit equalities of the recession cone and change coordinates
//     unimodularly so that they involve only the first k coordinates; the
//     constraints free of the others describe the (bounded) projection onto
//     those k coordinates; (4) sample the bounded part by exhaustive
//     branching over a generalized-basis-reduced basis (Cook, Rutherford,
//     Scarf and Shallcross), and (5) complete it in the directions with a
//     full-dimensional recession cone, where rounding up a rational point of
//     the set shrunk by the unit cube always gives an integer point.
package simplex
