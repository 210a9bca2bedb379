package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileTree: compile --tree compiles a user's tree, checked like
// ast --tree: the false-coincident jacobi-2d tree is refused with its
// witness (exit 1, no file written) unless --unchecked; --fuse and a
// lone --unchecked are usage errors.
func TestCompileTree(t *testing.T) {
	good, bad := falseCoincident(t)
	goodFile, badFile := writeTemp(t, "good.json", good), writeTemp(t, "bad.json", bad)
	dir := t.TempDir()
	out := filepath.Join(dir, "k")
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stderr string // a part of stderr; "" for none
		file   bool   // k.ll written
	}{
		{"good", []string{"--tree", goodFile}, exitOK, "", true},
		{"refused", []string{"--tree", badFile}, exitCheck, "is marked coincident but carries the ", false},
		{"unchecked", []string{"--tree", badFile, "--unchecked"}, exitOK, "", true},
		{"fuse", []string{"--tree", goodFile, "--fuse", "min"}, exitUsage, "--fuse schedules SOURCE; it does not apply to --tree", false},
		{"lone unchecked", []string{"--unchecked"}, exitUsage, "--unchecked applies to a --tree TREE", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out + ".ll")
			args := append([]string{"compile", "--parallel", "-o", out}, tc.args...)
			_, stderr, status := runCmd("", append(args, "polybench/jacobi-2d")...)
			if status != tc.status {
				t.Fatalf("status %d, want %d; stderr %q", status, tc.status, stderr)
			}
			if tc.stderr == "" && stderr != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q, want %q", stderr, tc.stderr)
			}
			if _, err := os.Stat(out + ".ll"); (err == nil) != tc.file {
				t.Errorf("k.ll written: %v, want %v", err == nil, tc.file)
			}
		})
	}
}
