package presburger_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

func TestLexOrders(t *testing.T) {
	sp := presburger.SetSpace([]string{"N"}, presburger.NewTuple("", "a", "b"))
	tests := []struct {
		name string
		got  presburger.Map
		want string
	}{
		{"lt", presburger.LexLT(sp), "[N] -> { [a, b] -> [c, d] : c > a or (c = a and d > b) }"},
		{"le", presburger.LexLE(sp), "[N] -> { [a, b] -> [c, d] : c > a or (c = a and d >= b) }"},
		{"gt", presburger.LexGT(sp), "[N] -> { [a, b] -> [c, d] : c < a or (c = a and d < b) }"},
		{"ge", presburger.LexGE(sp), "[N] -> { [a, b] -> [c, d] : c < a or (c = a and d <= b) }"},
		{"lt at 0", presburger.LexLTAt(sp, 0), "[N] -> { [a, b] -> [c, d] : c > a }"},
		{"lt at 1", presburger.LexLTAt(sp, 1), "[N] -> { [a, b] -> [a, d] : d > b }"},
		{"gt at 1", presburger.LexGTAt(sp, 1), "[N] -> { [a, b] -> [a, d] : d < b }"},
	}
	for _, tc := range tests {
		checkMap(t, tc.name, tc.got, tc.want)
	}
}

func checkMap(t *testing.T, name string, got presburger.Map, want string) {
	t.Helper()
	w, err := presburger.ParseMap(want)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if eq, err := got.IsEqual(w); err != nil || !eq {
		t.Errorf("%s = %v, want %v (%v)", name, got, w, err)
	}
}
