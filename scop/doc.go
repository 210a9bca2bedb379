// Package scop is tilefuse's polyhedral program: the model every front end
// produces and every later stage reads.
//
// A Program has integer size parameters with a context (the parameter values
// it is defined for), arrays (element type, parametric extents, live-in and
// live-out flags; a scalar is a zero-dimensional array), and statements. A
// statement is one assignment
//
//	Write[index...] = Value
//
// executed once for every point of its iteration domain, a presburger.Set
// over the parameters. Its original schedule maps each instance to a
// position in a common time space; the lexicographic order of those
// positions is program order and defines what the program means.
//
// Bodies are typed expression trees (Expr). The tree is explicit about
// types: front ends insert every conversion as a Cast, so both operands of a
// Binary have the node's type (comparisons and logical operators yield
// Bool). Finish derives each statement's read and write access relations
// from its subscripts and checks the whole program; affine subscripts (with
// floor division and modulo by constants) give exact relations, and a
// subscript that reads memory gives a may-access of the whole array.
//
// Buffer is the storage every executor shares: raw little-endian bytes in C
// row-major layout, so that the reference executor, the AST interpreter and
// compiled code exchange arrays without conversion.
package scop
