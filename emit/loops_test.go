package emit

import (
	"fmt"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
)

const marksSrc = `
void marks(int B0[16][32], int B1[16][32], int B2[16][32], int B3[16][32], int B4[16][32], int B5[16][32])
{
  int i, j, k;
  for (i = 0; i < 16; i++)
    for (j = 0; j < 32; j++)
      for (k = 0; k < 1; k++) {
        B0[i][j] = k;
        B1[i][j] = k;
        B2[i][j] = k;
        B3[i][j] = k;
        B4[i][j] = k;
        B5[i][j] = k;
      }
}
`

// marksAST runs the statements "Bs[i][j] = k" through loops with strides
// and negative bounds, where (i, j) identifies the loop iteration and k
// is an AST expression under test: every AST operator on negative
// values, stored for comparison with the AST interpreter's.
func marksAST() ast.Node {
	c0, c1 := ast.Var("c0"), ast.Var("c1")
	user := func(s int, k ast.Expr) ast.Node {
		i, j := ast.Div(ast.Add(c0, ast.Int(13)), 3), ast.Add(c1, ast.Int(9))
		return &ast.User{Stmt: fmt.Sprintf("S%d", s), Args: []ast.Expr{i, j, k}}
	}
	then := &ast.Block{Children: []ast.Node{
		user(0, ast.Mod(ast.Add(ast.Mul(7, c0), c1), 5)),
		user(1, ast.FloorDiv(ast.Add(ast.Mul(3, c0), c1), 4)),
		user(2, ast.FloorDiv(ast.Sub(c1, c0), 6)),
	}}
	els := &ast.Block{Children: []ast.Node{
		user(3, ast.Add(ast.CeilDiv(ast.Add(c0, c1), 4), ast.Mul(100, ast.CeilDiv(ast.Sub(c1, ast.Int(7)), 3)))),
		user(4, ast.Add(ast.Mod(c0, 8), ast.Mul(10, ast.Cmp(ast.OpLt, c1, ast.Int(0))),
			ast.Mul(100, ast.Max(c0, c1, ast.Int(-3))), ast.Mul(1000, ast.Min(c0, ast.Mul(-1, c1))))),
		user(5, ast.Add(ast.Mod(ast.Sub(c1, c0), 6), ast.Mul(10, ast.Or(ast.Cmp(ast.OpGt, c0, c1), ast.Cmp(ast.OpEq, c1, ast.Int(2)))),
			ast.Mul(100, ast.And(ast.Cmp(ast.OpGe, c0, ast.Int(0)), ast.Cmp(ast.OpLe, c1, ast.Int(3)))))),
	}}
	guard := ast.Or(
		ast.Cmp(ast.OpEq, ast.Mod(c0, 4), ast.Int(1)),
		ast.And(ast.Cmp(ast.OpGe, c1, ast.Int(0)), ast.Cmp(ast.OpLe, ast.FloorDiv(c0, 8), ast.Int(-1))))
	inner := &ast.For{Iter: "c1", Stride: 2,
		Lower: ast.Max(ast.Int(-9), ast.FloorDiv(c0, 4), ast.Sub(ast.Int(-20), c0)),
		Upper: ast.Min(ast.CeilDiv(ast.Add(c0, ast.Int(20)), 3), ast.Int(9)),
		Body:  &ast.If{Cond: guard, Then: then, Else: els}}
	return &ast.For{Iter: "c0", Lower: ast.Int(-13), Upper: ast.Int(17), Stride: 3, Parallel: true, Body: inner}
}

// TestLoopsAndExpressions runs marksAST emitted serially and in parallel
// and compares the arrays with the effect of the instances the AST
// interpreter visits.
func TestLoopsAndExpressions(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("marks.c", []byte(marksSrc), "marks")
	if err != nil {
		t.Fatal(err)
	}
	n := marksAST()
	params := map[string]int64{}
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneBufs(in)
	visits := 0
	err = ast.Run(n, params, ast.Visitor{User: func(stmt string, args []int64) error {
		visits++
		b := want["B"+stmt[1:]]
		off, ok := b.Offset(args[:2])
		if !ok {
			return fmt.Errorf("%s%v out of bounds", stmt, args)
		}
		b.Store(off, scop.IntValue(scop.I32, args[2]))
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if visits < 60 {
		t.Fatalf("the AST visits only %d instances", visits)
	}
	inFile := writeInput(t, p, in)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, p, n, m.opts)
			bin := tc.build(t, t.TempDir(), mod, p, params)
			for _, th := range []int{1, 2} {
				compareArgs(t, p, runHarness(t, bin, inFile, p, in, th), want, 0)
			}
		})
	}
}
