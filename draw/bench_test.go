package draw

import (
	"encoding/xml"
	"math"
	"os"
	"strings"
	"testing"
)

func readTestBench(t *testing.T) *Bench {
	t.Helper()
	data, err := os.ReadFile("testdata/bench.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadBench(data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSpeedups(t *testing.T) {
	s := readTestBench(t).speedups()
	if strings.Join(s.groups, ",") != "blur,harris,geomean" || strings.Join(s.cols, ",") != "none,post" {
		t.Fatalf("groups %v, columns %v", s.groups, s.cols)
	}
	if s.ratio[0][1] != 3 || !math.IsNaN(s.ratio[1][1]) || s.ratio[2][0] != 0.866 {
		t.Errorf("ratios %v", s.ratio)
	}
	// gcc's 3 ms over the limit's 1 ms.
	if s.limit[0] != 3 || !math.IsNaN(s.limit[1]) {
		t.Errorf("limits %v", s.limit)
	}
}

func TestBenchSVGAndHTML(t *testing.T) {
	b := readTestBench(t)
	svg, err := BenchSVG(b)
	if err != nil {
		t.Fatal(err)
	}
	root := parseSVG(t, svg)
	text := ""
	for _, e := range root.find("text") {
		text += e.Text + "\n"
	}
	for _, want := range []string{"blur", "harris", "geomean", "none", "post", "DRAM limit", "3×", "0.5×"} {
		if !strings.Contains(text, want) {
			t.Errorf("the chart has no text %q; texts:\n%s", want, text)
		}
	}
	page, err := BenchHTML(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", "<svg", "Example CPU @ 2.0GHz, 2 cores, 8.0 GiB", "stream 20.0 GB/s", "<td>2 ms (1.5×)</td>", "WRONG", "<td>1 ms</td>", "3× (1)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Errorf("the page has an XML declaration inside")
	}
	// Self-contained: nothing loaded from elsewhere.
	for _, bad := range []string{"<script", "<link", "src="} {
		if strings.Contains(page, bad) {
			t.Errorf("the page refers to an outside resource (%s)", bad)
		}
	}
	// The page parses as XML too (the SVG inline, the markup closed).
	d := xml.NewDecoder(strings.NewReader(strings.Replace(page, "<!DOCTYPE html>", "", 1)))
	d.Strict = true
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Errorf("the page is not well-formed: %v", err)
			}
			break
		}
	}
}

func TestReadBenchErrors(t *testing.T) {
	for _, s := range []string{"", "{", `{"columns": []}`} {
		if _, err := ReadBench([]byte(s)); err == nil {
			t.Errorf("ReadBench(%q): no error", s)
		}
	}
}
