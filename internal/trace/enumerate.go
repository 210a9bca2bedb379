package trace

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
)

// errStop ends a Foreach at the limit.
var errStop = errors.New("stop")

// Enumerate is EnumerateLimit with DefaultLimit.
func Enumerate(sched presburger.UnionMap, params map[string]int64) ([]Timed, error) {
	return EnumerateLimit(sched, params, DefaultLimit)
}

// EnumerateLimit lists the pairs of a schedule map (statement instance ->
// time vector, all times of one length) with the parameters fixed to
// params: the order the code of the schedule must follow. The result is
// sorted by time, then (only to be deterministic: instances with equal
// times are unordered) by statement name and iteration vector. The map
// must be bounded once the parameters are fixed; intersect it with the
// domain first. More than limit pairs give an error wrapping ErrLimit.
func EnumerateLimit(sched presburger.UnionMap, params map[string]int64, limit int) ([]Timed, error) {
	var out []Timed
	width := -1
	for _, m := range sched.Maps() {
		sp := m.Space()
		if sp.In.Nest != nil || sp.Out.Nest != nil {
			return nil, fmt.Errorf("trace: schedule map in space %v is not statement -> time", sp)
		}
		if width >= 0 && sp.NOut() != width {
			return nil, fmt.Errorf("trace: time vectors of lengths %d and %d (%s)", width, sp.NOut(), sp.In.Name)
		}
		width = sp.NOut()
		fixed, err := m.FixParams(params)
		if err != nil {
			return nil, fmt.Errorf("trace: statement %s: %w", sp.In.Name, err)
		}
		set, err := fixed.Wrap()
		if err != nil {
			return nil, fmt.Errorf("trace: statement %s: %w", sp.In.Name, err)
		}
		n := sp.NIn()
		err = set.Foreach(func(pt []int64) error {
			if len(out) >= limit {
				return errStop
			}
			out = append(out, Timed{
				Instance: Instance{Stmt: sp.In.Name, Iter: slices.Clone(pt[:n])},
				Time:     slices.Clone(pt[n:]),
			})
			return nil
		})
		if err == errStop {
			return nil, fmt.Errorf("%w: the schedule has more than %d", ErrLimit, limit)
		}
		if err != nil {
			return nil, fmt.Errorf("trace: statement %s: %w", sp.In.Name, err)
		}
	}
	slices.SortFunc(out, func(a, b Timed) int {
		return cmp.Or(slices.Compare(a.Time, b.Time), cmp.Compare(a.Stmt, b.Stmt), slices.Compare(a.Iter, b.Iter))
	})
	return out, nil
}
