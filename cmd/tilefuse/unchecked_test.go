package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// falseCoincident returns the original-order tree of jacobi-2d in JSON
// with its time loop (the outer band [t]) marked coincident: the issue
// 17 tree, which 'ast --c --parallel --tree' turned into a parallel time
// loop.
func falseCoincident(t *testing.T) (good, bad string) {
	t.Helper()
	good, stderr, status := runCmd("", "tree", "--fuse", "none", "--format", "json", "polybench/jacobi-2d")
	if status != exitOK {
		t.Fatalf("tree: %s", stderr)
	}
	const flag = `"coincident": [false]`
	if strings.Count(good, flag) != 1 {
		t.Fatalf("want one band with %s in:\n%s", flag, good)
	}
	return good, strings.Replace(good, flag, `"coincident": [true]`, 1)
}

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTreeRefusedUnlessUnchecked gives ast a tree whose time loop is
// falsely marked coincident: it is refused with exit status 1 and a pair
// of instances, unless --unchecked.
func TestTreeRefusedUnlessUnchecked(t *testing.T) {
	good, bad := falseCoincident(t)
	goodFile, badFile := writeTemp(t, "good.json", good), writeTemp(t, "bad.json", bad)
	const witness = "member 0 of the band at /0/0 is marked coincident but carries the "

	code, stderr, status := runCmd("", "ast", "--c", "--parallel", "--tree", badFile, "polybench/jacobi-2d")
	if status != exitCheck || code != "" || !strings.Contains(stderr, witness) ||
		!strings.Contains(stderr, "illegal tree, refused (--unchecked generates its code anyway)") {
		t.Errorf("ast of the false tree: status %d, stderr %q, stdout %q", status, stderr, code)
	}
	// The witness names a pair of instances and the parameters.
	if !strings.Contains(stderr, "runs at [") || !strings.Contains(stderr, "tsteps = ") {
		t.Errorf("no concrete pair in %q", stderr)
	}

	code, stderr, status = runCmd("", "ast", "--c", "--parallel", "--unchecked", "--tree", badFile, "polybench/jacobi-2d")
	if status != exitOK || stderr != "" || !strings.Contains(code, "#pragma omp parallel for") {
		t.Errorf("ast --unchecked: status %d, stderr %q, code:\n%s", status, stderr, code)
	}

	code, stderr, status = runCmd("", "ast", "--c", "--parallel", "--tree", goodFile, "polybench/jacobi-2d")
	if status != exitOK || stderr != "" || code == "" {
		t.Errorf("ast of the true tree: status %d, stderr %q", status, stderr)
	}

	// check-tree reports the flag too.
	out, stderr, status := runCmd("", "check-tree", "polybench/jacobi-2d", badFile)
	if status != exitCheck || !strings.Contains(out, witness) || strings.Contains(out, "legal\n") {
		t.Errorf("check-tree: status %d, stdout %q, stderr %q", status, out, stderr)
	}
}

// TestTreeRefusedOrder refuses a tree that orders a dependence wrongly.
func TestTreeRefusedOrder(t *testing.T) {
	tree, _, _ := runCmd("", "tree", "--fuse", "none", "--format", "json", "testdata/scop/chain.c")
	reversed := strings.Replace(tree, "S0[i] -> [i]", "S0[i] -> [-i]", 1)
	if reversed == tree {
		t.Fatalf("could not plant a reversal in:\n%s", tree)
	}
	f := writeTemp(t, "reversed.json", reversed)
	_, stderr, status := runCmd("", "ast", "--c", "--tree", f, "testdata/scop/chain.c")
	if status != exitCheck || !strings.Contains(stderr, "violated: S0[") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
	if _, stderr, status := runCmd("", "ast", "--c", "--unchecked", "--tree", f, "testdata/scop/chain.c"); status != exitOK {
		t.Errorf("--unchecked: status %d, stderr %q", status, stderr)
	}
}

// TestTreeFlagsLegal checks the scheduler's trees, tiled or not, through
// check-tree: their flags hold.
func TestTreeFlagsLegal(t *testing.T) {
	for _, args := range [][]string{
		{"--fuse", "smart", "polybench/jacobi-2d"},
		{"--fuse", "smart", "--tile", "32", "polybench/jacobi-2d"},
		{"--fuse", "max", "--tile", "8,16", "polybench/gemm"},
		{"--fuse", "min", "--tile", "16", "pipelines/blur"},
	} {
		tree, stderr, status := runCmd("", append([]string{"tree", "--format", "json"}, args...)...)
		if status != exitOK {
			t.Fatalf("tree %q: %s", args, stderr)
		}
		f := writeTemp(t, "tree.json", tree)
		source := args[len(args)-1]
		if out, stderr, status := runCmd("", "check-tree", source, f); status != exitOK || out != "legal\n" {
			t.Errorf("check-tree of tree %q: status %d, stdout %q, stderr %q", args, status, out, stderr)
		}
	}
}

// TestTreeShortCoincident refuses a coincident list shorter than its
// band (it was read as false flags for the missing members).
func TestTreeShortCoincident(t *testing.T) {
	good, _ := falseCoincident(t)
	short := strings.Replace(good, `"coincident": [true, true]`, `"coincident": [true]`, 1)
	if short == good {
		t.Fatalf("no band of two coincident members in:\n%s", good)
	}
	f := writeTemp(t, "short.json", short)
	const want = "2 members but 1 coincident flags"
	if _, stderr, status := runCmd("", "check-tree", "polybench/jacobi-2d", f); status != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("check-tree: status %d, stderr %q", status, stderr)
	}
	if _, stderr, status := runCmd("", "ast", "--tree", f); status != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("ast: status %d, stderr %q", status, stderr)
	}
}

// TestUncheckedNeedsTree: --unchecked applies to --tree only.
func TestUncheckedNeedsTree(t *testing.T) {
	if _, stderr, status := runCmd("", "ast", "--unchecked", "polybench/gemm"); status != exitUsage || !strings.Contains(stderr, "--unchecked applies to a --tree TREE") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
}
