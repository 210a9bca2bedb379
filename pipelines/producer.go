package pipelines

import (
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/scop"
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

// The schedules of the Halide tutorial's multi-stage lesson, each a
// variant of ProducerConsumer written as the tutorial writes it: rows y
// outermost, columns x innermost, producer(y, x) = sin(x * y).
var pcSchedules = []struct {
	name  string
	rows  int64
	sched func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var)
}{
	{"inline", 4, func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var) {
		producer.ComputeInline()
	}},
	{"root", 4, func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var) {
		producer.ComputeRoot()
	}},
	{"y", 4, func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var) {
		producer.ComputeAt(consumer, y)
	}},
	{"root_y", 4, func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var) {
		producer.StoreRoot().ComputeAt(consumer, y)
	}},
	{"root_x", 4, func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var) {
		producer.StoreRoot().ComputeAt(consumer, x)
	}},
	{"tile", 8, func(producer, consumer *dsl.Func, y, x, yo, xo, yi, xi dsl.Var) {
		consumer.Tile(y, x, yo, xo, yi, xi, 4, 4)
		producer.ComputeAt(consumer, xo)
	}},
}

// ScheduledProducerConsumer lists the tutorial's schedules as pipelines
// named producer_consumer_<schedule> (for --fuse schedule), at the
// tutorial's sizes: a 4 x 4 consumer, 8 x 8 for the tiled one.
func ScheduledProducerConsumer() []Entry {
	var out []Entry
	for _, s := range pcSchedules {
		name := "producer_consumer_" + s.name
		out = append(out, Entry{name, func() (*scop.Program, error) {
			p := dsl.NewPipeline(name)
			R, C := p.Param("R"), p.Param("C")
			p.Assume(R.Ge(1), C.Ge(1))
			y, x := p.Var("y"), p.Var("x")
			yo, xo, yi, xi := p.Var("yo"), p.Var("xo"), p.Var("yi"), p.Var("xi")
			producer := p.Func("producer", dsl.F32, y.In(0, R.Add(1)), x.In(0, C.Add(1)))
			producer.Define(dsl.Sin(x.Mul(y)))
			consumer := p.Func("consumer", dsl.F32, y.In(0, R), x.In(0, C))
			consumer.Define(dsl.Add(
				producer.At(y, x), producer.At(y.Add(1), x),
				producer.At(y, x.Add(1)), producer.At(y.Add(1), x.Add(1)),
			).Div(4))
			p.Output(consumer)
			s.sched(producer, consumer, y, x, yo, xo, yi, xi)
			return p.Build()
		}, map[string]int64{"R": s.rows, "C": s.rows}})
	}
	return out
}
