// Package presburger is tilefuse's exact integer set library, in the manner
// of isl: sets and relations of integer tuples described by Presburger
// formulas over symbolic parameters.
//
// # Objects
//
// A Space names the parameters and tuples (S[i, j], nested [A[i] -> B[j]]).
// A basic set or map is a conjunction of affine equalities and inequalities
// over [1, params, in, out, locals]; a local is an existentially quantified
// integer, usually defined as floor(affine/d). Set and Map are unions of
// basics in one space; UnionSet and UnionMap hold one Set or Map per space.
// All values are immutable.
//
// # Exactness
//
// Every operation is exact over the integers. Coefficients are int64 and all
// arithmetic is checked: an overflow makes the operation return an error
// matching ErrOverflow, never a wrong set. Integer emptiness and sampling
// (package internal/simplex) eliminate equalities by a unimodular change of
// variables, then search the bounded part exactly and use the recession cone
// for unbounded directions. Projection keeps eliminated dimensions as
// existentials, removing them by Fourier-Motzkin only where that is exact
// over the integers. Subtraction and complement first give every existential
// an explicit floor definition (splitting into disjuncts where needed).
//
// # Notation
//
// Objects are read and printed in isl's notation (see ParseSet); whatever
// this package prints, isl reads back as an equal object.
//
// # Errors
//
// Operations return errors for incompatible spaces, int64 overflow
// (ErrOverflow), an exhausted operation budget (ErrBudget) and existentials
// that cannot be given an explicit definition (ErrNoExplicitLocals).
package presburger
