package fusion

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// loop is one loop of a scheduled function: floor((Vars[v] - min) / div)
// of its pure variable v, blocks counted from the variable's minimum as
// Halide splits (a strip of 32 rows from the first row the function
// has, a vector from its first column). A split's outer loop divides by
// the product of the factors; its inner loop keeps the variable's value,
// so that a block's points are the block's values of the variable and a
// partial last block needs no guard.
type loop struct {
	name     string
	v        int
	min      string
	div      int64
	parallel bool
	vector   bool
	unroll   bool
	// blocks marks the outer loop of Vectorize's split.
	blocks bool
	at     scop.Pos // the directive that made it special
}

// loops applies f's loop directives to its pure variables.
func loops(f *scop.FuncSchedule) ([]loop, error) {
	var out []loop
	for i, v := range f.Vars {
		l := loop{name: v, v: i, div: 1, at: f.At}
		if i < len(f.Mins) {
			l.min = f.Mins[i]
		}
		out = append(out, l)
	}
	find := func(name string, st scop.LoopStep, call string) (int, error) {
		k := slices.IndexFunc(out, func(l loop) bool { return l.name == name })
		if k < 0 {
			return 0, scop.Errorf(st.At, "%s of %s: %s has no loop %s (its loops: %s)", call, f.Name, f.Name, name, loopNames(out))
		}
		return k, nil
	}
	fresh := func(name string, st scop.LoopStep, call string) error {
		if slices.ContainsFunc(out, func(l loop) bool { return l.name == name }) {
			return scop.Errorf(st.At, "%s of %s: %s already has a loop %s", call, f.Name, f.Name, name)
		}
		return nil
	}
	split := func(k int, outer, inner string, factor int64) {
		l := out[k]
		o, in := l, l
		o.name, o.div = outer, l.div*factor
		in.name = inner
		out = slices.Replace(out, k, k+1, o, in)
	}
	for _, st := range f.Loops {
		switch st.Op {
		case scop.LoopSplit:
			k, err := find(st.Var, st, "Split")
			if err != nil {
				return nil, err
			}
			for _, n := range []string{st.Outer, st.Inner} {
				if n != st.Var {
					if err := fresh(n, st, "Split"); err != nil {
						return nil, err
					}
				}
			}
			if st.Outer == st.Inner {
				return nil, scop.Errorf(st.At, "Split of %s: the outer and inner loops are both %s", f.Name, st.Outer)
			}
			split(k, st.Outer, st.Inner, st.Factor)
		case scop.LoopReorder:
			var at []int
			for _, n := range st.Order {
				k, err := find(n, st, "Reorder")
				if err != nil {
					return nil, err
				}
				at = append(at, k)
			}
			moved := make([]loop, len(at))
			for i, k := range at {
				moved[i] = out[k]
			}
			slices.Sort(at)
			for i, k := range at {
				out[k] = moved[i]
			}
		case scop.LoopParallel, scop.LoopVectorize, scop.LoopUnroll:
			call := map[scop.LoopOp]string{scop.LoopParallel: "Parallel", scop.LoopVectorize: "Vectorize", scop.LoopUnroll: "Unroll"}[st.Op]
			k, err := find(st.Var, st, call)
			if err != nil {
				return nil, err
			}
			if st.Factor > 0 {
				inner := st.Var + "_" + strings.ToLower(call[:1])
				if err := fresh(inner, st, call); err != nil {
					return nil, err
				}
				split(k, st.Var, inner, st.Factor)
				out[k].blocks = st.Op == scop.LoopVectorize
				k++
			}
			l := &out[k]
			l.at = st.At
			switch st.Op {
			case scop.LoopParallel:
				l.parallel = true
			case scop.LoopVectorize:
				l.vector = true
			default:
				l.unroll = true
			}
		default:
			return nil, fmt.Errorf("fusion: unknown loop directive %d", st.Op)
		}
	}
	for k, l := range out {
		if l.vector && k != len(out)-1 {
			return nil, scop.Errorf(l.at, "Vectorize of %s.%s: the loop is not innermost (loops: %s)", f.Name, l.name, loopNames(out))
		}
		if l.parallel && l.vector {
			return nil, scop.Errorf(l.at, "%s.%s is both parallel and vectorized", f.Name, l.name)
		}
	}
	return out, nil
}

func loopNames(ls []loop) string {
	var names []string
	for _, l := range ls {
		names = append(names, l.name)
	}
	return strings.Join(names, ", ")
}

// memberText is loop l's value on a statement whose iterators are iters.
func (l loop) memberText(iters []string) string {
	switch {
	case l.div == 1:
		return iters[l.v]
	case l.min == "" || l.min == "0":
		return fmt.Sprintf("floor(%s/%d)", iters[l.v], l.div)
	}
	return fmt.Sprintf("floor((%s - (%s))/%d)", iters[l.v], l.min, l.div)
}
