package scop

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

func mustSet(t *testing.T, s string) presburger.Set {
	t.Helper()
	v, err := presburger.ParseSet(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustMap(t *testing.T, s string) presburger.Map {
	t.Helper()
	v, err := presburger.ParseMap(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// blur1D is out[i] = (in[i] + in[i+1]) / 2 over 0 <= i < N, plus a
// histogram of out with a data-dependent write.
func blur1D(t *testing.T) *Program {
	n := &Param{Name: "N", T: I32}
	i := &Iter{Name: "i", Index: 0, T: I32}
	one := &Const{T: I32, I: 1}
	in := &Array{Name: "in", Type: F32, Extent: []Expr{&Binary{Op: Add, X: n, Y: one, T: I32}}, LiveIn: true}
	out := &Array{Name: "out", Type: F32, Extent: []Expr{n}, LiveOut: true}
	hist := &Array{Name: "hist", Type: I32, Extent: []Expr{&Const{T: I32, I: 16}}, LiveOut: true}
	rd := func(a *Array, idx ...Expr) *Read { return &Read{Ref: Ref{Array: a.Name, Index: idx}, T: a.Type} }
	sum := &Binary{Op: Add, X: rd(in, i), Y: rd(in, &Binary{Op: Add, X: i, Y: one, T: I32}), T: F32}
	s0 := &Stmt{
		Name: "S0", Iters: []string{"i"},
		Domain:   mustSet(t, "[N] -> { S0[i] : 0 <= i < N }"),
		Schedule: mustMap(t, "[N] -> { S0[i] -> [0, i] }"),
		Write:    Ref{Array: "out", Index: []Expr{i}},
		Value:    &Binary{Op: Div, X: sum, Y: &Const{T: F32, F: 2}, T: F32},
	}
	bin := &Cast{X: rd(out, i), T: I32}
	s1 := &Stmt{
		Name: "S1", Iters: []string{"i"}, MayWrite: true,
		Domain:   mustSet(t, "[N] -> { S1[i] : 0 <= i < N }"),
		Schedule: mustMap(t, "[N] -> { S1[i] -> [1, i] }"),
		Write:    Ref{Array: "hist", Index: []Expr{bin}},
		Value:    &Binary{Op: Add, X: rd(hist, bin), Y: one, T: I32},
	}
	return &Program{Name: "blur1d", Params: []string{"N"}, Context: mustSet(t, "[N] -> { : N >= 1 }"),
		Arrays: []*Array{in, out, hist}, Stmts: []*Stmt{s0, s1}}
}

func TestFinishDerivesAccesses(t *testing.T) {
	p := blur1D(t)
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  func() (presburger.UnionMap, error)
		want string
	}{
		{"reads", p.ReadRelation, "[N] -> { S0[i] -> in[o] : 0 <= i < N and i <= o <= i + 1; S1[i] -> out[i] : 0 <= i < N; S1[i] -> hist[o] : 0 <= i < N and 0 <= o < 16 }"},
		{"may-writes", p.MayWriteRelation, "[N] -> { S0[i] -> out[i] : 0 <= i < N; S1[i] -> hist[o] : 0 <= i < N and 0 <= o < 16 }"},
		{"must-writes", p.MustWriteRelation, "[N] -> { S0[i] -> out[i] : 0 <= i < N }"},
	}
	for _, tc := range tests {
		got, err := tc.got()
		if err != nil {
			t.Fatal(err)
		}
		want, err := presburger.ParseUnionMap(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if eq, err := got.IsEqual(want); err != nil || !eq {
			t.Errorf("%s = %v, want %v (%v)", tc.name, got, want, err)
		}
	}
	if !strings.Contains(p.String(), "may-write") {
		t.Errorf("String() does not show the may-write:\n%s", p)
	}
}

func TestFinishErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(p *Program)
		want string
	}{
		{"unknown array", func(p *Program) { p.Stmts[0].Write.Array = "nope" }, "statement S0 writes unknown array nope"},
		{"type mismatch", func(p *Program) {
			p.Stmts[0].Value = &Const{At: Pos{"b.c", 3, 7}, T: F64, F: 1}
		}, "b.c:3:7: type mismatch: f64 value assigned to f32 array out"},
		{"never defined", func(p *Program) { p.Array("in").LiveIn = false }, "in is read but never written, and is not live-in"},
		{"not marked may", func(p *Program) { p.Stmts[1].MayWrite = false }, "data-dependent subscript (i32)(out[i]) of hist in a write not marked may-write"},
		{"non-affine", func(p *Program) {
			i := &Iter{Name: "i", Index: 0, T: I32}
			p.Stmts[0].Write.Index[0] = &Binary{At: Pos{"", 2, 4}, Op: Mul, X: i, Y: i, T: I32}
		}, "2:4: non-affine subscript (i * i) of out: non-affine product (i * i)"},
		{"unknown parameter", func(p *Program) { p.Arrays[1].Extent[0] = &Param{Name: "M", T: I32} }, "extent of array out: unknown parameter M"},
		{"duplicate", func(p *Program) { p.Stmts[1].Name = "out" }, "statement out has the same name as array out"},
		{"schedule dims", func(p *Program) {
			p.Stmts[1].Schedule = mustMap(t, "[N] -> { S1[i] -> [1, i, 0] }")
		}, "statement S1: schedule has 3 dimensions, earlier statements 2"},
		{"bool arithmetic", func(p *Program) {
			c := &Binary{Op: Lt, X: &Const{T: I32}, Y: &Const{T: I32}, T: Bool}
			p.Stmts[1].Value = &Binary{Op: Add, X: c, Y: c, T: Bool}
		}, "type mismatch: arithmetic + on bool operands"},
		{"call arity", func(p *Program) {
			p.Stmts[0].Value = &Call{Fn: "pow", Args: []Expr{&Const{T: F32}}, T: F32}
		}, "pow takes 2 arguments, has 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := blur1D(t)
			tc.edit(p)
			err := p.Finish()
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Finish() = %v, want %q", err, tc.want)
			}
			if !IsError(err) {
				t.Fatalf("Finish() error %T is not an *Error", err)
			}
		})
	}
}

func TestCheckParams(t *testing.T) {
	p := blur1D(t)
	if err := p.CheckParams(map[string]int64{"N": 4}); err != nil {
		t.Fatal(err)
	}
	if err := p.CheckParams(map[string]int64{"N": 0}); err == nil {
		t.Fatal("N = 0 accepted outside the context N >= 1")
	}
	if err := p.CheckParams(map[string]int64{}); err == nil {
		t.Fatal("missing N accepted")
	}
}
