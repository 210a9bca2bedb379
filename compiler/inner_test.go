package compiler_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
)

// TestPostInnerTile compiles PolyMage pipelines under post-tiling fusion
// with the innermost tile sizes `tilefuse tune` tries (InnerTile: bands
// of two and three members alike get them on their rows and columns),
// sizes that divide the small images and sizes that do not, builds them
// and checks every array bit for bit against the reference executor.
func TestPostInnerTile(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	// camera_pipe's tiled spaces have bands of two and three members.
	names := []string{"harris", "unsharp_mask", "camera_pipe"}
	inners := [][]int64{{8, 16}, {13, 7}}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		for _, inner := range inners {
			t.Run(fmt.Sprint(name, inner), func(t *testing.T) {
				t.Parallel()
				e, ok := polymage.Lookup(name)
				if !ok {
					t.Fatalf("no pipeline %s", name)
				}
				p, err := e.Build()
				if err != nil {
					t.Fatal(err)
				}
				r, err := compiler.Compile(context.Background(), p, compiler.Options{
					Strategy: compiler.Post, Parallel: true, InnerTile: inner, Estimate: e.Small,
				})
				if err != nil {
					t.Fatal(err)
				}
				inputs, err := e.Inputs(p, e.Small, 1)
				if err != nil {
					t.Fatal(err)
				}
				res, err := tc.Run(p, runner.Kernel{IR: r.Module.IR, Func: r.Module.Func}, runner.Options{
					Params: e.Small, Inputs: inputs, Threads: 2, Repeat: 1, Warmup: -1, Reference: runner.RefExec,
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
}
