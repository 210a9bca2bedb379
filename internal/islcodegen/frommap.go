package islcodegen

import (
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// optionKinds are the options of a schedule map input that a band member
// can carry.
var optionKinds = map[string]scheduletree.Option{
	"atomic":   scheduletree.OptionAtomic,
	"unroll":   scheduletree.OptionUnroll,
	"separate": scheduletree.OptionSeparate,
}

// treeFromMap builds the tree isl generates a schedule map's code from:
// the map's domain, and one band whose members are the time dimensions
// (isl's AST build generates a schedule map dimension by dimension, as
// tilefuse generates a band member by member). Each statement's time must
// be a function of its instance, and each option must hold for a member
// at every time or at none.
func treeFromMap(sched, opts presburger.UnionMap) (scheduletree.Tree, error) {
	n := -1
	for _, m := range sched.Maps() {
		sp := m.Space()
		if sp.Out.Name != "" || sp.Out.Nest != nil || sp.In.Nest != nil {
			return scheduletree.Tree{}, refuse("schedule map in space %v: want statement -> [time]", sp)
		}
		if n >= 0 && sp.NOut() != n {
			return scheduletree.Tree{}, refuse("times of %d and %d dimensions", n, sp.NOut())
		}
		n = sp.NOut()
		single, err := singleValued(m)
		if err != nil {
			return scheduletree.Tree{}, err
		}
		if !single {
			return scheduletree.Tree{}, refuse("the schedule of %s is not a function (a relation: some instance runs at several times)", sp.In.Name)
		}
	}
	dom, err := sched.Domain()
	if err != nil {
		return scheduletree.Tree{}, err
	}
	var child *scheduletree.Node
	if n > 0 {
		options, err := memberOptions(sched, opts, n)
		if err != nil {
			return scheduletree.Tree{}, err
		}
		child = scheduletree.NewBand(scheduletree.Band{Schedule: sched, Coincident: make([]bool, n), Options: options}, nil)
	} else if len(opts.Maps()) > 0 {
		return scheduletree.Tree{}, refuse("options on a schedule without dimensions")
	}
	return scheduletree.NewTree(scheduletree.NewDomain(dom, child))
}

// singleValued says whether m maps each instance to one time at most.
func singleValued(m presburger.Map) (bool, error) {
	rev, err := m.Reverse()
	if err != nil {
		return false, err
	}
	pairs, err := rev.ApplyRange(m)
	if err != nil {
		return false, err
	}
	for _, order := range []presburger.Map{presburger.LexLT(pairs.Space()), presburger.LexGT(pairs.Space())} {
		x, err := pairs.Intersect(order)
		if err != nil {
			return false, err
		}
		if empty, err := x.IsEmpty(); err != nil || !empty {
			return false, err
		}
	}
	return true, nil
}

// memberOptions reads the option map: kind[k] at every time (of the
// schedule's range) sets member k's option; at some times only, or two
// kinds on one member, the input is refused.
func memberOptions(sched, opts presburger.UnionMap, n int) ([]scheduletree.Option, error) {
	times, err := sched.Range()
	if err != nil {
		return nil, err
	}
	options := make([]scheduletree.Option, n)
	for _, m := range opts.Maps() {
		sp := m.Space()
		kind, ok := optionKinds[sp.Out.Name]
		if !ok || sp.NOut() != 1 {
			return nil, refuse("option %s in %s", sp.Out.Name, m)
		}
		if sp.In.Nest != nil || sp.In.Name != "" || sp.NIn() != n {
			// As in isl: an option of another space matches no time.
			continue
		}
		for k := range n {
			at, err := m.FixDim(presburger.DimOut, 0, int64(k))
			if err != nil {
				return nil, err
			}
			where, err := at.Domain()
			if err != nil {
				return nil, err
			}
			if empty, err := where.IsEmpty(); err != nil || empty {
				if err != nil {
					return nil, err
				}
				continue
			}
			all, err := coversAll(times, where)
			if err != nil {
				return nil, err
			}
			if !all {
				return nil, refuse("option %s[%d] holds at some times only (%s)", sp.Out.Name, k, where)
			}
			if options[k] != scheduletree.OptionDefault && options[k] != kind {
				return nil, refuse("member %d has two options, %s and %s", k, options[k], sp.Out.Name)
			}
			options[k] = kind
		}
	}
	return options, nil
}

// coversAll says whether where holds every time.
func coversAll(times presburger.UnionSet, where presburger.Set) (bool, error) {
	for _, s := range times.Sets() {
		if ok, err := s.IsSubset(where); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}
