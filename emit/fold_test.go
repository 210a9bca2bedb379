package emit

import (
	"testing"

	"tilefuse/ast"
	"tilefuse/frontend/cparse"
	"tilefuse/scop"
	"tilefuse/scop/charness"
	"tilefuse/scop/refexec"
)

// ringSrc is Halide's "store_root + compute_at(y)" shape: a producer
// row per y, the consumer reading rows y and y+1.
const ringSrc = `
void ring(int n, float A[20][8], float B[19][8])
{
  int y, x;
  float P[20][8];
  for (y = 0; y <= n; y++)
    for (x = 0; x < 8; x++)
      P[y][x] = A[y][x] * 2.0f + 1.0f;
  for (y = 0; y < n; y++)
    for (x = 0; x < 8; x++)
      B[y][x] = P[y][x] + P[y + 1][x];
}
`

// ringAST computes P's rows just in time into a ring of fold rows: in
// parallel tiles of tile rows (P's origin at the tile's first row), or
// in one pass when tile is 0 (no origin).
func ringAST(fold, tile int64) ast.Node {
	y, x, n := ast.Var("y"), ast.Var("x"), ast.Var("n")
	row := func(stmt string, r ast.Expr) ast.Node {
		return &ast.For{Iter: "x", Lower: ast.Int(0), Upper: ast.Int(7), Stride: 1,
			Body: &ast.User{Stmt: stmt, Args: []ast.Expr{r, x}}}
	}
	alloc := &ast.Alloc{Array: "P", Elem: scop.F32, Shape: []ast.Expr{ast.Int(fold), ast.Int(8)}, Fold: []int64{fold, 0}}
	lo, hi := ast.Expr(ast.Int(0)), ast.Sub(n, ast.Int(1))
	if tile > 0 {
		lo = ast.Mul(tile, ast.Var("c"))
		hi = ast.Min(ast.Add(lo, ast.Int(tile-1)), hi)
		alloc.Origin = []ast.Expr{lo, ast.Int(0)}
	}
	body := &ast.Mark{Name: "promote[P]", Body: &ast.Block{Children: []ast.Node{
		alloc,
		row("S0", lo),
		&ast.For{Iter: "y", Lower: lo, Upper: hi, Stride: 1, Body: &ast.Block{Children: []ast.Node{
			row("S0", ast.Add(y, ast.Int(1))),
			row("S1", y),
		}}},
		&ast.Free{Array: "P"},
	}}}
	if tile == 0 {
		return body
	}
	return &ast.For{Iter: "c", Lower: ast.Int(0), Upper: ast.FloorDiv(ast.Sub(n, ast.Int(1)), tile), Stride: 1, Parallel: true, Body: body}
}

// TestFoldedBuffer emits the ring ASTs, builds and runs them on one and
// two threads: B must be the reference's. A ring of a power of two is
// indexed with an and, another with urem.
func TestFoldedBuffer(t *testing.T) {
	tc := needTools(t)
	p, err := cparse.ParseFunc("ring.c", []byte(ringSrc), "ring")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 11}
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := cloneBufs(in)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	inFile := writeInput(t, p, in)
	for _, c := range []struct {
		name       string
		fold, tile int64
		ir         string
	}{
		{"fold 2", 2, 0, "= and i64 "},
		{"fold 3", 3, 0, "= urem i64 "},
		{"fold 2, tiles of 4", 2, 4, "= and i64 "},
		{"fold 3, tiles of 5", 3, 5, "= urem i64 "},
	} {
		for _, m := range modes[:2] {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				mod := tc.emitVerified(t, p, ringAST(c.fold, c.tile), m.opts)
				checkIR(t, mod.IR, c.ir)
				bin := tc.build(t, t.TempDir(), mod, p, params)
				for _, th := range []int{1, 2} {
					got := runHarness(t, bin, inFile, p, in, th)
					compareArgs(t, p, got, want, 0, "B")
				}
			})
		}
	}
}
