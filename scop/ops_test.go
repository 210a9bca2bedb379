package scop_test

import (
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

// TestOps counts operations and finds C library calls: loads and their
// subscripts are free, divisions cost four (one by an integer constant),
// math calls eight; sin is a library call, sqrt is not.
func TestOps(t *testing.T) {
	i := &scop.Iter{Name: "i", T: scop.I32}
	fc := func(v float64) scop.Expr { return &scop.Const{T: scop.F32, F: v} }
	read := &scop.Read{Ref: scop.Ref{Array: "A", Index: []scop.Expr{&scop.Binary{Op: scop.Add, X: i, Y: &scop.Const{T: scop.I32, I: 1}, T: scop.I32}}}, T: scop.F32}
	bin := func(op scop.BinOp, x, y scop.Expr, ty scop.ElemType) scop.Expr {
		return &scop.Binary{Op: op, X: x, Y: y, T: ty}
	}
	call := func(fn string, x scop.Expr) scop.Expr { return &scop.Call{Fn: fn, Args: []scop.Expr{x}, T: scop.F32} }
	for _, tc := range []struct {
		name    string
		e       scop.Expr
		cost    int
		library bool
	}{
		{"read", read, 0, false},
		{"add", bin(scop.Add, read, fc(1), scop.F32), 1, false},
		{"float division", bin(scop.Div, read, fc(3), scop.F32), 4, false},
		{"integer division by a constant", bin(scop.Div, i, &scop.Const{T: scop.I32, I: 2}, scop.I32), 1, false},
		{"sqrt", call("sqrt", read), 8, false},
		{"sin of a sum", call("sin", bin(scop.Add, read, fc(1), scop.F32)), 9, true},
		{"sin in a branch", &scop.Select{Cond: bin(scop.Lt, i, &scop.Const{T: scop.I32, I: 4}, scop.Bool), Then: call("sin", read), Else: fc(0)}, 10, true},
	} {
		if got := scop.Cost(tc.e); got != tc.cost {
			t.Errorf("%s: Cost %d, want %d", tc.name, got, tc.cost)
		}
		if got := scop.CallsLibrary(tc.e); got != tc.library {
			t.Errorf("%s: CallsLibrary %v, want %v", tc.name, got, tc.library)
		}
	}
}
