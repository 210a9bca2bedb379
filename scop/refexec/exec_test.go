package refexec_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// Builders of hand-written programs.

func iterI(name string, k int) *scop.Iter { return &scop.Iter{Name: name, Index: k, T: scop.I32} }

func cI(v int64) *scop.Const { return &scop.Const{T: scop.I32, I: v} }

func cT(t scop.ElemType, v int64) *scop.Const { return &scop.Const{T: t, I: v} }

func cF32(v float32) *scop.Const { return &scop.Const{T: scop.F32, F: float64(v)} }

func cF64(v float64) *scop.Const { return &scop.Const{T: scop.F64, F: v} }

func rd(a *scop.Array, idx ...scop.Expr) *scop.Read {
	return &scop.Read{Ref: scop.Ref{Array: a.Name, Index: idx}, T: a.Type}
}

func ref(a *scop.Array, idx ...scop.Expr) scop.Ref { return scop.Ref{Array: a.Name, Index: idx} }

// bin builds x op y, typed Bool for comparisons and logical operators.
func bin(op scop.BinOp, x, y scop.Expr) *scop.Binary {
	t := x.Type()
	if op.IsCompare() || op.IsLogical() {
		t = scop.Bool
	}
	return &scop.Binary{Op: op, X: x, Y: y, T: t}
}

func arr(name string, t scop.ElemType, extent ...scop.Expr) *scop.Array {
	return &scop.Array{Name: name, Type: t, Extent: extent}
}

func mustSet(t testing.TB, s string) presburger.Set {
	t.Helper()
	v, err := presburger.ParseSet(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustMap(t testing.TB, s string) presburger.Map {
	t.Helper()
	v, err := presburger.ParseMap(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// stmt builds a statement; domain and schedule are isl text.
func stmt(t testing.TB, name string, iters []string, domain, schedule string, w scop.Ref, v scop.Expr) *scop.Stmt {
	return &scop.Stmt{Name: name, Iters: iters, Domain: mustSet(t, domain), Schedule: mustMap(t, schedule), Write: w, Value: v}
}

// program builds and finishes a program over the parameter N (context
// N >= 1) or, with params nil, over none.
func program(t testing.TB, params []string, context string, arrays []*scop.Array, stmts ...*scop.Stmt) *scop.Program {
	t.Helper()
	p := &scop.Program{Name: "test", Params: params, Context: mustSet(t, context), Arrays: arrays, Stmts: stmts}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(t testing.TB, p *scop.Program, params map[string]int64, fill func(bufs map[string]*scop.Buffer)) map[string]*scop.Buffer {
	t.Helper()
	bufs, err := refexec.Alloc(p, params)
	if err != nil {
		t.Fatal(err)
	}
	if fill != nil {
		fill(bufs)
	}
	if err := refexec.Run(p, params, bufs); err != nil {
		t.Fatal(err)
	}
	return bufs
}

func f32s(b *scop.Buffer) []float32 {
	out := make([]float32, b.Len())
	for i := range out {
		out[i] = float32(b.Load(int64(i)).F)
	}
	return out
}

func f64s(b *scop.Buffer) []float64 {
	out := make([]float64, b.Len())
	for i := range out {
		out[i] = b.Load(int64(i)).F
	}
	return out
}

func ints(b *scop.Buffer) []int64 {
	out := make([]int64, b.Len())
	for i := range out {
		out[i] = b.Load(int64(i)).I
	}
	return out
}

// bitwise compares float32 slices bit for bit.
var bitwise = cmp.Comparer(func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) })

var nParam = &scop.Param{Name: "N", T: scop.I32}

// blur is out[i] = in[i] * 0.1f + in[i + 1] * 0.7f, then a histogram of
// the floored outputs (a data-dependent may-write).
func blur(t testing.TB) *scop.Program {
	n := nParam
	i := iterI("i", 0)
	in := arr("in", scop.F32, bin(scop.Add, n, cI(1)))
	in.LiveIn = true
	out := arr("out", scop.F32, n)
	out.LiveOut = true
	hist := arr("hist", scop.I32, cI(8))
	hist.LiveOut = true
	val := bin(scop.Add, bin(scop.Mul, rd(in, i), cF32(0.1)), bin(scop.Mul, rd(in, bin(scop.Add, i, cI(1))), cF32(0.7)))
	s0 := stmt(t, "S0", []string{"i"}, "[N] -> { S0[i] : 0 <= i < N }", "[N] -> { S0[i] -> [0, i] }", ref(out, i), val)
	bin8 := &scop.Cast{X: rd(out, i), T: scop.I32}
	s1 := stmt(t, "S1", []string{"i"}, "[N] -> { S1[i] : 0 <= i < N }", "[N] -> { S1[i] -> [1, i] }",
		ref(hist, bin8), bin(scop.Add, rd(hist, bin8), cI(1)))
	s1.MayWrite = true
	return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{in, out, hist}, s0, s1)
}

func TestBlur(t *testing.T) {
	for _, n := range []int64{1, 7, 100} {
		p := blur(t)
		bufs := run(t, p, map[string]int64{"N": n}, func(bufs map[string]*scop.Buffer) { bufs["in"].Fill(3) })
		in := f32s(bufs["in"])
		want := make([]float32, n)
		hist := make([]int64, 8)
		for i := range want {
			a := float32(in[i] * float32(0.1))
			b := float32(in[i+1] * float32(0.7))
			want[i] = float32(a + b)
			hist[int32(want[i])]++
		}
		if diff := cmp.Diff(want, f32s(bufs["out"]), bitwise); diff != "" {
			t.Errorf("N = %d: out mismatch (-want +got):\n%s", n, diff)
		}
		if diff := cmp.Diff(hist, ints(bufs["hist"])); diff != "" {
			t.Errorf("N = %d: hist mismatch (-want +got):\n%s", n, diff)
		}
	}
}

// TestReduction sums an array into a scalar: the initialisation must run
// before the accumulation, which the schedules decide.
func TestReduction(t *testing.T) {
	tests := []struct {
		name        string
		init, accum string
		want        func(a []float64) float64
	}{
		{"init first", "{ I[] -> [0, 0] }", "[N] -> { U[i] -> [1, i] }", func(a []float64) float64 {
			s := 0.5
			for _, x := range a {
				s = float64(s + x)
			}
			return s
		}},
		{"init last", "{ I[] -> [2, 0] }", "[N] -> { U[i] -> [1, i] }", func([]float64) float64 { return 0.5 }},
		{"init inside", "[N] -> { I[] -> [1, 3] }", "[N] -> { U[i] -> [1, i] }", func(a []float64) float64 {
			s := 0.0
			for i, x := range a {
				if i == 3 {
					s = 0.5
				}
				s = float64(s + x)
			}
			return s
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := arr("A", scop.F64, nParam)
			a.LiveIn = true
			sum := arr("sum", scop.F64)
			sum.LiveOut = true
			init := stmt(t, "I", nil, "{ I[] }", tc.init, ref(sum), cF64(0.5))
			acc := stmt(t, "U", []string{"i"}, "[N] -> { U[i] : 0 <= i < N }", tc.accum, ref(sum), bin(scop.Add, rd(sum), rd(a, iterI("i", 0))))
			p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{a, sum}, init, acc)
			bufs := run(t, p, map[string]int64{"N": 10}, func(b map[string]*scop.Buffer) { b["A"].Fill(1) })
			if got, want := bufs["sum"].Load(0).F, tc.want(f64s(bufs["A"])); got != want {
				t.Errorf("sum = %v, want %v", got, want)
			}
		})
	}
}

// TestScheduleOrder runs A[i] = A[i + 1] + 1 in both directions.
func TestScheduleOrder(t *testing.T) {
	tests := []struct {
		name, schedule string
		want           []int64
	}{
		{"increasing", "[N] -> { S[i] -> [i] }", []int64{1, 1, 1, 1, 1, 0}},
		{"decreasing", "[N] -> { S[i] -> [-i] }", []int64{5, 4, 3, 2, 1, 0}},
		{"decreasing shifted", "[N] -> { S[i] -> [N - i] }", []int64{5, 4, 3, 2, 1, 0}},
		{"even then odd, each decreasing", "[N] -> { S[i] -> [i mod 2, -i] }", []int64{1, 2, 1, 2, 1, 0}},
		{"tiles of two, decreasing inside", "[N] -> { S[i] -> [floor(i / 2), -i] }", []int64{2, 1, 2, 1, 1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := arr("A", scop.I32, bin(scop.Add, nParam, cI(1)))
			a.LiveOut = true
			i := iterI("i", 0)
			s := stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", tc.schedule, ref(a, i), bin(scop.Add, rd(a, bin(scop.Add, i, cI(1))), cI(1)))
			p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{a}, s)
			bufs := run(t, p, map[string]int64{"N": 5}, nil)
			if diff := cmp.Diff(tc.want, ints(bufs["A"])); diff != "" {
				t.Errorf("A mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStridedDomain writes the even elements only, in decreasing order.
func TestStridedDomain(t *testing.T) {
	a := arr("A", scop.I32, bin(scop.Add, nParam, cI(1)))
	a.LiveOut = true
	i := iterI("i", 0)
	s := stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N and i mod 2 = 0 }", "[N] -> { S[i] -> [-i] }", ref(a, i), bin(scop.Add, rd(a, bin(scop.Add, i, cI(1))), i))
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{a}, s)
	bufs := run(t, p, map[string]int64{"N": 6}, nil)
	if diff := cmp.Diff([]int64{0, 0, 2, 0, 4, 0, 0}, ints(bufs["A"])); diff != "" {
		t.Errorf("A mismatch (-want +got):\n%s", diff)
	}
}

// TestInterleave runs S: A[i] = i + 1 and T: B[i] = A[i] + B[i - 1] (a
// prefix sum of what S wrote so far) under schedules that interleave or
// separate them.
func TestInterleave(t *testing.T) {
	const n = 6
	prefix := func(a func(i int) int64) []int64 {
		b := make([]int64, n+1)
		for i := 1; i <= n; i++ {
			b[i] = a(i) + b[i-1]
		}
		return b
	}
	tests := []struct {
		name, s, t string
		want       []int64
	}{
		{"S then T per i", "[N] -> { S[i] -> [i, 0] }", "[N] -> { T[i] -> [i, 1] }", prefix(func(i int) int64 { return int64(i + 1) })},
		{"T then S per i", "[N] -> { S[i] -> [i, 1] }", "[N] -> { T[i] -> [i, 0] }", prefix(func(int) int64 { return 0 })},
		{"equal times: textual order", "[N] -> { S[i] -> [i, 0] }", "[N] -> { T[i] -> [i, 0] }", prefix(func(i int) int64 { return int64(i + 1) })},
		{"T just before its S", "[N] -> { S[i] -> [i, 0] }", "[N] -> { T[i] -> [i - 1, 1] }", prefix(func(int) int64 { return 0 })},
		{"T two steps behind", "[N] -> { S[i] -> [i, 0] }", "[N] -> { T[i] -> [i + 2, 0] }", prefix(func(i int) int64 { return int64(i + 1) })},
		{"all S, then all T", "[N] -> { S[i] -> [0, i] }", "[N] -> { T[i] -> [1, i] }", prefix(func(i int) int64 { return int64(i + 1) })},
		{"all T, then all S", "[N] -> { S[i] -> [1, i] }", "[N] -> { T[i] -> [0, i] }", prefix(func(int) int64 { return 0 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := arr("A", scop.I64, bin(scop.Add, nParam, cI(1)))
			b := arr("B", scop.I64, bin(scop.Add, nParam, cI(1)))
			b.LiveOut = true
			i := iterI("i", 0)
			i64 := &scop.Iter{Name: "i", Index: 0, T: scop.I64}
			s := stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 1 <= i <= N }", tc.s, ref(a, i), bin(scop.Add, i64, cT(scop.I64, 1)))
			tt := stmt(t, "T", []string{"i"}, "[N] -> { T[i] : 1 <= i <= N }", tc.t, ref(b, i), bin(scop.Add, rd(a, i), rd(b, bin(scop.Sub, i, cI(1)))))
			p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{a, b}, s, tt)
			bufs := run(t, p, map[string]int64{"N": n}, nil)
			if _, ok := bufs["A"]; !ok {
				t.Error("the temporary A was not added to the buffers")
			}
			if diff := cmp.Diff(tc.want, ints(bufs["B"])); diff != "" {
				t.Errorf("B mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTwoDimensional transposes through a 3-D array with a triangular
// domain, exercising the general address computation.
func TestTwoDimensional(t *testing.T) {
	n := nParam
	i, j := iterI("i", 0), iterI("j", 1)
	a := arr("A", scop.I32, n, n)
	a.LiveIn = true
	c := arr("C", scop.I32, cI(2), n, n)
	c.LiveOut = true
	s := stmt(t, "S", []string{"i", "j"}, "[N] -> { S[i, j] : 0 <= j <= i < N }", "[N] -> { S[i, j] -> [j, i] }",
		ref(c, cI(1), j, i), bin(scop.Add, rd(a, i, j), bin(scop.Mul, i, cI(100))))
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{a, c}, s)
	const N = 4
	bufs := run(t, p, map[string]int64{"N": N}, func(b map[string]*scop.Buffer) { b["A"].Fill(2) })
	in := ints(bufs["A"])
	want := make([]int64, 2*N*N)
	for i := 0; i < N; i++ {
		for j := 0; j <= i; j++ {
			want[N*N+j*N+i] = in[i*N+j] + int64(100*i)
		}
	}
	if diff := cmp.Diff(want, ints(bufs["C"])); diff != "" {
		t.Errorf("C mismatch (-want +got):\n%s", diff)
	}
}

func TestErrors(t *testing.T) {
	n := nParam
	i := iterI("i", 0)
	tests := []struct {
		name     string
		build    func(t *testing.T) *scop.Program
		params   map[string]int64
		want     string
		instance []int64 // of the *InstanceError, if one is expected
	}{
		{"division by zero", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n)
			out.LiveOut = true
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [i] }", ref(out, i), bin(scop.Div, cI(10), bin(scop.Sub, i, cI(2)))))
		}, map[string]int64{"N": 4}, "statement S at S[2]: integer division by zero in (10 / (i - 2))", []int64{2}},
		{"remainder by zero", func(t *testing.T) *scop.Program {
			out := arr("out", scop.U8, n)
			out.LiveOut = true
			u := &scop.Cast{X: i, T: scop.U8}
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [-i] }", ref(out, i), bin(scop.Mod, cT(scop.U8, 7), u)))
		}, map[string]int64{"N": 4}, "statement S at S[0]: integer division by zero in mod(7, (u8)(i))", []int64{0}},
		{"read out of bounds", func(t *testing.T) *scop.Program {
			in := arr("in", scop.F32, n)
			in.LiveIn = true
			out := arr("out", scop.F32, n)
			out.LiveOut = true
			r := rd(in, bin(scop.Add, i, cI(1)))
			r.At = scop.Pos{File: "blur.c", Line: 3, Col: 12}
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{in, out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [i] }", ref(out, i), r))
		}, map[string]int64{"N": 4}, "blur.c:3:12: statement S at S[3]: read of in[(i + 1)] out of bounds: element in[4] of shape [4]", []int64{3}},
		{"write out of bounds", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n, cI(3))
			out.LiveOut = true
			j := iterI("j", 1)
			s := stmt(t, "W", []string{"i", "j"}, "[N] -> { W[i, j] : 0 <= i < N and 0 <= j < N }", "[N] -> { W[i, j] -> [i, j] }", ref(out, i, j), cI(1))
			s.At = scop.Pos{Line: 9, Col: 1}
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out}, s)
		}, map[string]int64{"N": 4}, "9:1: statement W at W[0, 3]: write of out[i][j] out of bounds: element out[0][3] of shape [4 3]", []int64{0, 3}},
		{"negative subscript in 3-D", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n, n, n)
			out.LiveOut = true
			s := stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [i] }", ref(out, i, i, bin(scop.Sub, cI(2), i)), cI(1))
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out}, s)
		}, map[string]int64{"N": 4}, "statement S at S[3]: write of out[i][i][(2 - i)] out of bounds: element out[3][3][-1] of shape [4 4 4]", []int64{3}},
		{"shift count", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n)
			out.LiveOut = true
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [i] }", ref(out, i), bin(scop.Shl, cI(1), bin(scop.Mul, i, cI(16)))))
		}, map[string]int64{"N": 4}, "statement S at S[2]: shift count 32 out of range for i32 in (1 << (i * 16))", []int64{2}},
		{"unbounded domain", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n)
			out.LiveOut = true
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : i >= 0 }", "[N] -> { S[i] -> [i] }", ref(out, i), cI(1)))
		}, map[string]int64{"N": 3}, "statement S: presburger: set has infinitely many points", nil},
		{"outside the context", func(t *testing.T) *scop.Program { return blur(t) }, map[string]int64{"N": 0},
			"parameter values map[N:0] lie outside the context", nil},
		{"missing parameter", func(t *testing.T) *scop.Program { return blur(t) }, map[string]int64{}, "no value for parameter N", nil},
		{"schedule not a function", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n)
			out.LiveOut = true
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [t] : i <= t <= i + 1 }", ref(out, i), cI(1)))
		}, map[string]int64{"N": 3}, "is not a function: it gives some instances several times", nil},
		{"schedule partial", func(t *testing.T) *scop.Program {
			out := arr("out", scop.I32, n)
			out.LiveOut = true
			return program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
				stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [i] : i < 2 }", ref(out, i), cI(1)))
		}, map[string]int64{"N": 5}, "gives no time to instance S[", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.build(t)
			// Instance errors must match exactly; other messages include
			// the want text.
			err := refexec.Run(p, tc.params, nil)
			if err == nil || (tc.instance != nil && err.Error() != tc.want) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Run() = %v, want %q", err, tc.want)
			}
			var ie *refexec.InstanceError
			if got := errors.As(err, &ie); got != (tc.instance != nil) {
				t.Fatalf("Run() error %T: InstanceError %v, want %v", err, got, tc.instance != nil)
			}
			if ie != nil {
				if diff := cmp.Diff(tc.instance, ie.Instance); diff != "" {
					t.Errorf("instance mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestEffectsBeforeFailure checks that the instances before a failing one
// have run, and no later one.
func TestEffectsBeforeFailure(t *testing.T) {
	out := arr("out", scop.I32, nParam)
	out.LiveOut = true
	i := iterI("i", 0)
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{out},
		stmt(t, "S", []string{"i"}, "[N] -> { S[i] : 0 <= i < N }", "[N] -> { S[i] -> [i] }", ref(out, i), bin(scop.Div, cI(12), bin(scop.Sub, i, cI(2)))))
	bufs, err := refexec.Alloc(p, map[string]int64{"N": 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := refexec.Run(p, map[string]int64{"N": 5}, bufs); err == nil {
		t.Fatal("division by zero not reported")
	}
	if diff := cmp.Diff([]int64{-6, -12, 0, 0, 0}, ints(bufs["out"])); diff != "" {
		t.Errorf("out mismatch (-want +got):\n%s", diff)
	}
}

func TestBuffers(t *testing.T) {
	p := blur(t)
	params := map[string]int64{"N": 5}
	bufs, err := refexec.Alloc(p, params)
	if err != nil {
		t.Fatal(err)
	}
	shapes := map[string][]int64{}
	for name, b := range bufs {
		shapes[name] = b.Shape
	}
	if diff := cmp.Diff(map[string][]int64{"in": {6}, "out": {5}, "hist": {8}}, shapes); diff != "" {
		t.Errorf("Alloc shapes mismatch (-want +got):\n%s", diff)
	}
	wrong, err := scop.NewBuffer(scop.F32, []int64{7})
	if err != nil {
		t.Fatal(err)
	}
	bufs["in"] = wrong
	if err := refexec.Run(p, params, bufs); err == nil || !strings.Contains(err.Error(), "buffer of array in is f32[7], want f32[6]") {
		t.Errorf("Run with a misshaped buffer: %v", err)
	}
	bufs["in"], _ = scop.NewBuffer(scop.F64, []int64{6})
	if err := refexec.Run(p, params, bufs); err == nil || !strings.Contains(err.Error(), "buffer of array in is f64[6], want f32[6]") {
		t.Errorf("Run with a mistyped buffer: %v", err)
	}
	// Missing buffers (all of them here) are allocated: the run succeeds.
	if err := refexec.Run(p, params, nil); err != nil {
		t.Errorf("Run without buffers: %v", err)
	}
}

// TestEmptyAndScalar runs a program with an empty domain and one whose
// statements are zero-dimensional.
func TestEmptyAndScalar(t *testing.T) {
	x := arr("x", scop.I64)
	x.LiveOut = true
	y := arr("y", scop.I64)
	y.LiveOut = true
	p := program(t, nil, "{ : true }", []*scop.Array{x, y},
		stmt(t, "A", nil, "{ A[] }", "{ A[] -> [1] }", ref(x), bin(scop.Add, rd(y), cT(scop.I64, 5))),
		stmt(t, "B", nil, "{ B[] }", "{ B[] -> [0] }", ref(y), cT(scop.I64, 2)),
		stmt(t, "C", []string{"i"}, "{ C[i] : 0 <= i < 0 }", "{ C[i] -> [i] }", ref(y), cT(scop.I64, 100)))
	bufs := run(t, p, map[string]int64{}, nil)
	if got := []int64{bufs["x"].Load(0).I, bufs["y"].Load(0).I}; !cmp.Equal(got, []int64{7, 2}) {
		t.Errorf("x, y = %v, want [7 2]", got)
	}
}

// TestMixedSubscripts writes M[i][idx[i]] (one affine and one
// data-dependent subscript) and reads it back through M[i + 0][idx[i]].
func TestMixedSubscripts(t *testing.T) {
	const N = 6
	i := iterI("i", 0)
	idx := arr("idx", scop.I32, nParam)
	idx.LiveIn = true
	m := arr("M", scop.I32, nParam, cI(16))
	m.LiveOut = true
	out := arr("out", scop.I32, nParam)
	out.LiveOut = true
	w := stmt(t, "W", []string{"i"}, "[N] -> { W[i] : 0 <= i < N }", "[N] -> { W[i] -> [0, i] }", ref(m, i, rd(idx, i)), bin(scop.Add, i, cI(10)))
	w.MayWrite = true
	r := stmt(t, "R", []string{"i"}, "[N] -> { R[i] : 0 <= i < N }", "[N] -> { R[i] -> [1, i] }", ref(out, i),
		rd(m, bin(scop.Add, i, cI(0)), rd(idx, i)))
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{idx, m, out}, w, r)
	bufs := run(t, p, map[string]int64{"N": N}, func(b map[string]*scop.Buffer) { b["idx"].Fill(5) })
	in := ints(bufs["idx"])
	wantM := make([]int64, N*16)
	wantOut := make([]int64, N)
	for i := range N {
		wantM[i*16+int(in[i])] = int64(i + 10)
		wantOut[i] = int64(i + 10)
	}
	if diff := cmp.Diff(wantM, ints(bufs["M"])); diff != "" {
		t.Errorf("M mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantOut, ints(bufs["out"])); diff != "" {
		t.Errorf("out mismatch (-want +got):\n%s", diff)
	}
}
