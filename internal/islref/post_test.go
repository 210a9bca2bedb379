//go:build isl && cgo

package islref

import (
	"context"
	"os/exec"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/trace"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// TestPostTreesVsISL: isl reads every post-tiling fusion tree's YAML
// (extension nodes, promote marks), and isl's AST for it runs exactly
// the instances, in the same order, as tilefuse's AST of the same tree.
// isl does not know the "skipped" mark, so the hidden subtrees are
// removed from the tree isl gets (their instances run in no filter).
func TestPostTreesVsISL(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	type prog struct {
		name   string
		p      *scop.Program
		params map[string]int64
	}
	var progs []prog
	for _, name := range []string{"harris", "unsharp_mask", "bilateral_grid", "camera_pipe"} {
		en, _ := polymage.Lookup(name)
		p, err := en.Build()
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{name, p, en.Small})
	}
	for _, k := range polybench.Kernels() {
		p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{k.Name, p, k.Sizes(polybench.Mini)})
	}
	for _, pr := range progs {
		t.Run(pr.name, func(t *testing.T) {
			t.Parallel()
			r, err := compiler.Compile(context.Background(), pr.p, compiler.Options{Strategy: compiler.Post, Tile: tiling.Policy{Sizes: []int64{4, 7}}, Stop: compiler.StageAST})
			if err != nil {
				t.Fatal(err)
			}
			ours := astTrace(t, r.AST, pr.params)
			tr := withoutSkipped(t, r.Fused)
			y, err := scheduletree.MarshalYAML(tr)
			if err != nil {
				t.Fatal(err)
			}
			code, err := ASTFromYAML(string(y))
			if err != nil {
				t.Fatalf("isl cannot read the tree: %v\n%s", err, y)
			}
			got, err := trace.RunC(code, pr.params, arityOf(ours))
			if err != nil {
				t.Fatalf("%v\n%s", err, code)
			}
			want := make([]trace.Timed, len(ours))
			for i, in := range ours {
				want[i] = trace.Timed{Instance: in, Time: []int64{int64(i)}}
			}
			if err := trace.Compare(got, want); err != nil {
				t.Errorf("%v\ntree:\n%s", err, y)
			}
		})
	}
}

// astTrace runs tilefuse's AST and lists the instances in order.
func astTrace(t *testing.T, n ast.Node, params map[string]int64) []trace.Instance {
	t.Helper()
	var out []trace.Instance
	err := ast.Run(n, params, ast.Visitor{User: func(stmt string, args []int64) error {
		out = append(out, trace.Instance{Stmt: stmt, Iter: append([]int64(nil), args...)})
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func arityOf(ins []trace.Instance) map[string]int {
	m := map[string]int{}
	for _, in := range ins {
		m[in.Stmt] = len(in.Iter)
	}
	return m
}

// withoutSkipped removes the filters whose child is a "skipped" mark.
func withoutSkipped(t *testing.T, tr scheduletree.Tree) scheduletree.Tree {
	t.Helper()
	for {
		var at scheduletree.Path
		tr.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
			if at == nil && n.Kind() == scheduletree.KindFilter && n.Child(0).Kind() == scheduletree.KindMark && n.Child(0).Mark() == scheduletree.MarkSkipped {
				at = append(scheduletree.Path{}, p...)
			}
			return at == nil
		})
		if at == nil {
			return tr
		}
		var err error
		if tr, err = tr.DeleteChild(at); err != nil {
			t.Fatal(err)
		}
	}
}
