// Package islcodegen runs isl's code-generation tests (isl's
// test_inputs/codegen: schedule trees in YAML, .st, and AST-build inputs
// of a schedule map, a context and options, .in, each with the C that
// isl prints for it, .c) through tilefuse's AST generator, and compares
// the statement instances both codes execute.
//
// Read turns an input file into a schedule tree and a context; Compare
// classifies tilefuse's trace against isl's: equal, equal up to ties, or
// different. The test of the suite runs when TILEFUSE_ISL_CODEGEN names
// the directory test_inputs/codegen of an isl source tree.
package islcodegen
