package gpumap

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

func umap(t *testing.T, s string) presburger.UnionMap {
	t.Helper()
	m, err := presburger.ParseUnionMap(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func uset(t *testing.T, s string) presburger.UnionSet {
	t.Helper()
	u, err := presburger.ParseUnionSet(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func band(t *testing.T, s string, coincident ...bool) scheduletree.Band {
	return scheduletree.Band{Schedule: umap(t, s), Permutable: true, Coincident: coincident, Options: make([]scheduletree.Option, len(coincident))}
}

// serial is b not permutable (no wavefront).
func serial(b scheduletree.Band) scheduletree.Band {
	b.Permutable = false
	return b
}

// findExtension returns the one extension node of tr.
func findExtension(t *testing.T, tr scheduletree.Tree) presburger.UnionMap {
	t.Helper()
	var ext []presburger.UnionMap
	tr.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindExtension {
			ext = append(ext, n.Extension())
		}
		return true
	})
	if len(ext) != 1 {
		t.Fatalf("%d extension nodes in\n%s", len(ext), tr.Text())
	}
	return ext[0]
}

// TestMapRestatesPrefix: a band that the mapping renumbers (a wavefront
// over tiles that carry dependences in both members; a block band with
// no thread band below, strip-mined) has a tile-local buffer's promote
// mark and its copy's extension below, stated in the band's tile
// coordinates (as post-tiling fusion makes them). The mapped tree's
// extension must copy, at each new prefix point, the elements the old one
// did at the old point it stands for, and Mapping.Origin must restate the
// buffer's origin likewise (randprog's regress transposed-copy-gpu.c read
// outside its buffer when neither was).
func TestMapRestatesPrefix(t *testing.T) {
	copies := func(ext string, copy, inner scheduletree.Band) *scheduletree.Node {
		return scheduletree.NewMark(scheduletree.PromoteMark("A_t"),
			scheduletree.NewExtension(umap(t, ext), scheduletree.NewSequence(
				scheduletree.NewFilter(uset(t, "{ C[a, b] }"), scheduletree.NewBand(copy, nil)),
				scheduletree.NewFilter(uset(t, "{ S[i, j] }"), scheduletree.NewBand(inner, nil)),
			)))
	}
	tests := []struct {
		name   string
		root   *scheduletree.Node
		ext    string // the mapped tree's extension
		prefix [][]int64
		// origin maps the coefficients of an origin over the old tile
		// coordinates to those over the mapped prefix.
		origin map[string][2][]int64
	}{{
		name: "wavefront",
		root: scheduletree.NewBand(band(t, "{ S[i, j] -> [floor(i/4), floor(j/4)] }", false, false),
			copies("{ [o0, o1] -> C[a, b] : 4o0 <= a <= 4o0 + 3 and 4o1 <= b <= 4o1 + 3 and 0 <= a, b <= 15 }",
				band(t, "{ C[a, b] -> [a, b] }", true, true), band(t, "{ S[i, j] -> [i, j] }", false, false))),
		ext:    "{ [c0, c1] -> C[a, b] : 4c0 - 4c1 <= a <= 4c0 - 4c1 + 3 and 4c1 <= b <= 4c1 + 3 and 0 <= a, b <= 15 }",
		prefix: [][]int64{{1, -1}, {0, 1}},
		origin: map[string][2][]int64{"row": {{4}, {4, -4}}, "column": {{0, 4}, {0, 4}}, "constant": {nil, nil}},
	}, {
		name: "strip-mined block band",
		root: scheduletree.NewBand(band(t, "{ S[i, j] -> [floor(i/4)] }", true),
			copies("{ [o0] -> C[a, b] : 4o0 <= a <= 4o0 + 3 and 0 <= a, b <= 15 }",
				serial(band(t, "{ C[a, b] -> [a, b] }", false, false)), serial(band(t, "{ S[i, j] -> [i, j] }", false, false)))),
		ext:    "{ [c0, c1] -> C[a, b] : 4c1 <= a <= 4c1 + 3 and 0 <= a, b <= 15 }",
		prefix: [][]int64{{0, 1}},
		origin: map[string][2][]int64{"row": {{4}, {0, 4}}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := scheduletree.NewTree(scheduletree.NewDomain(uset(t, "{ S[i, j] : 0 <= i, j <= 15 }"), tc.root))
			if err != nil {
				t.Fatal(err)
			}
			m, err := MapTree(tr, Sizes{})
			if err != nil {
				t.Fatal(err)
			}
			got := findExtension(t, m.Tree)
			if eq, err := got.IsEqual(umap(t, tc.ext)); err != nil || !eq {
				t.Errorf("extension %v (%v), want %s in\n%s", got, err, tc.ext, m.Tree.Text())
			}
			if d := cmp.Diff(map[string][][]int64{"A_t": tc.prefix}, m.Prefix); d != "" {
				t.Errorf("Prefix (-want +got):\n%s", d)
			}
			for name, c := range tc.origin {
				if d := cmp.Diff(c[1], m.Origin("A_t", c[0])); d != "" {
					t.Errorf("Origin of %s %v (-want +got):\n%s", name, c[0], d)
				}
				if d := cmp.Diff(c[0], m.Origin("B", c[0])); d != "" {
					t.Errorf("Origin of an array without a renumbered mark (-want +got):\n%s", d)
				}
			}
		})
	}
}

// TestMapRestatesGuard: a guard in the prefix space below a wavefront is
// the preimage of the old one.
func TestMapRestatesGuard(t *testing.T) {
	g, err := presburger.ParseSet("{ [o0, o1] : o0 <= o1 }")
	if err != nil {
		t.Fatal(err)
	}
	root := scheduletree.NewBand(band(t, "{ S[i, j] -> [floor(i/4), floor(j/4)] }", false, false),
		scheduletree.NewGuard(g, scheduletree.NewBand(band(t, "{ S[i, j] -> [i, j] }", false, false), nil)))
	tr, err := scheduletree.NewTree(scheduletree.NewDomain(uset(t, "{ S[i, j] : 0 <= i, j <= 15 }"), root))
	if err != nil {
		t.Fatal(err)
	}
	m, err := MapTree(tr, Sizes{})
	if err != nil {
		t.Fatal(err)
	}
	var guards []presburger.Set
	m.Tree.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindGuard {
			guards = append(guards, n.Guard())
		}
		return true
	})
	want, err := presburger.ParseSet("{ [c0, c1] : c0 - c1 <= c1 }")
	if err != nil {
		t.Fatal(err)
	}
	if len(guards) != 1 {
		t.Fatalf("%d guards in\n%s", len(guards), m.Tree.Text())
	}
	if eq, err := guards[0].IsEqual(want); err != nil || !eq {
		t.Errorf("guard %v (%v), want %v", guards[0], err, want)
	}
}
