package main

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/openscop"
)

// TestOpenScopFormat: scop and tree print OpenScop that package
// openscop reads back (its tests compare the relations); a tree that
// recomputes instances is refused with exit 2 and no output.
func TestOpenScopFormat(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		stmts int
	}{
		{[]string{"scop", "--format", "openscop", "polybench/jacobi-2d"}, 2},
		{[]string{"tree", "--format", "openscop", "--fuse", "smart", "--tile", "32,32", "polybench/jacobi-2d"}, 2},
		{[]string{"tree", "--format", "openscop", "--fuse", "max", "polybench/2mm"}, 4},
	} {
		stdout, stderr, status := runCmd("", tc.args...)
		if status != exitOK {
			t.Fatalf("%v: status %d: %s", tc.args, status, stderr)
		}
		s, err := openscop.Read(stdout)
		if err != nil {
			t.Fatalf("%v: reading the output back: %v", tc.args, err)
		}
		if len(s.Statements) != tc.stmts {
			t.Errorf("%v: %d statements, want %d", tc.args, len(s.Statements), tc.stmts)
		}
	}
	stdout, stderr, status := runCmd("", "tree", "--format", "openscop", "--fuse", "post", "polymage/harris")
	if status != exitUsage || stdout != "" || !strings.Contains(stderr, "OpenScop holds one scattering per statement") {
		t.Errorf("post tree as OpenScop: status %d, stdout %d bytes, stderr %q", status, len(stdout), stderr)
	}
	_, stderr, status = runCmd("", "scop", "--format", "openscp", "polybench/gemm")
	if status != exitUsage || !strings.Contains(stderr, "openscop") {
		t.Errorf("unknown format: status %d, stderr %q", status, stderr)
	}
}
