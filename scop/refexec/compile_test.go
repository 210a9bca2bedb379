package refexec_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// execGemm runs gemm's instances through code in program order.
func execGemm(t *testing.T, code *refexec.Code, ni, nj, nk int64) {
	t.Helper()
	for i := range ni {
		for j := range nj {
			if err := code.Exec("S0", []int64{i, j}); err != nil {
				t.Fatal(err)
			}
		}
		for k := range nk {
			for j := range nj {
				if err := code.Exec("S1", []int64{i, k, j}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func gemmInputs(t *testing.T, p *scop.Program, params map[string]int64) map[string]*scop.Buffer {
	t.Helper()
	bufs, err := refexec.Alloc(p, params)
	if err != nil {
		t.Fatal(err)
	}
	for k, name := range []string{"A", "B", "C"} {
		bufs[name].Fill(uint64(k + 1))
	}
	return bufs
}

// TestCompileGemm runs gemm instance by instance, with and without
// counting, with C fixed or rebindable, and compares with Run bit for bit.
func TestCompileGemm(t *testing.T) {
	const ni, nj, nk = 5, 6, 7
	params := map[string]int64{"NI": ni, "NJ": nj, "NK": nk}
	p := gemm(t)
	want := gemmInputs(t, p, params)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		count  bool
		rebind []string
	}{{"plain", false, nil}, {"counted", true, nil}, {"rebind", false, []string{"C"}}, {"counted rebind", true, []string{"A", "C"}}} {
		t.Run(tc.name, func(t *testing.T) {
			bufs := gemmInputs(t, p, params)
			var counts *refexec.Counts
			if tc.count {
				counts = &refexec.Counts{}
			}
			code, err := refexec.Compile(p, params, bufs, refexec.Options{Counts: counts, Rebind: tc.rebind})
			if err != nil {
				t.Fatal(err)
			}
			execGemm(t, code, ni, nj, nk)
			if diff := cmp.Diff(f32s(want["C"]), f32s(bufs["C"]), bitwise); diff != "" {
				t.Errorf("C mismatch (-Run +Exec):\n%s", diff)
			}
			if !tc.count {
				return
			}
			n0, n1 := int64(ni*nj), int64(ni*nj*nk)
			wantCounts := map[string]refexec.StmtCounts{
				"S0": {Instances: n0, Loads: n0, Stores: n0, ArrayLoads: map[string]int64{"C": n0}},
				"S1": {Instances: n1, Loads: 3 * n1, Stores: n1, ArrayLoads: map[string]int64{"A": n1, "B": n1, "C": n1}},
			}
			if diff := cmp.Diff(wantCounts, counts.Stmts()); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCompileCountsDynamic checks that loads and calls are counted as
// executed: a select runs one branch, && stops early.
func TestCompileCountsDynamic(t *testing.T) {
	n := nParam
	i := iterI("i", 0)
	a := arr("A", scop.F64, n)
	a.LiveIn = true
	out := arr("out", scop.F64, n)
	out.LiveOut = true
	iout := arr("iout", scop.I32, n)
	iout.LiveOut = true
	even := bin(scop.Eq, &scop.Binary{Op: scop.Mod, X: i, Y: cI(2), T: scop.I32}, cI(0))
	sinA := &scop.Call{Fn: "sin", Args: []scop.Expr{rd(a, i)}, T: scop.F64}
	sqrtA := &scop.Call{Fn: "sqrt", Args: []scop.Expr{rd(a, i)}, T: scop.F64}
	// S0: out[i] = i % 2 == 0 ? sin(A[i]) : sqrt(A[i]) + A[i]
	s0 := stmt(t, "S0", []string{"i"}, "[N] -> { S0[i] : 0 <= i < N }", "[N] -> { S0[i] -> [0, i] }",
		ref(out, i), &scop.Select{Cond: even, Then: sinA, Else: bin(scop.Add, sqrtA, rd(a, i))})
	// S1: iout[i] = abs(i - 2) + (i < 2 && A[i] > 1.0)
	absI := &scop.Call{Fn: "abs", Args: []scop.Expr{bin(scop.Sub, i, cI(2))}, T: scop.I32}
	cond := bin(scop.And, bin(scop.Lt, i, cI(2)), bin(scop.Gt, rd(a, i), cF64(1)))
	s1 := stmt(t, "S1", []string{"i"}, "[N] -> { S1[i] : 0 <= i < N }", "[N] -> { S1[i] -> [1, i] }",
		ref(iout, i), bin(scop.Add, absI, &scop.Cast{X: cond, T: scop.I32}))
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{a, out, iout}, s0, s1)

	const size = 7 // 4 even, 3 odd
	params := map[string]int64{"N": size}
	counts := &refexec.Counts{}
	code, err := refexec.Compile(p, params, nil, refexec.Options{Counts: counts})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"S0", "S1"} {
		for i := range int64(size) {
			if err := code.Exec(s, []int64{i}); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string]refexec.StmtCounts{
		"S0": {Instances: 7, Loads: 4 + 2*3, Stores: 7, ArrayLoads: map[string]int64{"A": 10}},
		"S1": {Instances: 7, Loads: 2, Stores: 7, ArrayLoads: map[string]int64{"A": 2}},
	}
	if diff := cmp.Diff(want, counts.Stmts()); diff != "" {
		t.Errorf("statement counts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int64{"sin": 4, "sqrt": 3, "abs": 7}, counts.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// allTypes has, for every element type T, arrays inT (live-in) and outT
// and a statement outT[i] = inT[i] * inT[N-1-i] - c (arrays of bool are
// not allowed).
func allTypes(t *testing.T) *scop.Program {
	n := nParam
	i := iterI("i", 0)
	rev := bin(scop.Sub, bin(scop.Sub, n, cI(1)), i)
	var arrays []*scop.Array
	var stmts []*scop.Stmt
	for k, ty := range []scop.ElemType{scop.I8, scop.U8, scop.I16, scop.U16, scop.I32, scop.U32, scop.I64, scop.U64, scop.F32, scop.F64} {
		in := arr("in"+ty.String(), ty, n)
		in.LiveIn = true
		out := arr("out"+ty.String(), ty, n)
		out.LiveOut = true
		var v scop.Expr
		switch {
		case ty.IsFloat():
			v = bin(scop.Sub, bin(scop.Mul, rd(in, i), rd(in, rev)), &scop.Const{T: ty, F: 5.5})
		default:
			v = bin(scop.Sub, bin(scop.Mul, rd(in, i), rd(in, rev)), cT(ty, 100))
		}
		name := "S" + ty.String()
		s := stmt(t, name, []string{"i"}, "[N] -> { "+name+"[i] : 0 <= i < N }",
			fmt.Sprintf("[N] -> { %s[i] -> [%d, i] }", name, k), ref(out, i), v)
		arrays = append(arrays, in, out)
		stmts = append(stmts, s)
	}
	return program(t, []string{"N"}, "[N] -> { : N >= 1 }", arrays, stmts...)
}

// TestCompileRebindTypes checks that loads and stores through cells give
// Run's results for every element type.
func TestCompileRebindTypes(t *testing.T) {
	p := allTypes(t)
	params := map[string]int64{"N": 9}
	inputs := func() map[string]*scop.Buffer {
		bufs, err := refexec.Alloc(p, params)
		if err != nil {
			t.Fatal(err)
		}
		for k, a := range p.Arrays {
			if a.LiveIn {
				bufs[a.Name].Fill(uint64(k))
			}
		}
		return bufs
	}
	want := inputs()
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	got := inputs()
	var names []string
	for _, a := range p.Arrays {
		names = append(names, a.Name)
	}
	code, err := refexec.Compile(p, params, got, refexec.Options{Rebind: names, Counts: &refexec.Counts{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Stmts {
		for i := range int64(9) {
			if err := code.Exec(s.Name, []int64{i}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, a := range p.Arrays {
		if m, err := scop.Compare(got[a.Name], want[a.Name], 0); err != nil || m != nil {
			t.Errorf("array %s: %v %v", a.Name, m, err)
		}
	}
}

// TestCompileBind checks rebinding: accesses follow the bound buffer and
// its shape, and bad bindings are refused.
func TestCompileBind(t *testing.T) {
	n := nParam
	i := iterI("i", 0)
	tmp := arr("T", scop.I32, n)
	out := arr("out", scop.I32, n)
	out.LiveOut = true
	w := stmt(t, "W", []string{"i"}, "[N] -> { W[i] : 0 <= i < N }", "[N] -> { W[i] -> [0, i] }", ref(tmp, i), bin(scop.Mul, i, cI(10)))
	r := stmt(t, "R", []string{"i"}, "[N] -> { R[i] : 0 <= i < N }", "[N] -> { R[i] -> [1, i] }", ref(out, i), bin(scop.Add, rd(tmp, i), cI(1)))
	p := program(t, []string{"N"}, "[N] -> { : N >= 1 }", []*scop.Array{tmp, out}, w, r)
	params := map[string]int64{"N": 4}
	bufs := map[string]*scop.Buffer{}
	code, err := refexec.Compile(p, params, bufs, refexec.Options{Rebind: []string{"T"}})
	if err != nil {
		t.Fatal(err)
	}
	local, _ := scop.NewBuffer(scop.I32, []int64{2})
	prev, err := code.Bind("T", local)
	if err != nil || prev != bufs["T"] {
		t.Fatalf("Bind = %p, %v; want the global buffer %p", prev, err, bufs["T"])
	}
	for _, i := range []int64{0, 1} {
		if err := code.Exec("W", []int64{i}); err != nil {
			t.Fatal(err)
		}
		if err := code.Exec("R", []int64{i}); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]int64{0, 10}, ints(local)); diff != "" {
		t.Errorf("local buffer (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{0, 0, 0, 0}, ints(bufs["T"])); diff != "" {
		t.Errorf("global T was written (-want +got):\n%s", diff)
	}
	// Element 2 lies outside the local buffer.
	err = code.Exec("W", []int64{2})
	var ie *refexec.InstanceError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "T[2] of shape [2]") {
		t.Errorf("Exec W[2] on a 2-element buffer: %v", err)
	}
	if _, err := code.Bind("T", nil); err != nil {
		t.Fatal(err)
	}
	if err := code.Exec("R", []int64{0}); err == nil || !strings.Contains(err.Error(), "array T has no buffer") {
		t.Errorf("Exec R with T unbound: %v", err)
	}
	if _, err := code.Bind("T", prev); err != nil {
		t.Fatal(err)
	}
	if err := code.Exec("W", []int64{3}); err != nil {
		t.Fatal(err)
	}
	if got := ints(bufs["T"])[3]; got != 30 {
		t.Errorf("global T[3] = %d after rebinding it, want 30", got)
	}

	f32buf, _ := scop.NewBuffer(scop.F32, []int64{4})
	rank2, _ := scop.NewBuffer(scop.I32, []int64{2, 2})
	for _, tc := range []struct {
		array string
		buf   *scop.Buffer
		want  string
	}{
		{"out", local, "not rebindable"},
		{"T", f32buf, "accessed as i32"},
		{"T", rank2, "with 1 subscripts"},
		{"T", &scop.Buffer{Type: scop.I32, Shape: []int64{3}, Data: make([]byte, 4)}, "holds 4 bytes"},
	} {
		if _, err := code.Bind(tc.array, tc.buf); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Bind(%s, %s%v) = %v, want an error with %q", tc.array, tc.buf.Type, tc.buf.Shape, err, tc.want)
		}
	}
}

// TestCompileErrors checks Exec's errors.
func TestCompileErrors(t *testing.T) {
	p := gemm(t)
	params := map[string]int64{"NI": 2, "NJ": 2, "NK": 2}
	code, err := refexec.Compile(p, params, nil, refexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = code.Exec("S1", []int64{0, 2, 1})
	var ie *refexec.InstanceError
	if !errors.As(err, &ie) {
		t.Fatalf("out-of-bounds instance: %v, want an *InstanceError", err)
	}
	if diff := cmp.Diff(&refexec.InstanceError{Stmt: "S1", Instance: []int64{0, 2, 1}, Msg: "read of A[i][k] out of bounds: element A[0][2] of shape [2 2]"}, ie); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		stmt  string
		iters []int64
		want  string
	}{{"S9", nil, "no statement S9"}, {"S0", []int64{1}, "has 2 iterators"}} {
		if err := code.Exec(tc.stmt, tc.iters); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Exec(%s, %v) = %v, want %q", tc.stmt, tc.iters, err, tc.want)
		}
	}
	if _, err := refexec.Compile(p, map[string]int64{"NI": 2}, nil, refexec.Options{}); err == nil {
		t.Error("Compile without all parameters succeeded")
	}
}

// BenchmarkExecGemm runs gemm (SMALL) instance by instance through Exec,
// plain, counted, and with C rebindable; instances/s as BenchmarkGemm.
func BenchmarkExecGemm(b *testing.B) {
	const ni, nj, nk = 60, 70, 80
	params := map[string]int64{"NI": ni, "NJ": nj, "NK": nk}
	for _, bc := range []struct {
		name   string
		count  bool
		rebind []string
	}{{"plain", false, nil}, {"counted", true, nil}, {"rebind", false, []string{"C"}}} {
		b.Run(bc.name, func(b *testing.B) {
			p := gemm(b)
			opt := refexec.Options{Rebind: bc.rebind}
			if bc.count {
				opt.Counts = &refexec.Counts{}
			}
			code, err := refexec.Compile(p, params, nil, opt)
			if err != nil {
				b.Fatal(err)
			}
			s0, s1 := make([]int64, 2), make([]int64, 3)
			for b.Loop() {
				for i := range int64(ni) {
					for j := range int64(nj) {
						s0[0], s0[1] = i, j
						if err := code.Exec("S0", s0); err != nil {
							b.Fatal(err)
						}
					}
					for k := range int64(nk) {
						for j := range int64(nj) {
							s1[0], s1[1], s1[2] = i, k, j
							if err := code.Exec("S1", s1); err != nil {
								b.Fatal(err)
							}
						}
					}
				}
			}
			n := int64(ni*nj + ni*nj*nk)
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "instances/s")
		})
	}
}
