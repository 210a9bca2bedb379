package presburger

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The presburger cases of issue 17 ("every stage bounded"): loops that
// never reached the solver ran on whatever the budget. No wall-clock
// assertion: the budget (or a watched context) is the bound, and the
// test's deadline the backstop.

// pointUnion is { [i, f(i)] : i < n } as one literal of n disjuncts.
func pointUnion(n, dims int) string {
	var b strings.Builder
	b.WriteString("{ ")
	for i := range n {
		if i > 0 {
			b.WriteString("; ")
		}
		if dims == 1 {
			fmt.Fprintf(&b, "[%d]", 3*i)
		} else {
			fmt.Fprintf(&b, "[%d, %d]", i, (i*7919)%3001)
		}
	}
	b.WriteString(" }")
	return b.String()
}

func withLimits(t *testing.T, l Limits) {
	old := CurrentLimits()
	SetLimits(l)
	t.Cleanup(func() { SetLimits(old) })
}

// TestBoundedCoalescePoints: calc's --max-ops did not stop the coalescing
// of 3,000 point disjuncts (each pair is tried without a pivot). Each
// pair now costs budget: a small budget stops it early with an exact
// result (less coalesced), and a watched context that ended stops it with
// ErrBudget.
func TestBoundedCoalescePoints(t *testing.T) {
	s := mustSet(t, pointUnion(3000, 2))
	withLimits(t, Limits{MaxOps: 1000})
	c, err := s.Coalesce()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Constraints()); got > 3000 || got < 2900 {
		t.Errorf("coalesced to %d disjuncts; want at most 3000 (points do not merge), and a budget of 1000 cannot drop 100", got)
	}
	// The result is the same set: spot checks at both ends and a gap.
	for _, pt := range [][]int64{{0, 0}, {2999, (2999 * 7919) % 3001}} {
		if ok, err := c.Contains(pt); err != nil || !ok {
			t.Errorf("%v lost (%v)", pt, err)
		}
	}
	if ok, err := c.Contains([]int64{1, 0}); err != nil || ok {
		t.Errorf("[1, 0] gained (%v)", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stop := WatchContext(ctx)
	_, err = s.Coalesce()
	stop()
	if !errors.Is(err, ErrBudget) {
		t.Errorf("coalesce under a cancelled context: %v, want ErrBudget", err)
	}
}

// TestBoundedUnionLiteral: a union literal of 120,000 disjuncts was
// quadratic to build (each disjunct copied the union so far); it is
// linear, and counting its points (quadratic: the disjuncts are made
// disjoint pair by pair) stops at the budget.
func TestBoundedUnionLiteral(t *testing.T) {
	n := 120_000
	if testing.Short() {
		n = 30_000
	}
	s := mustSet(t, pointUnion(n, 1))
	if got := len(s.Constraints()); got != n {
		t.Fatalf("%d disjuncts, want %d", got, n)
	}
	withLimits(t, Limits{MaxOps: 1_000_000})
	if _, err := s.Count(); !errors.Is(err, ErrBudget) {
		t.Errorf("Count: %v, want ErrBudget", err)
	}
	// A small union still counts.
	small := mustSet(t, pointUnion(100, 1))
	if c, err := small.Count(); err != nil || c != 100 {
		t.Errorf("Count of 100 points: %d, %v", c, err)
	}
}

// TestInterruptStopsEveryOperation: under a watched context that ended,
// every operation fails at its start, even one that would never pivot, so
// that a loop of cheap operations (a quadratic dependence analysis) ends.
func TestInterruptStopsEveryOperation(t *testing.T) {
	s := mustSet(t, "{ [i] : 0 <= i < 10 }")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stop := WatchContext(ctx)
	_, err := s.IsEmpty()
	_, err2 := s.Coalesce()
	stop()
	if !errors.Is(err, ErrBudget) {
		t.Errorf("IsEmpty: %v, want ErrBudget", err)
	}
	if err2 != nil {
		t.Errorf("Coalesce of one disjunct has nothing to do: %v", err2)
	}
	if empty, err := s.IsEmpty(); err != nil || empty {
		t.Errorf("after the watch: %v, %v", empty, err)
	}
}
