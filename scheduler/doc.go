// Package scheduler computes the initial schedule tree of a program: its
// original order (Original), a Pluto-style affine schedule with a fusion
// heuristic (Schedule), and the legality of any tree against the
// dependences (Check).
//
// # Original order
//
// Original reads the statements' schedules (2d+1 or any form whose
// dimensions are either constant on a statement's domain or loop
// dimensions): where the statements of a branch hold different constants a
// sequence orders them, and each run of loop dimensions up to the next
// split becomes one band (dimensions constant and equal on the whole
// branch are dropped). Its Map orders the instances exactly as the
// original schedules do. Flags come from the dependences between the
// band's statements that agree on all outer dimensions: a member is
// coincident when all of them have distance 0 on it, the band permutable
// when all have distance >= 0 on every member.
//
// # The hyperplane problem
//
// Schedule follows Bondhugula et al. (PLDI 2008). A hyperplane gives each
// statement S of the group being scheduled an affine function
// phi_S(i) = c_S·i + c0_S (plus d_S·params with Options.ParamShifts) with
// non-negative integer coefficients. For every dependence edge S -> T
// (the union of all RAW, WAR and WAW pairs between the two statements, may
// dependences included) that is not yet ordered by the levels above:
//
//	legality:  phi_T(t) - phi_S(s) >= 0             on the edge's pairs
//	bound:     u·params + w - (phi_T(t) - phi_S(s)) >= 0
//
// Both say that an affine form is non-negative on a polyhedron, which the
// affine Farkas lemma turns into linear constraints on the form's
// coefficients: the form lies in the polyhedron's coefficient cone
// (presburger.Set.Coefficients, isl_set_coefficients). The cone is
// computed once per edge by eliminating the Farkas multipliers over the
// rationals (Gaussian elimination, then Fourier-Motzkin with Chernikov's
// rule and simplex redundancy removal), never by integer projection, which
// would exclude valid schedules. Parameters are variables of the
// polyhedron; existentials are projected out rationally, a larger
// polyhedron and so stronger, still legal, constraints. Each dependence is
// split into one piece per pair of accesses (a stencil's offsets become
// equalities): the pieces cover it exactly and their cones are small.
//
// The integer program's variables, in the order of its lexicographic
// objective, are u (one per parameter), w, then per statement its
// parameter coefficients, its iterator coefficients innermost first, and
// its constant. Minimising u and w first minimises the dependence distance
// bound (Pluto's objective: communication and reuse distance); iterator
// coefficients innermost first make the outermost original loop win ties.
// The minimum is found by presburger.LexMinRowsWithin, the library's
// exact integer lexmin (per variable, branch and bound on one rational
// simplex tableau, and integer sampling where branch and bound gives up),
// adding the rows a few at a time: most never bind. Feasibility questions
// (can these components share a hyperplane?) go to
// presburger.IntegerSampleRowsWithin with all rows at once. Each integer
// program has a deterministic work budget (workLimit: simplex pivots
// weighted by the program's size, the same on every machine); a program
// over it is treated as infeasible, as one that overflows int64.
//
// Linear independence follows Pluto: for a statement below full rank,
// with the rows r of its hyperplanes' orthogonal complement (the non-zero
// rows of I - Hᵀ(HHᵀ)⁻¹H, first entry positive), r·c_S >= 0 for each r
// and Σ r·c_S >= 1. Statements at full rank get no such constraint (their
// hyperplane may be a constant).
//
// # Bands, cuts and the tree
//
// Scheduling a group (a set of statements with the edges between them not
// yet ordered) goes:
//
//  1. Every statement at full rank: no edge left gives a leaf (a sequence
//     in textual order for several statements); otherwise a sequence of
//     the strongly connected components in topological order; a cycle at
//     equal times falls back to the original order of the group.
//  2. The components are partitioned by the fusion heuristic into
//     consecutive runs of the topological order; several runs become a
//     sequence, each run scheduled on its own (scalar dimension, Pluto's
//     cut).
//  3. Otherwise hyperplanes are found one by one, each satisfying every
//     edge of the group weakly, until every statement has full rank or no
//     hyperplane exists. They form one permutable band; a member is
//     coincident when it gives every edge distance 0. The bound only
//     counts edges that no earlier member carries entirely.
//  4. The edges are refined to the pairs the band does not order (equal
//     values on all members) and the group is scheduled again below the
//     band. If no hyperplane was found, the components are cut apart; a
//     single component without one falls back to the original order,
//     which orders all remaining pairs (they come from it).
//  5. A band that completes every statement's schedule gets the member of
//     best access locality as its innermost loop (Pluto's intra-tile
//     optimisation; off with Options.KeepOrder). A member's step is the
//     iteration-space direction that advances it by one and leaves the
//     outer levels and the other members unchanged; along it, each access
//     of each statement either stays on one element, walks a row (only
//     the last subscript moves), or jumps between rows. The member with
//     the fewest row jumps wins, then a coincident one (vectorizable),
//     then the most reuse. Any order of a permutable band is legal, and
//     coincidence is judged on the band's start, so flags move with their
//     members. Without a parallel loop around the band, its only
//     coincident member is not moved. The hyperplane objective is blind to
//     locality: it put gemm's k (a column walk of B) and fdtd-2d's i (a
//     column walk of every array, 25x slower at LARGE) innermost.
//     Under smart fusion, a band that leaves a reduction one loop short
//     (its write fixed along that loop, a component of its own) is
//     dropped and the group distributed at that level when one of the
//     band's members, movable as above, would walk its arrays with fewer
//     row jumps than the loop left for it innermost (localitySplit):
//     fused with the statements that end with the band, the reduction
//     cannot get that member innermost (covariance's cov[i][j] +=
//     data[k][i] * data[k][j] under (i, j) with k innermost: 6.7 s
//     against 0.28 s distributed, LARGE).
//
// Every band map is a function from the statement's instances, on the
// universe of its space; filters are the statements' universes; a context
// node holds the program's context when it says anything.
//
// # Fusion heuristics
//
//   - FuseMin: every strongly connected component of the remaining
//     dependence graph gets its own subtree, at every level: no fusion of
//     components, ever (statements in one component are scheduled
//     together, as they must).
//   - FuseMax: the whole group shares a band when a common hyperplane
//     exists; otherwise runs are grown greedily along the topological
//     order while a common hyperplane for the run exists. It fuses
//     wherever a legal common hyperplane exists, also when that costs
//     parallelism (a shift that turns a parallel loop into a serial one).
//     Fallback: when the first member of a fused group's band exceeds the
//     work budget (the group's common hyperplane exists, but the best one
//     is too expensive to find), that group is scheduled by FuseSmart's
//     rules instead. Of the PolyMage pipelines, interpolate and
//     local_laplacian take it at their root (the whole pipeline fused by
//     scaling each pyramid level's hyperplanes by 2), and their FuseMax
//     trees are then their FuseSmart trees.
//   - FuseSmart: like FuseMax, but a component joins a run only if the
//     run's next common hyperplane can be coincident, or if no component
//     of the run could have a coincident hyperplane on its own; and within
//     a fused band, a member that is not coincident while some component
//     alone could have a coincident one ends the band, the components
//     being distributed below it. So the stages of a blur share their
//     parallel outer loop and are distributed inside, where fusion would
//     need a shift that serializes the inner loop. Whether a member can
//     be coincident is asked first as a feasibility question (distance 0
//     on the Farkas cone of every edge), and the band ends at once when
//     the answer is no, without solving for the member (see findBand).
//     A band member over the work budget ends the band, as one that does
//     not exist.
//
// Limits: the heuristics look one hyperplane ahead and merge greedily
// along one topological order, never reorder components to fuse
// non-adjacent ones, and count coincidence over all edges live at the
// band's start (conservative for inner members). Coefficients are
// non-negative (no loop reversal) and the independence constraint is
// Pluto's sufficient orthant, so some schedules that exist are not found;
// the fallback keeps the result legal. The int64 arithmetic of the
// library can overflow on long chains of statements whose domains have
// large constant offsets: such a problem is retried with uniformly
// dependent statements sharing their linear part (and solved that way
// first when it has more than 160 variables), and treated as infeasible
// if it still overflows (or exceeds the work budget), which costs fusion,
// never legality.
//
// Budget: besides the work limit of each integer program, one Schedule
// spends at most Options.MaxWork (DefaultMaxWork) units of solver work on
// all its Farkas coefficient sets and integer programs together, counted
// as tableau entries updated by pivots (see presburger.RowsWork), a
// measure of time that depends on the input only. Past it, Schedule
// stops with a *BudgetError instead of running on for minutes (deep
// nests around a scalar accumulator, long chains of dependent loops).
//
// # Check
//
// Check works on t.Map(), so it accepts any tree: for every dependence it
// looks for pairs whose source does not run strictly before its sink
// (lexicographically), or that are not scheduled, and reports one sample
// pair with its parameter values and times.
package scheduler
