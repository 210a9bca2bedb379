package scheduletree

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEdits(t *testing.T) {
	fx := fixtures(t)
	graftU := NewDomain(uset(t, "{ U[i] : 0 <= i < 10 }"), NewBand(band(t, "{ U[i] -> [i] }", false), nil))
	for _, tc := range []struct {
		name string
		tree string
		edit func(Tree) (Tree, error)
		want string // the schedule map of the result
		// at, kinds: the kinds of the nodes from path at down its first children.
		at    Path
		kinds []Kind
	}{
		{"tile", "fused", func(t Tree) (Tree, error) { return t.TileBand(Path{0}, []int64{32, 16}) },
			"{ S[i, j] -> [floor(i/32), floor(j/16), i, j, 0]; T[i, j] -> [floor(i/32), floor((j + 1)/16), i, j + 1, 1] }",
			Path{0}, []Kind{KindBand, KindBand, KindSequence}},
		{"split", "fused", func(t Tree) (Tree, error) { return t.SplitBand(Path{0}, 1) },
			"{ S[i, j] -> [i, j, 0]; T[i, j] -> [i, j + 1, 1] }",
			Path{0}, []Kind{KindBand, KindBand, KindSequence}},
		{"permute", "fused", func(t Tree) (Tree, error) { return t.PermuteBand(Path{0}, []int{1, 0}) },
			"{ S[i, j] -> [j, i, 0]; T[i, j] -> [j + 1, i, 1] }",
			Path{0}, []Kind{KindBand, KindSequence}},
		{"insert mark", "sequence", func(t Tree) (Tree, error) { return t.InsertMark(Path{0, 0, 0}, "parallel") },
			"{ S[i, j] -> [0, i, j]; T[i, j] -> [1, i, j] }",
			Path{0, 0}, []Kind{KindFilter, KindMark, KindBand, KindLeaf}},
		{"insert mark below", "fused", func(t Tree) (Tree, error) { return t.InsertMark(Path{0}.Child(0), "kernel") },
			"{ S[i, j] -> [i, j, 0]; T[i, j] -> [i, j + 1, 1] }",
			Path{0}, []Kind{KindBand, KindMark, KindSequence}},
		{"insert filter", "fused", func(tr Tree) (Tree, error) { return tr.InsertFilter(Path{0}, uset(t, "{ S[i, j] }")) },
			"{ S[i, j] -> [i, j, 0] }",
			Path{0}, []Kind{KindFilter, KindBand, KindSequence}},
		{"insert sequence", "sequence", func(tr Tree) (Tree, error) {
			return tr.InsertSequence(Path{0, 1, 0}, uset(t, "{ T[i, j] : i < 5 }"), uset(t, "{ T[i, j] : i >= 5 }"))
		},
			"{ S[i, j] -> [0, i, j, 0]; T[i, j] -> [1, 0, i, j] : i < 5; T[i, j] -> [1, 1, i, j] : i >= 5 }",
			Path{0, 1}, []Kind{KindFilter, KindSequence, KindFilter, KindBand}},
		{"insert extension", "fused", func(tr Tree) (Tree, error) {
			return tr.InsertExtension(Path{0, 0, 0, 0}, umap(t, "{ [a, b] -> U[a + b] : b = 0 }"))
		},
			"{ S[i, j] -> [i, j, 0]; T[i, j] -> [i, j + 1, 1]; U[x] -> [x, 0, 0] }",
			Path{0, 0, 0}, []Kind{KindFilter, KindExtension, KindLeaf}},
		{"insert band", "fused", func(tr Tree) (Tree, error) {
			return tr.InsertBand(Path{0, 0, 0, 0}, band(t, "{ S[i, j] -> [i + j] }", false))
		},
			"{ S[i, j] -> [i, j, 0, i + j]; T[i, j] -> [i, j + 1, 1, 0] }",
			Path{0, 0, 0}, []Kind{KindFilter, KindBand, KindLeaf}},
		{"graft before", "sequence", func(tr Tree) (Tree, error) {
			tr, _, err := tr.GraftBefore(Path{0, 1, 0}, graftU)
			return tr, err
		},
			"{ S[i, j] -> [0, i, j, 0]; U[i] -> [1, 0, i, 0] : 0 <= i < 10; T[i, j] -> [1, 1, i, j] }",
			Path{0, 1}, []Kind{KindFilter, KindExtension, KindSequence, KindFilter, KindBand}},
		{"graft after", "sequence", func(tr Tree) (Tree, error) {
			tr, _, err := tr.GraftAfter(Path{0, 1, 0}, graftU)
			return tr, err
		},
			"{ S[i, j] -> [0, i, j, 0]; U[i] -> [1, 1, i, 0] : 0 <= i < 10; T[i, j] -> [1, 0, i, j] }",
			Path{0, 1}, []Kind{KindFilter, KindExtension, KindSequence, KindFilter, KindBand}},
		{"delete mark", "extension", func(t Tree) (Tree, error) { return t.Delete(Path{0, 0, 0}) },
			`[N] -> { S[i, j] -> [0, i, j, 0, 0, 0];
			S[i, j] -> [1, o0, o1, 0, i, j] : 4o0 <= i <= 4o0 + 4 and 4o1 <= j <= 4o1 + 3 and 0 <= i < N and 0 <= j < N;
			T[i, j] -> [1, floor(i/4), floor(j/4), 1, i, j] }`,
			Path{0, 0}, []Kind{KindFilter, KindBand, KindLeaf}},
		{"delete child", "sequence", func(t Tree) (Tree, error) { return t.DeleteChild(Path{0, 0}) },
			"{ T[i, j] -> [i, j] }",
			Path{0}, []Kind{KindSequence, KindFilter, KindBand}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := fx[tc.tree]
			before, err := Marshal(orig)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.edit(orig)
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(got); err != nil && tc.name != "insert filter" && tc.name != "delete child" && tc.name != "insert extension" {
				t.Errorf("invalid result: %v", err)
			}
			m, err := got.Map()
			if err != nil {
				t.Fatal(err)
			}
			mapEqual(t, tc.name, m, tc.want)
			var kinds []Kind
			n, err := got.At(tc.at)
			if err != nil {
				t.Fatal(err)
			}
			for range tc.kinds {
				kinds = append(kinds, n.Kind())
				if n.NumChildren() == 0 {
					break
				}
				n = n.Child(0)
			}
			if diff := cmp.Diff(tc.kinds, kinds); diff != "" {
				t.Errorf("kinds below %s (-want +got):\n%s", tc.at, diff)
			}
			// The original is untouched.
			after, err := Marshal(orig)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("the edit changed the original tree:\n%s\nnow\n%s", before, after)
			}
		})
	}
}

func TestEditFlags(t *testing.T) {
	fx := fixtures(t)
	misc := fx["misc"]
	bp := Path{0, 0, 0, 0, 0, 1, 0} // B's band: [j, i mod 2], coincident [1, 0], options [unroll, atomic]
	split, err := misc.SplitBand(bp, 1)
	if err != nil {
		t.Fatal(err)
	}
	outer, _ := split.At(bp)
	inner, _ := split.At(bp.Child(0))
	if diff := cmp.Diff([]Band{{Coincident: []bool{true}, Options: []Option{OptionUnroll}}, {Coincident: []bool{false}, Options: []Option{OptionAtomic}}},
		[]Band{outer.Band(), inner.Band()}, cmp.Comparer(func(a, b Band) bool {
			return a.Permutable == b.Permutable && cmp.Equal(a.Coincident, b.Coincident) && cmp.Equal(a.Options, b.Options)
		})); diff != "" {
		t.Errorf("split flags (-want +got):\n%s", diff)
	}
	perm, err := misc.PermuteBand(bp, []int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	pn, _ := perm.At(bp)
	if diff := cmp.Diff([]any{[]bool{false, true}, []Option{OptionAtomic, OptionUnroll}}, []any{pn.Band().Coincident, pn.Band().Options}); diff != "" {
		t.Errorf("permuted flags (-want +got):\n%s", diff)
	}
	tiled, err := fx["fused"].TileBand(Path{0}, []int64{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Path{{0}, {0, 0}} {
		n, _ := tiled.At(p)
		if b := n.Band(); !b.Permutable || !cmp.Equal(b.Coincident, []bool{true, false}) {
			t.Errorf("tiled band at %s lost its flags: %+v", p, b)
		}
	}
	// The point band is the original schedule.
	point, _ := tiled.At(Path{0, 0})
	orig, _ := fx["fused"].At(Path{0})
	if eq, err := Equal(point, orig); err != nil || !eq {
		t.Errorf("point band differs from the original band")
	}
}

func TestEditErrors(t *testing.T) {
	fx := fixtures(t)
	seq, fused := fx["sequence"], fx["fused"]
	for _, tc := range []struct {
		name, want string
		err        func() error
	}{
		{"tile sizes", "2 members", func() error { _, err := fused.TileBand(Path{0}, []int64{4}); return err }},
		{"tile size", "not positive", func() error { _, err := fused.TileBand(Path{0}, []int64{4, 0}); return err }},
		{"tile non-band", "not a band", func() error { _, err := seq.TileBand(Path{0}, []int64{4}); return err }},
		{"split", "cannot split", func() error { _, err := fused.SplitBand(Path{0}, 2); return err }},
		{"permute", "not a permutation", func() error { _, err := fused.PermuteBand(Path{0}, []int{0, 0}); return err }},
		{"insert at root", "above the root", func() error { _, err := seq.InsertMark(Path{}, "x"); return err }},
		{"insert under sequence", "between a sequence", func() error { _, err := seq.InsertMark(Path{0, 1}, "x"); return err }},
		{"bad path", "no child 3", func() error { _, err := seq.InsertMark(Path{0, 3}, "x"); return err }},
		{"delete sequence", "one child", func() error { _, err := seq.Delete(Path{0}); return err }},
		{"delete child", "sequence or set parent", func() error { _, err := fused.DeleteChild(Path{0}); return err }},
		{"graft overlap", "overlap", func() error {
			_, _, err := seq.GraftBefore(Path{0, 1, 0}, NewDomain(uset(t, "{ T[i, j] : i = 0 and j = 0 }"), nil))
			return err
		}},
		{"graft root", "domain or extension", func() error { _, _, err := seq.GraftBefore(Path{0, 1, 0}, NewMark("x", nil)); return err }},
	} {
		err := tc.err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestPathAndCursor(t *testing.T) {
	tr := fixtures(t)["sequence"]
	p := Path{0, 1, 0}
	if got := p.String(); got != "/0/1/0" {
		t.Errorf("String = %q", got)
	}
	back, err := ParsePath(p.String())
	if err != nil || !cmp.Equal(back, p) {
		t.Errorf("ParsePath = %v, %v", back, err)
	}
	if r, err := ParsePath("/"); err != nil || len(r) != 0 {
		t.Errorf("ParsePath(/) = %v, %v", r, err)
	}
	c, err := tr.Cursor(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Node().Kind() != KindBand || c.Ancestor(1).Kind() != KindFilter || c.Depth() != 3 {
		t.Errorf("cursor at %s: %s under %s", c.Path(), c.Node().Kind(), c.Ancestor(1).Kind())
	}
	f, _ := c.Parent()
	prev, ok := f.PrevSibling()
	if !ok || !cmp.Equal(prev.Path(), Path{0, 0}) {
		t.Errorf("PrevSibling = %v, %v", prev.Path(), ok)
	}
	if _, ok := prev.PrevSibling(); ok {
		t.Error("the first child has a previous sibling")
	}
	leafC, ok := c.Child(0)
	if !ok || leafC.Node().Kind() != KindLeaf {
		t.Errorf("child of the band: %v", ok)
	}
	if _, ok := leafC.Child(0); ok {
		t.Error("a leaf has a child")
	}
	var visited []string
	tr.Walk(func(p Path, n *Node) bool {
		visited = append(visited, p.String()+" "+n.Kind().String())
		return n.Kind() != KindFilter || p[len(p)-1] == 0
	})
	want := []string{"/ domain", "/0 sequence", "/0/0 filter", "/0/0/0 band", "/0/0/0/0 leaf", "/0/1 filter"}
	if diff := cmp.Diff(want, visited); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
}

// TestPathCopying checks that an edit copies only the nodes on the path
// and that accessors hand out copies.
func TestPathCopying(t *testing.T) {
	orig := fixtures(t)["sequence"]
	edited, err := orig.InsertMark(Path{0, 1, 0}, "parallel")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p      Path
		shared bool
	}{{Path{}, false}, {Path{0}, false}, {Path{0, 1}, false}, {Path{0, 0}, true}, {Path{0, 0, 0}, true}} {
		a, _ := orig.At(tc.p)
		b, _ := edited.At(tc.p)
		if (a == b) != tc.shared {
			t.Errorf("node %s shared = %v, want %v", tc.p, a == b, tc.shared)
		}
	}
	// The band below the new mark is the original one.
	a, _ := orig.At(Path{0, 1, 0})
	b, _ := edited.At(Path{0, 1, 0, 0})
	if a != b {
		t.Error("the subtree below the mark was copied")
	}
	bd := a.Band()
	bd.Coincident[0] = false
	bd.Options[0] = OptionUnroll
	if c := a.Band(); !c.Coincident[0] || c.Options[0] != OptionDefault {
		t.Error("changing a returned Band changed the node")
	}
	ch := orig.Root().Child(0).Children()
	ch[0] = nil
	if orig.Root().Child(0).Child(0) == nil {
		t.Error("changing the returned children changed the node")
	}
}
