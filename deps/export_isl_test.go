//go:build isl && cgo

package deps

// AgreeProgram is agreeProgram for the external tests (isl_randprog_test.go),
// which can import packages that import deps.
var AgreeProgram = agreeProgram
