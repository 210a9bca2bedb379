package presburger

import (
	"context"

	"github.com/tilefuse/tilefuse/presburger/internal/simplex"
)

// WatchContext stops presburger operations when ctx is done: from then on,
// until stop is called, every operation (in any goroutine: the budget is
// process-wide) fails with ErrBudget at its next solver step, so a
// deadline or a cancellation ends a long computation within moments. The
// caller tells the two apart by ctx.Err(). Callers that share the process
// with other presburger work serialise it (package compiler does). stop
// releases the watch and must be called.
func WatchContext(ctx context.Context) (stop func()) {
	done := ctx.Done()
	if done == nil {
		return func() {}
	}
	if ctx.Err() != nil {
		// Already done: stop at once, not when the watcher runs.
		return simplex.Interrupt()
	}
	quit := make(chan struct{})
	resumed := make(chan func(), 1)
	go func() {
		select {
		case <-done:
			resumed <- simplex.Interrupt()
		case <-quit:
			resumed <- func() {}
		}
	}()
	return func() {
		close(quit)
		(<-resumed)()
	}
}
