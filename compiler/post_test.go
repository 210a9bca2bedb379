package compiler_test

import (
	"context"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// TestPostPolyBench compiles every PolyBench kernel under post-tiling
// fusion for the CPU (parallel, 2 threads) and for the emulated CUDA
// mapping, with tile sizes that divide MINI's extents and that do not,
// builds each with opt/llc/cc and checks every array bit for bit against
// the reference executor (deriche within 1e-5, its expf/powf differing
// from Go's math).
func TestPostPolyBench(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	configs := []struct {
		target emit.Target
		tile   []int64
	}{
		{emit.CPU, []int64{8, 13}},
		{emit.CUDAEmulate, []int64{16}},
	}
	kernels := polybench.Kernels()
	if testing.Short() {
		// The CPU and every third kernel; everything without -short.
		configs = configs[:1]
		kernels = polybench.Every(3)
	}
	for _, k := range kernels {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p := kernel(t, k.Name)
			for _, c := range configs {
				r, err := compiler.Compile(context.Background(), p, compiler.Options{
					Strategy: compiler.Post, Target: c.target, Tile: tiling.Policy{Sizes: c.tile},
					Parallel: true, Func: k.Func, GPU: gpumap.Sizes{Threads: []int64{4, 2}},
				})
				if err != nil {
					t.Fatalf("%v: %v", c.target, err)
				}
				tol := 0.0
				if k.Name == "deriche" {
					tol = 1e-5
				}
				res, err := tc.Run(p, runner.Kernel{IR: r.Module.IR, Func: k.Func}, runner.Options{
					Params: k.Sizes(polybench.Mini), Threads: 2, Repeat: 1, Warmup: -1,
					Reference: runner.RefExec, Tolerance: tol,
				})
				if err != nil {
					t.Fatalf("%v: %v", c.target, err)
				}
				if !res.Check.OK() {
					t.Errorf("%v: %s", c.target, res.Check)
				}
			}
		})
	}
}

// TestSchedulePipelines compiles the call schedules written with the
// pipelines (Halide's harris and unsharp_mask schedules, the tutorial's
// producer_consumer schedules) to LLVM IR, builds each with opt/llc/cc
// and runs it on 2 threads against the reference executor, bit for bit,
// at sizes the strips and vectors do and do not divide.
func TestSchedulePipelines(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	type run struct {
		name   string
		p      *scop.Program
		params map[string]int64
	}
	var runs []run
	for _, name := range []string{"harris", "unsharp_mask"} {
		e, _ := polymage.Lookup(name)
		p, err := e.Build()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{name, p, e.Small}, run{name + " 70x37", p, map[string]int64{"R": 70, "C": 37}})
	}
	for _, e := range pipelines.ScheduledProducerConsumer() {
		p, err := e.Build()
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{e.Name, p, map[string]int64{"R": 9, "C": 11}})
	}
	for _, c := range runs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := compiler.Compile(context.Background(), c.p, compiler.Options{Strategy: compiler.Schedule, Func: c.p.Name})
			if err != nil {
				t.Fatal(err)
			}
			res, err := tc.Run(c.p, runner.Kernel{IR: r.Module.IR, Func: c.p.Name}, runner.Options{
				Params: c.params, Threads: 2, Repeat: 1, Warmup: -1, Reference: runner.RefExec,
			})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Check.OK() {
				t.Error(res.Check)
			}
		})
	}
}
