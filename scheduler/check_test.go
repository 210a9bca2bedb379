package scheduler

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// firstPath returns the path of the first node of kind k, depth first.
func firstPath(t *testing.T, tr scheduletree.Tree, k scheduletree.Kind) scheduletree.Path {
	t.Helper()
	var at scheduletree.Path
	tr.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if at == nil && n.Kind() == k {
			at = append(scheduletree.Path{}, p...)
		}
		return at == nil
	})
	if at == nil {
		t.Fatalf("no %s node in\n%s", k, sketch(tr))
	}
	return at
}

// reverseOuterBand negates the first member of the first band.
func reverseOuterBand(t *testing.T, tr scheduletree.Tree) scheduletree.Tree {
	p := firstPath(t, tr, scheduletree.KindBand)
	n, err := tr.At(p)
	if err != nil {
		t.Fatal(err)
	}
	b := n.Band()
	var maps []presburger.Map
	for _, m := range b.Schedule.Maps() {
		n, np := m.Space().NOut(), m.Space().NParam()
		eqs := make([][]int64, n)
		for k := range eqs { // out_k = ±in_k, minus for the first member
			eqs[k] = make([]int64, 1+np+2*n)
			eqs[k][1+np+k], eqs[k][1+np+n+k] = 1, -1
			if k == 0 {
				eqs[k][1+np+n+k] = 1
			}
		}
		sp := presburger.MapSpace(m.Space().Params, m.Space().Out, m.Space().Out)
		neg, err := presburger.MapFromConstraints(sp, eqs, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.ApplyRange(neg)
		if err != nil {
			t.Fatal(err)
		}
		maps = append(maps, r)
	}
	if b.Schedule, err = presburger.UnionMapFromMaps(maps...); err != nil {
		t.Fatal(err)
	}
	out, err := tr.SetBand(p, b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// swapSequence exchanges the first two children of the first sequence.
func swapSequence(t *testing.T, tr scheduletree.Tree) scheduletree.Tree {
	p := firstPath(t, tr, scheduletree.KindSequence)
	n, err := tr.At(p)
	if err != nil {
		t.Fatal(err)
	}
	cs := n.Children()
	cs[0], cs[1] = cs[1], cs[0]
	out, err := tr.Replace(p, scheduletree.NewSequence(cs...))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCheckCatches plants violations and checks that each reported pair
// is a real dependence pair ordered the wrong way.
func TestCheckCatches(t *testing.T) {
	for _, tc := range []struct {
		name, program string
		tree          func(*testing.T, string) scheduletree.Tree
		kind          deps.Kind
		source, sink  string
	}{
		{"reversed time loop", "jacobi-1d", func(t *testing.T, name string) scheduletree.Tree {
			p, _ := program(t, name)
			tr, err := Original(p)
			if err != nil {
				t.Fatal(err)
			}
			return reverseOuterBand(t, tr)
		}, deps.RAW, "S0", "S1"},
		{"reversed skewed band", "jacobi-2d", func(t *testing.T, name string) scheduletree.Tree {
			p, _ := program(t, name)
			return reverseOuterBand(t, mustSchedule(t, p, memoryDeps(t, p), FuseSmart))
		}, deps.RAW, "S0", "S1"},
		{"swapped statements", "gemm", func(t *testing.T, name string) scheduletree.Tree {
			p, _ := program(t, name)
			return swapSequence(t, mustSchedule(t, p, memoryDeps(t, p), FuseMin))
		}, deps.RAW, "S0", "S1"},
		{"swapped stages", "blur", func(t *testing.T, name string) scheduletree.Tree {
			p, _ := program(t, name)
			tr, err := Original(p)
			if err != nil {
				t.Fatal(err)
			}
			return swapSequence(t, tr)
		}, deps.RAW, "blurx_s0", "out_s0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := program(t, tc.program)
			g := memoryDeps(t, p)
			tr := tc.tree(t, tc.program)
			vs, err := Check(tr, g)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) == 0 {
				t.Fatalf("no violation found in\n%s", sketch(tr))
			}
			found := false
			for _, v := range vs {
				t.Log(v)
				found = found || (v.Kind == tc.kind && v.Source == tc.source && v.Sink == tc.sink)
				verify(t, g, tr, v)
			}
			if !found {
				t.Errorf("no %s violation %s -> %s", tc.kind, tc.source, tc.sink)
			}
		})
	}
}

// verify checks a reported pair: it is in the dependence, and its times
// (recomputed from the tree) are not in order.
func verify(t *testing.T, g *deps.Graph, tr scheduletree.Tree, v Violation) {
	t.Helper()
	verifyPair(t, g, tr, v)
	if v.SourceTime != nil && v.SinkTime != nil && lexLess(v.SourceTime, v.SinkTime) {
		t.Errorf("%s: the source runs first", v)
	}
	if !strings.Contains(v.String(), "violated") {
		t.Errorf("String: %s", v)
	}
}

func equalVec(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func lexLess(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// TestCheckUnscheduled reports instances that a tree never runs.
func TestCheckUnscheduled(t *testing.T) {
	p, _ := program(t, "gemm")
	g := memoryDeps(t, p)
	tr := mustSchedule(t, p, g, FuseMin)
	// Keep only S1's subtree: S0's instances get no time.
	seq := firstPath(t, tr, scheduletree.KindSequence)
	out, err := tr.DeleteChild(seq.Child(0))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := Check(out, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatalf("no violation in\n%s", sketch(out))
	}
	for _, v := range vs {
		if v.Source != "S0" || v.SourceTime != nil {
			t.Errorf("unexpected %s", v)
		}
	}
}
