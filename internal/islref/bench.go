//go:build isl && cgo

package islref

import (
	"time"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

// Time runs the statements of prog before statement i once, then evaluates
// statement i's expression n times with isl and returns the mean time of one
// evaluation: the isl side of a side-by-side benchmark whose tilefuse side
// is calc.Time with calc.Tilefuse. Results of each repetition are freed
// before the next, so memory stays flat.
func Time(prog *calc.Program, i, n int) (time.Duration, error) {
	c := newCtx()
	defer c.free()
	s := calc.NewSession(prog.File, backend{c})
	for _, st := range prog.Stmts[:i] {
		if _, err := s.Exec(st); err != nil {
			return 0, err
		}
	}
	mark := len(c.objs)
	var total time.Duration
	for range n {
		start := time.Now()
		_, err := s.Eval(prog.Stmts[i].X)
		total += time.Since(start)
		c.release(mark)
		if err != nil {
			return 0, err
		}
	}
	return total / time.Duration(max(n, 1)), nil
}
