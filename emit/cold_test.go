package emit

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
)

func TestOnlyCold(t *testing.T) {
	cold := map[string]bool{"border": true, "tiny": true}
	user := func(s string) ast.Node { return &ast.User{Stmt: s} }
	loop := func(body ast.Node) *ast.For { return &ast.For{Iter: "c0", Stride: 1, Body: body} }
	for _, tt := range []struct {
		name string
		loop *ast.For
		want loopHint
	}{
		{"cold statement", loop(user("border")), hintCold},
		{"cold statements in nested loops", loop(&ast.Block{Children: []ast.Node{loop(user("border")), user("tiny")}}), hintCold},
		{"a hot statement beside", loop(&ast.Block{Children: []ast.Node{user("border"), user("main")}}), hintNone},
		{"a guard inside", loop(&ast.If{Then: user("border")}), hintNone},
		{"no statement", loop(&ast.Block{}), hintNone},
		{"vector loop", &ast.For{Iter: "c0", Stride: 1, Vector: true, Body: user("border")}, hintVector},
	} {
		e := &emitter{opts: Options{Cold: cold}}
		if got := e.hint(tt.loop); got != tt.want {
			t.Errorf("%s: hint %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestColdLoopsNotVectorized: opt -O3 leaves the loops of cold statements
// scalar (their metadata asks so) and still vectorizes the others.
func TestColdLoopsNotVectorized(t *testing.T) {
	opt := needOpt(t)
	p, n := blurAST(t)
	first := p.Stmts[0].Name
	for _, cold := range []map[string]bool{nil, {first: true}} {
		mod, err := Emit(p, n, Options{Parallel: true, Func: "kernel", Cold: cold})
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(opt, "-O3", "-mcpu=native", "-S")
		cmd.Stdin = strings.NewReader(mod.IR)
		res, err := cmd.Output()
		if err != nil {
			t.Fatalf("opt: %v", err)
		}
		funcs := splitFuncs(string(res))
		for fn, wantVector := range map[string]bool{"kernel.omp_fn.0": cold == nil, "kernel.omp_fn.1": true} {
			if got := strings.Contains(funcs[fn], "\nvector.body"); got != wantVector {
				t.Errorf("cold %v: %s vectorized %v, want %v", cold, fn, got, wantVector)
			}
		}
	}
}
