package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/bench"
)

func wellFormed(t *testing.T, what, s string) {
	t.Helper()
	var v struct {
		XMLName xml.Name
	}
	if err := xml.Unmarshal([]byte(s), &v); err != nil || v.XMLName.Local != "svg" {
		t.Errorf("%s: not an SVG document (%v): %.200q", what, err, s)
	}
}

func TestDrawCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "blur.svg")
	if _, stderr, status := runCmd("", "draw", "tiles", "--tile", "8,8", "--size", "R=16,C=16", "pipelines/blur", "-o", out); status != exitOK {
		t.Fatalf("draw tiles: exit %d: %s", status, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, "draw tiles", string(data))
	if !strings.Contains(string(data), "pipelines/blur, --fuse post, R=16 C=16, tiles 8×8") {
		t.Errorf("draw tiles: the title is missing")
	}
	stdout, stderr, status := runCmd("", "draw", "tree", "--fuse", "post", "--tile", "8,8", "pipelines/blur")
	if status != exitOK {
		t.Fatalf("draw tree: exit %d: %s", status, stderr)
	}
	wellFormed(t, "draw tree", stdout)
	stdout, _, status = runCmd("", "draw", "tree", "--format", "dot", "pipelines/blur")
	if status != exitOK || !strings.HasPrefix(stdout, "digraph schedule {") {
		t.Errorf("draw tree --format dot: exit %d: %.100q", status, stdout)
	}
	// A tree from a file.
	tree, _, _ := runCmd("", "tree", "--format", "json", "--fuse", "post", "pipelines/blur")
	file := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(file, []byte(tree), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status = runCmd("", "draw", "tree", "--tree", file)
	if status != exitOK {
		t.Fatalf("draw tree --tree: exit %d: %s", status, stderr)
	}
	wellFormed(t, "draw tree --tree", stdout)
	if stdout, _, status := runCmd("", "draw", "-h"); status != exitOK || !strings.Contains(stdout, "draw tiles") {
		t.Errorf("draw -h: exit %d", status)
	}
	for _, args := range [][]string{
		{"draw"},
		{"draw", "pictures", "pipelines/blur"},
		{"draw", "tiles"},
		{"draw", "tiles", "--size", "Q=3", "pipelines/blur"},
		{"draw", "tiles", "--stage", "blurx", "pipelines/blur"},
		{"draw", "tiles", "--tile-at", "a,b", "pipelines/blur"},
		{"draw", "tree", "--format", "png", "pipelines/blur"},
		{"draw", "tree", "--tree", file, "pipelines/blur"},
	} {
		if _, stderr, status := runCmd("", args...); status != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want %d with a message", args, status, stderr, exitUsage)
		}
	}
}

func TestPlotCommand(t *testing.T) {
	in := "../../draw/testdata/bench.json"
	stdout, stderr, status := runCmd("", "plot", in)
	if status != exitOK {
		t.Fatalf("plot: exit %d: %s", status, stderr)
	}
	if i := strings.Index(stdout, "<svg"); i < 0 {
		t.Fatalf("plot: no SVG")
	} else {
		wellFormed(t, "plot", stdout[i:])
	}
	out := filepath.Join(t.TempDir(), "b.html")
	if _, stderr, status := runCmd("", "plot", "--format", "html", "-o", out, in); status != exitOK {
		t.Fatalf("plot --format html: exit %d: %s", status, stderr)
	}
	page, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(page), "<!DOCTYPE html>") || !strings.Contains(string(page), "<svg") {
		t.Errorf("plot --format html: %v %.100q", err, page)
	}
	for _, args := range [][]string{{"plot"}, {"plot", "nosuch.json"}, {"plot", "--format", "pdf", in}, {"plot", "main.go"}} {
		if _, stderr, status := runCmd("", args...); status != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, status, stderr)
		}
	}
}

// TestWriteBenchHTML: the page 'bench --html' writes, from a table.
func TestWriteBenchHTML(t *testing.T) {
	tab := &bench.Table{
		Suite: "polymage", Threads: 2, Repeat: 3, Baseline: "gcc",
		Columns: []bench.Column{{Name: "post", Kind: bench.Tilefuse}, {Name: "gcc", Kind: bench.Peer}},
		Rows: []bench.Row{{Name: "blur", Size: "64x64", Compulsory: 1 << 20, Cells: []bench.Cell{
			{Status: bench.OK, Median: 2 * time.Millisecond, Times: []time.Duration{2 * time.Millisecond}},
			{Status: bench.OK, Median: 6 * time.Millisecond, Times: []time.Duration{6 * time.Millisecond}},
		}}},
		Machine: &bench.Machine{CPU: "Test CPU", Cores: 2, Bandwidth: 1e10},
	}
	out := filepath.Join(t.TempDir(), "b.html")
	if err := writeBenchHTML(out, tab); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "Test CPU, 2 cores", "<td>2 ms (3×)</td>", "DRAM limit"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
