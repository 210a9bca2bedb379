package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/pollytest"
	"github.com/tilefuse/tilefuse/polybench"
)

// TestJSCoPFlags writes jacobi-2d's JSCoP with scop --format jscop and
// reads it back with --jscop: the same tree, written again the same;
// a schedule that runs the second statement first is refused as
// illegal, and bad files with one positioned message, exit 2 and no
// output file.
func TestJSCoPFlags(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	orig, stderr, status := runCmd("", "scop", "--format", "jscop", "polybench/jacobi-2d")
	if status != exitOK {
		t.Fatalf("scop --format jscop: %s", stderr)
	}
	file := write("jacobi.jscop", orig)
	tree, stderr, status := runCmd("", "tree", "--jscop", file, "polybench/jacobi-2d")
	if status != exitOK {
		t.Fatalf("tree --jscop: %s", stderr)
	}
	want, _, _ := runCmd("", "tree", "--fuse", "none", "polybench/jacobi-2d")
	// The JSCoP's dimensions are named i0, i1, ... in the bands.
	if named := strings.NewReplacer("i0", "t", "i1", "i", "i2", "j").Replace(tree); named != want {
		t.Errorf("tree --jscop of scop's JSCoP:\n%s\nwant the original order's tree:\n%s", tree, want)
	}
	again, stderr, status := runCmd("", "tree", "--jscop", file, "--format", "jscop", "polybench/jacobi-2d")
	if status != exitOK {
		t.Fatalf("tree --jscop --format jscop: %s", stderr)
	}
	back, _, _ := runCmd("", "tree", "--jscop", write("again.jscop", again), "polybench/jacobi-2d")
	if back != tree {
		t.Errorf("the tree's JSCoP reads back as\n%s\nwant\n%s", back, tree)
	}

	// S0 and S1 swap places in the time step: illegal.
	swapped := strings.NewReplacer("-> [0, t, 0,", "-> [0, t, 1,", "-> [0, t, 1,", "-> [0, t, 0,").Replace(orig)
	if swapped == orig {
		t.Fatalf("no schedule to swap in\n%s", orig)
	}
	bad := []struct {
		name, text string
		status     int
		stderr     string
	}{
		{"swapped", swapped, exitCheck, "illegal tree, refused"},
		{"truncated", orig[:len(orig)/2], exitUsage, "truncated.jscop:"},
		{"bad schedule", strings.Replace(orig, "-> [0, t, 0,", "-> [0, t, 0 +,", 1), exitUsage, ".schedule: "},
		{"no statements", `{"context": "[n] -> { : n >= 0 }", "name": "x", "statements": []}`, exitUsage, "bad.jscop:statements: missing or empty"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			f := write(strings.ReplaceAll(tc.name, " ", "_")+".jscop", tc.text)
			if tc.name == "no statements" {
				f = write("bad.jscop", tc.text)
			}
			for _, args := range [][]string{
				{"tree", "--jscop", f, "polybench/jacobi-2d"},
				{"compile", "--jscop", f, "-o", filepath.Join(dir, "out"), "polybench/jacobi-2d"},
			} {
				stdout, stderr, status := runCmd("", args...)
				if status != tc.status || !strings.Contains(stderr, tc.stderr) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
					t.Errorf("%s: status %d, stderr %q; want %d and one line with %q", args[0], status, stderr, tc.status, tc.stderr)
				}
				if stdout != "" {
					t.Errorf("%s: partial output %q", args[0], stdout)
				}
				if _, err := os.Stat(filepath.Join(dir, "out.ll")); err == nil {
					t.Errorf("%s: wrote out.ll", args[0])
				}
			}
		})
	}

	gemm, _, _ := runCmd("", "scop", "--format", "jscop", "polybench/gemm")
	_, stderr, status = runCmd("", "tree", "--jscop", write("gemm.jscop", gemm), "polybench/jacobi-2d")
	if status != exitUsage || !strings.Contains(stderr, "JSCoP") {
		t.Errorf("gemm's JSCoP for jacobi-2d: status %d, stderr %q", status, stderr)
	}
	_, stderr, status = runCmd("", "tree", "--jscop", file, "--fuse", "min", "polybench/jacobi-2d")
	if status != exitUsage || !strings.Contains(stderr, "do not apply to --jscop") {
		t.Errorf("--fuse with --jscop: status %d, stderr %q", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.ll")); err == nil {
		t.Fatal("a refused compile wrote out.ll")
	}
	_, stderr, status = runCmd("", "compile", "--jscop", file, "-o", filepath.Join(dir, "out"), "polybench/jacobi-2d")
	if status != exitOK {
		t.Fatalf("compile --jscop: %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.ll")); err != nil {
		t.Fatal(err)
	}
}

// TestJSCoPPolly is the command line's round trip with Polly on 2mm (two
// static control parts): run --jscop compiles Polly's own schedule and
// checks its arrays; tree --polly writes tilefuse's tiled schedule into
// Polly's files, which Polly imports, its code generated.
func TestJSCoPPolly(t *testing.T) {
	pollytest.Need(t)
	k, _ := polybench.Lookup("2mm")
	dir := t.TempDir()
	ll, files := pollytest.Export(t, k, dir)
	if len(files) != 2 {
		t.Fatalf("Polly exported %d static control parts of 2mm, want 2", len(files))
	}
	list := strings.Join(files, ",")
	stdout, stderr, status := runCmd("", "run", "--jscop", list, "--dataset", "SMALL", "--repeat", "1", "--gcc=false", "polybench/2mm")
	if status != exitOK || !strings.Contains(stdout, "ok") || !strings.Contains(stdout, "(the given schedule, parallel)") {
		t.Fatalf("run --jscop: status %d\n%s\n%s", status, stdout, stderr)
	}
	stdout, stderr, status = runCmd("", "tree", "--fuse", "min", "--tile", "8", "--polly", files[0], "--polly", files[1], "polybench/2mm")
	if status != exitOK || strings.Count(stdout, "wrote ") != 2 {
		t.Fatalf("tree --polly: status %d\n%s\n%s", status, stdout, stderr)
	}
	log := pollytest.Import(t, dir, ll, "tilefuse")
	if n := strings.Count(log, "Reading JScop"); n != 2 || strings.Contains(log, "changes the dependences") {
		t.Fatalf("Polly imported %d schedules, want 2:\n%s", n, log)
	}
}
