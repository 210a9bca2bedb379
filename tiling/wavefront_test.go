package tiling_test

import (
	"context"
	"errors"
	"github.com/tilefuse/tilefuse/deps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/tiling"
)

// wavefronts lists the PolyBench kernels whose tiled band gets a
// wavefront under strategy smart: the time-skewed stencils, and the
// triangular solvers and factorizations whose outer band has no parallel
// member (ludcmp's once its scalar w is mapped onto A[i][j], package
// delicm; adi's tiled band is its time loop alone).
var wavefronts = []string{"cholesky", "fdtd-2d", "heat-3d", "jacobi-1d", "jacobi-2d", "lu", "ludcmp", "seidel-2d", "trisolv"}

// vectorized lists the PolyBench kernels whose point loops are
// distributed over their statements for vectorization under smart.
var vectorized = []string{"fdtd-2d", "heat-3d", "jacobi-1d", "jacobi-2d"}

// TestWavefrontPolyBench tiles every PolyBench kernel under the
// scheduler's strategies at several sizes, the point loops' distribution
// checked by scheduler.Check, and checks each tree with scheduler.Check:
// the order, the permutable flags and the coincident flags the wavefront
// sets all hold against the dependences. Under smart the kernels in
// wavefronts, and only those, get one, and those in vectorized get
// vector point loops.
func TestWavefrontPolyBench(t *testing.T) {
	strategies := []compiler.Strategy{compiler.None, compiler.Min, compiler.Smart, compiler.Max}
	sizes := [][]int64{{4}, {13}, {32, 64}}
	if testing.Short() {
		strategies, sizes = []compiler.Strategy{compiler.Smart}, sizes[:1]
	}
	got, vec := make([]bool, len(polybench.Kernels())), make([]bool, len(polybench.Kernels()))
	t.Run("kernels", func(t *testing.T) {
		for i, k := range polybench.Kernels() {
			t.Run(k.Name, func(t *testing.T) {
				t.Parallel()
				p, _ := kernelDeps(t, k.Name)
				for _, s := range strategies {
					r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: s, Stop: compiler.StageSchedule})
					if err != nil {
						t.Fatalf("%v: %v", s, err)
					}
					// The dependences of the program as the strategy
					// rewrote it (scalars mapped onto elements).
					g, err := deps.Memory(r.Program)
					if err != nil {
						t.Fatal(err)
					}
					for _, sz := range sizes {
						check := func(t scheduletree.Tree) (bool, error) {
							vs, err := scheduler.Check(t, g)
							return len(vs) == 0, err
						}
						tree, tiled, err := tiling.Apply(r.Scheduled, tiling.Policy{Sizes: sz, Check: check})
						if err != nil {
							t.Fatalf("%v %v: %v", s, sz, err)
						}
						vs, err := scheduler.Check(tree, g)
						if err != nil {
							t.Fatalf("%v %v: %v", s, sz, err)
						}
						for _, v := range vs {
							t.Errorf("%v %v: %v\n%s", s, sz, v, tree.Text())
						}
						if s == compiler.Smart {
							got[i] = got[i] || hasWavefront(t, tree, tiled)
							vec[i] = vec[i] || strings.Contains(tree.Text(), "mark vector")
						}
					}
				}
			})
		}
	})
	if d := cmp.Diff(wavefronts, kernelsWith(got)); d != "" {
		t.Errorf("kernels with a wavefront (-want +got):\n%s", d)
	}
	if d := cmp.Diff(vectorized, kernelsWith(vec)); d != "" {
		t.Errorf("kernels with vector point loops (-want +got):\n%s", d)
	}
}

// kernelsWith names the PolyBench kernels k for which has[k].
func kernelsWith(has []bool) []string {
	var names []string
	for i, k := range polybench.Kernels() {
		if has[i] {
			names = append(names, k.Name)
		}
	}
	return names
}

// hasWavefront reports whether one of the tiled bands of tree sits below
// a wavefront band: a band of one member that is not coincident, above a
// tile band whose first member is.
func hasWavefront(t *testing.T, tree scheduletree.Tree, tiled []scheduletree.Path) bool {
	t.Helper()
	for _, p := range tiled {
		up, ok := p.Parent()
		if !ok {
			continue
		}
		n, err := tree.At(up)
		if err != nil {
			t.Fatal(err)
		}
		if n.Kind() != scheduletree.KindBand || n.Band().Members() != 1 || n.Band().Coincident[0] {
			continue
		}
		tile, err := tree.At(p)
		if err != nil {
			t.Fatal(err)
		}
		if tile.Band().Coincident[0] {
			return true
		}
	}
	return false
}

// TestVectorizeCheck: the point loops are distributed only when the
// check accepts the tree; a refusal or a failing check (a limit) leaves
// them as they were, without an error.
func TestVectorizeCheck(t *testing.T) {
	tree, _ := kernelTree(t, "jacobi-2d", "smart")
	for _, tc := range []struct {
		name  string
		check func(scheduletree.Tree) (bool, error)
		want  bool
	}{
		{"accepted", func(scheduletree.Tree) (bool, error) { return true, nil }, true},
		{"refused", func(scheduletree.Tree) (bool, error) { return false, nil }, false},
		{"failed", func(scheduletree.Tree) (bool, error) { return false, errors.New("limit") }, false},
		{"no check", nil, false},
	} {
		got, _, err := tiling.Apply(tree, tiling.Policy{Sizes: []int64{32}, Check: tc.check})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if marked := strings.Count(got.Text(), "mark vector"); marked != map[bool]int{true: 2}[tc.want] {
			t.Errorf("%s: %d vector marks:\n%s", tc.name, marked, got.Text())
		}
	}
}
