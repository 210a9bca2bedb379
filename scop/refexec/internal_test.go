package refexec

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// evalNode compiles and evaluates one expression without arrays.
func evalNode(e scop.Expr) (v scop.Value, err error) {
	c := &compiler{s: &scop.Stmt{Name: "S", Iters: []string{"i"}}, params: map[string]int64{}}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(*failure)
			if !ok {
				panic(r)
			}
			err = errors.New(f.msg)
		}
	}()
	fr := &frame{iters: []int64{0}}
	if e.Type().IsFloat() {
		fn, err := c.float(e)
		if err != nil {
			return v, err
		}
		return scop.Value{F: fn(fr)}, nil
	}
	fn, err := c.int(e)
	if err != nil {
		return v, err
	}
	return scop.Value{I: fn(fr)}, nil
}

var allTypes = []scop.ElemType{scop.Bool, scop.I8, scop.U8, scop.I16, scop.U16, scop.I32, scop.U32, scop.I64, scop.U64, scop.F32, scop.F64}

// TestCastsMatchConvert checks every conversion between two types on
// values around the types' limits against scop.Convert, bit for bit.
func TestCastsMatchConvert(t *testing.T) {
	ints := []int64{0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 65535, 65536,
		math.MaxInt32, math.MinInt32, math.MaxUint32, 1 << 40, 1<<53 + 1, math.MaxInt64, math.MinInt64, 16777217}
	floats := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1.5, -1.5, 2.7, -2.7, 255.9, 256, -129.5, 16777217,
		1e10, -1e10, 3e38, 1e300, 1 << 63, -(1 << 63), 1 << 64, math.Inf(1), math.Inf(-1), math.NaN(), 0.1}
	for _, from := range allTypes {
		var vals []scop.Value
		if from.IsFloat() {
			for _, f := range floats {
				vals = append(vals, scop.FloatValue(from, f))
			}
		} else {
			for _, i := range ints {
				vals = append(vals, scop.IntValue(from, i))
			}
		}
		for _, to := range allTypes {
			for _, v := range vals {
				x := &scop.Const{T: from, I: v.I, F: v.F}
				got, err := evalNode(&scop.Cast{X: x, T: to})
				if err != nil {
					t.Fatalf("(%s)%s: %v", to, x, err)
				}
				want := scop.Convert(v, from, to)
				if got.I != want.I || math.Float64bits(got.F) != math.Float64bits(want.F) {
					t.Errorf("(%s)(%s %v) = %+v, want %+v", to, from, v, got, want)
				}
			}
		}
	}
}

// TestIntOpsAgainstWideArithmetic checks wrapping arithmetic of every
// integer type against int64 arithmetic wrapped with scop.IntValue.
func TestIntOpsAgainstWideArithmetic(t *testing.T) {
	vals := []int64{0, 1, -1, 3, -7, 100, -128, 200, 40000, -70000, math.MaxInt32, math.MinInt32, math.MaxInt64}
	for _, ty := range allTypes[1:9] {
		for _, a := range vals {
			for _, b := range vals {
				x, y := scop.IntValue(ty, a), scop.IntValue(ty, b)
				for op, want := range map[scop.BinOp]int64{
					scop.Add: x.I + y.I, scop.Sub: x.I - y.I, scop.Mul: x.I * y.I,
					scop.BitAnd: x.I & y.I, scop.BitOr: x.I | y.I, scop.BitXor: x.I ^ y.I,
				} {
					e := &scop.Binary{Op: op, X: &scop.Const{T: ty, I: x.I}, Y: &scop.Const{T: ty, I: y.I}, T: ty}
					got, err := evalNode(e)
					if err != nil {
						t.Fatal(err)
					}
					if w := scop.IntValue(ty, want); got != w {
						t.Errorf("%s %s = %d, want %d", ty, e, got.I, w.I)
					}
				}
			}
		}
	}
}

// TestCheckSchedule checks both ways of validating a schedule: symbolic,
// and the enumerating fallback.
func TestCheckSchedule(t *testing.T) {
	tests := []struct {
		name, dom, sched     string
		wantCheck, wantCount string
	}{
		{"function", "{ S[i] : 0 <= i < 4 }", "{ S[i] -> [i, 2i] }", "", ""},
		{"partial", "{ S[i] : 0 <= i < 4 }", "{ S[i] -> [i, 0] : i <= 1 }", "gives no time to instance S[", "gives a time to 2 of the 4 instances"},
		{"relation", "{ S[i] : 0 <= i < 4 }", "{ S[i] -> [i, j] : 0 <= j <= 1 }", "is not a function: it gives some instances several times", "is not a function: 8 times for 4 instances"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dom, err := presburger.ParseSet(tc.dom)
			if err != nil {
				t.Fatal(err)
			}
			sched, err := presburger.ParseMap(tc.sched)
			if err != nil {
				t.Fatal(err)
			}
			if sched, err = sched.IntersectDomain(dom); err != nil {
				t.Fatal(err)
			}
			s := &scop.Stmt{Name: "S", Iters: []string{"i"}, Domain: dom, Schedule: sched}
			for _, c := range []struct {
				check func(*scop.Stmt, presburger.Set, presburger.Map) error
				want  string
			}{{checkSchedule, tc.wantCheck}, {countSchedule, tc.wantCount}} {
				got := errString(c.check(s, dom, sched))
				if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
					t.Errorf("error %q, want %q", got, c.want)
				}
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestAffineSubscripts compares the affine fast path of subscripts with
// the general compilation, wrapping included, on random trees.
func TestAffineSubscripts(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	types := []scop.ElemType{scop.I8, scop.U8, scop.I16, scop.U16, scop.I32, scop.U32, scop.I64, scop.U64}
	c := &compiler{s: &scop.Stmt{Name: "S", Iters: []string{"i", "j"}}, params: map[string]int64{"N": 1000}}
	var gen func(ty scop.ElemType, depth int) scop.Expr
	gen = func(ty scop.ElemType, depth int) scop.Expr {
		if depth == 0 || rng.Intn(4) == 0 {
			switch rng.Intn(3) {
			case 0:
				return &scop.Const{T: ty, I: scop.IntValue(ty, rng.Int63n(1000)-500).I}
			case 1:
				return &scop.Param{Name: "N", T: ty}
			}
			k := rng.Intn(2)
			return &scop.Iter{Name: c.s.Iters[k], Index: k, T: ty}
		}
		switch rng.Intn(5) {
		case 0:
			return &scop.Unary{Op: scop.Neg, X: gen(ty, depth-1)}
		case 1:
			return &scop.Binary{Op: scop.Sub, X: gen(ty, depth-1), Y: gen(ty, depth-1), T: ty}
		case 2:
			return &scop.Binary{Op: scop.Mul, X: gen(ty, depth-1), Y: &scop.Const{T: ty, I: scop.IntValue(ty, rng.Int63n(600)-300).I}, T: ty}
		}
		return &scop.Binary{Op: scop.Add, X: gen(ty, depth-1), Y: gen(ty, depth-1), T: ty}
	}
	for n := 0; n < 2000; n++ {
		ty := types[rng.Intn(len(types))]
		e := gen(ty, 4)
		a, ok := c.affine(e, ty)
		if !ok {
			t.Fatalf("%s is not affine", e)
		}
		fn, err := c.int(e)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 20; k++ {
			f := &frame{iters: []int64{rng.Int63n(1<<40) - 1<<39, rng.Int63n(600) - 300}}
			if got, want := a.eval(f.iters), fn(f); got != want {
				t.Fatalf("%s %s at %v: affine %d, general %d", ty, e, f.iters, got, want)
			}
		}
	}
	nonAffine := []scop.Expr{
		&scop.Binary{Op: scop.Mul, X: &scop.Iter{Name: "i", Index: 0, T: scop.I32}, Y: &scop.Iter{Name: "j", Index: 1, T: scop.I32}, T: scop.I32},
		&scop.Cast{X: &scop.Iter{Name: "i", Index: 0, T: scop.I32}, T: scop.I64},
		&scop.Binary{Op: scop.FloorDiv, X: &scop.Iter{Name: "i", Index: 0, T: scop.I32}, Y: &scop.Const{T: scop.I32, I: 2}, T: scop.I32},
	}
	for _, e := range nonAffine {
		if _, ok := c.affine(e, e.Type()); ok {
			t.Errorf("%s taken as affine", e)
		}
	}
}
