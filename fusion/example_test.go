package fusion_test

import (
	"context"
	"fmt"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/fusion"
)

// A Halide schedule written with the DSL: the producer stored at the
// root and computed per row of the consumer slides over the rows, and
// its storage folds to a ring of two rows.
func ExampleScheduled() {
	p := dsl.NewPipeline("pc")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	y, x := p.Var("y"), p.Var("x")
	producer := p.Func("producer", dsl.F32, y.In(0, R.Add(1)), x.In(0, C.Add(1)))
	producer.Define(dsl.Sin(x.Mul(y)))
	consumer := p.Func("consumer", dsl.F32, y.In(0, R), x.In(0, C))
	consumer.Define(dsl.Add(producer.At(y, x), producer.At(y.Add(1), x.Add(1))).Div(2))
	p.Output(consumer)

	producer.StoreRoot().ComputeAt(consumer, y)

	prog, err := p.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	flow, err := deps.Dataflow(prog)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := fusion.Scheduled(prog, flow)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range res.Buffers {
		fmt.Printf("%s: a buffer at the root, dimensions folded to %v\n", b.Array, b.Fold)
	}

	// The whole compiler, to the loops.
	r, err := compiler.Compile(context.Background(), prog, compiler.Options{Strategy: compiler.Schedule, Stop: compiler.StageAST})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(ast.PrintC(r.AST, ast.PrintOptions{}))
	// Output:
	// producer: a buffer at the root, dimensions folded to [2 0]
	// // promote[producer]
	// {
	//   float (*producer)[C + 1] = malloc(sizeof(float) * (2) * (C + 1)); // from [0, 0], folded [2, 0]
	//   if (C >= 1)
	//     for (int c0 = 0; c0 < R; c0 += 1) {
	//       for (int c1 = c0; c1 <= c0 + 1; c1 += 1)
	//         for (int c2 = c1 - c0; c2 <= min(c1 + C - 1, C); c2 += 1)
	//           if (c0 == 0 || (c2 == c1 - c0 && c0 >= 1) || (c1 == c0 + 1 && c0 >= 1 && c2 >= 2))
	//             producer_s0(c1, c2);
	//       for (int c1 = 0; c1 < C; c1 += 1)
	//         consumer_s0(c0, c1);
	//     }
	//   free(producer);
	// }
}
