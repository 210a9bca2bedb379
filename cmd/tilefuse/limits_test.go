package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLimitFlags: compile, run, tree, ast and bench take the limits of
// every stage, and a limit reached is one line that names its flag.
func TestLimitFlags(t *testing.T) {
	dir := t.TempDir()
	nest := filepath.Join(dir, "nest.c")
	src := "void f(int N, double A[N][N][N][N][N][N], double out[1]) {\n  double s = 0.0;\n#pragma scop\n" +
		"  for (int i = 0; i < N; i++)\n  for (int j = 0; j < N; j++)\n  for (int k = 0; k < N; k++)\n" +
		"  for (int l = 0; l < N; l++)\n  for (int m = 0; m < N; m++)\n  for (int n = 0; n < N; n++)\n" +
		"    s += A[i][j][k][l][m][n];\n  out[0] = s;\n#pragma endscop\n}\n"
	unroll := filepath.Join(dir, "unroll.yaml")
	tree := "domain: \"{ S[i, j, k] : 0 <= i < 30 and 0 <= j < 30 and 0 <= k < 30 }\"\nchild:\n" +
		"  schedule: \"[{ S[i, j, k] -> [(i)] }, { S[i, j, k] -> [(j)] }, { S[i, j, k] -> [(k)] }]\"\n  options: \"{ unroll[x] }\"\n"
	for name, s := range map[string]string{nest: src, unroll: tree} {
		if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"tree schedule-work", []string{"tree", "--schedule-work", "100000000", nest}, exitUsage, "raise it with --schedule-work N (now 100000000)"},
		{"tree none ignores the budget", []string{"tree", "--fuse", "none", "--schedule-work", "1", nest}, exitOK, ""},
		{"ast max-nodes", []string{"ast", "--max-nodes", "500", "--tree", unroll}, exitUsage, "raise it with --max-nodes N (now 500)"},
		{"ast timeout", []string{"ast", "--timeout", "1ns", "--tree", unroll}, exitUsage, "raise it with --timeout D"},
		{"ast max-pieces", []string{"ast", "--max-pieces", "-1", "--tree", unroll}, exitUsage, "--max-pieces must not be negative"},
		{"compile schedule-work invalid", []string{"compile", "--schedule-work", "-2", "-o", filepath.Join(dir, "out"), nest}, exitUsage, "--schedule-work must be -1"},
		{"run max-ops invalid", []string{"run", "--max-ops", "-5", nest}, exitUsage, "--max-ops must not be negative"},
		{"bench max-nodes invalid", []string{"bench", "--limit=false", "--max-nodes", "-3", "polybench"}, exitUsage, "--max-nodes must be -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, status := runCmd("", tc.args...)
			if status != tc.status {
				t.Errorf("status %d, want %d; stderr: %s", status, tc.status, stderr)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.stderr)
			}
			if strings.Count(stderr, "\n") > 1 {
				t.Errorf("stderr has more than one line: %q", stderr)
			}
		})
	}
	for _, cmd := range []string{"compile", "run", "tree", "ast", "bench"} {
		out, _, _ := runCmd("", "help", cmd)
		for _, flag := range []string{"--max-ops", "--max-pieces", "--schedule-work", "--max-nodes", "--timeout"} {
			if !strings.Contains(out, flag) {
				t.Errorf("help %s does not document %s", cmd, flag)
			}
		}
	}
}
