package emit

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scop"
)

// TestVectorize runs opt -O3 -mcpu=native with loop-vectorize remarks on
// the parallel jacobi-2d, gemm and the two-stage blur: the innermost loop
// of every outlined region (the stencils' inner loops, two in
// jacobi-2d's time loop team; gemm's j loops) must vectorize, and
// without runtime alias checks (the alias scopes and parallel access
// groups say what the outlined function's pointers cannot).
func TestVectorize(t *testing.T) {
	opt := needOpt(t)
	tests := []struct {
		kernel string
		// vectorized counts the loops vectorized in each function.
		vectorized map[string]int
	}{
		{"jacobi-2d", map[string]int{"kernel.omp_team.0": 2}},
		{"gemm", map[string]int{"kernel.omp_fn.0": 2}},
		{"blur", map[string]int{"kernel.omp_fn.0": 1, "kernel.omp_fn.1": 1}},
	}
	for _, tc := range tests {
		t.Run(tc.kernel, func(t *testing.T) {
			var p *scop.Program
			var n ast.Node
			if tc.kernel == "blur" {
				p, n = blurAST(t)
			} else {
				p, n = polybenchAST(t, tc.kernel)
			}
			mod, err := Emit(p, n, Options{Parallel: true, Func: "kernel"})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(opt, "-O3", "-mcpu=native", "-pass-remarks=loop-vectorize", "-S")
			cmd.Stdin = strings.NewReader(mod.IR)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("opt: %v\n%s", err, stderr.String())
			}
			remarks := regexp.MustCompile(`remark: .*vectorized loop \(vectorization width: \d+`).FindAllString(stderr.String(), -1)
			if len(remarks) == 0 {
				t.Fatalf("no \"vectorized loop\" remark:\n%s", stderr.String())
			}
			funcs := splitFuncs(string(out))
			for fn, want := range tc.vectorized {
				body, ok := funcs[fn]
				if !ok {
					t.Fatalf("no function %s after opt", fn)
				}
				// Each vectorized loop gets a vector.body block (at least
				// one per loop kept; versioned or epilogue loops add more).
				if got := strings.Count(body, "\nvector.body"); got < want {
					t.Errorf("%s: %d vectorized loops, want %d", fn, got, want)
				}
				if strings.Contains(body, "vector.memcheck") {
					t.Errorf("%s: the vectorizer needed runtime alias checks", fn)
				}
			}
		})
	}
}

// splitFuncs maps the functions defined in LLVM assembly to their text.
func splitFuncs(ll string) map[string]string {
	out := map[string]string{}
	name := regexp.MustCompile(`^define [^@]*@([^(]+)\(`)
	var cur string
	var b strings.Builder
	for _, line := range strings.Split(ll, "\n") {
		if m := name.FindStringSubmatch(line); m != nil {
			cur = m[1]
			b.Reset()
		}
		if cur == "" {
			continue
		}
		b.WriteString(line + "\n")
		if line == "}" {
			out[cur] = b.String()
			cur = ""
		}
	}
	return out
}

// blurAST is the seed's two-stage blur in its original order, parallel
// loops marked.
func blurAST(t *testing.T) (*scop.Program, ast.Node) {
	t.Helper()
	p, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	return p, originalAST(t, p)
}

// originalAST generates the loops of p's original schedule, its
// outermost parallel loops marked.
func originalAST(t *testing.T, p *scop.Program) ast.Node {
	t.Helper()
	tree, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	n, err := ast.Generate(tree, ast.Options{Parallel: true})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
