package fusion

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
)

// TestParamAffine reads array extents as affine functions of the
// parameters, products by constants included, and refuses the others.
func TestParamAffine(t *testing.T) {
	R := &scop.Param{Name: "R", T: scop.I32}
	C := &scop.Param{Name: "C", T: scop.I32}
	k := func(v int64) scop.Expr { return &scop.Const{T: scop.I32, I: v} }
	bin := func(op scop.BinOp, x, y scop.Expr) scop.Expr { return &scop.Binary{Op: op, X: x, Y: y, T: scop.I32} }
	for _, tc := range []struct {
		name string
		e    scop.Expr
		want Affine
		ok   bool
	}{
		{"constant", k(5), Affine{Const: 5}, true},
		{"R + 1", bin(scop.Add, R, k(1)), Affine{Const: 1, Params: map[string]int64{"R": 1}}, true},
		{"2 * R - C", bin(scop.Sub, bin(scop.Mul, k(2), R), C), Affine{Params: map[string]int64{"R": 2, "C": -1}}, true},
		{"(C + 4) * 3", bin(scop.Mul, bin(scop.Add, C, k(4)), k(3)), Affine{Const: 12, Params: map[string]int64{"C": 3}}, true},
		{"R * C", bin(scop.Mul, R, C), Affine{}, false},
		{"R / 2", bin(scop.FloorDiv, R, k(2)), Affine{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := paramAffine(tc.e)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			norm := func(a Affine) Affine {
				for n, v := range a.Params {
					if v == 0 {
						delete(a.Params, n)
					}
				}
				if len(a.Params) == 0 {
					a.Params = nil
				}
				return a
			}
			if diff := cmp.Diff(norm(tc.want), norm(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
