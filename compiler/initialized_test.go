package compiler

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// TestInitialized: a temporary whose every read has a write before it
// needs no zeroing; one read before it is written (an accumulator) does.
func TestInitialized(t *testing.T) {
	src, err := os.ReadFile("../emit/testdata/temps.c")
	if err != nil {
		t.Fatal(err)
	}
	p, err := cparse.ParseFunc("temps.c", src, "f")
	if err != nil {
		t.Fatal(err)
	}
	flow, err := deps.Dataflow(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]bool{"a": true}, initialized(p, flow)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
