package scheduler

import (
	"fmt"
	"math"

	"github.com/tilefuse/tilefuse/presburger"
)

// DefaultMaxWork is the scheduling budget when Options.MaxWork is zero:
// the solver work one Schedule may spend on the Farkas coefficients of
// its dependences and on its integer programs, all together, counted in
// tableau entries updated (each simplex pivot costs its rows times its
// columns; see presburger.RowsWork) and in pairs of rows compared. Like
// the count of pivots it depends on the program and the options only,
// never on the machine, and unlike it, it grows with the time taken. Every
// PolyBench kernel and PolyMage pipeline schedules with a small part of
// it under each heuristic (see TestBudgetMargin), while a program the
// Pluto-style search cannot handle (a loop nest 5 or more deep around a
// scalar accumulator, a long chain of loops each depending on the last)
// stops in seconds with a BudgetError. FuseMax, whose bands over a whole
// image pyramid are the most expensive legitimate problems (about 4.9e9
// for local_laplacian, where FuseSmart needs 1.4e9), gets four times as
// much.
var DefaultMaxWork int64 = 4_000_000_000

// maxWork is the budget in force for o.
func (o Options) maxWork() int64 {
	switch {
	case o.MaxWork < 0:
		return math.MaxInt64
	case o.MaxWork == 0 && o.Fuse == FuseMax:
		return 4 * DefaultMaxWork
	case o.MaxWork == 0:
		return DefaultMaxWork
	}
	return o.MaxWork
}

// BudgetError is Schedule's error when the scheduling budget runs out. It
// wraps presburger.ErrBudget.
type BudgetError struct {
	// Limit is the budget that ran out (Options.MaxWork, or
	// DefaultMaxWork).
	Limit int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("scheduler: scheduling needs more than %d units of solver work (the scheduling budget, Options.MaxWork)", e.Limit)
}

func (e *BudgetError) Unwrap() error { return presburger.ErrBudget }

// outOfWork is the panic that unwinds Schedule when the budget runs out.
type outOfWork struct{}

// spend charges n units of work done outside the solver and stops the
// scheduler when none are left.
func (s *scheduler) spend(n int64) {
	s.work.Entries -= n
	s.checkWork()
}

// checkWork stops the scheduler when the budget is spent (the solver
// calls leave it negative when they run out).
func (s *scheduler) checkWork() {
	if s.work.Entries <= 0 {
		panic(outOfWork{})
	}
}

// recoverWork turns the outOfWork panic into a BudgetError.
func (s *scheduler) recoverWork(err *error) {
	if r := recover(); r != nil {
		if _, ok := r.(outOfWork); !ok {
			panic(r)
		}
		*err = &BudgetError{Limit: s.opt.maxWork()}
	}
}
