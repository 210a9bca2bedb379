package ast_test

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// orderCases exercise the separation of statements tied at a loop value
// (the rest of the schedule orders them), the merging of consecutive
// guards and the guards a loop makes redundant.
var orderCases = []struct {
	name string
	tree func(t *testing.T) scheduletree.Tree
	// ifs is the number of ifs the AST must have.
	ifs int
}{
	{name: "tie_first", ifs: 0, tree: func(t *testing.T) scheduletree.Tree {
		// S runs at c0 = 0, T's loop starts there; the sequence runs S
		// first: S, then T's loop.
		return newTree(t, dom("[N] -> { S[]; T[k] : 0 <= k < N }",
			band("{ S[] -> [0]; T[k] -> [k] }", seq(filter("{ S[] }", nil), filter("{ T[k] }", nil)))))
	}},
	{name: "tie_last", ifs: 2, tree: func(t *testing.T) scheduletree.Tree {
		// T first: S must run after T[0], so they share the loop (which
		// runs at 0 for S even when T is empty).
		return newTree(t, dom("[N] -> { S[]; T[k] : 0 <= k < N }",
			band("{ S[] -> [0]; T[k] -> [k] }", seq(filter("{ T[k] }", nil), filter("{ S[] }", nil)))))
	}},
	{name: "tie_end", ifs: 1, tree: func(t *testing.T) scheduletree.Tree {
		// S runs at T's last value, after it: T's loop, then S (tested
		// for N >= 1, which only its domain states).
		return newTree(t, dom("[N] -> { S[] : N >= 1; T[k] : 0 <= k < N }",
			band("[N] -> { S[] -> [N - 1]; T[k] -> [k] }", seq(filter("{ T[k] }", nil), filter("{ S[] }", nil)))))
	}},
	{name: "tie_member", ifs: 0, tree: func(t *testing.T) scheduletree.Tree {
		// Tied at member 0 (S at 0), ordered by member 1.
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }",
			band("[N] -> { S[i] -> [0, i]; T[i] -> [i, N + i] }", nil)))
	}},
	{name: "tie_scalars", ifs: 0, tree: func(t *testing.T) scheduletree.Tree {
		// Initializations before a 2-D nest, all at (0, 0) (deriche).
		return newTree(t, dom("[N] -> { A[]; B[]; C[i, j] : 0 <= i < N and 0 <= j < N }",
			band("{ A[] -> [0, 0]; B[] -> [0, 0]; C[i, j] -> [i, j] }",
				seq(filter("{ A[] }", nil), filter("{ B[] }", nil), filter("{ C[i, j] }", nil)))))
	}},
	{name: "merged_guards", ifs: 2, tree: func(t *testing.T) scheduletree.Tree {
		// S and T under the same condition: one if.
		return newTree(t, dom("[N, M] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N; U[i] : 0 <= i < M }",
			band("{ S[i] -> [i]; T[i] -> [i]; U[i] -> [i] }",
				seq(filter("{ S[i] }", nil), filter("{ T[i] }", nil), filter("{ U[i] }", nil)))))
	}},
	{name: "if_else", ifs: 1, tree: func(t *testing.T) scheduletree.Tree {
		// S and T split U's range: if/else.
		return newTree(t, dom("[N] -> { U[i] : 0 <= i < N; S[i] : 1 <= i < N; T[i] : i = 0 and N >= 1 }",
			band("{ U[i] -> [i]; S[i] -> [i]; T[i] -> [i] }",
				seq(filter("{ U[i] }", nil), filter("{ S[i] }", nil), filter("{ T[i] }", nil)))))
	}},
}

func TestOrderCases(t *testing.T) {
	for _, c := range orderCases {
		t.Run(c.name, func(t *testing.T) {
			tr := c.tree(t)
			n, err := ast.Generate(tr, ast.Options{})
			if err != nil {
				t.Fatal(err)
			}
			code := ast.PrintC(n, ast.PrintOptions{})
			checkGolden(t, "order_"+c.name+".c", code)
			if got := countIfs(n); got != c.ifs {
				t.Errorf("%d ifs, want %d:\n%s", got, c.ifs, code)
			}
			for _, vals := range []map[string]int64{{"N": 0, "M": 0}, {"N": 1, "M": 3}, {"N": 5, "M": 2}, {"N": 6, "M": 9}} {
				want, err := expected(tr, tr.Domain(), vals)
				if err != nil {
					t.Fatal(err)
				}
				got, err := executed(n, vals, 10*len(want)+100)
				if err != nil {
					t.Fatal(err)
				}
				if err := compareOrder(got, want); err != nil {
					t.Errorf("at %v: %v\n%s", vals, err, code)
				}
			}
		})
	}
}

func countIfs(n ast.Node) int {
	c := 0
	ast.Walk(n, func(x ast.Node) bool {
		if _, ok := x.(*ast.If); ok {
			c++
		}
		return true
	})
	return c
}

// TestSeparateGuards generates PolyBench's jacobi-2d tiled by 4 with the
// separate option on its tile band: no condition may be constant, and
// the code must run the instances in schedule order.
func TestSeparateGuards(t *testing.T) {
	for _, k := range polybench.Kernels() {
		if k.Name != "jacobi-2d" {
			continue
		}
		_, trees := polyBenchTrees(t, k, 4)
		for _, tr := range trees {
			if tr.name != "smart/tile4" {
				continue
			}
			x := separateTiles(t, tr.tree)
			n, err := ast.Generate(x, ast.Options{})
			if err != nil {
				t.Fatal(err)
			}
			code := ast.PrintC(n, ast.PrintOptions{})
			ast.Walk(n, func(x ast.Node) bool {
				if f, ok := x.(*ast.If); ok && f.Cond.Op == ast.OpInt {
					t.Errorf("constant condition %s:\n%s", f.Cond, code)
				}
				return true
			})
			if strings.Count(code, "if (n >= 12)") > 1 {
				t.Errorf("the full tiles' condition is tested more than once:\n%s", code)
			}
			vals := map[string]int64{"n": 13, "tsteps": 5}
			want, err := expected(x, x.Domain(), vals)
			if err != nil {
				t.Fatal(err)
			}
			got, err := executed(n, vals, len(want)+1)
			if err != nil {
				t.Fatal(err)
			}
			if err := compareOrder(got, want); err != nil {
				t.Errorf("%v\n%s", err, code)
			}
			return
		}
	}
	t.Fatal("no jacobi-2d smart/tile4 tree")
}

// separateTiles sets the separate option on every band directly above
// another band.
func separateTiles(t *testing.T, tr scheduletree.Tree) scheduletree.Tree {
	t.Helper()
	var paths []scheduletree.Path
	tr.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		c := n.Children()
		if n.Kind() == scheduletree.KindBand && len(c) == 1 && c[0] != nil && c[0].Kind() == scheduletree.KindBand {
			paths = append(paths, append(scheduletree.Path{}, p...))
		}
		return true
	})
	for _, p := range paths {
		n, err := tr.At(p)
		if err != nil {
			t.Fatal(err)
		}
		b := n.Band()
		b.Options = make([]scheduletree.Option, b.Members())
		for k := range b.Options {
			b.Options[k] = scheduletree.OptionSeparate
		}
		if tr, err = tr.SetBand(p, b); err != nil {
			t.Fatal(err)
		}
	}
	if len(paths) == 0 {
		t.Fatal("no tile band")
	}
	return tr
}
