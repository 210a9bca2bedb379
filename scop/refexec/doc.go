// Package refexec is the reference executor of scop programs: the oracle
// that every later stage (scheduling, tiling, fusion, AST generation, code
// generation) is checked against. It owns the meaning of a program: which
// statement instances run, in which order, and what each computes. It
// depends on nothing but the program model and the presburger library, so
// that a bug in a later stage cannot hide in it.
//
// # Order
//
// Run executes every point of every statement's domain (with the
// parameters fixed) exactly once, sorted lexicographically by its schedule
// vector; instances with equal vectors run in statement textual order, then
// by iteration vector (a well-formed program has none). A schedule must give
// each instance exactly one time; Run checks this. Instances are enumerated
// directly in time order from each statement's inverse schedule, and the
// statements' streams are merged, so memory does not grow with the number
// of instances.
//
// # Evaluation
//
// Each statement body is compiled once into closures; an instance then
// computes the write's address, the value, and stores it. Arithmetic
// follows the types of the tree (see package scop):
//
//   - Integer results wrap to their type's width (scop.IntValue): u8
//     arithmetic is modulo 256, signed overflow wraps in two's complement.
//     Div and Rem truncate towards zero as in C; FloorDiv and Mod round
//     towards negative infinity (Mod takes the sign of the divisor). An
//     integer division or remainder by zero is an error. u64 operands are
//     divided, compared and shifted as unsigned.
//   - Shl and Shr take a count in [0, bits of the type); any other count is
//     an error (undefined in C). Shr is arithmetic on signed types.
//   - f64 operations are float64 operations. Every f32 operation is
//     computed in float64 and rounded to float32 at once, which for +, -,
//     *, / and sqrt is exactly the float32 operation. Every node's result
//     is converted explicitly, so no multiply-add is ever fused.
//   - Min and Max of integers compare as the type does; of floats they are
//     C's fmin and fmax (a NaN operand is ignored).
//   - Comparisons yield Bool; And and Or evaluate their second operand only
//     when needed; Select evaluates only the chosen branch.
//   - Cast follows scop.Convert; Iter and Param nodes convert their int64
//     value with scop.IntValue.
//   - Calls use Go's math package (round is C's round: half away from
//     zero). At f32 the function is computed in float64 and rounded to
//     float32: sqrt, floor, ceil, round and abs are exact, the
//     transcendental functions may differ from a C libm's float versions
//     by an ulp, as Go's float64 functions may differ from libm's.
//
// Every array access is bounds-checked: an access outside the array's
// shape stops the run with an *InstanceError naming the statement, the
// instance, the array, the subscript and the element.
//
// # Instances in any order
//
// Compile compiles the same closures for a caller that chooses the
// instances and their order (the AST interpreter): Code.Exec runs one.
// Optionally the code counts instances, loads, stores and math calls as
// executed (compiled in only when asked, so Run pays nothing), and arrays
// named rebindable are reached through a cell whose buffer Code.Bind
// replaces at run time (tile-local buffers).
package refexec
