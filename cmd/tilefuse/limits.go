package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scop"
)

// limitsHelp documents the limits of compile, run, tree, ast and bench.
const limitsHelp = `
Limits: every stage ends with a result or an error that names the limit
to raise, within bounded time and memory.

  --max-ops N         solver steps (simplex pivots, integer search nodes)
                      of each presburger operation (default 20000000)
  --max-pieces N      disjuncts one presburger operation may hold
                      (default 20000)
  --schedule-work N   the scheduling budget: solver work (tableau entries
                      updated) of all the scheduler's integer programs
                      together (default 4000000000, four times as much for
                      --fuse max); a program the Pluto-style scheduler
                      cannot handle (a deep nest around a scalar
                      accumulator, a long chain of dependent loops) stops
                      with "scheduling needs more than N units"; raise it,
                      or use --fuse none or min
  --max-nodes N       nodes of the generated code (loop bodies, unrolled
                      copies, statements; default 50000)
  --timeout D         wall-clock limit of the compilation (default 10m;
                      0: none)

The first four count work, not time: the same input stops at the same
point on every machine. 0 keeps a default; -1 removes the limit of
--schedule-work and --max-nodes.
`

// limitFlags are the flags of limitsHelp.
type limitFlags struct {
	maxOps, scheduleWork *int64
	maxPieces, maxNodes  *int
	timeout              *time.Duration
}

// addLimitFlags registers the flags; without withTimeout, --timeout is
// left to the command (bench has its own).
func addLimitFlags(fs *flag.FlagSet, withTimeout bool) *limitFlags {
	l := &limitFlags{
		maxOps:       fs.Int64("max-ops", 0, fmt.Sprintf("solver steps allowed per presburger operation (0: default %d)", presburger.DefaultLimits.MaxOps)),
		maxPieces:    fs.Int("max-pieces", 0, fmt.Sprintf("disjuncts allowed per presburger operation (0: default %d)", presburger.DefaultLimits.MaxPieces)),
		scheduleWork: fs.Int64("schedule-work", 0, fmt.Sprintf("the scheduler's budget of solver work (0: default %d, 4x for --fuse max; -1: none)", scheduler.DefaultMaxWork)),
		maxNodes:     fs.Int("max-nodes", 0, fmt.Sprintf("nodes allowed in the generated code (0: default %d; -1: none)", ast.DefaultMaxNodes)),
		timeout:      new(time.Duration),
	}
	if withTimeout {
		l.timeout = fs.Duration("timeout", defaultTimeout, "wall-clock limit of the compilation (0: none)")
	}
	return l
}

// defaultTimeout bounds a compilation of the command line.
const defaultTimeout = 10 * time.Minute

// apply checks the flags and sets the limits of o.
func (l *limitFlags) apply(cmd string, o *compiler.Options) error {
	switch {
	case *l.maxOps < 0:
		return fmt.Errorf("tilefuse %s: --max-ops must not be negative, not %d", cmd, *l.maxOps)
	case *l.maxPieces < 0:
		return fmt.Errorf("tilefuse %s: --max-pieces must not be negative, not %d", cmd, *l.maxPieces)
	case *l.scheduleWork < -1:
		return fmt.Errorf("tilefuse %s: --schedule-work must be -1 (none), 0 (default) or positive, not %d", cmd, *l.scheduleWork)
	case *l.maxNodes < -1:
		return fmt.Errorf("tilefuse %s: --max-nodes must be -1 (none), 0 (default) or positive, not %d", cmd, *l.maxNodes)
	case *l.timeout < 0:
		return fmt.Errorf("tilefuse %s: --timeout must not be negative", cmd)
	}
	o.MaxOps, o.MaxPieces, o.ScheduleWork, o.MaxNodes = *l.maxOps, *l.maxPieces, *l.scheduleWork, *l.maxNodes
	return nil
}

// compileIn runs compiler.Compile under the --timeout limit d (0: none)
// within ctx; a deadline reached names the flag.
func compileIn(ctx context.Context, d time.Duration, p *scop.Program, opts compiler.Options) (*compiler.Result, error) {
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	r, err := compiler.Compile(ctx, p, opts)
	if err != nil && d > 0 && errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w (the --timeout limit, %v; raise it with --timeout D, or 0 for none)", err, d)
	}
	return r, err
}
