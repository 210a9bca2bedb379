package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/bench"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling/tune"
)

// calibrationRuns are the micro-benchmark of tune --calibrate: two
// pipelines of other access profiles (harris: many loads per point from
// two fused stages; unsharp_mask: few, over three channels) at 1024 x
// 1024, each at tile sizes whose working sets span the cache levels.
var (
	calibrationPipelines = []string{"harris", "unsharp_mask"}
	calibrationSizes     = [][]int64{{8, 8}, {8, 256}, {16, 64}, {32, 32}, {32, 256}, {64, 512}, {128, 128}, {256, 16}, {512, 512}}
	calibrationParams    = map[string]int64{"R": 1024, "C": 1024}
)

// calibrate runs the micro-benchmark on threads threads, fits the
// model's constants to its times (tune.Fit) and saves them for the
// machine, where tune then finds them.
func calibrate(ctx context.Context, w io.Writer, tc *runner.Toolchain, threads int, prog *bench.Progress) (*tune.Calibration, error) {
	m := tune.ReadMachine("/sys", threads)
	type run struct {
		name     string
		features []float64
		pr       *runner.Prepared
		times    []time.Duration
	}
	var runs []*run
	defer func() {
		for _, r := range runs {
			r.pr.Close()
		}
	}()
	prog.Begin(len(calibrationPipelines) * len(calibrationSizes))
	defer prog.End()
	for _, name := range calibrationPipelines {
		e, ok := polymage.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("no pipeline %s", name)
		}
		p, err := e.Build()
		if err != nil {
			return nil, err
		}
		opts := compiler.Options{Strategy: compiler.Post, Parallel: true, Estimate: calibrationParams, Func: name}
		ref := opts
		ref.Stop = compiler.StageFuse
		r, err := compiler.Compile(ctx, p, ref)
		if err != nil {
			return nil, err
		}
		shape, err := tune.ShapeOf(r.Fusion, r.Program, calibrationParams)
		if err != nil {
			return nil, err
		}
		inputs, err := e.Inputs(p, calibrationParams, 1)
		if err != nil {
			return nil, err
		}
		exp, err := tc.ExpectContext(ctx, p, runner.Options{Params: calibrationParams, Inputs: inputs})
		if err != nil {
			return nil, err
		}
		for _, inner := range calibrationSizes {
			row := name + " " + sizesName(inner)
			prog.Start(row, "")
			o := opts
			o.InnerTile = inner
			cr, err := compiler.Compile(ctx, p, o)
			if err != nil {
				return nil, err
			}
			pr, err := tc.Prepare(ctx, p, runner.Kernel{IR: cr.Module.IR, Func: cr.Module.Func}, runner.Options{
				Params: calibrationParams, Inputs: inputs, Expected: exp, Threads: threads,
			})
			if err != nil {
				return nil, err
			}
			runs = append(runs, &run{name: row, features: tune.Features(shape, m, inner).Features, pr: pr})
			times, got, err := pr.Execute(ctx, 1, 1)
			if err != nil {
				return nil, err
			}
			chk, err := pr.Check(ctx, got)
			if err != nil {
				return nil, err
			}
			if chk != nil && !chk.OK() {
				return nil, fmt.Errorf("%s: wrong result: %s", row, chk)
			}
			prog.Done(row, "", bench.Cell{Status: bench.OK, Median: times[0]})
		}
	}
	prog.Note("%d interleaved rounds", finalRounds)
	for range finalRounds {
		for _, r := range runs {
			times, err := r.pr.Time(ctx, 1, 1)
			if err != nil {
				return nil, err
			}
			r.times = append(r.times, times...)
		}
	}
	var samples []tune.Sample
	for _, r := range runs {
		samples = append(samples, tune.Sample{Features: r.features, Seconds: bench.Median(r.times).Seconds()})
	}
	tuned, names, skipped := recordSamples(ctx, m)
	for _, s := range skipped {
		prog.Note("%s", s)
	}
	costs, k, err := tune.Fit(append(slices.Clip(samples), tuned...), tune.DefaultCosts)
	if err != nil {
		return nil, err
	}
	var errs []float64
	fmt.Fprintf(w, "calibration on %s: %d runs\n", m, len(runs))
	fmt.Fprintf(w, "  %-22s %10s %10s\n", "run", "measured", "model")
	for i, r := range runs {
		pred := k * costs.Of(samples[i].Features)
		errs = append(errs, math.Abs(pred-samples[i].Seconds)/samples[i].Seconds)
		fmt.Fprintf(w, "  %-22s %10s %10s\n", r.name, bench.FormatDuration(bench.Median(r.times)), bench.FormatDuration(time.Duration(pred*1e9)))
	}
	if len(tuned) > 0 {
		var terrs []float64
		for _, s := range tuned {
			terrs = append(terrs, math.Abs(k*costs.Of(s.Features)-s.Seconds)/s.Seconds)
		}
		slices.Sort(terrs)
		fmt.Fprintf(w, "  and %d trials of the programs tuned on this machine, at their own sizes (%s): median error %.1f%%\n",
			len(tuned), strings.Join(names, ", "), 100*terrs[len(terrs)/2])
		errs = append(errs, terrs...)
	}
	slices.Sort(errs)
	c := &tune.Calibration{Machine: m.String(), Costs: costs, Seconds: k, Samples: len(samples) + len(tuned), MedError: errs[len(errs)/2]}
	fmt.Fprintf(w, "constants (per arithmetic operation): load L1 %.3g, L2 %.3g, L3 %.3g, memory %.3g; tile %.3g, row %.3g\n",
		costs.L1, costs.L2, costs.L3, costs.Memory, costs.Tile, costs.Row)
	fmt.Fprintf(w, "median error of the model's times: %.1f%%\n", 100*c.MedError)
	return c, nil
}

// recordSamples are the trials of the programs tuned on m (tune's
// records in the cache), each at the sizes it was tuned at: the model's
// features of every trial that ran and verified, against its median
// time. The micro-benchmark runs at 1024 x 1024; these tell the fit
// what the run sizes cost. A record whose source is gone or has changed
// (its program digest differs) is skipped, and said so in skipped.
func recordSamples(ctx context.Context, m tune.Machine) (samples []tune.Sample, names, skipped []string) {
	dir, err := tune.Dir()
	if err != nil {
		return nil, nil, nil
	}
	recs, err := tune.Records(dir, m)
	if err != nil {
		return nil, nil, []string{"tuned programs not read: " + err.Error()}
	}
	for _, rec := range recs {
		if rec.Strategy != compiler.Post.String() {
			continue
		}
		progs, err := loadPrograms(rec.Source, "")
		var p *scop.Program
		for _, q := range progs {
			if tune.Digest(q.String()) == rec.Program {
				p = q
			}
		}
		if err != nil || p == nil {
			skipped = append(skipped, fmt.Sprintf("tuned %s skipped: its source is gone or has changed since", rec.Source))
			continue
		}
		r, err := compiler.Compile(ctx, p, compiler.Options{Strategy: compiler.Post, Parallel: true, Estimate: rec.Params, Stop: compiler.StageFuse})
		var shape tune.Shape
		if err == nil {
			shape, err = tune.ShapeOf(r.Fusion, r.Program, rec.Params)
		}
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("tuned %s skipped: %s", rec.Source, oneLine(err)))
			continue
		}
		n := 0
		for _, t := range rec.Trials {
			if t.Median > 0 && t.Err == "" && len(t.Sizes) == shape.Tuned() {
				samples = append(samples, tune.Sample{Features: tune.Features(shape, m, t.Sizes).Features, Seconds: t.Median.Seconds()})
				n++
			}
		}
		if n > 0 {
			names = append(names, rec.Source)
		}
	}
	return samples, names, skipped
}
