package randprog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/runner"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
	"github.com/tilefuse/tilefuse/tiling"
)

// Combo is one way of compiling a program.
type Combo struct {
	Strategy compiler.Strategy
	Tile     tiling.Policy
	Target   Target
}

func (c Combo) String() string {
	tile := "untiled"
	if c.Tile.Sizes != nil {
		tile = "tile " + tiling.FormatSizes(c.Tile.Sizes)
		if c.Tile.Separate {
			tile += " separate"
		}
	}
	return fmt.Sprintf("strategy %v, %s, target %v", c.Strategy, tile, c.Target)
}

// Options of a compilation in this combination (CPU code parallel).
func (c Combo) Options(fn string) compiler.Options {
	return compiler.Options{
		Strategy: c.Strategy, Tile: c.Tile, Target: c.Target.Target, GPU: c.Target.GPU,
		Parallel: c.Target.Target == emit.CPU, Func: fn,
	}
}

// Target is a target with its GPU launch bounds.
type Target struct {
	emit.Target
	GPU gpumap.Sizes
}

func (t Target) String() string {
	if t.GPU.Threads == nil && t.GPU.Blocks == nil {
		return t.Target.String()
	}
	return fmt.Sprintf("%v (threads %s, blocks %s)", t.Target, tiling.FormatSizes(t.GPU.Threads), tiling.FormatSizes(t.GPU.Blocks))
}

// Tiles are the tilings of the campaign: none, 4 for every member, 3
// then 5, and 4 with full and partial tiles separated.
var Tiles = []tiling.Policy{{}, {Sizes: []int64{4}}, {Sizes: []int64{3, 5}}, {Sizes: []int64{4}, Separate: true}}

// Targets are the campaign's targets: the host, the emulated GPU mapping
// with the default launch bounds, and with bounds so small (threads
// 4 × 2, blocks 2 × 2) that the mapping strip-mines the small programs'
// loops.
var Targets = []Target{
	{Target: emit.CPU},
	{Target: emit.CUDAEmulate},
	{Target: emit.CUDAEmulate, GPU: gpumap.Sizes{Threads: []int64{4, 2}, Blocks: []int64{2, 2}}},
}

// Combos lists every strategy × tiling × target (not strategy schedule:
// a random C program has no call schedule).
func Combos() []Combo {
	var out []Combo
	for _, s := range compiler.Strategies() {
		if s == compiler.Schedule {
			continue
		}
		for _, tile := range Tiles {
			for _, tg := range Targets {
				out = append(out, Combo{s, tile, tg})
			}
		}
	}
	return out
}

// Failure is a combination that did not compute the reference's arrays:
// a compilation error or panic, an interpreter error, different arrays,
// or (natively) a build or run failure or a wrong result.
type Failure struct {
	Seed  int64
	Combo Combo
	// Stage is "parse", "reference", "compile", "interp", "compare",
	// "native" or "native-compare".
	Stage string
	Err   string
}

func (f Failure) String() string {
	return fmt.Sprintf("seed %d, %v: %s: %s", f.Seed, f.Combo, f.Stage, f.Err)
}

// Stats counts what Check did.
type Stats struct {
	Programs, Combos, Native int
	Compile, Interp, Build   time.Duration
	// Limits are the combinations whose compilation stopped at a limit
	// (compiler.LimitError: the operation budget, the scheduler's work,
	// the AST's nodes) with its clear message and no code: a bounded
	// refusal, not a wrong result, so they are counted, not failures.
	Limits []Failure
}

// Add accumulates o into s.
func (s *Stats) Add(o Stats) {
	s.Programs += o.Programs
	s.Combos += o.Combos
	s.Native += o.Native
	s.Compile += o.Compile
	s.Interp += o.Interp
	s.Build += o.Build
	s.Limits = append(s.Limits, o.Limits...)
}

// Checker compiles programs and compares their results with the
// reference executor's.
type Checker struct {
	// Combos to check (default: Combos()).
	Combos []Combo
	// Toolchain, when set, builds and runs natively the combinations
	// Native selects (by index in Combos); the others are executed by
	// the AST interpreter (ast/interp), whose statement bodies are the
	// reference executor's, so that the AST's loops and guards are what
	// is checked. Every combination is compiled through emission.
	Toolchain *runner.Toolchain
	Native    func(p *Program, i int) bool
	// Adjust, when set, changes the options of each compilation (a test
	// of the checker compiles an illegal tree with it).
	Adjust func(*compiler.Options)
	// Timeout bounds each compilation (0: one minute; negative: no
	// deadline, so that compilations in several goroutines run at once:
	// one with a deadline is exclusive in the process).
	Timeout time.Duration
}

// Source parses a generated program.
func (p *Program) Parse() (*scop.Program, error) {
	return cparse.ParseFunc(p.Func+".c", []byte(p.Source), p.Func)
}

// Check runs every combination on p and returns the failures.
func (c *Checker) Check(p *Program) ([]Failure, Stats) {
	st := Stats{Programs: 1}
	fail := func(co Combo, stage string, err any) []Failure {
		return []Failure{{Seed: p.Seed, Combo: co, Stage: stage, Err: fmt.Sprint(err)}}
	}
	prog, err := p.Parse()
	if err != nil {
		return fail(Combo{}, "parse", err), st
	}
	if err := runner.CheckBounds(prog, p.Params); err != nil {
		return fail(Combo{}, "reference", err), st
	}
	in, err := charness.Inputs(prog, p.Params)
	if err != nil {
		return fail(Combo{}, "reference", err), st
	}
	want := clone(in)
	if err := refexec.Run(prog, p.Params, want); err != nil {
		return fail(Combo{}, "reference", err), st
	}
	combos := c.Combos
	if combos == nil {
		combos = Combos()
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	var expected *runner.Expected
	var out []Failure
	for i, co := range combos {
		st.Combos++
		start := time.Now()
		ctx, cancel := context.Background(), func() {}
		if timeout > 0 {
			ctx, cancel = context.WithTimeout(ctx, timeout)
		}
		opts := co.Options(p.Func)
		if c.Adjust != nil {
			c.Adjust(&opts)
		}
		r, err := compiler.Compile(ctx, prog, opts)
		cancel()
		st.Compile += time.Since(start)
		var limit *compiler.LimitError
		if errors.As(err, &limit) {
			st.Limits = append(st.Limits, fail(co, "limit", err)...)
			continue
		}
		if err != nil {
			out = append(out, fail(co, "compile", err)...)
			continue
		}
		start = time.Now()
		got := clone(in)
		_, err = interp.Run(r.Program, r.AST, p.Params, got)
		st.Interp += time.Since(start)
		if err != nil {
			out = append(out, fail(co, "interp", err)...)
			continue
		}
		if d := diff(prog, want, got); d != "" {
			out = append(out, fail(co, "compare", d)...)
			// The native run is still made, when selected: the two
			// oracles are independent.
		}
		if c.Toolchain == nil || c.Native == nil || !c.Native(p, i) {
			continue
		}
		st.Native++
		start = time.Now()
		if expected == nil {
			expected = &runner.Expected{Reference: runner.RefExec, Arrays: want}
		}
		res, err := c.Toolchain.Run(prog, runner.Kernel{IR: r.Module.IR, Func: p.Func}, runner.Options{
			Params: p.Params, Threads: 2, Warmup: -1, Repeat: 1, Expected: expected, Timeout: max(timeout, time.Minute),
		})
		st.Build += time.Since(start)
		if err != nil {
			out = append(out, fail(co, "native", err)...)
			continue
		}
		if !res.Check.Bitwise {
			out = append(out, fail(co, "native-compare", res.Check)...)
		}
	}
	return out, st
}

func clone(in map[string]*scop.Buffer) map[string]*scop.Buffer {
	out := map[string]*scop.Buffer{}
	for name, b := range in {
		out[name] = b.Clone()
	}
	return out
}

// diff names the live-out arrays of got that differ from want bit for
// bit ("" when none does).
func diff(p *scop.Program, want, got map[string]*scop.Buffer) string {
	var bad []string
	for _, a := range p.Arrays {
		if !a.LiveOut {
			continue
		}
		if !bytes.Equal(want[a.Name].Data, got[a.Name].Data) {
			bad = append(bad, a.Name)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	return "live-out arrays " + strings.Join(bad, ", ") + " differ from the reference executor's"
}
