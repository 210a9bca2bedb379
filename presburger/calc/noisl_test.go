//go:build !(isl && cgo)

package calc_test

import (
	"os"
	"testing"
)

// TestISLDifferential stands in for the isl differential tests when they
// are not built. It says so loudly, and fails in CI, where they must run.
func TestISLDifferential(t *testing.T) {
	const msg = "ISL DIFFERENTIAL TESTS NOT RUN: they need cgo, libisl-dev and -tags isl " +
		"(go test -tags isl ./...)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg + "; CI is set, so this is a failure")
	}
	t.Skip(msg)
}
