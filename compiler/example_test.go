package compiler_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/tiling"
)

// Compile PolyBench's gemm to LLVM IR: Pluto-style scheduling with smart
// fusion, 32x32 tiles, OpenMP-parallel outer loops.
func ExampleCompile() {
	k, _ := polybench.Lookup("gemm")
	p, err := cparse.ParseFunc("gemm.c", []byte(k.Source), k.Func)
	if err != nil {
		panic(err)
	}
	r, err := compiler.Compile(context.Background(), p, compiler.Options{
		Strategy: compiler.Smart,
		Tile:     tiling.Policy{Sizes: []int64{32}},
		Parallel: true,
		Func:     k.Func,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("tiled bands:", len(r.TiledBands))
	fmt.Println(strings.Contains(r.Module.IR, "define void @kernel_gemm("))
	fmt.Println(strings.Contains(r.Module.IR, "@GOMP_parallel"))
	// Output:
	// tiled bands: 1
	// true
	// true
}

// Stop after AST generation and print the loops as C.
func ExampleOptions_stop() {
	p, err := cparse.ParseFunc("scale.c", []byte(`
void scale(int n, double A[n]) {
  for (int i = 0; i < n; i++)
    A[i] = 2 * A[i];
}`), "scale")
	if err != nil {
		panic(err)
	}
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Stop: compiler.StageAST})
	if err != nil {
		panic(err)
	}
	c, err := r.C("scale")
	if err != nil {
		panic(err)
	}
	fmt.Print(c[strings.Index(c, "for"):])
	// Output:
	// for (int c0 = 0; c0 < n; c0 += 1)
	//     A[c0] = (2.0 * A[c0]);
	// }
}
