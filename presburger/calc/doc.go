// Package calc is tilefuse's calculator language, a subset of iscc (the isl
// calculator), over the sets and maps of package presburger.
//
// It owns the language: the lexer, the parser to an AST, and an evaluator
// that is generic over a Backend. Backend Tilefuse evaluates with package
// presburger; the isl reference in package internal/islref evaluates the
// same AST with libisl, which is how the library is tested against isl.
//
// # Language
//
// A program is a sequence of statements, each ending with a semicolon:
//
//	NAME := expr;   # bind the value of expr to NAME
//	expr;           # print the value of expr on its own line
//
// Comments run from # to the end of the line. Values are sets, maps and
// booleans. Expressions are:
//
//	{ S[i] : 0 <= i < 10 }        a literal in isl notation (also [N] -> { ... })
//	NAME                          a name bound by an earlier statement
//	A + B                         union
//	A - B                         difference
//	A * B                         intersection; map * set intersects the map's domain
//	A . B                         join: B after A (apply_range)
//	A % B                         gist of A in the context B
//	A = B, A <= B                 equality and subset tests, printed True or False
//	M(S)                          the image of set S under map M
//	M^-1                          reverse
//	dom M, ran M, deltas M        domain, range, differences (range - domain)
//	lexmin X, lexmax X            lexicographic minimum / maximum
//	coalesce X, sample X          simplified form; one element of X (empty if X is)
//	params X                      the parameter values for which X is non-empty
//	card S                        the number of points of a bounded parameter-free set: { N }
//	( expr )
//
// Precedence, lowest first: the comparisons = and <= (which do not chain);
// + and -; *, % and . ; the prefix operators (dom, ran, lexmin, lexmax,
// coalesce, sample, params, deltas, card); postfix ^-1 and application M(S), which
// bind tightest. Binary operators associate to the left. So dom M * S is
// (dom M) * S, and dom M(S) is dom (M(S)).
//
// Errors are reported as "file:line:col: message" (see Error).
package calc
