package interp_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/ast/asttest"
	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
)

// TestFoldedBuffer runs the ring ASTs against the reference executor in
// the original order: B must be equal bit for bit, and a ring too small
// must show.
func TestFoldedBuffer(t *testing.T) {
	p, err := asttest.RingProgram()
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 11}
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want := clone(in)
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		fold, tile int64
		same       bool
		peak       int64
	}{
		{"fold 2", 2, 0, true, 2 * 8 * 4},
		{"fold 3", 3, 0, true, 3 * 8 * 4},
		{"fold 2, tiles of 4", 2, 4, true, 2 * 8 * 4},
		{"fold 3, tiles of 4", 3, 4, true, 3 * 8 * 4},
		{"fold 3, tiles of 5", 3, 5, true, 3 * 8 * 4},
		{"fold 1 too small", 1, 0, false, 8 * 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := clone(in)
			st, err := interp.Run(p, asttest.Ring(tc.fold, tc.tile, false), params, got)
			if err != nil {
				t.Fatal(err)
			}
			if same := bytes.Equal(got["B"].Data, want["B"].Data); same != tc.same {
				m, _ := scop.Compare(got["B"], want["B"], 0)
				t.Errorf("B equal to the reference: %v, want %v (%v)", same, tc.same, m)
			}
			// P is only ever accessed in its ring.
			if diff := cmp.Diff([]int64{tc.peak, tc.peak}, []int64{st.PeakLocalBytes, st.TempPeakBytes}); diff != "" {
				t.Errorf("peak local and temporary bytes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFoldErrors: a fold must have an entry per dimension, each the
// ring's extent.
func TestFoldErrors(t *testing.T) {
	p, err := asttest.RingProgram()
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 3}
	for _, fold := range [][]int64{{2}, {3, 0}, {-2, 0}} {
		n := asttest.Ring(2, 0, false)
		n.(*ast.Mark).Body.(*ast.Block).Children[0].(*ast.Alloc).Fold = fold
		if _, err := interp.Run(p, n, params, nil); err == nil {
			t.Errorf("fold %v: no error", fold)
		}
	}
}

// fwdSrc stores T[i] and reads it back in the same iteration.
const fwdSrc = `
void fwd(int n, float A[16], float B[16])
{
  int i;
  float T[16];
  for (i = 0; i < n; i++) {
    T[i] = A[i] * 2.0f;
    B[i] = T[i] + 1.0f;
  }
}
`

// TestCounters checks Stats.Forwarded and Stats.TempPeakBytes.
func TestCounters(t *testing.T) {
	fwd, err := cparse.ParseFunc("fwd.c", []byte(fwdSrc), "fwd")
	if err != nil {
		t.Fatal(err)
	}
	i, n := ast.Var("i"), ast.Var("n")
	call := func(stmt string, arg ast.Expr) ast.Node { return &ast.User{Stmt: stmt, Args: []ast.Expr{arg}} }
	loop := func(lo, hi ast.Expr, body ...ast.Node) ast.Node {
		return &ast.For{Iter: "i", Lower: lo, Upper: hi, Stride: 1, Body: &ast.Block{Children: body}}
	}
	last := ast.Sub(n, ast.Int(1))
	rows := loop(ast.Int(0), last, call("S0", i), call("S1", i))
	pc, err := pipelines.ProducerConsumer()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := scheduler.Original(pc)
	if err != nil {
		t.Fatal(err)
	}
	pcAST, err := ast.Generate(tree, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const tBytes = 16 * 4
	for _, tc := range []struct {
		name        string
		p           *scop.Program
		n           ast.Node
		params      map[string]int64
		fwd, loads  int64
		temp, local int64
	}{
		{"producer/consumer original", pc, pcAST, map[string]int64{"R": 4, "C": 4}, 0, 64, 25 * 4, 0},
		{"store then load in one iteration", fwd, rows, nil, 5, 10, tBytes, 0},
		{"an iteration begins between", fwd, &ast.Block{Children: []ast.Node{
			loop(ast.Int(0), last, call("S0", i)), loop(ast.Int(0), last, call("S1", i))}}, nil, 0, 10, tBytes, 0},
		{"a loop entry between", fwd, loop(ast.Int(0), last, call("S0", i),
			&ast.For{Iter: "j", Lower: ast.Int(0), Upper: ast.Int(0), Stride: 1, Body: call("S1", i)}), nil, 0, 10, tBytes, 0},
		{"leaving a loop and an if", fwd, &ast.Block{Children: []ast.Node{
			loop(ast.Int(0), last, &ast.If{Cond: ast.Cmp(ast.OpGe, i, ast.Int(0)), Then: call("S0", i)}),
			call("S1", last)}}, nil, 1, 6, tBytes, 0},
		{"another element", fwd, loop(ast.Int(1), last, call("S0", i), call("S1", ast.Sub(i, ast.Int(1)))), nil, 0, 8, tBytes, 0},
		{"T tile-local", fwd, loop(ast.Int(0), last,
			&ast.Alloc{Array: "T", Elem: scop.F32, Shape: []ast.Expr{ast.Int(1)}, Origin: []ast.Expr{i}},
			call("S0", i), call("S1", i), &ast.Free{Array: "T"}), nil, 5, 10, 4, 4},
		{"T tile-local, then read from memory", fwd, &ast.Block{Children: []ast.Node{
			&ast.Alloc{Array: "T", Elem: scop.F32, Shape: []ast.Expr{n}},
			loop(ast.Int(0), last, call("S0", i)),
			&ast.Free{Array: "T"},
			loop(ast.Int(0), last, call("S1", i))}}, nil, 0, 10, tBytes + 5*4, 5 * 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params := tc.params
			if params == nil {
				params = map[string]int64{"n": 5}
			}
			st, err := interp.RunWith(tc.p, tc.n, params, nil, interp.Options{Forwarding: true})
			if err != nil {
				t.Fatal(err)
			}
			type counts struct{ Forwarded, Loads, TempPeakBytes, PeakLocalBytes int64 }
			want := counts{tc.fwd, tc.loads, tc.temp, tc.local}
			got := counts{st.Forwarded, st.Loads, st.TempPeakBytes, st.PeakLocalBytes}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// Without the option, nothing is forwarded; the rest stays.
			plain, err := interp.Run(tc.p, tc.n, params, nil)
			if err != nil {
				t.Fatal(err)
			}
			want.Forwarded = 0
			if diff := cmp.Diff(want, counts{plain.Forwarded, plain.Loads, plain.TempPeakBytes, plain.PeakLocalBytes}); diff != "" {
				t.Errorf("without forwarding (-want +got):\n%s", diff)
			}
		})
	}
}
