package tiling_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// The reuse cases as a user writes them in C.
const (
	// A transposed copy walks one array by columns whatever the loop
	// order (a column walk the scheduler can interchange away, it does):
	// in[j][i+1] shares a cache line with in[j][i], a column apart.
	transposeSource = `void transpose(int n, float in[100][100], float out[100][100]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[i][j] = in[j][i];
}`
	// Independent recurrences along j, one per row: a chain per i.
	recurrenceSource = `void recurrence(int n, float a[100][100]) {
  for (int i = 0; i < n; i++)
    for (int j = 1; j < n; j++)
      a[i][j] = a[i][j] / (a[i][j - 1] + 1.0f);
}`
)

// blurSource is the two-pass blur of cmd/tilefuse's defaults test.
func blurSource(t *testing.T) string {
	b, err := os.ReadFile("../cmd/tilefuse/testdata/defaults/blur2pass.c")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOnlyReuse: with OnlyReuse, auto's policy tiles the bands of the
// statements listed and no other.
func TestOnlyReuse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		source string // C source, or "" for the PolyBench kernel name
		want   []string
	}{
		// Both passes of issue 16's two-pass blur stream: every
		// footprint of one row iteration is a row (tmp[i+1][j] is reused
		// across i, over a row).
		{"blur2pass", blurSource(t), nil},
		{"transpose", transposeSource, []string{"S0"}},
		{"recurrence", recurrenceSource, []string{"S0"}},
		// C[i][j] *= beta streams; the product reuses B across i over a
		// plane.
		{"gemm", "", []string{"S1"}},
		// Both products reduce along their last member (chains), and
		// x2's walks A by columns.
		{"mvt", "", []string{"S0", "S1"}},
		// The time-skewed band needs its wavefront.
		{"jacobi-2d", "", []string{"S0", "S1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, tree := minTree(t, tc.name, tc.source)
			pol := tiling.Policy{Sizes: []int64{32}, MinMembers: 2, NoNestedWavefront: true, OnlyReuse: true, Program: p}
			tiled, paths, err := tiling.Apply(tree, pol)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, path := range paths {
				n, err := tiled.At(path)
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range n.Band().Schedule.Maps() {
					got = append(got, m.Space().In.Name)
				}
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("statements under tiled bands (-want +got):\n%s", diff)
			}
			// Without OnlyReuse every band of two members is tiled.
			pol.OnlyReuse = false
			if _, all, err := tiling.Apply(tree, pol); err != nil || len(all) < len(paths) || (tc.name == "blur2pass" && len(all) != 2) {
				t.Errorf("without OnlyReuse: %d bands tiled (%v), want every one", len(all), err)
			}
		})
	}
}

// TestOnlyReuseNeedsProgram: OnlyReuse without the program is an error,
// not a silent choice.
func TestOnlyReuseNeedsProgram(t *testing.T) {
	_, _, err := tiling.Apply(gemmTree(t, "min"), tiling.Policy{Sizes: []int64{32}, OnlyReuse: true})
	if err == nil || !strings.Contains(err.Error(), "program") {
		t.Errorf("Apply = %v, want an error naming the program", err)
	}
}

// minTree parses a case (C source, or with source "" the PolyBench
// kernel name) and schedules it under min fusion.
func minTree(t *testing.T, name, source string) (*scop.Program, *deps.Graph, scheduletree.Tree) {
	t.Helper()
	var p *scop.Program
	var g *deps.Graph
	if source == "" {
		p, g = kernelDeps(t, name)
	} else {
		var err error
		if p, err = cparse.ParseFunc(name+".c", []byte(source), name); err != nil {
			t.Fatal(err)
		}
		if g, err = deps.Memory(p); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := scheduler.Schedule(p, g, scheduler.Options{Fuse: scheduler.FuseMin})
	if err != nil {
		t.Fatal(err)
	}
	return p, g, tree
}
