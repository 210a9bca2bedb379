package scheduler

import (
	"errors"
	"testing"

	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/presburger"
)

// TestBudgetError: a budget too small for the program stops Schedule
// with a BudgetError (wrapping presburger.ErrBudget) that gives the
// limit; no budget and the default both schedule it.
func TestBudgetError(t *testing.T) {
	p, _ := program(t, "gemm")
	g := memoryDeps(t, p)
	_, err := Schedule(p, g, Options{MaxWork: 1000})
	var be *BudgetError
	if !errors.As(err, &be) || be.Limit != 1000 || !errors.Is(err, presburger.ErrBudget) {
		t.Fatalf("want a BudgetError of 1000, got %v", err)
	}
	for _, w := range []int64{0, -1} {
		if _, err := Schedule(p, g, Options{MaxWork: w}); err != nil {
			t.Errorf("MaxWork %d: %v", w, err)
		}
	}
}

// TestBudgetMargin: every PolyMage pipeline (the largest scheduling
// problems of the benchmarks; PolyBench's need a thousandth of the
// budget) schedules under FuseSmart within half the default budget, so
// that the default stops only programs the scheduler cannot handle.
// FuseMax's bands over whole pyramids need up to 5e9, within half its
// default too (not run here: a minute; TestScheduleTimes runs them under
// the default). Skipped in -short.
func TestBudgetMargin(t *testing.T) {
	if testing.Short() {
		t.Skip("schedules every PolyMage pipeline")
	}
	for _, e := range polymage.All() {
		p, err := e.Build()
		if err != nil {
			t.Fatal(err)
		}
		g := memoryDeps(t, p)
		if _, err := Schedule(p, g, Options{Fuse: FuseSmart, MaxWork: DefaultMaxWork / 2}); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
}
