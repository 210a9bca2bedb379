package simplex

import (
	"sync"
	"sync/atomic"
)

// Budget caps the work of one call. A nil *Budget means a fresh budget of
// DefaultBudget operations. Ops is the number of operations left; every
// simplex pivot, every node of the integer search and every step of the basis
// reduction costs one. Share one Budget between several calls to cap them
// together.
//
// Ops counts pivots, whatever the size of the tableau; a pivot's time grows
// with its rows and columns. With CapEntries set, Entries caps the tableau
// entries the pivots update as well (each pivot costs its rows times its
// columns), which measures the work in time rather than in steps.
type Budget struct {
	Ops        int64
	Entries    int64
	CapEntries bool
}

// SpendEntries charges the n entries a pivot of another tableau (the
// parametric solver's) updates.
func (b *Budget) SpendEntries(n int64) { b.spendEntries(n) }

// spendEntries charges the n entries a pivot updates.
func (b *Budget) spendEntries(n int64) {
	if b.CapEntries {
		b.Entries -= n
		if b.Entries < 0 {
			panic(BudgetExceeded{})
		}
	}
}

// DefaultBudget is the number of operations (pivots and search steps) a call
// may spend when it is given a nil *Budget. A million pivots on the small
// systems of polyhedral compilation is far beyond any sane need, so running
// out means a pathological input rather than a slow legitimate one.
var DefaultBudget int64 = 1_000_000

// BudgetExceeded is the panic value raised when a Budget runs out, just as
// arith.Overflow is raised on int64 overflow; callers recover it into an
// error.
type BudgetExceeded struct{}

func (BudgetExceeded) Error() string { return "presburger: operation budget exceeded" }

// interrupts counts the reasons, in force, to stop every operation: while
// it is positive, each charge panics with BudgetExceeded (see Interrupt).
var interrupts atomic.Int32

// Interrupt makes every budget charge, in progress or started later, fail
// with BudgetExceeded, until the returned function is called (once). It
// is how a cancelled context stops a long computation: an atomic load per
// charge is the whole cost.
func Interrupt() (resume func()) {
	interrupts.Add(1)
	var once sync.Once
	return func() { once.Do(func() { interrupts.Add(-1) }) }
}

// Interrupted reports whether an Interrupt is in force.
func Interrupted() bool { return interrupts.Load() > 0 }

// orDefault returns b, or a fresh default budget when b is nil.
func orDefault(b *Budget) *Budget {
	if b == nil {
		return &Budget{Ops: DefaultBudget}
	}
	return b
}

// spend charges n operations and panics with BudgetExceeded when the budget
// is exhausted.
func (b *Budget) spend(n int64) {
	b.Ops -= n
	if b.Ops < 0 || interrupts.Load() > 0 {
		panic(BudgetExceeded{})
	}
}

// Spend charges n operations of work done outside the solver (building
// pieces, for example), panicking with BudgetExceeded when the budget is
// exhausted.
func (b *Budget) Spend(n int64) { b.spend(n) }
