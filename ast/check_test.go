package ast_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// instance is one executed statement instance.
type instance struct {
	stmt string
	args []int64
}

func (i instance) key() string { return fmt.Sprintf("%s%v", i.stmt, i.args) }

// executed runs the AST at the given parameter values and records the
// statement instances in order.
func executed(n ast.Node, params map[string]int64, limit int) ([]instance, error) {
	var out []instance
	err := ast.Run(n, params, ast.Visitor{User: func(s string, args []int64) error {
		out = append(out, instance{s, slices.Clone(args)})
		if len(out) > limit {
			return fmt.Errorf("more than %d instances", limit)
		}
		return nil
	}})
	return out, err
}

// timed is an instance at a point of the schedule.
type timed struct {
	time []int64
	inst instance
}

// expected enumerates the pairs of the tree's schedule map whose
// instances are in dom (the map is not restricted to the domain, as in
// isl), at the given parameter values, sorted by time.
func expected(t scheduletree.Tree, dom presburger.UnionSet, params map[string]int64) ([]timed, error) {
	m, err := t.Map()
	if err != nil {
		return nil, err
	}
	var out []timed
	for _, mp := range m.Maps() {
		name := mp.Space().In.Name
		d, ok := dom.ExtractSet(name)
		if !ok {
			continue
		}
		mp, err := mp.IntersectDomain(d)
		if err == nil {
			mp, err = mp.FixParams(params)
		}
		if err != nil {
			return nil, err
		}
		ni := mp.Space().NIn()
		err = mp.AsSet().Foreach(func(pt []int64) error {
			out = append(out, timed{time: slices.Clone(pt[ni:]), inst: instance{name, slices.Clone(pt[:ni])}})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return slices.Compare(out[a].time, out[b].time) < 0 })
	return out, nil
}

// compareOrder checks that got is want's instances in an order where the
// times never decrease: got splits into consecutive runs that are, as
// multisets, the groups of equal times of want.
func compareOrder(got []instance, want []timed) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d instances executed, %d expected", len(got), len(want))
	}
	for i := 0; i < len(want); {
		j := i
		group := map[string]int{}
		for j < len(want) && slices.Equal(want[j].time, want[i].time) {
			group[want[j].inst.key()]++
			j++
		}
		for k := i; k < j; k++ {
			key := got[k].key()
			if group[key] == 0 {
				return fmt.Errorf("instance %d is %s; expected one of %v at time %v", k, key, keys(group), want[i].time)
			}
			group[key]--
		}
		i = j
	}
	return nil
}

func keys(m map[string]int) string {
	var out []string
	for k, v := range m {
		if v > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
