package ast_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/internal/golden"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// Tree builders for the hand-written cases.

func dom(s string, child *scheduletree.Node) *scheduletree.Node {
	return scheduletree.NewDomain(mustUS(s), child)
}

func band(sched string, child *scheduletree.Node, opts ...scheduletree.Option) *scheduletree.Node {
	m := mustUM(sched)
	n := m.Maps()[0].Space().NOut()
	b := scheduletree.Band{Schedule: m, Permutable: true, Coincident: make([]bool, n), Options: opts}
	for i := range b.Coincident {
		b.Coincident[i] = true
	}
	return scheduletree.NewBand(b, child)
}

func filter(s string, child *scheduletree.Node) *scheduletree.Node {
	return scheduletree.NewFilter(mustUS(s), child)
}

func seq(children ...*scheduletree.Node) *scheduletree.Node {
	return scheduletree.NewSequence(children...)
}

func mark(name string, child *scheduletree.Node) *scheduletree.Node {
	return scheduletree.NewMark(name, child)
}

func newTree(t *testing.T, root *scheduletree.Node) scheduletree.Tree {
	t.Helper()
	tr, err := scheduletree.NewTree(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := scheduletree.Validate(tr); err != nil {
		t.Fatal(err)
	}
	return tr
}

func tile(t *testing.T, tr scheduletree.Tree, p scheduletree.Path, sizes ...int64) scheduletree.Tree {
	t.Helper()
	out, err := tr.TileBand(p, sizes)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func setOptions(t *testing.T, tr scheduletree.Tree, p scheduletree.Path, opts ...scheduletree.Option) scheduletree.Tree {
	t.Helper()
	n, err := tr.At(p)
	if err != nil {
		t.Fatal(err)
	}
	b := n.Band()
	b.Options = opts
	out, err := tr.SetBand(p, b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func paramSet(t *testing.T, s string) presburger.Set {
	t.Helper()
	p, err := presburger.ParseSet(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type goldenCase struct {
	name string
	tree func(t *testing.T) scheduletree.Tree
	opts func(t *testing.T) ast.Options
	// check runs the coverage check against the schedule map (not for
	// trees whose map differs from what is executed: skipped subtrees,
	// guards).
	check bool
	// extra are the instances outside the root domain (extension,
	// expansion) the check expects.
	extra string
}

var goldenCases = []goldenCase{
	{name: "band2d", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M }", band("{ S[i, j] -> [i, j] }", nil)))
	}},
	{name: "tiled2d", check: true, tree: func(t *testing.T) scheduletree.Tree {
		tr := newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }", band("{ S[i, j] -> [i, j] }", nil)))
		return tile(t, tr, scheduletree.Path{0}, 32, 32)
	}},
	{name: "triangular", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i, j] : 0 <= j <= i < N }", band("{ S[i, j] -> [i, j] }", nil)))
	}},
	{name: "strided", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N and i mod 3 = 1; T[i] : 0 <= i < N }",
			band("{ S[i] -> [i]; T[i] -> [2i + 1] }", nil)))
	}},
	{name: "minmax", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N, M] -> { S[i, j] : 0 <= i < N and i - 3 <= j <= i + 3 and 0 <= j < M }",
			band("{ S[i, j] -> [i, j] }", nil)))
	}},
	{name: "sequence", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N; T[i, j] : 0 <= i < N and 0 <= j <= i }",
			seq(filter("{ S[i] }", band("{ S[i] -> [i] }", nil)),
				filter("{ T[i, j] }", band("{ T[i, j] -> [i, j] }", nil)))))
	}},
	{name: "components", check: true, tree: func(t *testing.T) scheduletree.Tree {
		// One band, two statements with ordered ranges: two loops.
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }",
			band("[N] -> { S[i] -> [i]; T[i] -> [N + i] }", nil)))
	}},
	{name: "extension", check: true, extra: "[N] -> { S[i] : 0 <= i <= N }", tree: func(t *testing.T) scheduletree.Tree {
		// The producer S is recomputed per tile of T (with overlap).
		return newTree(t, dom("[N] -> { T[i] : 0 <= i < N }",
			band("{ T[i] -> [floor(i/32)] }",
				scheduletree.NewExtension(mustUM("[N] -> { [o] -> S[i] : 32o <= i <= 32o + 32 and 0 <= i <= N and 0 <= 32o < N }"),
					seq(filter("{ S[i] }", band("{ S[i] -> [i] }", nil)),
						filter("{ T[i] }", band("{ T[i] -> [i] }", nil)))))))
	}},
	{name: "skipped", tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }",
			seq(filter("{ S[i] }", mark("skipped", band("{ S[i] -> [i] }", nil))),
				filter("{ T[i] }", mark("kernel", band("{ T[i] -> [i] }", nil))))))
	}},
	{name: "unroll", check: true, tree: func(t *testing.T) scheduletree.Tree {
		tr := newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 3 }", band("{ S[i, j] -> [i, j] }", nil)))
		tr = tile(t, tr, scheduletree.Path{0}, 4, 4)
		return setOptions(t, tr, scheduletree.Path{0, 0}, scheduletree.OptionUnroll, scheduletree.OptionUnroll)
	}},
	{name: "separate", check: true, tree: func(t *testing.T) scheduletree.Tree {
		tr := newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }", band("{ S[i, j] -> [i, j] }", nil)))
		tr = tile(t, tr, scheduletree.Path{0}, 32, 32)
		return setOptions(t, tr, scheduletree.Path{0}, scheduletree.OptionSeparate, scheduletree.OptionSeparate)
	}},
	{name: "atomic", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }",
			band("[N] -> { S[i] -> [i]; T[i] -> [N + i] }", nil, scheduletree.OptionAtomic)))
	}},
	{name: "single_value", check: true, tree: func(t *testing.T) scheduletree.Tree {
		// Member 1 is degenerate (i + 1 - c0), member 2 too (j = 5).
		return newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and j = 5 }", band("{ S[i, j] -> [i, i + 1, j] }", nil)))
	}},
	{name: "mod_schedule", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N }", band("{ S[i] -> [floor(i/4), i mod 4] }", nil)))
	}},
	{name: "no_band", check: true, tree: func(t *testing.T) scheduletree.Tree {
		// A leaf below the domain: the instances in any order.
		return newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < i }", nil))
	}},
	{name: "parallel_mark", check: true, tree: func(t *testing.T) scheduletree.Tree {
		tr := newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }", mark("parallel", band("{ S[i, j] -> [i, j] }", nil))))
		return tile(t, tr, scheduletree.Path{0, 0}, 16, 16)
	}},
	{name: "parallel_option", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i] : 0 <= i < N }",
			seq(filter("{ S[i, j] }", band("{ S[i, j] -> [i, j] }", nil)),
				filter("{ T[i] }", mark("vector", band("{ T[i] -> [i] }", nil))))))
	}, opts: func(t *testing.T) ast.Options { return ast.Options{Parallel: true} }},
	{name: "guard", tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }",
			band("{ S[i, j] -> [i] }", scheduletree.NewGuard(paramSet(t, "[N] -> { [c] : c < N - 5 }"), band("{ S[i, j] -> [j] }", nil)))))
	}},
	{name: "context", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 10 and j <= N - 5 }", band("{ S[i, j] -> [i, j] }", nil)))
	}, opts: func(t *testing.T) ast.Options {
		return ast.Options{Context: paramSet(t, "[N] -> { : N >= 15 }")}
	}},
	{name: "promote", tree: func(t *testing.T) scheduletree.Tree {
		tr := newTree(t, dom("[N] -> { S[i] : 0 <= i < N }", band("{ S[i] -> [i] }", nil)))
		tr = tile(t, tr, scheduletree.Path{0}, 64)
		out, err := tr.InsertMark(scheduletree.Path{0, 0}, "promote[A]")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}, opts: func(t *testing.T) ast.Options {
		return ast.Options{Buffers: map[string]ast.Buffer{"A": {Elem: scop.F64, Shape: []ast.Expr{ast.Int(64), ast.Int(3)}}}}
	}},
	{name: "set", check: true, tree: func(t *testing.T) scheduletree.Tree {
		return newTree(t, dom("[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }",
			band("{ S[i] -> [i]; T[i] -> [i] }", scheduletree.NewSet(filter("{ T[i] }", nil), filter("{ S[i] }", nil)))))
	}},
	{name: "expansion", check: true, extra: "[N] -> { S[i] : 0 <= i < 2N }", tree: func(t *testing.T) scheduletree.Tree {
		// Groups of two instances scheduled as one.
		return newTree(t, dom("[N] -> { C[c] : 0 <= c < N }",
			band("{ C[c] -> [c] }", scheduletree.NewExpansion(mustUM("{ S[i] -> C[floor(i/2)] }"), mustUM("{ C[c] -> S[i] : 2c <= i <= 2c + 1 }"),
				band("{ S[i] -> [i] }", nil)))))
	}},
	{name: "skewed_tiles", check: true, tree: func(t *testing.T) scheduletree.Tree {
		// A 1-D stencil over time, skewed and tiled.
		tr := newTree(t, dom("[T, N] -> { S[t, i] : 0 <= t < T and 1 <= i < N - 1 }", band("{ S[t, i] -> [t, t + i] }", nil)))
		return tile(t, tr, scheduletree.Path{0}, 8, 8)
	}},
}

// TestGolden prints the AST of hand-written trees as C and compares it
// with testdata/NAME.c (go test -update rewrites them); where the tree's
// schedule map describes the execution, it also checks the instances.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			tr := c.tree(t)
			var opts ast.Options
			if c.opts != nil {
				opts = c.opts(t)
			}
			n, err := ast.Generate(tr, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name+".c", ast.PrintC(n, ast.PrintOptions{}))
			if !c.check {
				return
			}
			for _, vals := range []map[string]int64{{"N": 0, "M": 0, "T": 0}, {"N": 7, "M": 4, "T": 3}, {"N": 40, "M": 50, "T": 5}, {"N": 70, "M": 33, "T": 12}} {
				if ctx := opts.Context; ctx.Space().IsParams {
					if ok, _ := ctx.Contains([]int64{vals["N"]}); !ok {
						continue
					}
				}
				d := tr.Domain()
				if c.extra != "" {
					d = unionOf(t, d, mustUS(c.extra))
				}
				want, err := expected(tr, d, vals)
				if err != nil {
					t.Fatal(err)
				}
				got, err := executed(n, vals, 10*len(want)+100)
				if err != nil {
					t.Fatal(err)
				}
				if err := compareOrder(got, want); err != nil {
					t.Errorf("at %v: %v", vals, err)
				}
			}
		})
	}
}

func unionOf(t *testing.T, a, b presburger.UnionSet) presburger.UnionSet {
	t.Helper()
	u, err := a.Union(b)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestGoldenSkippedAndGuard checks the cases the schedule map does not
// describe by hand: the skipped statement never runs, the guard holds.
func TestGoldenSkippedAndGuard(t *testing.T) {
	for _, name := range []string{"skipped", "guard"} {
		var c goldenCase
		for _, x := range goldenCases {
			if x.name == name {
				c = x
			}
		}
		n, err := ast.Generate(c.tree(t), ast.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := executed(n, map[string]int64{"N": 9}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, g := range got {
			keys = append(keys, g.key())
		}
		all := strings.Join(keys, " ")
		switch name {
		case "skipped":
			if strings.Contains(all, "S[") || len(got) != 9 {
				t.Errorf("skipped: executed %s", all)
			}
		case "guard":
			// i < N - 5 = 4, all j.
			if len(got) != 4*9 || strings.Contains(all, "S[4 ") {
				t.Errorf("guard: executed %s", all)
			}
		}
	}
}

// checkGolden compares got with testdata/file (go test -update writes it).
func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", file), got)
}
