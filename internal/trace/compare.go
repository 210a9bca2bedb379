package trace

import (
	"fmt"
	"slices"
)

// Compare reports the first difference between the instances some code
// ran (got) and the instances of a schedule in schedule order (want, as
// Enumerate returns them): a missing, extra, repeated or out-of-order
// instance, with its position in got. Instances with equal times are
// unordered: they may run in any order among themselves.
func Compare(got []Instance, want []Timed) error {
	// Where the schedule has each instance, to explain a wrong one.
	sched := map[string][]Timed{}
	for _, w := range want {
		k := w.Instance.String()
		sched[k] = append(sched[k], w)
	}
	ran := map[string]int{}
	for start := 0; start < len(want); {
		end := start + 1
		for end < len(want) && slices.Equal(want[end].Time, want[start].Time) {
			end++
		}
		group := want[start:end]
		left := map[string]int{}
		for _, w := range group {
			left[w.Instance.String()]++
		}
		for k := start; k < end; k++ {
			if k >= len(got) {
				return fmt.Errorf("trace: the code ended after %d of the schedule's %d instances; want %s", len(got), len(want), pending(group, left))
			}
			key := got[k].String()
			ran[key]++
			if left[key] > 0 {
				left[key]--
				continue
			}
			return fmt.Errorf("trace: instance %d: got %s; want %s", k, explain(key, sched[key], ran[key]), pending(group, left))
		}
		start = end
	}
	if len(got) > len(want) {
		k := len(want)
		key := got[k].String()
		return fmt.Errorf("trace: instance %d, after the schedule's %d instances: got %s", k, k, explain(key, sched[key], ran[key]+1))
	}
	return nil
}

// explain describes a wrong instance: not scheduled, run too often, or
// scheduled at another time.
func explain(key string, at []Timed, runs int) string {
	switch {
	case len(at) == 0:
		return key + ", which the schedule does not have"
	case runs > len(at):
		return fmt.Sprintf("%s for the %d. time (the schedule has it %d times)", key, runs, len(at))
	}
	return fmt.Sprintf("%s, scheduled at [%s]", key, ints(at[0].Time))
}

// pending names the first instance of the group not run yet and counts
// the others at that time.
func pending(group []Timed, left map[string]int) string {
	n := -1
	for _, c := range left {
		n += c
	}
	for _, w := range group {
		if left[w.Instance.String()] > 0 {
			if n > 0 {
				return fmt.Sprintf("%s (or one of %d more at that time)", w, n)
			}
			return w.String()
		}
	}
	return "nothing"
}
