// Package trace checks generated loop code by running it: RunC compiles C
// code (as isl's AST printer writes it) with each statement recording its
// instance, Enumerate lists the instances of a schedule map in schedule
// order, and Compare says whether the code ran exactly those instances in
// that order.
//
// Both sides are bounded by a limit on the number of instances, so that a
// wrong loop bound fails a test instead of hanging it.
package trace

import (
	"errors"
	"fmt"
	"strings"
)

// DefaultLimit is the number of instances RunC and Enumerate accept.
const DefaultLimit = 2_000_000

// ErrLimit is reported (wrapped) when code or a schedule has more instances
// than the limit.
var ErrLimit = errors.New("trace: too many instances")

// Instance is one execution of a statement: its name and iteration vector.
type Instance struct {
	Stmt string
	Iter []int64
}

// String writes the instance as a call, "S(1, 2)".
func (in Instance) String() string {
	return in.Stmt + "(" + ints(in.Iter) + ")"
}

// Timed is an instance with its time vector in the schedule.
type Timed struct {
	Instance
	Time []int64
}

// String writes "S(1, 2) at [0, 1, 2]".
func (t Timed) String() string { return t.Instance.String() + " at [" + ints(t.Time) + "]" }

func ints(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// Instances drops the times.
func Instances(ts []Timed) []Instance {
	out := make([]Instance, len(ts))
	for i, t := range ts {
		out[i] = t.Instance
	}
	return out
}
