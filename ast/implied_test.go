package ast

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDropHeldGuards(t *testing.T) {
	i, n := Var("c0"), Var("N")
	a := Cmp(OpLe, i, n)              // c0 <= N
	b := Cmp(OpGe, i, Int(1))         // c0 >= 1
	c := Cmp(OpEq, Mod(i, 2), Int(0)) // c0 mod 2 == 0
	s := &User{Stmt: "S", Args: []Expr{i}}
	loop := func(body Node) Node { return &For{Iter: "c0", Lower: Int(0), Upper: n, Stride: 1, Body: body} }
	for _, tt := range []struct {
		name     string
		in, want Node
	}{
		{"repeated guard", loop(&If{Cond: a, Then: &If{Cond: a, Then: s}}), loop(&If{Cond: a, Then: s})},
		{"held conjunct", &If{Cond: And(a, b), Then: loop(&If{Cond: And(b, c), Then: s})}, &If{Cond: And(a, b), Then: loop(&If{Cond: c, Then: s})}},
		{"sibling not held", &Block{Children: []Node{&If{Cond: a, Then: s}, &If{Cond: a, Then: s}}}, &Block{Children: []Node{&If{Cond: a, Then: s}, &If{Cond: a, Then: s}}}},
		{"else branch not held", &If{Cond: a, Then: s, Else: &If{Cond: a, Then: s}}, &If{Cond: a, Then: s, Else: &If{Cond: a, Then: s}}},
		{"through a mark", &If{Cond: c, Then: &Mark{Name: "m", Body: &If{Cond: c, Then: s}}}, &If{Cond: c, Then: &Mark{Name: "m", Body: s}}},
	} {
		in := PrintC(tt.in, PrintOptions{})
		got := dropHeldGuards(tt.in, nil)
		if diff := cmp.Diff(PrintC(tt.want, PrintOptions{}), PrintC(got, PrintOptions{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if after := PrintC(tt.in, PrintOptions{}); after != in {
			t.Errorf("%s: the input changed:\n%s", tt.name, after)
		}
	}
}
