package emit

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
)

// TestRefuseUnbounded: a loop without an upper bound, even nested, is
// refused with the loop named; bounded loops pass.
func TestRefuseUnbounded(t *testing.T) {
	user := &ast.User{Stmt: "S", Args: []ast.Expr{ast.Var("c1")}}
	bounded := &ast.For{Iter: "c1", Lower: ast.Int(0), Upper: ast.Int(9), Stride: 1, Body: user}
	unbounded := &ast.For{Iter: "c1", Lower: ast.Int(3), Stride: 1, Unbounded: true, Body: user}
	outer := func(body ast.Node) ast.Node {
		return &ast.For{Iter: "c0", Lower: ast.Int(0), Upper: ast.Int(4), Stride: 1, Body: body}
	}
	if err := refuseUnbounded(outer(bounded)); err != nil {
		t.Errorf("bounded loops: %v", err)
	}
	err := refuseUnbounded(outer(&ast.Block{Children: []ast.Node{bounded, unbounded}}))
	if err == nil || !strings.Contains(err.Error(), "the loop over c1 has no upper bound (for (int c1 = 3; 1; ...))") {
		t.Errorf("unbounded loop: %v", err)
	}
}
