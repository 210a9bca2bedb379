// Package loopc reads and runs the loop code that isl's AST printer writes
// in C (isl_ast_node_print with ISL_FORMAT_C, as isl's codegen tests
// expect it): for loops over int iterators, if/else, blocks, and
// statement calls S(e, ...), with integer expressions over parameters and
// iterators (+, -, *, C's truncating / and %, comparisons, &&, ||, !,
// ?:, min, max, floord). A condition "1" is a loop without end.
//
// Run executes the code for fixed parameter values and reports each
// statement call with its argument values, so that the instances isl's
// expected code runs can be compared with those of generated code.
package loopc
