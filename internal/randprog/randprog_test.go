package randprog

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/runner"
)

// TestGenerateParses: every generated program is deterministic in its
// seed and parses.
func TestGenerateParses(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 30
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		p := Generate(seed)
		if q := Generate(seed); q.Source != p.Source {
			t.Fatalf("seed %d: two different programs", seed)
		}
		prog, err := cparse.ParseFunc(p.Func+".c", []byte(p.Source), p.Func)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
		if err := runner.CheckBounds(prog, p.Params); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
	}
}
