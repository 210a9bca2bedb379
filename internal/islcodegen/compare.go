package islcodegen

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/internal/loopc"
	"github.com/tilefuse/tilefuse/internal/trace"
	"github.com/tilefuse/tilefuse/presburger"
)

// Outcome classifies tilefuse's trace against isl's.
type Outcome int

const (
	// Equal: the same instances in the same order.
	Equal Outcome = iota
	// EqualUpToTies: the traces differ, but both run exactly the
	// schedule's instances, each in an order that differs from the
	// schedule's only among instances at equal times (which the schedule
	// leaves unordered), as trace.Compare checks against the enumerated
	// schedule.
	EqualUpToTies
	// Different: anything else.
	Different
)

func (o Outcome) String() string {
	return [...]string{"equal", "equal up to ties", "different"}[o]
}

// Trace is the instances some code ran, and whether it was stopped at
// the limit before its end.
type Trace struct {
	Instances []trace.Instance
	Stopped   bool
}

// errFull stops a run at the instance limit.
var errFull = errors.New("instance limit")

// RunAST runs tilefuse's AST: at most limit instances and 100 * limit
// loop iterations (an unbounded loop with no statement stops there).
func RunAST(n ast.Node, params map[string]int64, limit int) (Trace, error) {
	var tr Trace
	steps := 100 * limit
	err := ast.Run(n, params, ast.Visitor{
		User: func(stmt string, args []int64) error {
			if len(tr.Instances) == limit {
				return errFull
			}
			tr.Instances = append(tr.Instances, trace.Instance{Stmt: stmt, Iter: slices.Clone(args)})
			return nil
		},
		Iteration: func(*ast.For, int64) error {
			if steps--; steps < 0 {
				return errFull
			}
			return nil
		},
	})
	if errors.Is(err, errFull) {
		tr.Stopped, err = true, nil
	}
	return tr, err
}

// RunISL runs isl's expected code with the same limits as RunAST.
func RunISL(code *loopc.Block, params map[string]int64, limit int) (Trace, error) {
	var tr Trace
	err := loopc.Run(code, params, 101*limit, func(name string, args []int64) error {
		if len(tr.Instances) == limit {
			return errFull
		}
		tr.Instances = append(tr.Instances, trace.Instance{Stmt: name, Iter: args})
		return nil
	})
	if errors.Is(err, errFull) || errors.Is(err, loopc.ErrSteps) {
		tr.Stopped, err = true, nil
	}
	return tr, err
}

// Compare classifies ours against isl's. Traces stopped at the limit
// are compared on their common prefix. When they differ, sched (the
// instances' times) decides whether they are equal up to ties (see
// prefixTies for prefixes); the explanation says what differs.
func Compare(ours, isl Trace, sched presburger.UnionMap, params map[string]int64) (Outcome, string) {
	a, b := ours.Instances, isl.Instances
	if ours.Stopped || isl.Stopped {
		n := min(len(a), len(b))
		switch {
		case ours.Stopped && !isl.Stopped && len(a) > len(b),
			isl.Stopped && !ours.Stopped && len(b) > len(a):
			return Different, fmt.Sprintf("one code ran %d instances, the other stopped after %d", min(len(a), len(b)), max(len(a), len(b)))
		}
		a, b = a[:n], b[:n]
	}
	k := firstDifference(a, b)
	if k < 0 {
		if ours.Stopped || isl.Stopped {
			return Equal, fmt.Sprintf("on the first %d instances (a code stopped at the limit)", len(a))
		}
		return Equal, ""
	}
	diff := describe(a, b, k)
	if ours.Stopped || isl.Stopped {
		if err := prefixTies(a, b, sched, params); err != nil {
			return Different, fmt.Sprintf("%s (codes stopped at the limit: %v)", diff, err)
		}
		return EqualUpToTies, diff + " (codes stopped at the limit: up to ties in the first instances)"
	}
	want, err := trace.EnumerateLimit(sched, params, 4*max(len(a), len(b))+1000)
	if err != nil {
		return Different, diff + fmt.Sprintf(" (ties not checked: %v)", err)
	}
	if errOurs, errISL := trace.Compare(a, want), trace.Compare(b, want); errOurs != nil || errISL != nil {
		return Different, fmt.Sprintf("%s; against the schedule: tilefuse: %v; isl: %v", diff, errOrOK(errOurs), errOrOK(errISL))
	}
	return EqualUpToTies, diff
}

func errOrOK(err error) string {
	if err == nil {
		return "follows it"
	}
	return err.Error()
}

func firstDifference(a, b []trace.Instance) int {
	for k := range min(len(a), len(b)) {
		if a[k].Stmt != b[k].Stmt || !slices.Equal(a[k].Iter, b[k].Iter) {
			return k
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func describe(a, b []trace.Instance, k int) string {
	at := func(t []trace.Instance) string {
		if k < len(t) {
			return t[k].String()
		}
		return "the end"
	}
	return fmt.Sprintf("instance %d: tilefuse %s, isl %s (%d and %d instances)", k, at(a), at(b), len(a), len(b))
}

// prefixTies checks two prefixes of executions of sched that differ: each
// must run its instances in schedule order (times never decrease), and
// the instances before the earlier of their last times must be the same
// in both (any execution runs all of them first). Times are computed per
// instance, so this serves where the schedule is too large to enumerate.
func prefixTies(a, b []trace.Instance, sched presburger.UnionMap, params map[string]int64) error {
	times := map[string][]int64{}
	timesOf := func(tr []trace.Instance, who string) ([][]int64, error) {
		out := make([][]int64, len(tr))
		for i, in := range tr {
			key := in.String()
			t, ok := times[key]
			if !ok {
				var err error
				if t, err = timeOf(sched, in, params); err != nil {
					return nil, fmt.Errorf("%s: %s: %v", who, key, err)
				}
				times[key] = t
			}
			if i > 0 && slices.Compare(out[i-1], t) > 0 {
				return nil, fmt.Errorf("%s runs %s at [%s] after %s at [%s]", who, key, ints(t), tr[i-1], ints(out[i-1]))
			}
			out[i] = t
		}
		return out, nil
	}
	ta, err := timesOf(a, "tilefuse")
	if err != nil {
		return err
	}
	tb, err := timesOf(b, "isl")
	if err != nil {
		return err
	}
	cut := ta[len(ta)-1]
	if slices.Compare(tb[len(tb)-1], cut) < 0 {
		cut = tb[len(tb)-1]
	}
	before := func(tr []trace.Instance, ts [][]int64) map[string]int {
		m := map[string]int{}
		for i, in := range tr {
			if slices.Compare(ts[i], cut) < 0 {
				m[in.String()]++
			}
		}
		return m
	}
	if !maps.Equal(before(a, ta), before(b, tb)) {
		return fmt.Errorf("the instances before time [%s] differ", ints(cut))
	}
	return nil
}

// timeOf is the time sched gives the instance (a function: the first
// time found).
func timeOf(sched presburger.UnionMap, in trace.Instance, params map[string]int64) ([]int64, error) {
	for _, m := range sched.Maps() {
		sp := m.Space()
		if sp.In.Name != in.Stmt || sp.NIn() != len(in.Iter) {
			continue
		}
		m, err := m.FixParams(restrict(params, sp.Params))
		if err != nil {
			return nil, err
		}
		for k, v := range in.Iter {
			if m, err = m.FixDim(presburger.DimIn, k, v); err != nil {
				return nil, err
			}
		}
		r, err := m.Range()
		if err != nil {
			return nil, err
		}
		pt, ok, err := r.SamplePoint()
		if err != nil {
			return nil, err
		}
		if ok {
			return pt[len(r.Space().Params):], nil
		}
	}
	return nil, errors.New("not in the schedule")
}

func ints(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
