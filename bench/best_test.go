package bench

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAddBest: the best column holds, per row, the faster OK cell of its
// columns and says which; a row where none is OK is NoneOK; a table
// without every column gets no best column.
func TestAddBest(t *testing.T) {
	ms := time.Millisecond
	tab := &Table{Columns: []Column{{Name: "gcc"}, {Name: "polly"}, {Name: "polly-par"}}}
	for _, r := range []struct {
		name           string
		polly, pollyPa Cell
	}{
		{"serial faster", Cell{Status: OK, Median: 2 * ms}, Cell{Status: OK, Median: 3 * ms}},
		{"parallel faster", Cell{Status: OK, Median: 5 * ms}, Cell{Status: OK, Median: 4 * ms}},
		{"faster but wrong", Cell{Status: Wrong, Median: 1 * ms}, Cell{Status: OK, Median: 4 * ms}},
		{"none ok", Cell{Status: Crashed}, Cell{Status: NotInstalled}},
	} {
		tab.Rows = append(tab.Rows, Row{Name: r.name, Cells: []Cell{{Status: OK, Median: ms}, r.polly, r.pollyPa}})
	}
	tab.AddBest(BestPolly, "polly", "polly-par")
	type got struct {
		Status Status
		Median time.Duration
		From   string
	}
	var rows []got
	for _, r := range tab.Rows {
		c := r.Cells[len(r.Cells)-1]
		rows = append(rows, got{c.Status, c.Median, c.From})
	}
	want := []got{{OK, 2 * ms, "polly"}, {OK, 4 * ms, "polly-par"}, {OK, 4 * ms, "polly-par"}, {NoneOK, 0, ""}}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("best cells (-want +got):\n%s", d)
	}
	if c := tab.Columns[len(tab.Columns)-1]; c.Name != BestPolly || c.Kind != Best {
		t.Errorf("best column %+v", c)
	}

	short := &Table{Columns: []Column{{Name: "polly"}}, Rows: []Row{{Cells: []Cell{{Status: OK}}}}}
	short.AddBest(BestPolly, "polly", "polly-par")
	if len(short.Columns) != 1 || len(short.Rows[0].Cells) != 1 {
		t.Errorf("a table without polly-par got a best column: %+v", short.Columns)
	}
}
