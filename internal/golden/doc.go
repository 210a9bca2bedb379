// Package golden compares a test's output with a golden file under the
// package's testdata directory, and rewrites the file instead when the
// test runs with -update (go test ./pkg -update), so that every package
// keeps its expected outputs the same way. It is for tests only.
package golden
