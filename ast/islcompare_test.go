//go:build isl && cgo

package ast_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// islCounts are the loops, ifs (an if with an else counts once, as isl
// counts) and statement copies of one AST.
type islCounts struct{ loops, ifs, stmts int }

func (c *islCounts) add(d islCounts) {
	c.loops += d.loops
	c.ifs += d.ifs
	c.stmts += d.stmts
}

func countAST(n ast.Node) islCounts {
	var c islCounts
	ast.Walk(n, func(x ast.Node) bool {
		switch x.(type) {
		case *ast.For:
			c.loops++
		case *ast.If:
			c.ifs++
		case *ast.User:
			c.stmts++
		}
		return true
	})
	return c
}

// islCompared is one tree's counts on both sides, with both codes.
type islCompared struct {
	kernel, tree     string
	ours, isl        islCounts
	ourCode, islCode string
	// Time spent generating each AST, and checking ours.
	ourTime, islTime, checkTime time.Duration
	// replayed: isl's AST came from islSlowFile (no isl time).
	replayed bool
}

// TestASTCompareISL generates the AST of every PolyBench kernel's trees
// (original order, min, smart and max fusion, each as is and tiled by 4
// and by 32) with tilefuse and with isl (through the tree's isl YAML),
// logs the loops, ifs and statement copies of both, and fails if
// tilefuse has more ifs than isl in total. It also runs tilefuse's AST
// with small parameter values and checks that it executes the tree's
// instances in schedule order.
func TestASTCompareISL(t *testing.T) {
	var mu sync.Mutex
	var all []islCompared
	t.Run("kernels", func(t *testing.T) {
		for _, k := range polybench.Kernels() {
			t.Run(k.Name, func(t *testing.T) {
				t.Parallel()
				_, trees := polyBenchTrees(t, k, 4, 32)
				params := smallParams(k)
				for _, tr := range trees {
					t.Run(tr.name, func(t *testing.T) {
						r := compareWithISL(t, tr.tree, params)
						r.kernel, r.tree = k.Name, tr.name
						mu.Lock()
						all = append(all, r)
						mu.Unlock()
					})
				}
			})
		}
	})
	if len(all) == 0 {
		t.Fatal("no tree compared")
	}
	saveISLSlow(t)

	// Totals by variant (fusion mode, tiling) and overall.
	family := func(r islCompared) string {
		mode, tiling, _ := strings.Cut(r.tree, "/")
		if tiling == "" {
			tiling = "untiled"
		}
		return fmt.Sprintf("%-8s %-7s", mode, tiling)
	}
	type sums struct {
		trees              int
		ours, isl          islCounts
		ourT, islT, checkT time.Duration
	}
	byFamily := map[string]*sums{}
	var total sums
	for _, r := range all {
		f := byFamily[family(r)]
		if f == nil {
			f = &sums{}
			byFamily[family(r)] = f
		}
		for _, s := range []*sums{f, &total} {
			s.trees++
			s.ours.add(r.ours)
			s.isl.add(r.isl)
			s.ourT += r.ourTime
			s.islT += r.islTime
			s.checkT += r.checkTime
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-16s %5s | %23s | %23s | %21s\n", "trees", "count", "tilefuse loops/ifs/stmts", "isl loops/ifs/stmts", "time tilefuse/isl/run")
	secs := func(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }
	row := func(name string, s *sums) {
		fmt.Fprintf(&b, "%-16s %5d | %7d %7d %7d | %7d %7d %7d | %6s %6s %6s\n", name, s.trees, s.ours.loops, s.ours.ifs, s.ours.stmts, s.isl.loops, s.isl.ifs, s.isl.stmts, secs(s.ourT), secs(s.islT), secs(s.checkT))
	}
	names := make([]string, 0, len(byFamily))
	for n := range byFamily {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		row(n, byFamily[n])
	}
	row("total", &total)
	fmt.Fprintf(&b, "isl's AST of %d trees replayed from %s (isl time not counted)\n", islSlow.hits, islSlowFile)

	// The trees where tilefuse has the most ifs more than isl.
	slices.SortFunc(all, func(a, b islCompared) int {
		return cmp.Or(cmp.Compare(b.ours.ifs-b.isl.ifs, a.ours.ifs-a.isl.ifs), cmp.Compare(a.kernel, b.kernel), cmp.Compare(a.tree, b.tree))
	})
	more, fewer := 0, 0
	for _, r := range all {
		switch {
		case r.ours.ifs > r.isl.ifs:
			more++
		case r.ours.ifs < r.isl.ifs:
			fewer++
		}
	}
	fmt.Fprintf(&b, "\ntrees with more ifs than isl: %d, with fewer: %d, of %d\n", more, fewer, len(all))
	for i, r := range all[:min(5, len(all))] {
		if r.ours.ifs <= r.isl.ifs {
			break
		}
		fmt.Fprintf(&b, "%d. %s %s: tilefuse %d ifs (%d loops, %d stmts), isl %d ifs (%d loops, %d stmts)\n",
			i+1, r.kernel, r.tree, r.ours.ifs, r.ours.loops, r.ours.stmts, r.isl.ifs, r.isl.loops, r.isl.stmts)
	}
	// The worst tree of each kernel, for variety; the code of the worst
	// five of them on both sides.
	fmt.Fprintf(&b, "worst tree of each kernel with more ifs than isl:\n")
	seen := map[string]bool{}
	var worst []islCompared
	for _, r := range all {
		if r.ours.ifs > r.isl.ifs && !seen[r.kernel] {
			seen[r.kernel] = true
			worst = append(worst, r)
			fmt.Fprintf(&b, "  %-14s %-12s tilefuse %3d ifs %3d loops %3d stmts, isl %3d ifs %3d loops %3d stmts\n",
				r.kernel, r.tree, r.ours.ifs, r.ours.loops, r.ours.stmts, r.isl.ifs, r.isl.loops, r.isl.stmts)
		}
	}
	t.Log(b.String())
	for _, r := range worst[:min(5, len(worst))] {
		t.Logf("%s %s, tilefuse:\n%s\nisl:\n%s", r.kernel, r.tree, r.ourCode, r.islCode)
	}
	if total.ours.ifs > total.isl.ifs {
		t.Errorf("tilefuse generates %d ifs in total, isl %d", total.ours.ifs, total.isl.ifs)
	}
}

// smallParams fixes the kernel's parameters to its MINI sizes capped at
// 6: enough for a full and a partial tile of 4, few enough instances to
// enumerate them all quickly (heat-3d has 512,000 at 10).
func smallParams(k polybench.Kernel) map[string]int64 {
	params := map[string]int64{}
	for name, v := range k.Sizes(polybench.Mini) {
		params[name] = min(v, 6)
	}
	return params
}

// compareWithISL generates tr's AST with tilefuse and with isl, and
// checks tilefuse's by running it at params.
func compareWithISL(t *testing.T, tr scheduletree.Tree, params map[string]int64) islCompared {
	t.Helper()
	t0 := time.Now()
	n, err := ast.Generate(tr, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	y, err := scheduletree.MarshalYAML(tr)
	if err != nil {
		t.Fatal(err)
	}
	code, st, islTime, replayed := islAST(t, string(y))
	t2 := time.Now()
	r := islCompared{
		ours:     countAST(n),
		isl:      islCounts{st.Loops, st.Ifs, st.Stmts},
		ourCode:  ast.PrintC(n, ast.PrintOptions{}),
		islCode:  code,
		ourTime:  t1.Sub(t0),
		islTime:  islTime,
		replayed: replayed,
	}
	want, err := expected(tr, tr.Domain(), params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := executed(n, params, len(want)+1)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.ourCode)
	}
	if err := compareOrder(got, want); err != nil {
		t.Errorf("at %v: %v\n%s", params, err, r.ourCode)
	}
	r.checkTime = time.Since(t2)
	t.Logf("tilefuse %+v in %v, isl %+v in %v", r.ours, r.ourTime, r.isl, r.islTime)
	return r
}
