package ast_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

var (
	c0, c1, n = ast.Var("c0"), ast.Var("c1"), ast.Var("N")
)

// TestExprStringAndEval checks the C text of expressions and their
// values (with negative operands for the divisions), through Eval and
// through the compiled form.
func TestExprStringAndEval(t *testing.T) {
	env := map[string]int64{"c0": -7, "c1": 5, "N": 10}
	tests := []struct {
		e    ast.Expr
		text string
		val  int64
	}{
		{ast.Add(ast.Mul(32, c0), ast.Int(31)), "32 * c0 + 31", -193},
		{ast.Sub(n, ast.Int(1)), "N - 1", 9},
		{ast.Sub(n, c0), "N - c0", 17},
		{ast.Mul(-1, c0), "-c0", 7},
		{ast.Add(ast.Int(2), ast.Int(3)), "5", 5},
		{ast.FloorDiv(c0, 2), "floord(c0, 2)", -4},
		{ast.CeilDiv(c0, 2), "ceild(c0, 2)", -3},
		{ast.Mod(c0, 3), "floormod(c0, 3)", 2},
		{ast.Div(ast.Sub(c0, ast.Int(1)), 2), "(c0 - 1) / 2", -4},
		{ast.Min(c0, c1, n), "min(min(c0, c1), N)", -7},
		{ast.Max(ast.Int(3), c1, ast.Int(4)), "max(4, c1)", 5},
		{ast.Max(c1, c1), "c1", 5},
		{ast.Mul(2, ast.Add(c0, c1)), "2 * c0 + 2 * c1", -4},
		{ast.Mul(3, ast.FloorDiv(ast.Add(c0, n), 4)), "3 * floord(c0 + N, 4)", 0},
		{ast.Cmp(ast.OpLe, c0, ast.Sub(n, ast.Int(1))), "c0 <= N - 1", 1},
		{ast.Cmp(ast.OpEq, ast.Mod(ast.Add(c0, ast.Int(1)), 2), ast.Int(0)), "(c0 + 1) % 2 == 0", 1},
		{ast.And(ast.Cmp(ast.OpGe, c0, ast.Int(0)), ast.Cmp(ast.OpLt, c1, n)), "c0 >= 0 && c1 < N", 0},
		{ast.Or(ast.And(ast.Cmp(ast.OpGe, c0, ast.Int(0)), ast.Cmp(ast.OpLt, c1, n)), ast.Cmp(ast.OpGt, n, ast.Int(3))), "(c0 >= 0 && c1 < N) || N > 3", 1},
		{ast.And(ast.Int(1), ast.Cmp(ast.OpGt, n, ast.Int(3))), "N > 3", 1},
		{ast.Or(ast.Int(1), ast.Cmp(ast.OpGt, n, ast.Int(3))), "1", 1},
		{ast.Mul(-2, ast.FloorDiv(c0, 2)), "-2 * floord(c0, 2)", 8},
	}
	slots := map[string]int{"c0": 0, "c1": 1, "N": 2}
	vals := []int64{-7, 5, 10}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.text, tc.e.String()); diff != "" {
			t.Errorf("text (-want +got):\n%s", diff)
		}
		v, err := tc.e.Eval(env)
		if err != nil || v != tc.val {
			t.Errorf("%s = %d, %v; want %d", tc.text, v, err, tc.val)
		}
		f, err := ast.CompileExpr(tc.e, slots)
		if err != nil {
			t.Fatal(err)
		}
		if got := f(vals); got != tc.val {
			t.Errorf("compiled %s = %d, want %d", tc.text, got, tc.val)
		}
	}
	if _, err := ast.Var("x").Eval(env); err == nil {
		t.Error("Eval of an unknown name succeeded")
	}
}

// TestPrintNodes covers the printer's statements: else chains, blocks in
// marks, buffers (a scalar one is a local variable, not freed), pragmas
// and "<" upper bounds.
func TestPrintNodes(t *testing.T) {
	cond := func(v int64) ast.Expr { return ast.Cmp(ast.OpEq, c0, ast.Int(v)) }
	call := func(name string) ast.Node { return &ast.User{Stmt: name, Args: []ast.Expr{c0}} }
	tree := &ast.For{Iter: "c0", Lower: ast.Int(0), Upper: ast.Sub(n, ast.Int(1)), Stride: 1, Parallel: true, Body: &ast.Block{Children: []ast.Node{
		&ast.If{Cond: cond(0), Then: call("A"), Else: &ast.If{Cond: cond(1), Then: call("B"), Else: call("C")}},
		&ast.Mark{Name: "promote[T]", Body: &ast.Block{Children: []ast.Node{
			&ast.Alloc{Array: "T", Elem: scop.F64, Shape: []ast.Expr{ast.Int(4), n}},
			&ast.Alloc{Array: "s", Elem: scop.F32},
			&ast.For{Iter: "c1", Lower: c0, Upper: ast.Int(-1), Stride: 2, Vector: true, Body: &ast.User{Stmt: "D", Args: []ast.Expr{c0, c1}}},
			&ast.Free{Array: "s"},
			&ast.Free{Array: "T"},
		}}},
	}}}
	want := `#pragma omp parallel for
for (int c0 = 0; c0 < N; c0 += 1) {
  if (c0 == 0) {
    A(c0);
  } else if (c0 == 1) {
    B(c0);
  } else {
    C(c0);
  }
  // promote[T]
  {
    double (*T)[N] = malloc(sizeof(double) * (4) * (N));
    float s;
    #pragma omp simd
    for (int c1 = c0; c1 < 0; c1 += 2)
      D(c0, c1);
    free(T);
  }
}
`
	if diff := cmp.Diff(want, ast.PrintC(tree, ast.PrintOptions{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Run sees the same instances.
	var got []string
	err := ast.Run(tree, map[string]int64{"N": 3}, ast.Visitor{User: func(s string, args []int64) error {
		got = append(got, s)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"A", "B", "C"}, got); diff != "" {
		t.Errorf("Run (-want +got):\n%s", diff)
	}
	renamed := ast.RenameIterators(tree, func(s string) string { return "t" + s })
	if s := ast.PrintC(renamed, ast.PrintOptions{}); !cmp.Equal(true, len(s) > 0 && !containsWord(s, "c1") && containsWord(s, "tc1")) {
		t.Errorf("RenameIterators left c1:\n%s", s)
	}
}

func containsWord(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] == w && (i == 0 || !isIdent(s[i-1])) && (i+len(w) == len(s) || !isIdent(s[i+len(w)])) {
			return true
		}
	}
	return false
}

func isIdent(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
