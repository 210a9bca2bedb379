package tiling_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

func gemmTree(t *testing.T, fuse string) scheduletree.Tree {
	tree, _ := kernelTree(t, "gemm", fuse)
	return tree
}

// kernelTree schedules a PolyBench kernel by the strategy fuse (none:
// the original order) and returns the tree and the dependences.
func kernelTree(t *testing.T, name, fuse string) (scheduletree.Tree, *deps.Graph) {
	t.Helper()
	p, g := kernelDeps(t, name)
	if fuse == "none" {
		tree, err := scheduler.Original(p)
		if err != nil {
			t.Fatal(err)
		}
		return tree, g
	}
	mode, err := scheduler.ParseFuse(fuse)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := scheduler.Schedule(p, g, scheduler.Options{Fuse: mode})
	if err != nil {
		t.Fatal(err)
	}
	return tree, g
}

// kernelDeps parses a PolyBench kernel and computes its dependences.
func kernelDeps(t *testing.T, name string) (*scop.Program, *deps.Graph) {
	t.Helper()
	k, _ := polybench.Lookup(name)
	p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}

// TestApply: the outermost permutable bands only are tiled, the last size
// repeating, and Separate marks the bands above bands.
func TestApply(t *testing.T) {
	for _, tc := range []struct {
		fuse     string
		pol      tiling.Policy
		tiled    int
		want     string
		separate bool
	}{
		// The original order has one outermost band, [i], above the
		// statements' own bands, which stay as they are.
		{"none", tiling.Policy{Sizes: []int64{4}}, 1,
			"band [ni, nj, nk] -> { S0[i, j] -> [floor(i/4)]; S1[i, k, j] -> [floor(i/4)] }  (permutable, coincident [1])\n" +
				"      band [ni, nj, nk] -> { S0[i, j] -> [i]; S1[i, k, j] -> [i] }  (permutable, coincident [1])\n" +
				"        sequence\n" +
				"          filter [ni, nj, nk] -> { S0[i, j] }\n" +
				"            band [ni, nj, nk] -> { S0[i, j] -> [j] }  (permutable, coincident [1])\n", false},
		{"smart", tiling.Policy{Sizes: []int64{4, 8}}, 1,
			"band [ni, nj, nk] -> { S0[i, j] -> [floor(i/4), 0, floor(j/8)]; S1[i, k, j] -> [floor(i/4), floor(k/8), floor(j/8)] }", false},
		{"smart", tiling.Policy{Sizes: []int64{4, 8}, Separate: true}, 1, "separate", true},
		{"smart", tiling.Policy{}, 0, "", false},
		// MinMembers 2 passes over the one-member bands, [i] and S0's
		// [j], to S1's [k, j] under them.
		{"none", tiling.Policy{Sizes: []int64{4}, MinMembers: 2}, 1,
			"band [ni, nj, nk] -> { S0[i, j] -> [i]; S1[i, k, j] -> [i] }  (permutable, coincident [1])\n" +
				"      sequence\n" +
				"        filter [ni, nj, nk] -> { S0[i, j] }\n" +
				"          band [ni, nj, nk] -> { S0[i, j] -> [j] }  (permutable, coincident [1])\n" +
				"        filter [ni, nj, nk] -> { S1[i, k, j] }\n" +
				"          band [ni, nj, nk] -> { S1[i, k, j] -> [floor(k/4), floor(j/4)] }", false},
		// smart's one band has three members: tiled as without it.
		{"smart", tiling.Policy{Sizes: []int64{4, 8}, MinMembers: 2}, 1,
			"band [ni, nj, nk] -> { S0[i, j] -> [floor(i/4), 0, floor(j/8)]; S1[i, k, j] -> [floor(i/4), floor(k/8), floor(j/8)] }", false},
		{"smart", tiling.Policy{Sizes: []int64{4}, MinMembers: 4}, 0, "", false},
	} {
		tree := gemmTree(t, tc.fuse)
		got, paths, err := tiling.Apply(tree, tc.pol)
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != tc.tiled {
			t.Errorf("--fuse %s %+v: tiled %d bands, want %d", tc.fuse, tc.pol, len(paths), tc.tiled)
		}
		if !strings.Contains(got.Text(), tc.want) {
			t.Errorf("--fuse %s %+v: the tree lacks\n%s\n%s", tc.fuse, tc.pol, tc.want, got.Text())
		}
		for _, p := range paths {
			n, err := got.At(p)
			if err != nil {
				t.Fatal(err)
			}
			point := n.Child(0)
			if n.Kind() != scheduletree.KindBand || point.Kind() != scheduletree.KindBand {
				t.Errorf("--fuse %s: no tile band above a point band at %v", tc.fuse, p)
				continue
			}
			if sep := n.Band().Options; tc.separate != (len(sep) > 0 && sep[0] == scheduletree.OptionSeparate) {
				t.Errorf("--fuse %s: separate options %v", tc.fuse, sep)
			}
		}
		if len(tc.pol.Sizes) == 0 && !tc.pol.Separate {
			if eq, err := got.Equal(tree); err != nil || !eq {
				t.Errorf("no sizes: the tree changed")
			}
		}
	}
}

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int64
		err  string
	}{
		{"32", []int64{32}, ""},
		{"8, 16,4", []int64{8, 16, 4}, ""},
		{"8,x", nil, `"x" is not a positive tile size`},
		{"0", nil, `"0" is not a positive tile size`},
		{"-1", nil, `"-1" is not a positive tile size`},
	} {
		got, err := tiling.ParseSizes(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: (-want +got)\n%s", tc.in, diff)
		}
		if back, _ := tiling.ParseSizes(tiling.FormatSizes(got)); !cmp.Equal(back, got) {
			t.Errorf("%q: FormatSizes does not round-trip", tc.in)
		}
	}
}

// TestNoNestedWavefront: a band that needs a wavefront is left untiled
// below a sequential loop (Floyd-Warshall's (i, j) under k), not where
// it is outermost (trisolv's (i, j)).
func TestNoNestedWavefront(t *testing.T) {
	for _, tc := range []struct {
		kernel   string
		noNested bool
		tiled    int
	}{
		{"floyd-warshall", false, 1},
		{"floyd-warshall", true, 0},
		{"trisolv", true, 1},
	} {
		tree, _ := kernelTree(t, tc.kernel, "min")
		_, paths, err := tiling.Apply(tree, tiling.Policy{Sizes: []int64{8}, MinMembers: 2, NoNestedWavefront: tc.noNested})
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != tc.tiled {
			t.Errorf("%s, NoNestedWavefront %v: %d bands tiled, want %d", tc.kernel, tc.noNested, len(paths), tc.tiled)
		}
	}
}
