package emit

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
)

// stripPipeline has stages that divide the innermost coordinate x by
// constants: an upsampling select on x%2 with reads at x/2 and (x+1)/2,
// a read at (x+y)/2 (the rest of the division depends on the outer
// coordinate), a quarter-pixel (3x+1)/4 and thirds x/3 and (x-7)%3, each
// over x in [3, N+3), so N's parity moves where the last whole strip
// ends; and floor halving of i16 data.
func stripPipeline(t *testing.T) *scop.Program {
	t.Helper()
	p := dsl.NewPipeline("strips")
	N := p.Param("N")
	p.Assume(N.Ge(4))
	y, x := p.Var("y"), p.Var("x")
	in := p.Input("in", dsl.I16, 4, N.Add(8))
	dims := []dsl.Dim{y.In(0, 4), x.In(3, N.Add(3))}
	up := p.Func("up", dsl.I16, dims...)
	up.Define(dsl.Select(x.Mod(2).Eq(0), in.At(y, x.Div(2)), dsl.Add(in.At(y, x.Add(1).Div(2)), in.At(y, x.Add(y).Div(2))).Div(2)))
	quarter := p.Func("quarter", dsl.I32, dims...)
	quarter.Define(dsl.Add(in.At(y, x.Mul(3).Add(1).Div(4)).Cast(dsl.I32), x.Mul(3).Add(1).Mod(4).Mul(1000)))
	third := p.Func("third", dsl.I32, dims...)
	third.Define(dsl.Add(in.At(y, x.Div(3)).Cast(dsl.I32), x.Sub(7).Mod(3).Mul(1000)))
	p.Output(up)
	p.Output(quarter)
	p.Output(third)
	prog, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestStripMinedLoops: the innermost loops of stripPipeline are
// strip-mined (by 2, 4 and 3), and the program computes the reference
// executor's arrays bit for bit at extents of every residue.
func TestStripMinedLoops(t *testing.T) {
	tc := needTools(t)
	p := stripPipeline(t)
	n := originalAST(t, p)
	var loops []*ast.For
	ast.Walk(n, func(m ast.Node) bool {
		if f, ok := m.(*ast.For); ok && f.Stride == 1 {
			loops = append(loops, f)
		}
		return true
	})
	e := &emitter{p: p}
	var got []int64
	for _, f := range loops {
		if k := (&fnState{e: e}).stripLength(f); k > 1 {
			got = append(got, k)
		}
	}
	if want := []int64{2, 4, 3}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("strip lengths %v, want %v", got, want)
	}
	for _, m := range modes[:2] {
		mod := tc.emitVerified(t, p, n, m.opts)
		if c := len(regexp.MustCompile(`(?m)^c1_q\.body[.0-9]*:`).FindAllString(mod.IR, -1)); c != 3 {
			t.Errorf("%s: %d strip-mined loops in the IR, want 3", m.name, c)
		}
		for _, size := range []int64{4, 5, 6, 7, 13} {
			t.Run(fmt.Sprintf("%s/N=%d", m.name, size), func(t *testing.T) {
				runChecked(t, tc, p, mod, map[string]int64{"N": size})
			})
		}
	}
}

// TestStridedLoops: a pyramid's parity cases, even x reading x/2 and odd
// x reading (x-1)/2 and (x+1)/2, each in its own loop of stride 2 (as
// post-tiling fusion's trees give them), run over their iteration count
// with the divisions affine in it, and compute the reference's values at
// extents of both parities.
func TestStridedLoops(t *testing.T) {
	tc := needTools(t)
	pl := dsl.NewPipeline("parity")
	N := pl.Param("N")
	pl.Assume(N.Ge(4))
	y, x := pl.Var("y"), pl.Var("x")
	in := pl.Input("in", dsl.F32, 4, N.Add(8))
	f := pl.Func("f", dsl.F32, y.In(0, 4), x.In(3, N.Add(3)))
	f.Define(dsl.When(x.Mod(2).Eq(0), in.At(y, x.Div(2))), dsl.Add(in.At(y, x.Sub(1).Div(2)), in.At(y, x.Add(1).Div(2))))
	pl.Output(f)
	p, err := pl.Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Stmts) != 2 {
		t.Fatalf("%d statements, want the two parity cases", len(p.Stmts))
	}
	dom, err := p.Stmts[0].Domain.FixParams(map[string]int64{"N": 10})
	if err != nil {
		t.Fatal(err)
	}
	even, odd := p.Stmts[0].Name, p.Stmts[1].Name
	if in4, err := dom.Contains([]int64{0, 4}); err != nil || !in4 {
		even, odd = odd, even
	}
	c0, c1 := ast.Var("c0"), ast.Var("c1")
	loop := func(stmt string, from int64) ast.Node {
		return &ast.For{Iter: "c1", Lower: ast.Int(from), Upper: ast.Add(ast.Var("N"), ast.Int(2)), Stride: 2,
			Body: &ast.User{Stmt: stmt, Args: []ast.Expr{c0, c1}}}
	}
	n := &ast.For{Iter: "c0", Lower: ast.Int(0), Upper: ast.Int(3), Stride: 1, Parallel: true,
		Body: &ast.Block{Children: []ast.Node{loop(even, 4), loop(odd, 3)}}}
	for _, m := range modes[:2] {
		mod := tc.emitVerified(t, p, n, m.opts)
		if c := len(regexp.MustCompile(`(?m)^c1_t\.body[.0-9]*:`).FindAllString(mod.IR, -1)); c != 2 {
			t.Errorf("%s: %d loops over their iteration count in the IR, want 2", m.name, c)
		}
		for _, size := range []int64{4, 5, 8, 13} {
			t.Run(fmt.Sprintf("%s/N=%d", m.name, size), func(t *testing.T) {
				runChecked(t, tc, p, mod, map[string]int64{"N": size})
			})
		}
	}
}
