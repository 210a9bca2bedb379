package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/golden"
	"github.com/tilefuse/tilefuse/internal/trace"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop/charness"
)

// astCases are the golden transcripts of 'tilefuse ast' in
// testdata/ast/NAME.golden (go test -update rewrites them). Failing cases
// must print one positioned line and write no -o file.
var astCases = []struct {
	name string
	args []string
}{
	{"gemm", []string{"polybench/gemm"}},
	{"jacobi-2d-none", []string{"--fuse", "none", "polybench/jacobi-2d"}},
	{"2mm-max-parallel", []string{"--fuse", "max", "--parallel", "polybench/2mm"}},
	{"lu-min", []string{"--fuse", "min", "polybench/lu"}},
	{"atax-tiled", []string{"--tile", "32", "polybench/atax"}},
	{"jacobi-1d-c", []string{"--c", "--parallel", "polybench/jacobi-1d"}},
	{"tree-yaml", []string{"--tree", "testdata/ast/tiled.yaml"}},
	{"tree-yaml-separate", []string{"--separate", "--context", "[N, M] -> { : N >= 8 and M >= 6 }", "--tree", "testdata/ast/tiled.yaml"}},
	{"tree-json", []string{"--tree", "testdata/ast/shifted.json"}},
	{"schedule-root-x-stats", []string{"--fuse", "schedule", "--stats", "pipelines/producer_consumer_root_x"}},
	{"schedule-harris", []string{"--fuse", "schedule", "polymage/harris"}},

	{"missing-tree", []string{"--tree", "testdata/ast/none.json"}},
	{"missing-source", []string{"testdata/ast/none.c"}},
	{"truncated-json", []string{"--tree", "testdata/ast/truncated.json"}},
	{"bad-key-json", []string{"--tree", "testdata/ast/bad_key.json"}},
	{"bad-set-json", []string{"--tree", "testdata/ast/bad_set.json"}},
	{"bad-node-yaml", []string{"--tree", "testdata/ast/bad_node.yaml"}},
	{"bad-set-yaml", []string{"--tree", "testdata/ast/bad_set.yaml"}},
	{"unknown-fuse", []string{"--fuse", "most", "polybench/gemm"}},
	{"schedule-without-calls", []string{"--fuse", "schedule", "polybench/gemm"}},
	{"bad-context", []string{"--context", "[n] -> { : n >= }", "polybench/gemm"}},
}

func TestASTGolden(t *testing.T) {
	for _, tc := range astCases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"ast"}, tc.args...)
			stdout, stderr, status := runCmd("", args...)
			got := transcript(stdout, stderr, status)
			golden.Check(t, filepath.Join("testdata", "ast", tc.name+".golden"), got)
			if status != exitOK && (status != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1) {
				t.Errorf("a failure must be exit status 2 and one line on stderr: status %d, stdout %q, stderr %q", status, stdout, stderr)
			}

			// -o writes exactly stdout, or no file at all.
			out := filepath.Join(t.TempDir(), "out.c")
			args = append([]string{"ast", "-o", out}, tc.args...)
			ostdout, ostderr, ostatus := runCmd("", args...)
			data, err := os.ReadFile(out)
			switch {
			case ostatus != status || ostderr != stderr || ostdout != "":
				t.Errorf("with -o: status %d, stdout %q, stderr %q", ostatus, ostdout, ostderr)
			case status == exitOK && string(data) != stdout:
				t.Errorf("with -o the file holds %q (%v), want stdout", data, err)
			case status != exitOK && !os.IsNotExist(err):
				t.Errorf("a failed run left %s (%v)", out, err)
			}
		})
	}
}

// TestASTTreeRuns runs the C of the tree files (isl-style calls) and
// checks that it visits the tree's instances in schedule order.
func TestASTTreeRuns(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	for _, tc := range []struct {
		file   string
		params map[string]int64
	}{
		{"testdata/ast/tiled.yaml", map[string]int64{"N": 10, "M": 7}},
		{"testdata/ast/shifted.json", map[string]int64{"N": 6}},
		{"testdata/ast/shifted.json", map[string]int64{"N": 0}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			tr, err := readTreeFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			m, err := tr.Map()
			if err == nil {
				m, err = m.IntersectDomain(tr.Domain())
			}
			var want []trace.Timed
			if err == nil {
				want, err = trace.Enumerate(m, tc.params)
			}
			if err != nil {
				t.Fatal(err)
			}
			arity := map[string]int{}
			for _, s := range tr.Domain().Sets() {
				arity[s.Space().Out.Name] = s.Space().NOut()
			}
			code, stderr, status := runCmd("", "ast", "--tree", tc.file)
			if status != exitOK {
				t.Fatal(stderr)
			}
			got, err := trace.RunC(code, tc.params, arity)
			if err != nil {
				t.Fatalf("%v\n%s", err, code)
			}
			if err := trace.Compare(got, want); err != nil {
				t.Errorf("%v\n%s", err, code)
			}
		})
	}
}

// TestASTCompiles compiles the complete functions that --c prints (with
// OpenMP pragmas under --parallel) and compares their results with the
// reference executor's, on the MINI dataset.
func TestASTCompiles(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	for _, tc := range []struct {
		kernel string
		args   []string
	}{
		{"jacobi-2d", []string{"--parallel"}},
		{"gemm", []string{"--fuse", "max", "--tile", "4", "--separate"}},
		{"trisolv", []string{"--fuse", "none", "--name", "kernel_trisolv"}},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			args := append(append([]string{"ast", "--c"}, tc.args...), "polybench/"+tc.kernel)
			src, stderr, status := runCmd("", args...)
			if status != exitOK {
				t.Fatal(stderr)
			}
			p, err := loadOne("ast", "polybench/"+tc.kernel, "")
			if err != nil {
				t.Fatal(err)
			}
			fn := cIdent(p.Name)
			if i := indexOf(tc.args, "--name"); i >= 0 {
				fn = tc.args[i+1]
			}
			k, _ := polybench.Lookup(tc.kernel)
			diffs, err := charness.Verify(t.TempDir(), p, k.Sizes(polybench.Mini), src, fn, 0, "-fopenmp", "-Wall", "-Werror", "-Wno-unused-function")
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			for _, d := range diffs {
				t.Errorf("%s\n%s", d, src)
			}
		})
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// TestASTUsage covers argument combinations that need no golden file.
func TestASTUsage(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		stderr string
	}{
		{nil, exitUsage, "want one SOURCE (or --tree TREE)"},
		{[]string{"--tree", "testdata/ast/tiled.yaml", "polybench/gemm"}, exitUsage, "--tree takes no SOURCE, except with --c"},
		{[]string{"--c", "--tree", "testdata/ast/tiled.yaml"}, exitUsage, "--c needs the SOURCE that --tree schedules"},
		{[]string{"--fuse", "max", "--tree", "testdata/ast/tiled.yaml"}, exitUsage, "--fuse schedules a SOURCE"},
		{[]string{"--c", "--tree", "testdata/ast/tiled.yaml", "polybench/gemm"}, exitUsage, "is not the program's"},
		{[]string{"--tile", "-1", "polybench/gemm"}, exitUsage, `"-1" is not a positive tile size`},
		{[]string{"--context", "{ A[i] }", "polybench/gemm"}, exitUsage, "is not a parameter set"},
		{[]string{"--bogus"}, exitUsage, "flag provided but not defined"},
		{[]string{"-h"}, exitOK, ""},
	}
	for _, tc := range tests {
		_, stderr, status := runCmd("", append([]string{"ast"}, tc.args...)...)
		if status != tc.status || !strings.Contains(stderr, tc.stderr) || tc.stderr == "" && stderr != "" {
			t.Errorf("ast %q: status %d, stderr %q; want %d and %q", tc.args, status, stderr, tc.status, tc.stderr)
		}
	}
}

// TestASTTreeFromTreeCommand feeds both formats of 'tilefuse tree' back
// to 'tilefuse ast --tree' and gets the code of the SOURCE itself.
func TestASTTreeFromTreeCommand(t *testing.T) {
	want, stderr, status := runCmd("", "ast", "--fuse", "max", "polybench/fdtd-2d")
	if status != exitOK {
		t.Fatal(stderr)
	}
	for _, format := range []string{"json", "yaml"} {
		tree, _, _ := runCmd("", "tree", "--fuse", "max", "--format", format, "polybench/fdtd-2d")
		// No extension: the format is told from the contents.
		f := filepath.Join(t.TempDir(), "tree")
		if err := os.WriteFile(f, []byte(tree), 0o644); err != nil {
			t.Fatal(err)
		}
		got, stderr, status := runCmd("", "ast", "--tree", f)
		if status != exitOK || got != want {
			t.Errorf("%s: status %d, stderr %q, code:\n%s\nwant:\n%s", format, status, stderr, got, want)
		}
	}
}

func TestIsJSON(t *testing.T) {
	for in, want := range map[string]bool{
		`{"kind": "domain"}`:     true,
		" \n{\n  \"kind\"":       true,
		`{ domain: "{ S[i] }" }`: false, // isl's flow style
		"domain: \"{ S[i] }\"":   false,
		"":                       false,
	} {
		if got := isJSON([]byte(in)); got != want {
			t.Errorf("isJSON(%q) = %v", in, got)
		}
	}
}
