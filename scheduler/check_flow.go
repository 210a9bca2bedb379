package scheduler

import (
	"fmt"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// CheckFlow checks a tree whose instances may run several times
// (extension nodes that recompute producers in every tile that needs
// them) or not at all (subtrees under a "skipped" mark), as post-tiling
// fusion builds them, against the program's exact dataflow f: every
// execution of every statement instance that reads a value must come
// after an execution of the instance that wrote it (its source in the
// original program), and, when the array is a tile-local buffer (a
// "promote[A]" mark), in the same tile: source and sink agree on the
// schedule dimensions above the mark. A Violation names a read execution
// without its source (Kind deps.RAW, SinkTime the execution).
//
// Nor may an execution of another instance writing the same element
// (in the same tile, for a tile-local buffer) come between an execution
// of the source and the read, unless the program lets that write reach
// the read too (a may-write between them in program order): the
// Violation then names the Overwriter.
//
// The memory-based Check does not apply to such trees: an instance
// recomputed in two tiles writes its element twice, which orders it
// against itself; CheckFlow only asks that each read see the value its
// source wrote.
func CheckFlow(t scheduletree.Tree, p *scop.Program, f *deps.Flow) ([]Violation, error) {
	exec, err := t.ExecutedMap()
	if err != nil {
		return nil, err
	}
	byStmt := map[string]presburger.Map{}
	for _, m := range exec.Maps() {
		byStmt[m.Space().In.Name] = m
	}
	scope, err := promotedDepths(t)
	if err != nil {
		return nil, err
	}
	var out []Violation
	for _, m := range f.May.Maps() {
		src, sink := m.Space().In.Name, m.Space().Out.Name
		xs, xt := byStmt[src], byStmt[sink]
		if xt.Space().In.Name == "" {
			continue // the sink never runs: its reads see nothing
		}
		s := p.Stmt(src)
		if s == nil {
			return nil, fmt.Errorf("scheduler: the flow names %s, which the program does not have", src)
		}
		bad, err := unsourced(m, xs, xt, scope[s.Write.Array])
		if err != nil {
			return nil, fmt.Errorf("scheduler: checking the flow %s -> %s: %w", src, sink, err)
		}
		v, ok, err := flowExample(bad, m, xs)
		if err != nil {
			return nil, err
		}
		if ok {
			v.Kind, v.Source, v.Sink, v.Array = deps.RAW, src, sink, s.Write.Array
			out = append(out, v)
		}
	}
	over, err := overwriteViolations(p, f, byStmt, scope)
	return append(out, over...), err
}

// unsourced returns the reads that no execution of their source
// precedes with the first depth time dimensions equal: a map from the
// wrapped flow pair [sink instance -> source instance] to the times at
// which the sink runs without it.
func unsourced(m, xs, xt presburger.Map, depth int) (presburger.Map, error) {
	var zero presburger.Map
	pairs, err := m.Reverse() // sink -> source
	if err != nil {
		return zero, err
	}
	toSink, err := pairs.DomainMap() // [sink -> source] -> sink
	if err != nil {
		return zero, err
	}
	want, err := toSink.ApplyRange(xt) // [sink -> source] -> sink times
	if err != nil || xs.Space().In.Name == "" {
		return want, err // the source never runs
	}
	timeSpace := presburger.SetSpace(xt.Space().Params, xt.Space().Out)
	width := xt.Space().NOut()
	if xs.Space().NOut() != width {
		return zero, fmt.Errorf("times of %d and %d dimensions", xs.Space().NOut(), width)
	}
	before := presburger.EmptyMap(presburger.MapSpace(timeSpace.Params, timeSpace.Out, timeSpace.Out))
	for level := depth; level < width; level++ {
		if before, err = before.Union(presburger.LexLTAt(timeSpace, level)); err != nil {
			return zero, err
		}
	}
	good, err := pairs.RangeMap() // [sink -> source] -> source
	if err == nil {
		good, err = good.ApplyRange(xs) // -> source times
	}
	if err == nil {
		good, err = good.ApplyRange(before) // -> the times after one
	}
	if err != nil {
		return zero, err
	}
	return want.Subtract(good)
}

// flowExample samples one unsourced read: its sink and source instances
// and the sink's time.
func flowExample(bad, m, xs presburger.Map) (Violation, bool, error) {
	v, pt, ok, err := sample(bad)
	if err != nil || !ok {
		return v, ok, err
	}
	np := bad.Space().NParam()
	nsink, nsrc := m.Space().NOut(), m.Space().NIn()
	v.SinkInstance = append([]int64(nil), pt[np:np+nsink]...)
	v.SourceInstance = append([]int64(nil), pt[np+nsink:np+nsink+nsrc]...)
	v.SinkTime = append([]int64(nil), pt[np+nsink+nsrc:]...)
	v.SourceTime, err = timeOf(xs, pt[:np], v.SourceInstance)
	return v, true, err
}

// promotedDepths maps each array with a "promote[A]" mark to the number
// of schedule dimensions above the mark (its tile).
func promotedDepths(t scheduletree.Tree) (map[string]int, error) {
	out := map[string]int{}
	var err error
	t.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() != scheduletree.KindMark || err != nil {
			return err == nil
		}
		if a, ok := scheduletree.PromotedArray(n.Mark()); ok {
			var d int
			d, err = t.TimeDepth(p)
			if old, seen := out[a]; !seen || d < old {
				out[a] = d
			}
		}
		return err == nil
	})
	return out, err
}
