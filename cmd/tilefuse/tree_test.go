package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTreeCommand(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stdout []string
		stderr string
	}{
		{"original order", []string{"tree", "--fuse", "none", "polybench/gemm"}, exitOK, []string{"domain ", "sequence", "band "}, ""},
		{"smart fusion", []string{"tree", "polybench/jacobi-1d"}, exitOK, []string{"band ", "permutable"}, ""},
		{"json", []string{"tree", "--format", "json", "pipelines/blur"}, exitOK, []string{`"kind": "domain"`}, ""},
		{"yaml", []string{"tree", "--format", "yaml", "--fuse", "min", "polybench/atax"}, exitOK, []string{"domain: ", "schedule: "}, ""},
		{"bad fuse", []string{"tree", "--fuse", "most", "polybench/gemm"}, exitUsage, nil, `unknown fusion strategy "most" (none, min, smart, max, post, schedule or auto)`},
		{"bad format", []string{"tree", "--format", "xml", "polybench/gemm"}, exitUsage, nil, `unknown format "xml"`},
		{"several functions", []string{"tree", "testdata/scop/two.c"}, exitUsage, nil, "has 2 programs (scale, shift); pick one with --func"},
		{"bad source", []string{"tree", "testdata/scop/bad_subscript.c"}, exitUsage, nil, "bad_subscript.c:4:7: non-affine subscript"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != tc.status {
				t.Fatalf("status %d, want %d\nstderr: %s", status, tc.status, stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.stderr)
			}
		})
	}
}

// TestCheckTree round-trips the scheduler's JSON through check-tree, and
// plants a reversed loop that check-tree must reject with a concrete pair.
func TestCheckTree(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, fuse := range []string{"none", "min", "smart", "max"} {
		tree, stderr, status := runCmd("", "tree", "--fuse", fuse, "--format", "json", "polybench/jacobi-2d")
		if status != exitOK {
			t.Fatalf("tree --fuse %s: %s", fuse, stderr)
		}
		f := write("j2d-"+fuse+".json", tree)
		out, stderr, status := runCmd("", "check-tree", "polybench/jacobi-2d", f)
		if status != exitOK || out != "legal\n" {
			t.Errorf("check-tree of --fuse %s: status %d, stdout %q, stderr %q", fuse, status, out, stderr)
		}
	}
	yaml, _, _ := runCmd("", "tree", "--format", "yaml", "polybench/gemm")
	if out, stderr, status := runCmd("", "check-tree", "polybench/gemm", write("gemm.yaml", yaml)); status != exitOK {
		t.Errorf("check-tree of YAML: status %d, stdout %q, stderr %q", status, out, stderr)
	}

	tree, _, _ := runCmd("", "tree", "--fuse", "none", "--format", "json", "testdata/scop/chain.c")
	reversed := strings.Replace(tree, "S0[i] -> [i]", "S0[i] -> [-i]", 1)
	if reversed == tree {
		t.Fatalf("could not plant a reversal in:\n%s", tree)
	}
	out, _, status := runCmd("", "check-tree", "testdata/scop/chain.c", write("bad.json", reversed))
	if status != exitCheck || !strings.Contains(out, "RAW dependence S0 -> S0 on A violated: S0[") {
		t.Errorf("reversed loop: status %d, stdout %q", status, out)
	}

	other, _, _ := runCmd("", "tree", "--format", "json", "polybench/gemm")
	if _, stderr, status := runCmd("", "check-tree", "polybench/jacobi-2d", write("other.json", other)); status != exitCheck || !strings.Contains(stderr, "is not the program's") {
		t.Errorf("tree of another program: status %d, stderr %q", status, stderr)
	}
	if _, stderr, status := runCmd("", "check-tree", "polybench/gemm", write("junk.json", "{")); status != exitUsage || stderr == "" {
		t.Errorf("malformed tree: status %d, stderr %q", status, stderr)
	}
}
