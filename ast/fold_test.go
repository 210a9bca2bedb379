package ast_test

import (
	"os/exec"
	"strings"
	"testing"

	"tilefuse/ast"
	"tilefuse/frontend/cparse"
	"tilefuse/scop"
	"tilefuse/scop/charness"
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
// tiles of tile rows (P's origin at the tile's first row), or in one
// pass when tile is 0 (no origin).
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
	return &ast.For{Iter: "c", Lower: ast.Int(0), Upper: ast.FloorDiv(ast.Sub(n, ast.Int(1)), tile), Stride: 1, Body: body}
}

// TestPrintFolded prints the ring ASTs as C functions, compiles them with
// gcc and compares B with the reference executor's; a ring of one row
// must differ.
func TestPrintFolded(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	p, err := cparse.ParseFunc("ring.c", []byte(ringSrc), "ring")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		fold, tile int64
		alloc      string // the Alloc as printed
		same       bool
	}{
		{"fold 2", 2, 0, "float (*P)[8] = malloc(sizeof(float) * (2) * (8)); // folded [2, 0]", true},
		{"fold 3, tiles of 4", 3, 4, "float (*P)[8] = malloc(sizeof(float) * (3) * (8)); // from [4 * c, 0], folded [3, 0]", true},
		{"fold 2, tiles of 5", 2, 5, "", true},
		{"fold 1 too small", 1, 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := ringAST(tc.fold, tc.tile)
			if c := ast.PrintC(n, ast.PrintOptions{}); !strings.Contains(c, tc.alloc) {
				t.Errorf("no %q in\n%s", tc.alloc, c)
			}
			src, err := ast.PrintProgram(p, n, "kernel")
			if err != nil {
				t.Fatal(err)
			}
			diffs, err := charness.Verify(t.TempDir(), p, map[string]int64{"n": 11}, src, "kernel", 0, "-Wall", "-Wno-unused-function", "-Werror")
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if same := len(diffs) == 0; same != tc.same {
				t.Errorf("same as the reference: %v, want %v: %s\n%s", same, tc.same, strings.Join(diffs, "\n"), src)
			}
		})
	}
}
