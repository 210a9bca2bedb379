package ast

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fourier-Motzkin on column 1 of rows [const, x, y]: pairs of a lower
// and an upper bound give the rows without x; past maxEliminationRows
// pairs it refuses, and dropColumn gives the weaker system instead.
func TestEliminateLimit(t *testing.T) {
	// x >= y, x <= 5, y >= 0.
	eqs, ineqs, ok := eliminate(nil, [][]int64{{0, 1, -1}, {5, -1, 0}, {0, 0, 1}}, 1)
	if !ok || len(eqs) != 0 {
		t.Fatalf("eliminate: ok = %v, eqs = %v", ok, eqs)
	}
	if diff := cmp.Diff([][]int64{{0, 0, 1}, {5, 0, -1}}, sortedRows(ineqs)); diff != "" {
		t.Errorf("projection (-want +got):\n%s", diff)
	}
	var many [][]int64
	for k := range int64(65) {
		many = append(many, []int64{k, 1, -k}, []int64{k, -1, k})
	}
	if _, got, ok := eliminate(nil, many, 1); ok || len(got) != len(many) {
		t.Fatalf("eliminate of 65 x 65 bounds: ok = %v with %d rows, want a refusal", ok, len(got))
	}
	if got := dropColumn(append(many, []int64{1, 0, 1}), 1); !cmp.Equal(got, [][]int64{{1, 0, 1}}) {
		t.Errorf("dropColumn = %v, want the row without column 1", got)
	}
}

func sortedRows(rows [][]int64) [][]int64 {
	out := slices.Clone(rows)
	slices.SortFunc(out, slices.Compare)
	return out
}
