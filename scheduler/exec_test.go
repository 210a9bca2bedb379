package scheduler

import (
	"testing"

	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// run executes p on fresh buffers, live-in arrays filled from seed.
func run(t *testing.T, p *scop.Program, params map[string]int64) map[string]*scop.Buffer {
	t.Helper()
	bufs, err := refexec.Alloc(p, params)
	if err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	for i, a := range p.Arrays {
		if a.LiveIn {
			bufs[a.Name].Fill(uint64(i + 1))
		}
	}
	if err := refexec.Run(p, params, bufs); err != nil {
		t.Fatalf("%s: %v", p.Name, err)
	}
	return bufs
}

// TestExecutedEquivalence runs every schedule on the reference executor
// and compares every array bit for bit with the original order: a legal
// schedule only reorders independent instances, and each instance
// computes the same expression, so not even rounding may differ.
func TestExecutedEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("executes every program four times")
	}
	for _, name := range allPrograms() {
		p, params := program(t, name)
		g := memoryDeps(t, p)
		want := run(t, p, params)
		trees := map[string]scheduletree.Tree{}
		orig, err := Original(p)
		if err != nil {
			t.Fatal(err)
		}
		trees["original"] = orig
		for _, f := range modes {
			trees[f.String()] = mustSchedule(t, p, g, f)
		}
		for mode, tr := range trees {
			sched, err := tr.Map()
			if err != nil {
				t.Fatal(err)
			}
			got := run(t, withSchedule(t, p, sched), params)
			for _, a := range p.Arrays {
				mis, err := scop.Compare(got[a.Name], want[a.Name], 0)
				if err != nil {
					t.Fatal(err)
				}
				if mis != nil {
					t.Errorf("%s %s: array %s: %s", name, mode, a.Name, mis)
				}
			}
		}
	}
}
