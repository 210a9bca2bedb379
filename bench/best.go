package bench

import (
	"fmt"
	"slices"
	"strings"
)

// A best column is derived from other columns after the run: in each
// row, the fastest of their verified (OK) cells. It lets a peer that
// runs in several modes be compared at its best, per benchmark, without
// choosing the mode for it.
type best struct {
	Name string
	Of   []string
}

// BestPolly is the best column of Polly's two modes: polly (serial,
// with its matrix-multiplication patterns) and polly-par (parallel,
// without them; see pollyFlags).
const BestPolly = "best-polly"

// bests are the best columns a table gets where it has all their
// columns.
var bests = []best{{BestPolly, []string{"polly", "polly-par"}}}

// BestColumns are the names of the best columns a run with these
// columns gets.
func BestColumns(cols []string) []string {
	var out []string
	for _, b := range bests {
		if hasAll(cols, b.Of) {
			out = append(out, b.Name)
		}
	}
	return out
}

func hasAll(cols, of []string) bool {
	for _, c := range of {
		if !slices.Contains(cols, c) {
			return false
		}
	}
	return true
}

// addBests appends to t every best column whose columns it has (Run
// calls it once the rows are done).
func (t *Table) addBests() {
	for _, b := range bests {
		t.AddBest(b.Name, b.Of...)
	}
}

// AddBest appends the column name holding, in each row, a copy of the
// fastest OK cell among the columns of (its From says which); NoneOK
// where none is OK, which is no failure of its own (the failures are in
// their columns). It does nothing unless t has every column of of.
func (t *Table) AddBest(name string, of ...string) {
	var idx []int
	for _, c := range of {
		j := t.Column(c)
		if j < 0 {
			return
		}
		idx = append(idx, j)
	}
	t.Columns = append(t.Columns, Column{Name: name, Kind: Best, Of: slices.Clone(of),
		Description: fmt.Sprintf("the faster verified of %s, per row", strings.Join(of, " and "))})
	for i := range t.Rows {
		r := &t.Rows[i]
		c := Cell{Status: NoneOK, Err: "no column of " + strings.Join(of, ", ") + " is ok"}
		for k, j := range idx {
			if x := r.Cells[j]; x.Status == OK && (c.Status != OK || x.Median < c.Median) {
				c = x
				c.From = of[k]
			}
		}
		r.Cells = append(r.Cells, c)
	}
}
