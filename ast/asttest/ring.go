// Package asttest holds hand-built ASTs that the tests of several
// packages run (the interpreter, the C printer, the emitter), so that
// each checks the same program its own way.
package asttest

import (
	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scop"
)

// RingSrc is Halide's "store_root + compute_at(y)" shape: a producer
// row per y, the consumer reading rows y and y+1.
const RingSrc = `
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

// Ring computes RingSrc's P rows just in time into a ring of fold rows:
// in tiles of tile rows (P's origin at the tile's first row, which each
// tile recomputes), parallel ones when asked, or in one pass when tile
// is 0 (no origin).
func Ring(fold, tile int64, parallel bool) ast.Node {
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
	return &ast.For{Iter: "c", Lower: ast.Int(0), Upper: ast.FloorDiv(ast.Sub(n, ast.Int(1)), tile), Stride: 1, Parallel: parallel, Body: body}
}

// RingProgram is RingSrc's program.
func RingProgram() (*scop.Program, error) {
	return cparse.ParseFunc("ring.c", []byte(RingSrc), "ring")
}
