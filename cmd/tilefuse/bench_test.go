package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/polymage"
)

// benchJSON is the part of the JSON output the tests read.
type benchJSON struct {
	Suite   string `json:"suite"`
	Dataset string `json:"dataset"`
	Machine struct {
		CPU   string `json:"cpu"`
		Cores int    `json:"cores"`
		LLVM  string `json:"llvm"`
		GCC   string `json:"gcc"`
	} `json:"machine"`
	Columns []struct{ Name, Kind string } `json:"columns"`
	Rows    []struct {
		Benchmark string `json:"benchmark"`
		Cells     []struct {
			Column  string   `json:"column"`
			Status  string   `json:"status"`
			Median  *float64 `json:"median_s"`
			Compile *float64 `json:"compile_s"`
			Check   string   `json:"check"`
			Error   string   `json:"error"`
		} `json:"cells"`
	} `json:"rows"`
	Geomean []struct {
		Column string   `json:"column"`
		Ratio  *float64 `json:"ratio"`
	} `json:"geomean"`
}

// TestBenchPolybench: two kernels, two strategies and the peers, every
// cell checked; the JSON output.
func TestBenchPolybench(t *testing.T) {
	needToolchain(t)
	stdout, stderr, status := runCmd("", "bench", "--limit=false", "polybench", "--dataset", "MINI", "--only", "gemm,jacobi-2d", "--repeat", "1", "--strategies", "none,smart", "--format", "json")
	if status != exitOK {
		t.Fatalf("status %d, stderr:\n%s\nstdout:\n%s", status, stderr, stdout)
	}
	var got benchJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if got.Suite != "polybench" || got.Dataset != "MINI" || got.Machine.Cores < 1 || got.Machine.LLVM == "" || got.Machine.GCC == "" {
		t.Errorf("header: %+v", got)
	}
	var cols []string
	for _, c := range got.Columns {
		cols = append(cols, c.Name+"/"+c.Kind)
	}
	if strings.Join(cols, " ") != "none/tilefuse smart/tilefuse gcc/peer gcc-serial/peer polly/peer polly-par/peer best-polly/best" {
		t.Errorf("columns %v", cols)
	}
	if len(got.Rows) != 2 || got.Rows[0].Benchmark != "gemm" || got.Rows[1].Benchmark != "jacobi-2d" {
		t.Fatalf("rows: %+v", got.Rows)
	}
	_, clang := exec.LookPath("clang-14")
	for _, r := range got.Rows {
		for _, c := range r.Cells {
			if strings.Contains(c.Column, "polly") && clang != nil {
				if c.Column != "best-polly" && c.Status != "not installed" {
					t.Errorf("%s polly without clang-14: %s", r.Benchmark, c.Status)
				}
				continue
			}
			if c.Status != "ok" || c.Median == nil || !strings.HasPrefix(c.Check, "ok: ") {
				t.Errorf("%s %s: %s %s %s", r.Benchmark, c.Column, c.Status, c.Check, c.Error)
			}
			if (c.Column == "none" || c.Column == "smart") != (c.Compile != nil) {
				t.Errorf("%s %s: compile time %v", r.Benchmark, c.Column, c.Compile)
			}
		}
	}
	if len(got.Geomean) != 7 || got.Geomean[2].Column != "gcc" || got.Geomean[2].Ratio == nil || *got.Geomean[2].Ratio != 1 {
		t.Errorf("geometric means: %+v", got.Geomean)
	}
	// Progress: a line per cell, stderr not being a terminal.
	// best-polly is derived from the two Polly cells: no run of its own.
	if n := strings.Count(stderr, "bench: ["); n != 12 {
		t.Errorf("%d progress lines, want 12:\n%s", n, stderr)
	}
}

// TestBenchPolymage: two pipelines at their small sizes, as CSV, with a
// stand-in for clang-14 (gcc, without Polly's options) on PATH.
func TestBenchPolymage(t *testing.T) {
	needToolchain(t)
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("skipping: no gcc")
	}
	dir := t.TempDir()
	fake := `#!/bin/sh
args=""
skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; continue; fi
  if [ "$a" = -mllvm ]; then skip=1; continue; fi
  args="$args $a"
done
exec ` + gcc + ` $args
`
	if err := os.WriteFile(filepath.Join(dir, "clang-14"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	stdout, stderr, status := runCmd("", "bench", "--limit=false", "polymage", "--only", "unsharp_mask,harris", "--size", "small", "--repeat", "1", "--strategies", "none,smart", "--warmup", "0", "--format", "csv")
	if status != exitOK {
		t.Fatalf("status %d, stderr:\n%s\nstdout:\n%s", status, stderr, stdout)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Header, 2 rows x 7 columns (best-polly derived from polly and
	// polly-par), 7 geometric means.
	if len(recs) != 1+14+7 {
		t.Fatalf("%d CSV lines:\n%s", len(recs), stdout)
	}
	if got := strings.Join(recs[0], ","); got != "suite,benchmark,size,column,kind,status,median_s,ratio,compile_s,max_rel_err,note" {
		t.Errorf("header %s", got)
	}
	for _, r := range recs[1:15] {
		// unsharp_mask comes after harris (sorted by name); sizes are
		// the pipelines' small ones.
		if r[0] != "polymage" || r[5] != "ok" || r[6] == "" || r[9] == "" {
			t.Errorf("cell %v", r)
		}
		if want := map[string]string{"harris": "20x24", "unsharp_mask": "20x24"}[r[1]]; r[2] != want {
			t.Errorf("size %v", r)
		}
	}
	if recs[1][1] != "harris" || recs[8][1] != "unsharp_mask" || recs[15][1] != "geomean" {
		t.Errorf("order: %v", recs)
	}
}

// TestBenchTable: the text table of one small run.
func TestBenchTable(t *testing.T) {
	needToolchain(t)
	saved := filepath.Join(t.TempDir(), "atax.json")
	stdout, stderr, status := runCmd("", "bench", "--limit=false", "polybench", "--dataset", "MINI", "--only", "atax", "--repeat", "1", "--warmup", "0", "--strategies", "smart", "--peers", "gcc-serial", "--threads", "1", "--json", saved)
	if status != exitOK {
		t.Fatalf("status %d, stderr:\n%s\nstdout:\n%s", status, stderr, stdout)
	}
	lines := strings.Split(stdout, "\n")
	for i, want := range []string{
		"tilefuse bench polybench, dataset MINI, 1 thread, median of 1 timed call after 0 warm-up calls",
		// Without gcc among the columns, the first is the baseline.
		"ratio: smart's time / the column's time (above 1: faster than smart)",
		"",
		"benchmark  smart ",
		"atax ",
		"geomean ",
	} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d is not %q:\n%s", i+1, want, stdout)
		}
	}
	var js benchJSON
	if data, err := os.ReadFile(saved); err != nil || json.Unmarshal(data, &js) != nil || len(js.Rows) != 1 || js.Rows[0].Benchmark != "atax" || len(js.Rows[0].Cells) != 2 {
		t.Errorf("--json %s: %v, %+v", saved, err, js)
	}
	for _, want := range []string{"compile time (schedule, AST, emit; opt and llc)\n", "\ncolumns\n", "  gcc-serial  naive C, gcc -O3 -march=native -fopenmp -ffp-contract=off, 1 thread\n", "\nmachine: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
}

func TestBenchErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no suite", []string{"bench"}, "want one suite, polybench or polymage"},
		{"bad suite", []string{"bench", "--limit=false", "spec"}, "want one suite, polybench or polymage"},
		{"two suites", []string{"bench", "--limit=false", "polybench", "polymage"}, "want one suite"},
		{"bad flag", []string{"bench", "--limit=false", "--frobnicate", "polybench"}, "flag provided but not defined: -frobnicate"},
		{"bad dataset", []string{"bench", "--limit=false", "polybench", "--dataset", "HUGE"}, `unknown dataset "HUGE"`},
		{"dataset for polymage", []string{"bench", "--limit=false", "polymage", "--dataset", "MINI"}, "--dataset applies to polybench"},
		{"size for polybench", []string{"bench", "--limit=false", "polybench", "--size", "64x64"}, "--size applies to polymage"},
		{"bad size", []string{"bench", "--limit=false", "polymage", "--size", "64x"}, "want WxH"},
		{"unknown benchmark", []string{"bench", "--limit=false", "polybench", "--only", "gemm,gemmm"}, `--only: unknown name "gemmm"`},
		{"unknown pipeline", []string{"bench", "--limit=false", "polymage", "--only", "sharpen"}, `--only: unknown name "sharpen"`},
		{"unknown strategy", []string{"bench", "--limit=false", "polybench", "--strategies", "fastest"}, `--strategies: unknown name "fastest" (known: none, min, smart, max, post, schedule, auto)`},
		{"unknown peer", []string{"bench", "--limit=false", "polybench", "--peers", "icc"}, `--peers: unknown name "icc" (known: gcc, gcc-serial, polly, polly-par, halide, halide-app, halide-auto, halide-adams, halide-li)`},
		{"no columns", []string{"bench", "--limit=false", "polybench", "--peers", "", "--strategies", ""}, "no columns"},
		{"bad baseline", []string{"bench", "--limit=false", "polybench", "--peers", "gcc-serial", "--baseline", "gcc"}, "--baseline gcc is not a column (auto, none, min, smart, max, post, gcc-serial)"},
		{"bad format", []string{"bench", "--limit=false", "polybench", "--format", "xml"}, `unknown format "xml"`},
		{"bad repeat", []string{"bench", "--limit=false", "polybench", "--repeat", "0"}, "--repeat must be at least 1"},
		{"bad threads", []string{"bench", "--limit=false", "polybench", "--threads", "0"}, "--threads must be at least 1"},
		{"bad warmup", []string{"bench", "--limit=false", "polybench", "--warmup", "-1"}, "--warmup must not be negative"},
		{"bad tile", []string{"bench", "--limit=false", "polybench", "--tile", "8,x"}, `"x" is not a positive tile size`},
		{"bad tolerance", []string{"bench", "--limit=false", "polybench", "--tol", "-1"}, "--tol must not be negative"},
		{"bad timeout", []string{"bench", "--limit=false", "polybench", "--timeout", "-1s"}, "--timeout must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd("", tc.args...)
			if status != exitUsage || stdout != "" || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want status 2 and one line with %q", status, stdout, stderr, tc.stderr)
			}
		})
	}
}

// TestBenchHelp: -h explains the command on stdout.
func TestBenchHelp(t *testing.T) {
	stdout, stderr, status := runCmd("", "bench", "--limit=false", "-h")
	if status != exitOK || stderr != "" || !strings.HasPrefix(stdout, "usage: tilefuse bench polybench|polymage") || !bytes.Contains([]byte(stdout), []byte("default LARGE")) {
		t.Errorf("status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
}

// TestPolymageSource: polymage/NAME is a SOURCE; run takes the
// pipeline's default sizes and its own inputs (the bilateral grid indexes
// its grid by pixel values, which must lie in [0, 1]).
func TestPolymageSource(t *testing.T) {
	stdout, stderr, status := runCmd("", "scop", "--list")
	if status != exitOK || !strings.Contains(stdout, "polymage/harris\n") {
		t.Errorf("scop --list: status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
	if _, err := loadOne("test", "polymage/nope", ""); err == nil || !strings.Contains(err.Error(), `unknown PolyMage pipeline "nope"`) {
		t.Errorf("unknown pipeline: %v", err)
	}
	p, err := loadOne("test", "polymage/harris", "")
	if err != nil {
		t.Fatal(err)
	}
	params, label, err := runSizes("run", &compileJob{source: "polymage/harris", p: p}, "", "")
	if err != nil || params["R"] != 6400 || params["C"] != 6400 || label != "R=6400 C=6400" {
		t.Errorf("default sizes: %v %q %v", params, label, err)
	}
	needToolchain(t)
	stdout, stderr, status = runCmd("", "run", "--repeat", "1", "--fuse", "none", "--size", "R=24,C=20", "polymage/bilateral_grid")
	if status != exitOK || !strings.Contains(stdout, "check ok: equal bit for bit") {
		t.Errorf("run: status %d, stderr %q, stdout:\n%s", status, stderr, stdout)
	}
}

// TestBenchPolymageAll: every PolyMage pipeline (and seed pipeline)
// compiles under every strategy and runs verified, bit for bit, at its
// small size, as 'tilefuse bench polymage' runs it.
func TestBenchPolymageAll(t *testing.T) {
	needToolchain(t)
	if testing.Short() {
		t.Skip("skipping: compiles every pipeline under every strategy")
	}
	stdout, stderr, status := runCmd("", "bench", "polymage", "--size", "small", "--repeat", "1", "--warmup", "0", "--peers", "", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	cells := map[string]int{}
	for _, r := range recs[1:] {
		if r[1] == "geomean" {
			continue
		}
		cells[r[1]]++
		if r[5] != "ok" || r[8] == "" || !strings.HasPrefix(r[9], "0") {
			t.Errorf("%s under %s: status %s, compile time %q, max error %q, note %q", r[1], r[3], r[5], r[8], r[9], r[10])
		}
	}
	var want []string
	for _, e := range polymage.All() {
		want = append(want, e.Name)
		if n := len(defaultBenchStrategies()); cells[e.Name] != n {
			t.Errorf("%s: %d cells, want %d (%v)", e.Name, cells[e.Name], n, defaultBenchStrategies())
		}
	}
	if len(cells) != len(want) || status != exitOK {
		t.Errorf("status %d, pipelines %v, want %v; stderr:\n%s", status, cells, want, stderr)
	}
}
