// Package pollytest runs Polly (clang-14 and opt-14) for the tests that
// exchange JSCoP files with it: it exports the static control parts of
// a PolyBench kernel and imports schedules back with code generation.
package pollytest
