package bench

import (
	"time"

	"github.com/tilefuse/tilefuse/bench/halide"
	"github.com/tilefuse/tilefuse/runner"
)

// halideOptions are the build options of a Halide peer's pipeline for b
// (nil: none, for the legend) on threads threads.
func (p PeerSpec) halideOptions(b *Benchmark, threads int) halide.Options {
	// The apps are timed only, so they are built as their users build
	// them, without strict_float.
	o := halide.Options{Schedule: p.Schedule, Threads: threads, StrictFloat: !p.Contract && p.HalideSrc == ""}
	if b != nil {
		o.Params = b.Params
	}
	return o
}

// prepareHalide builds b's Halide pipeline for the peer p and its
// harness; nil and the cell when it fails or b has no generator (a cell
// that is not a failure). Building the generator and the pipeline is
// part of the cell's build, under Timeout.
//
// The halide-app peer (p.HalideSrc set) builds Halide's own app instead,
// and its cell is timed only: the app's algorithm is not the port's, so
// its arrays cannot equal the reference (halide.App.Differs says why).
func (cfg *Config) prepareHalide(b *Benchmark, p PeerSpec, exp *runner.Expected) (*builtCell, Cell) {
	app, hasApp := halide.AppOf(b.Name)
	switch {
	case p.HalideSrc != "" && !hasApp:
		return nil, Cell{Status: NoGenerator, Err: "no Halide app for " + b.Name}
	case p.HalideSrc == "" && !halide.Has(b.Name):
		return nil, Cell{Status: NoGenerator, Err: "no Halide generator for " + b.Name}
	}
	ctx, cancel := cfg.buildCtx()
	defer cancel()
	start := time.Now()
	o := p.halideOptions(b, cfg.Threads)
	var k runner.Kernel
	var err error
	if p.HalideSrc != "" {
		k, err = p.Halide.AppKernel(ctx, p.HalideSrc, b.Name, b.Func, o)
		exp = nil
	} else {
		k, err = p.Halide.Kernel(ctx, b.Name, b.Func, o)
	}
	if err != nil {
		return nil, cfg.failure(err, time.Since(start), "building")
	}
	gen := time.Since(start)
	bc, c := cfg.prepare(b, k, exp, cfg.Threads, cfg.Tolerance)
	if bc != nil {
		bc.compile = gen + bc.pr.Build
		bc.halideTarget = o.Target()
		if exp == nil {
			bc.unchecked = "timed only: Halide's app " + app.Dir + " is another algorithm (" + app.Differs + ")"
		}
	}
	return bc, c
}
