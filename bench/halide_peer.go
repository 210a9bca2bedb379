package bench

import (
	"time"

	"github.com/tilefuse/tilefuse/bench/halide"
	"github.com/tilefuse/tilefuse/runner"
)

// halideOptions are the build options of a Halide peer's pipeline for b
// (nil: none, for the legend) on threads threads.
func (p PeerSpec) halideOptions(b *Benchmark, threads int) halide.Options {
	o := halide.Options{Schedule: p.Schedule, Threads: threads, StrictFloat: !p.Contract}
	if b != nil {
		o.Params = b.Params
	}
	return o
}

// prepareHalide builds b's Halide pipeline for the peer p and its
// harness; nil and the cell when it fails or b has no generator (a cell
// that is not a failure). Building the generator and the pipeline is
// part of the cell's build, under Timeout.
func (cfg *Config) prepareHalide(b *Benchmark, p PeerSpec, exp *runner.Expected) (*builtCell, Cell) {
	if !halide.Has(b.Name) {
		return nil, Cell{Status: NoGenerator, Err: "no Halide generator for " + b.Name}
	}
	ctx, cancel := cfg.buildCtx()
	defer cancel()
	start := time.Now()
	o := p.halideOptions(b, cfg.Threads)
	k, err := p.Halide.Kernel(ctx, b.Name, b.Func, o)
	if err != nil {
		return nil, cfg.failure(err, time.Since(start), "building")
	}
	gen := time.Since(start)
	bc, c := cfg.prepare(b, k, exp, cfg.Threads, cfg.Tolerance)
	if bc != nil {
		bc.compile = gen + bc.pr.Build
		bc.halideTarget = o.Target()
	}
	return bc, c
}
