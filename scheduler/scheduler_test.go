package scheduler

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scheduletree"
)

func TestParseFuse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Fuse
		ok   bool
	}{{"min", FuseMin, true}, {"smart", FuseSmart, true}, {"max", FuseMax, true}, {"none", 0, false}, {"", 0, false}} {
		got, err := ParseFuse(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseFuse(%q) = %v, %v", tc.in, got, err)
		}
		if tc.ok && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

// TestStencilsSkewed checks that the time-iterated stencils get an outer
// permutable band over time and space with a skew (a member with two
// non-zero iterator coefficients), in every mode.
func TestStencilsSkewed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		members int // time and every space dimension
	}{{"jacobi-1d", 2}, {"jacobi-2d", 3}, {"seidel-2d", 3}, {"heat-3d", 4}} {
		_, p := kernel(t, tc.name)
		g := memoryDeps(t, p)
		for _, f := range modes {
			tr := mustSchedule(t, p, g, f)
			outer := bands(tr)[0]
			if !outer.Permutable || outer.Members() != tc.members {
				t.Errorf("%s %s: outer band has %d members, permutable %v; want %d, permutable\n%s", tc.name, f, outer.Members(), outer.Permutable, tc.members, sketch(tr))
				continue
			}
			hs := members(t, outer, "S0")
			if hs[0][0] == 0 {
				t.Errorf("%s %s: the first member %v does not advance with time", tc.name, f, hs[0])
			}
			skewed := false
			for _, h := range hs {
				nz := 0
				for _, c := range h[:len(h)-1] {
					if c != 0 {
						nz++
					}
				}
				skewed = skewed || nz >= 2
			}
			if !skewed {
				t.Errorf("%s %s: no member of %v is skewed", tc.name, f, hs)
			}
			t.Logf("%s %s: S0 -> %v", tc.name, f, hs)
		}
	}
}

// TestGemmCoincident checks that gemm's i and j loops are coincident in
// every mode and k is not, and that j, along which C and B are read by
// rows and A not at all, is the innermost loop (the hyperplane problem
// alone puts k last, as Options.KeepOrder shows).
func TestGemmCoincident(t *testing.T) {
	_, p := kernel(t, "gemm")
	g := memoryDeps(t, p)
	for _, keep := range []bool{false, true} {
		for _, f := range modes {
			tr, err := Schedule(p, g, Options{Fuse: f, KeepOrder: keep})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range bands(tr) {
				hs := members(t, b, "S1") // S1[i, k, j]
				for k, h := range hs {
					loop := map[string]bool{"i": h[0] != 0, "k": h[1] != 0, "j": h[2] != 0}
					for _, name := range []string{"i", "j", "k"} {
						if loop[name] {
							if b.Coincident[k] {
								got = append(got, name+":parallel")
							} else {
								got = append(got, name+":serial")
							}
						}
					}
				}
			}
			want := []string{"i:parallel", "k:serial", "j:parallel"}
			if keep {
				want = []string{"i:parallel", "j:parallel", "k:serial"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("gemm %s (keep order %v): loops of S1 (-want +got):\n%s\n%s", f, keep, diff, sketch(tr))
			}
		}
	}
}

// TestDistributions shows the trees of the three heuristics where they
// differ, and checks that they do.
func TestDistributions(t *testing.T) {
	for _, name := range []string{"2mm", "gemver", "covariance", "blur"} {
		p, _ := program(t, name)
		g := memoryDeps(t, p)
		var trees []scheduletree.Tree
		for _, f := range modes {
			tr := mustSchedule(t, p, g, f)
			t.Logf("%s, fusion %s:\n%s", name, f, sketch(tr))
			trees = append(trees, tr)
		}
		for i := range trees {
			for j := i + 1; j < len(trees); j++ {
				if eq, err := trees[i].Equal(trees[j]); err != nil || eq {
					t.Errorf("%s: fusion %s and %s give the same tree (%v)", name, modes[i], modes[j], err)
				}
			}
		}
	}
}

// TestBlurSmart pins the smart heuristic down on the two-stage blur: the
// stages share the outer (parallel) rows loop, and are distributed inside
// it, where fusing would need a shift that serializes the columns.
func TestBlurSmart(t *testing.T) {
	p, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	tr := mustSchedule(t, p, memoryDeps(t, p), FuseSmart)
	var kinds []string
	tr.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		kinds = append(kinds, n.Kind().String())
		return true
	})
	want := []string{"domain", "context", "band", "sequence", "filter", "band", "leaf", "filter", "band", "leaf"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Fatalf("tree shape (-want +got):\n%s\n%s", diff, sketch(tr))
	}
	top := bands(tr)[0]
	if diff := cmp.Diff([]bool{true}, top.Coincident); diff != "" {
		t.Errorf("outer band coincidence (-want +got):\n%s", diff)
	}
}

// TestAllLegal schedules every program in every mode (and its original
// order): each tree is valid and respects every dependence.
func TestAllLegal(t *testing.T) {
	for _, name := range allPrograms() {
		p, _ := program(t, name)
		g := memoryDeps(t, p)
		trees := map[string]scheduletree.Tree{}
		orig, err := Original(p)
		if err != nil {
			t.Fatalf("%s: Original: %v", name, err)
		}
		trees["original"] = orig
		for _, f := range modes {
			trees[f.String()] = mustSchedule(t, p, g, f)
		}
		for mode, tr := range trees {
			if err := scheduletree.Validate(tr); err != nil {
				t.Errorf("%s %s: invalid tree: %v\n%s", name, mode, err, sketch(tr))
			}
			vs, err := Check(tr, g)
			if err != nil {
				t.Fatalf("%s %s: Check: %v", name, mode, err)
			}
			for _, v := range vs {
				t.Errorf("%s %s: %s", name, mode, v)
			}
		}
	}
}

// TestOriginalOrder checks that Original's tree orders all instances as
// the statements' schedules do: the two order relations are equal.
func TestOriginalOrder(t *testing.T) {
	for _, name := range allPrograms() {
		p, _ := program(t, name)
		tr, err := Original(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		dom, err := p.Domains()
		if err != nil {
			t.Fatal(err)
		}
		want, err := p.Schedule()
		if err != nil {
			t.Fatal(err)
		}
		got, err := tr.Map()
		if err != nil {
			t.Fatal(err)
		}
		eq, err := orderRelation(t, got, dom).IsEqual(orderRelation(t, want, dom))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !eq {
			t.Errorf("%s: the tree's order differs from the original\n%s", name, sketch(tr))
		}
	}
}

// TestOriginalFlags checks the flags Original computes on small cases.
func TestOriginalFlags(t *testing.T) {
	for _, tc := range []struct {
		name       string
		permutable []bool
		coincident [][]bool
	}{
		// for t { S0: for i; S1: for i }: t carries everything; the i
		// loops are not parallel at the band level (flags are checked
		// against all dependences live at the band's start).
		{"jacobi-1d", []bool{true, true, true}, [][]bool{{false}, {true}, {true}}},
		// for i for j { S0; for k S1 }.
		{"gemm", []bool{true, true, true}, [][]bool{{true}, {true}, {false, true}}},
	} {
		p, _ := program(t, tc.name)
		tr, err := Original(p)
		if err != nil {
			t.Fatal(err)
		}
		var perm []bool
		var coinc [][]bool
		for _, b := range bands(tr) {
			perm = append(perm, b.Permutable)
			coinc = append(coinc, b.Coincident)
		}
		if diff := cmp.Diff(tc.permutable, perm); diff != "" {
			t.Errorf("%s permutable (-want +got):\n%s\n%s", tc.name, diff, sketch(tr))
		}
		if diff := cmp.Diff(tc.coincident, coinc); diff != "" {
			t.Errorf("%s coincident (-want +got):\n%s\n%s", tc.name, diff, sketch(tr))
		}
	}
}

func TestViolationString(t *testing.T) {
	v := Violation{Kind: 0, Source: "S", Sink: "T", Array: "A",
		Params: map[string]int64{"N": 4}, ParamNames: []string{"N"},
		SourceInstance: []int64{1, 2}, SinkInstance: []int64{0, 3},
		SourceTime: []int64{1, 2}, SinkTime: []int64{0, 3}}
	want := "RAW dependence S -> T on A violated: S[1, 2] runs at [1, 2], T[0, 3] runs at [0, 3] (N = 4)"
	if got := v.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	v.SinkTime = nil
	if got := v.String(); !strings.Contains(got, "T[0, 3] is never scheduled") {
		t.Errorf("unscheduled sink: %s", got)
	}
}

// TestFallback exercises the fallback to the original order that
// Schedule takes for a cycle no hyperplane can break: on its own, it must
// give a legal tree.
func TestFallback(t *testing.T) {
	for _, name := range []string{"jacobi-1d", "gemm", "covariance", "histeq"} {
		p, _ := program(t, name)
		g := memoryDeps(t, p)
		s := &scheduler{p: p, np: len(p.Params)}
		at := map[string]int{}
		var group []int
		for i, st := range p.Stmts {
			at[st.Name] = i
			group = append(group, i)
			s.stmts = append(s.stmts, &stmt{name: st.Name, dim: st.Domain.Space().NOut(), space: st.Domain.Space()})
		}
		es, err := buildEdges(p, g, at)
		if err != nil {
			t.Fatal(err)
		}
		root, err := s.original(group, es)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := newTree(p, root)
		if err != nil {
			t.Fatal(err)
		}
		if err := scheduletree.Validate(tr); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if vs, err := Check(tr, g); err != nil || len(vs) > 0 {
			t.Errorf("%s: %v %v", name, err, vs)
		}
	}
}

// TestEmptyProgram schedules a program without statements.
func TestEmptyProgram(t *testing.T) {
	p, _ := program(t, "gemm")
	q := *p
	q.Stmts = nil
	g := memoryDeps(t, &q)
	for _, f := range modes {
		tr := mustSchedule(t, &q, g, f)
		if err := scheduletree.Validate(tr); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := Original(&q); err != nil {
		t.Error(err)
	}
}
