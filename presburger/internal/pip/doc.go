// Package pip owns parametric integer programming for the presburger
// library: the lexicographic minimum (or maximum) of the integer points of
// a polyhedron {x : A·x + B·p + c >= 0, = 0} as a function of integer
// parameters p, as a list of pieces. Each piece is a region of the
// parameter space, described by constraints over the parameters and new
// floor-division locals (divs), with the optimum as an affine function of
// the parameters and divs; regions where the set is empty are pieces too.
// The regions are exact, pairwise disjoint and cover the context.
//
// Rows are []int64 with the constant first (see LexMin). All coefficient
// arithmetic goes through package arith or math/big: an int64 overflow
// panics with arith.Overflow and an exhausted simplex.Budget with
// simplex.BudgetExceeded, never a wrong answer.
//
// Algorithm: Feautrier's parametric integer programming as in isl's
// isl_tab_pip.c and MLIR's symbolic lexmin.
//
//   - Inequalities are tightened over the integers, and those that hold
//     with equality on the whole set become equalities (pip.go). The
//     equalities are solved over the integers (compress.go): column
//     operations bring them to Hermite form, x = x0(p, divs) + V·y with V
//     in column echelon form, so that x and y have the same lexicographic
//     order; divisibility conditions on p become divs and conditions.
//   - The tableau (tableau.go) holds y'_j = y_j + M for a symbolic big
//     parameter M, so that all unknowns are non-negative; row constants are
//     affine in [1, p, divs] plus a multiple of M, column coefficients are
//     numbers. Columns stay lexicographically positive, so the sample (all
//     columns zero) is the lexicographic minimum of the rational relaxation
//     once every row is non-negative.
//   - The dual simplex (solve.go) picks a row whose constant is negative
//     for the whole region and pivots with the lexicographic rule; where
//     the sign of a row's constant depends on the parameters, the region is
//     split into constant >= 0 and constant <= -1, and both parts are
//     solved. Signs are decided exactly over the integer points of the
//     region (context.go): known sample points, the rational relaxation,
//     then simplex.IntegerSample.
//   - At a rational optimum with a non-integral variable, a Gomory cut
//     (cut.go) is added from the first such variable; a parametric
//     fractional part becomes a new div of the context, as in isl. Cuts
//     from multiples of the source row are tried for a deeper cut, a gcd
//     test states divisibility conditions directly, equalities of the
//     region (also those that hold only over the integers) are used to
//     eliminate parameters from the row constants, and a joint integer
//     emptiness test of region and problem avoids proving emptiness by
//     cuts.
//   - At a rational optimum whose leading variables are integral while a
//     later one is not, the search checks (an integer emptiness test of
//     region and problem) whether any integer point has those leading
//     values, and where none has, cuts them off at once (solve.go,
//     cutPrefix): Gomory cuts from the later variable would walk a thin
//     strip a step at a time, splitting the region once per value of a
//     parameter. The multiplier of a Gomory cut's source row is chosen for
//     the deepest cut over the residues the row's constant takes, and a
//     cut's floor that is constant on the region (by its rational bounds)
//     needs no div.
//   - Gomory cuts can still need long chains with growing denominators on
//     thin polytopes. The search then restarts from a fresh tableau for the
//     region, and as a last resort (enumerate.go) solves a small bounded
//     region point by point with exact integer feasibility tests; an
//     overflow triggers the same fallback, and so do cuts that begin to
//     nest divs on a small region.
//   - Pieces are tidied (tidy.go): redundant constraints are dropped,
//     implicit equalities made explicit, unused divs removed and the divs
//     brought to a canonical form (floor(i/32) rather than
//     i - floor((31i + 31)/32)).
//
// An unbounded optimum (a variable reaching the big parameter) on some
// non-empty region makes LexMin return ErrUnbounded. It is detected at the
// rational optimum: a variable that depends on the big parameter there is
// unbounded on the integer points too, wherever the region has any (a
// rational polyhedron with integer points has them along its rays), so no
// cuts are spent on it.
//
// PartialLexMin and PartialLexMax optimise the first nOpt variables only;
// the others are existentially quantified (the projected dimensions and
// locals of a set's dimension bound). The search still runs over all of
// them, but an existential that depends on the big parameter, even in the
// optimum, is no error: only existence matters, and the big parameter can
// be taken as large as the existentials need. Their regions may have at
// most MaxDivs divs: beyond, the search reports an overflow at once
// rather than after seconds of integer searches over ever more columns,
// and the caller (presburger's lexicographic optimum) tries another way.
package pip
