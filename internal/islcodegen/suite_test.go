package islcodegen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/known.txt from the suite's results")

// knownFile lists the inputs of isl's suite whose trace is not equal to
// isl's, with their category and reason: the test fails when an input's
// category changes, so the list says what remains.
const knownFile = "testdata/known.txt"

// TestISLCodegen runs every input of isl's test_inputs/codegen (the
// directory TILEFUSE_ISL_CODEGEN names) through tilefuse's AST generator
// as shipped, and compares the instances its code runs, for small
// parameter values in the context, with those of isl's expected C. One
// input at a time, each within a time and heap budget
// (TILEFUSE_ISL_CODEGEN_TIMEOUT, default 20s).
func TestISLCodegen(t *testing.T) {
	dir := os.Getenv("TILEFUSE_ISL_CODEGEN")
	if dir == "" {
		t.Skip("TILEFUSE_ISL_CODEGEN is not set: name isl's test_inputs/codegen directory (of a checkout of isl) to run isl's code-generation tests")
	}
	budget := Budget{Time: 20 * time.Second, HeapBytes: 1 << 30, Instances: 20000, Valuations: 2}
	if s := os.Getenv("TILEFUSE_ISL_CODEGEN_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("TILEFUSE_ISL_CODEGEN_TIMEOUT: %v", err)
		}
		budget.Time = d
	}
	inputs, err := Inputs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no .st or .in inputs under %s", dir)
	}
	only := os.Getenv("TILEFUSE_ISL_CODEGEN_ONLY")
	got := map[string]Result{}
	counts := map[Category]int{}
	prefixes := 0 // equal on the first instances only
	for _, name := range inputs {
		if only != "" && !strings.Contains(name, only) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r := RunInput(filepath.Join(dir, name), budget)
			got[name] = r
			counts[r.Category]++
			if r.Category == CatEqual && r.Reason != "" {
				prefixes++
			}
			t.Logf("%s (%v) %s", r.Category, time.Since(start).Round(time.Millisecond), r.Reason)
			runtime.GC()
			debug.FreeOSMemory()
		})
	}
	t.Logf("%d inputs: %d equal (%d of them on the first %d instances of codes stopped there), %d equal up to ties, %d refused, %d budget exceeded, %d different",
		len(got), counts[CatEqual], prefixes, budget.Instances, counts[CatTies], counts[CatRefused], counts[CatBudget], counts[CatDifferent])
	if only != "" {
		return
	}
	if *update {
		if err := os.WriteFile(knownFile, []byte(formatKnown(got)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(knownFile)
	if err != nil {
		t.Fatal(err)
	}
	want := parseKnown(string(data))
	if diff := cmp.Diff(want, categories(got)); diff != "" {
		t.Errorf("categories of the inputs that are not equal (-%s +now); rerun with -update if the change is right:\n%s", knownFile, diff)
	}
}

// formatKnown writes "CATEGORY NAME: REASON" for each input not equal.
func formatKnown(rs map[string]Result) string {
	var lines []string
	for name, r := range rs {
		if r.Category != CatEqual {
			lines = append(lines, fmt.Sprintf("%s %s: %s", r.Category, name, r.Reason))
		}
	}
	slices.Sort(lines)
	return "# isl codegen inputs whose tilefuse trace is not equal to isl's (go test -update rewrites it)\n" + strings.Join(lines, "\n") + "\n"
}

// parseKnown reads the category of each name in a known list.
func parseKnown(s string) map[string]Category {
	out := map[string]Category{}
	for _, line := range strings.Split(s, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cat, rest, _ := strings.Cut(line, " ")
		name, _, _ := strings.Cut(rest, ": ")
		out[name] = Category(cat)
	}
	return out
}

func categories(rs map[string]Result) map[string]Category {
	out := map[string]Category{}
	for name, r := range rs {
		if r.Category != CatEqual {
			out[name] = r.Category
		}
	}
	return out
}
