package compiler

import (
	"errors"
	"fmt"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
)

// LimitError is Compile's error when a stage reaches one of the limits
// that bound every stage's time and memory: it names the limit to raise
// (the Options field and the command line's flag) and wraps the stage's
// error (scheduler.BudgetError, ast.LimitError or presburger.ErrBudget).
type LimitError struct {
	Stage Stage
	// Field and Flag name the limit: the Options field and the flag of
	// the tilefuse command.
	Field, Flag string
	Err         error
}

func (e *LimitError) Error() string {
	hint := ""
	if e.Field == "ScheduleWork" {
		hint = ", or schedule with --fuse none or min"
	}
	return fmt.Sprintf("%s stage: %v; raise it with %s, Options.%s in package compiler%s", e.Stage, e.Err, e.Flag, e.Field, hint)
}

func (e *LimitError) Unwrap() error { return e.Err }

// limitError wraps err in a LimitError when a limit caused it.
func limitError(err error, s Stage) error {
	var be *scheduler.BudgetError
	var le *ast.LimitError
	switch {
	case errors.As(err, &be):
		return &LimitError{Stage: s, Field: "ScheduleWork", Flag: fmt.Sprintf("--schedule-work N (now %d)", be.Limit), Err: err}
	case errors.As(err, &le):
		return &LimitError{Stage: s, Field: "MaxNodes", Flag: fmt.Sprintf("--max-nodes N (now %d)", le.Limit), Err: err}
	case errors.Is(err, presburger.ErrBudget):
		l := presburger.CurrentLimits()
		return &LimitError{Stage: s, Field: "MaxOps", Flag: fmt.Sprintf("--max-ops N (now %d solver steps per operation) or --max-pieces N (now %d disjuncts)", l.MaxOps, l.MaxPieces), Err: err}
	}
	return err
}
