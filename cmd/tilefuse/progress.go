package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/tilefuse/tilefuse/bench"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/internal/safefile"
)

// progressAfter is how long a phase of run or compile runs before it is
// shown on the standard error; tests change it.
var progressAfter = time.Second

// progress shows the slow phases of a command on its standard error: a
// line "tilefuse CMD: NAME ..." once a phase has run for after, and
// "tilefuse CMD: NAME 1.23 s" when a phase that took after or more ends.
// Quick phases print nothing, so a quick command stays quiet.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	cmd   string
	after time.Duration
	// notice is whether to say, while a phase runs, that it is under
	// way (off when after is 0, as in tests, where every phase shows).
	notice bool
}

func newProgress(w io.Writer, cmd string) *progress {
	return &progress{w: w, cmd: cmd, after: progressAfter, notice: progressAfter > 0}
}

// line writes "tilefuse CMD: " and the formatted text as one line.
func (p *progress) line(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "tilefuse %s: %s\n", p.cmd, fmt.Sprintf(format, args...))
}

// slow reports whether a phase of duration d is shown.
func (p *progress) slow(d time.Duration) bool { return d >= p.after }

// phase starts the phase name; end ends it, printing its time when it is
// slow, and returns the time.
func (p *progress) phase(name string) (end func() time.Duration) {
	start := time.Now()
	var timer *time.Timer
	if p.notice {
		timer = time.AfterFunc(p.after, func() { p.line("%s ...", name) })
	}
	var once sync.Once
	var d time.Duration
	return func() time.Duration {
		once.Do(func() {
			d = time.Since(start)
			if timer != nil {
				timer.Stop()
			}
			if p.slow(d) {
				p.line("%s %s", name, bench.FormatDuration(d))
			}
		})
		return d
	}
}

// compile runs compiler.Compile as the phase "compile": the stages that
// were slow are shown one by one (schedule, tile, fuse, map, ast, emit),
// or the whole when it was slow and none of them was.
func (p *progress) compile(ctx context.Context, j *compileJob) (*compiler.Result, error) {
	start := time.Now()
	var timer *time.Timer
	if p.notice {
		timer = time.AfterFunc(p.after, func() { p.line("compiling %s ...", j.source) })
	}
	r, err := compileIn(ctx, j.timeout, j.p, j.opts)
	total := time.Since(start)
	if timer != nil {
		timer.Stop()
	}
	shown := false
	if r != nil {
		for s := compiler.StageSchedule; s <= compiler.StageEmit; s++ {
			if d := r.Times[s]; d > 0 && p.slow(d) {
				p.line("%s %s", s, bench.FormatDuration(d))
				shown = true
			}
		}
	}
	if !shown && p.slow(total) {
		p.line("compile %s", bench.FormatDuration(total))
	}
	return r, err
}

// runnerPhaseNames are what the progress calls runner's phases.
var runnerPhaseNames = map[string]string{
	"cc":   "build",
	"link": "harness and link",
	"run":  "warm-up and timed calls",
}

// runnerPhases adapts the progress to runner.Options.Phases, with prefix
// before each phase's name ("gcc " for the gcc build's).
func (p *progress) runnerPhases(prefix string) func(string) func() {
	return func(name string) func() {
		if n, ok := runnerPhaseNames[name]; ok {
			name = n
		}
		end := p.phase(prefix + name)
		return func() { end() }
	}
}

// timedCalls shows the timed calls that were slow, one by one.
func (p *progress) timedCalls(prefix string, times []time.Duration) {
	for i, d := range times {
		if p.slow(d) {
			p.line("%stimed call %d of %d %s", prefix, i+1, len(times), bench.FormatDuration(d))
		}
	}
}

// interruptible returns a context that SIGINT or SIGTERM cancels, so
// that a command stops its tools and removes its work files on the way
// out; stop ends the watch, and caught is the signal received (nil when
// none). After the first signal, a second one has its default effect.
func interruptible() (ctx context.Context, stop func(), caught func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var mu sync.Mutex
	var got os.Signal
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			mu.Lock()
			got = s
			mu.Unlock()
			signal.Stop(ch)
			cancel()
		case <-done:
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	caught = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	return ctx, stop, caught
}

// signalStatus is the exit status of a command stopped by s: 128 plus
// the signal's number, as a shell reports a process killed by it.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitCheck
}

// writeWhole writes data to the user's file name with safefile.Write:
// never half-written, never a device replaced, errors about name.
func writeWhole(name string, data []byte) error {
	return safefile.Write(name, data)
}
