package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestLimit: the limit is the compulsory bytes at the bandwidth, shown as
// a column of the text table and in the JSON.
func TestLimit(t *testing.T) {
	row := Row{Name: "k", Size: "n=1", Compulsory: 2_000_000, Cells: []Cell{{Status: OK, Median: 3 * time.Millisecond, Times: []time.Duration{3 * time.Millisecond}}}}
	if got := row.Limit(1e9); got != 2*time.Millisecond {
		t.Errorf("limit %v, want 2ms", got)
	}
	if got := row.Limit(0); got != 0 {
		t.Errorf("no bandwidth: limit %v", got)
	}
	tab := &Table{Suite: "test", Threads: 2, Repeat: 1, Baseline: "post", Machine: &Machine{Bandwidth: 1e9},
		Columns: []Column{{Name: "post", Kind: Tilefuse}}, Rows: []Row{row}}
	var b bytes.Buffer
	if err := WriteText(&b, tab); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	var header, line string
	for i, l := range lines {
		if strings.HasPrefix(l, "benchmark") {
			header, line = l, lines[i+1]
			break
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(header), "limit") || !strings.HasSuffix(strings.TrimSpace(line), "2.00 ms") {
		t.Errorf("no limit column:\n%s", b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, tab); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Rows []struct {
			Compulsory int64   `json:"compulsory_bytes"`
			Limit      float64 `json:"limit_s"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b.Bytes(), &js); err != nil {
		t.Fatal(err)
	}
	if r := js.Rows[0]; r.Compulsory != 2_000_000 || r.Limit != 0.002 {
		t.Errorf("JSON row %+v", r)
	}
}
