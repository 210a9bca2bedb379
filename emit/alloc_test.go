package emit

import (
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// rowsSrc recomputes the row buffer T and the scalar s for every row i:
// in the original program T and s carry dependences between rows; with
// both privatized per row (Alloc inside the row loop) the rows are
// independent.
const rowsSrc = `
void rows(int n, double A[32][32], double B[32][32], double T[32])
{
  int i, j;
  double s;
  for (i = 0; i < n; i++) {
    s = A[i][0];
    for (j = 0; j < n; j++)
      T[j] = A[i][j] * 2.0 + s;
    for (j = 0; j < n; j++)
      B[i][j] = T[j] + T[n - 1 - j];
  }
}
`

// rowsAST is the hand-built AST: a parallel row loop whose body
// allocates T (n elements) and s, runs the row's statements with vector
// inner loops, and frees the buffers.
func rowsAST() ast.Node { return rowsASTWith(ast.Var("n")) }

// rowsASTWith is rowsAST with T of the given extent.
func rowsASTWith(extent ast.Expr) ast.Node {
	c0, c1, n := ast.Var("c0"), ast.Var("c1"), ast.Var("n")
	inner := func(stmt string) ast.Node {
		return &ast.For{Iter: "c1", Lower: ast.Int(0), Upper: ast.Sub(n, ast.Int(1)), Stride: 1, Vector: true,
			Body: &ast.User{Stmt: stmt, Args: []ast.Expr{c0, c1}}}
	}
	return &ast.For{Iter: "c0", Lower: ast.Int(0), Upper: ast.Sub(n, ast.Int(1)), Stride: 1, Parallel: true,
		Body: &ast.Mark{Name: "promote[T]", Body: &ast.Block{Children: []ast.Node{
			&ast.Alloc{Array: "T", Elem: scop.F64, Shape: []ast.Expr{extent}},
			&ast.Alloc{Array: "s", Elem: scop.F64},
			&ast.User{Stmt: "S0", Args: []ast.Expr{c0}},
			inner("S1"),
			inner("S2"),
			&ast.Free{Array: "s"},
			&ast.Free{Array: "T"},
		}}}}
}

// TestAllocInParallelLoop runs the hand-built AST with per-row buffers,
// serially and on one and two threads: B must equal the reference's (T,
// never written through its argument, keeps its input).
func TestAllocInParallelLoop(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("rows.c", []byte(rowsSrc), "rows")
	if err != nil {
		t.Fatal(err)
	}
	n := rowsAST()
	params := map[string]int64{"n": 20}
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneBufs(in)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	want["T"] = in["T"]
	inFile := writeInput(t, p, in)
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, p, n, m.opts)
			if m.opts.Parallel {
				// The buffer, sized at run time, is the thread's: grown
				// in the outlined row loop when a row needs more, freed
				// once after it.
				checkIR(t, mod.IR,
					"define internal void @rows.omp_fn.0(i8* %ctx)",
					"c0.body:",
					"T.grow:",
					"call i8* @malloc(",
					"!llvm.access.group",
					"!llvm.loop",
					"call void @free(")
			}
			bin := tc.build(t, t.TempDir(), mod, p, params)
			for _, th := range []int{1, 2} {
				got := runHarness(t, bin, inFile, p, in, th)
				compareArgs(t, p, got, want, 0)
			}
		})
	}
}

// TestLargeBufferOncePerThread: a tile-local buffer of constant size too
// large for the stack frame (300,000 doubles, 2.4 MB, over
// maxStackBuffers) is allocated once per thread in the outlined
// function's entry block and freed before it returns, not in every row;
// B is still the reference's.
func TestLargeBufferOncePerThread(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("rows.c", []byte(rowsSrc), "rows")
	if err != nil {
		t.Fatal(err)
	}
	n := rowsASTWith(ast.Int(300000))
	params := map[string]int64{"n": 20}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, p, n, m.opts)
			checkIR(t, mod.IR, rowsFn(m.opts), "entry:", "call i8* @malloc(i64 2400000)", "c0.body:", "NOT = call i8* @malloc(i64 %", "call void @free(", "ret void")
			runChecked(t, tc, p, mod, params, "T")
		})
	}
}

// rowsFn names the function that runs the rows program's row loop: the
// program's own, or the parallel region it is outlined into.
func rowsFn(o Options) string {
	if o.Parallel {
		return "@rows.omp_fn.0("
	}
	return "@rows("
}
