package scheduler_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// postTree returns p's post-tiling fusion tree, the program it
// schedules (p with its cheap stages inlined, unless noInline) and that
// program's dataflow.
func postTree(t *testing.T, p *scop.Program, sizes []int64, noInline bool) (scheduletree.Tree, *scop.Program, *deps.Flow) {
	t.Helper()
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: compiler.Post, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageFuse, NoInline: noInline})
	if err != nil {
		t.Fatal(err)
	}
	f, err := deps.Dataflow(r.Program)
	if err != nil {
		t.Fatal(err)
	}
	return r.Fused, r.Program, f
}

func cProgram(t *testing.T, file, fn string) *scop.Program {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cparse.ParseFunc(filepath.Base(file), src, fn)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckFlowPostTrees: every post-tiling fusion tree of the fusion
// tests' programs, of Harris, unsharp mask and camera pipe, and of the
// PolyBench kernels, with and without inlining, passes the dataflow
// check.
func TestCheckFlowPostTrees(t *testing.T) {
	var progs []*scop.Program
	for _, name := range []string{"chain", "rowlast", "shared", "overlap", "dead", "liveout"} {
		progs = append(progs, cProgram(t, filepath.Join("..", "fusion", "testdata", name+".c"), name))
	}
	for _, name := range []string{"harris", "unsharp_mask", "camera_pipe"} {
		en, _ := polymage.Lookup(name)
		p, err := en.Build()
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	kernels := polybench.Kernels()
	if testing.Short() {
		kernels = kernels[:8]
	}
	for _, k := range kernels {
		p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			for _, noInline := range []bool{false, true} {
				tree, q, f := postTree(t, p, []int64{8, 13}, noInline)
				vs, err := scheduler.CheckFlow(tree, q, f)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range vs {
					t.Errorf("noInline %v: %v", noInline, v)
				}
			}
		})
	}
}

// TestCheckFlowPlanted: a chain's tree whose extension recomputes one
// instance too few of the last producer at each tile's end (one short of
// its overlap) is caught, with a read that has no source in its tile; so
// is the memory-based check's false alarm avoided on the right tree.
func TestCheckFlowPlanted(t *testing.T) {
	p := cProgram(t, filepath.Join("..", "fusion", "testdata", "chain.c"), "chain")
	tree, _, f := postTree(t, p, []int64{8}, true)
	short, err := presburger.ParseUnionMap("[n] -> { [o] -> S0[i] : i <= 8o + 11; [o] -> S1[i] : i <= 8o + 8 }")
	if err != nil {
		t.Fatal(err)
	}
	var at scheduletree.Path
	tree.Walk(func(path scheduletree.Path, n *scheduletree.Node) bool {
		if n.Kind() == scheduletree.KindExtension {
			at = append(scheduletree.Path{}, path...)
		}
		return at == nil
	})
	if at == nil {
		t.Fatal("no extension in the chain's tree")
	}
	n, err := tree.At(at)
	if err != nil {
		t.Fatal(err)
	}
	ext, err := n.Extension().Intersect(short)
	if err != nil {
		t.Fatal(err)
	}
	planted, err := tree.Replace(at, scheduletree.NewExtension(ext, n.Child(0)))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := scheduler.CheckFlow(planted, p, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("the planted extension, one short of its overlap, was not caught")
	}
	if v := vs[0]; v.Source != "S1" || v.Sink != "S2" || !strings.Contains(v.String(), "violated") {
		t.Errorf("violation %v", v)
	}
	if vs, err := scheduler.CheckFlow(tree, p, f); err != nil || len(vs) != 0 {
		t.Errorf("the right tree: %v %v", vs, err)
	}
}

// TestCheckFlowOverwrite: a is written twice; S1 reads the first value,
// S3 the second. The original order passes. Running S2 (the second
// write) before S1 keeps every read after an execution of its source,
// which the coverage check accepts, but S1 then reads S2's value: the
// overwrite is caught, naming S2.
func TestCheckFlowOverwrite(t *testing.T) {
	const src = `void ow(int n, float in[n], float out[n], float out2[n]) {
  float a[n];
  for (int i = 0; i < n; i++)
    a[i] = in[i];
  for (int i = 0; i < n; i++)
    out[i] = a[i];
  for (int i = 0; i < n; i++)
    a[i] = 2 * in[i];
  for (int i = 0; i < n; i++)
    out2[i] = a[i];
}`
	p, err := cparse.ParseFunc("ow.c", []byte(src), "ow")
	if err != nil {
		t.Fatal(err)
	}
	f, err := deps.Dataflow(p)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	if vs, err := scheduler.CheckFlow(tree, p, f); err != nil || len(vs) != 0 {
		t.Fatalf("the original order: %v %v", vs, err)
	}
	// The sequence's children: S0, S1, S2, S3; put S2 before S1.
	var at scheduletree.Path
	tree.Walk(func(path scheduletree.Path, n *scheduletree.Node) bool {
		if at == nil && n.Kind() == scheduletree.KindSequence {
			at = append(scheduletree.Path{}, path...)
		}
		return at == nil
	})
	n, err := tree.At(at)
	if err != nil {
		t.Fatal(err)
	}
	cs := n.Children()
	cs[1], cs[2] = cs[2], cs[1]
	planted, err := tree.Replace(at, scheduletree.NewSequence(cs...))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := scheduler.CheckFlow(planted, p, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 {
		t.Fatalf("%d violations, want 1: %v", len(vs), vs)
	}
	if v := vs[0]; v.Source != "S0" || v.Sink != "S1" || v.Overwriter != "S2" || !strings.Contains(v.String(), "an instance of S2 writes the element between them") {
		t.Errorf("violation %v", v)
	}
}
