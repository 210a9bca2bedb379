package emit

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// TestOutlinedNests lowers the outlining threshold so that the row loop of
// the rows program calls its nests as functions: the nest that reads the
// scalar slot s stays in place (outlined, s would live in memory), the
// other becomes a noinline function whose buffer argument T is noalias,
// dereferenceable over its 40 doubles and keeps its runtime origin; B
// stays the reference's, serially and on threads.
func TestOutlinedNests(t *testing.T) {
	tc := needTools(t)
	old := outlineMinStmts
	outlineMinStmts = 2
	defer func() { outlineMinStmts = old }()
	p, err := cparse.ParseFunc("rows.c", []byte(rowsSrc), "rows")
	if err != nil {
		t.Fatal(err)
	}
	n := rowsAST().(*ast.For)
	body := n.Body.(*ast.Mark).Body.(*ast.Block)
	alloc := body.Children[0].(*ast.Alloc)
	// T[j] lives at j - (n - 25): 5 + j for n = 20, within 40 elements.
	alloc.Shape = []ast.Expr{ast.Int(40)}
	alloc.Origin = []ast.Expr{ast.Sub(ast.Var("n"), ast.Int(25))}
	params := map[string]int64{"n": 20}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			mod := tc.emitVerified(t, p, n, m.opts)
			checkIR(t, mod.IR,
				rowsFn(m.opts),
				"c0.body:",
				"call void @rows.nest.",
				"define internal void @rows.nest.",
			)
			// Only T, a tile-local buffer, is known dereferenceable: B's
			// caller may pass less than its declared extents.
			checkIR(t, mod.IR, "double* noalias %B", "NOT dereferenceable(8192)",
				"double* noalias dereferenceable(320) %T, i64 %T.origin) nounwind noinline {")
			if k := strings.Count(mod.IR, "define internal void @rows.nest."); k != 1 {
				t.Errorf("%d nests outlined, want 1 (the one without the scalar s)", k)
			}
			runChecked(t, tc, p, mod, params, "T")
		})
	}
}

// TestOutliningThreshold: a region under the threshold keeps its nests.
func TestOutliningThreshold(t *testing.T) {
	e := &emitter{opts: Options{Target: CPU}}
	for _, tc := range []struct {
		name   string
		stmts  int
		target Target
		want   bool
	}{
		{"few", outlineMinStmts - 1, CPU, false},
		{"many", outlineMinStmts, CPU, true},
		{"many on a GPU", outlineMinStmts, CUDAEmulate, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var kids []ast.Node
			for i := 0; i < tc.stmts; i++ {
				kids = append(kids, &ast.User{Stmt: "S", Args: []ast.Expr{ast.Int(int64(i))}})
			}
			e.opts.Target = tc.target
			if got := e.wantsNestOutlining(&ast.Block{Children: kids}); got != tc.want {
				t.Errorf("%d statements: outlining %v, want %v", tc.stmts, got, tc.want)
			}
		})
	}
}
