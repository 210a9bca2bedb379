package ast_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// stencil3D is a 3-D stencil over a parametric cube, its band tiled three
// times (64, then 16, then 4), optionally skewed by time first.
func stencil3D(tb testing.TB, time bool) scheduletree.Tree {
	d := "[N] -> { S[i, j, k] : 1 <= i < N - 1 and 1 <= j < N - 1 and 1 <= k < N - 1 }"
	s := "{ S[i, j, k] -> [i, j, k] }"
	if time {
		d = "[T, N] -> { S[t, i, j, k] : 0 <= t < T and 1 <= i < N - 1 and 1 <= j < N - 1 and 1 <= k < N - 1 }"
		s = "{ S[t, i, j, k] -> [t, t + i, t + j, t + k] }"
	}
	m := mustUM(s)
	n := m.Maps()[0].Space().NOut()
	b := scheduletree.Band{Schedule: m, Permutable: true, Coincident: make([]bool, n)}
	tr, err := scheduletree.NewTree(scheduletree.NewDomain(mustUS(d), scheduletree.NewBand(b, nil)))
	if err != nil {
		tb.Fatal(err)
	}
	p := scheduletree.Path{0}
	for _, size := range []int64{64, 16, 4} {
		sizes := make([]int64, n)
		for i := range sizes {
			sizes[i] = size
		}
		if tr, err = tr.TileBand(p, sizes); err != nil {
			tb.Fatal(err)
		}
		p = p.Child(0)
	}
	return tr
}

// BenchmarkGenerateTiled3D generates the AST of a 3-D stencil tiled at
// three levels (12 loops).
func BenchmarkGenerateTiled3D(b *testing.B) {
	tr := stencil3D(b, false)
	for b.Loop() {
		if _, err := ast.Generate(tr, ast.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerateTiled3DTime is the same with a time dimension and a
// skew (16 loops, parallelogram tiles).
func BenchmarkGenerateTiled3DTime(b *testing.B) {
	tr := stencil3D(b, true)
	for b.Loop() {
		if _, err := ast.Generate(tr, ast.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTiled3D checks the benchmark's AST on a small cube.
func TestTiled3D(t *testing.T) {
	for _, time := range []bool{false, true} {
		tr := stencil3D(t, time)
		n, err := ast.Generate(tr, ast.Options{})
		if err != nil {
			t.Fatal(err)
		}
		vals := map[string]int64{"N": 11, "T": 3}
		want, err := expected(tr, tr.Domain(), vals)
		if err != nil {
			t.Fatal(err)
		}
		got, err := executed(n, vals, len(want)+10)
		if err != nil {
			t.Fatal(err)
		}
		if err := compareOrder(got, want); err != nil {
			t.Fatalf("time %v: %v\n%s", time, err, ast.PrintC(n, ast.PrintOptions{}))
		}
	}
}
