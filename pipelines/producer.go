package pipelines

import (
	"tilefuse/frontend/dsl"
	"tilefuse/scop"
)

// The default size of ProducerConsumer's output.
const (
	PCRows = 1024
	PCCols = 1024
)

// ProducerConsumer is the Halide tutorial's multi-stage example:
//
//	producer(x, y) = sin(x * y)
//	consumer(x, y) = (producer(x, y) + producer(x, y+1) + producer(x+1, y) + producer(x+1, y+1)) / 4
//
// x * y is an i32 value (not a subscript) converted to f32 before sin, as
// in Halide. consumer is R x C; producer, a temporary, is (R+1) x (C+1)
// (the tutorial's 5 x 5 producer_storage for a 4 x 4 result). Parameters
// R and C (at least 1) default to PCRows and PCCols.
func ProducerConsumer() (*scop.Program, error) {
	p := dsl.NewPipeline("producer_consumer")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	x, y := p.Var("x"), p.Var("y")

	producer := p.Func("producer", dsl.F32, x.In(0, R.Add(1)), y.In(0, C.Add(1)))
	producer.Define(dsl.Sin(x.Mul(y)))

	consumer := p.Func("consumer", dsl.F32, x.In(0, R), y.In(0, C))
	consumer.Define(dsl.Add(
		producer.At(x, y), producer.At(x, y.Add(1)),
		producer.At(x.Add(1), y), producer.At(x.Add(1), y.Add(1)),
	).Div(4))

	p.Output(consumer)
	return p.Build()
}
