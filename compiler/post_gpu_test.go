package compiler_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
)

// postGPURun is one program TestPostCudaEmulate compiles and runs.
type postGPURun struct {
	name   string
	p      *scop.Program
	fn     string
	params map[string]int64
	in     map[string]*scop.Buffer // nil: the generated inputs
}

// TestPostCudaEmulate compiles every PolyBench kernel (MINI) and every
// benchmark pipeline of package polymage (its Small sizes, its own
// inputs) as `tilefuse run --fuse post --target cuda-emulate` does:
// strategy post with its default tiles and the default launch bounds
// (blocks of 32 x 8 threads). Each is built with opt/llc/cc, run once and
// checked bit for bit against the reference the command picks
// (runner.RefAuto: the reference executor, or the naive C for the
// programs calling math functions, whose results come from libm there
// and from Go's math in the executor: producer_consumer's sinf, deriche's
// expf). -short keeps every third kernel and pipeline.
func TestPostCudaEmulate(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	var runs []postGPURun
	kernels := polybench.Kernels()
	if testing.Short() {
		kernels = polybench.Every(3)
	}
	for _, k := range kernels {
		runs = append(runs, postGPURun{"polybench/" + k.Name, kernel(t, k.Name), k.Func, k.Sizes(polybench.Mini), nil})
	}
	for i, e := range polymage.All() {
		if testing.Short() && i%3 != 0 {
			continue
		}
		p, err := e.Build()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		in, err := e.Inputs(p, e.Small, 1)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, postGPURun{"polymage/" + e.Name, p, p.Name, e.Small, in})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			res, err := compiler.Compile(context.Background(), r.p, compiler.Options{
				Strategy: compiler.Post, Target: emit.CUDAEmulate, Func: r.fn,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Module.IR, "@GOMP_parallel") {
				t.Errorf("no kernel launched:\n%s", res.Mapped.Text())
			}
			run, err := tc.Run(r.p, runner.Kernel{IR: res.Module.IR, Func: r.fn}, runner.Options{
				Params: r.params, Inputs: r.in, Repeat: 1, Warmup: -1,
				Reference: runner.RefAuto,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !run.Check.Bitwise {
				t.Error(run.Check)
			}
		})
	}
}
