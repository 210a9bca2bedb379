package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func init() {
	// The tests' commands run on a loaded machine, where any phase may
	// pass a second: they stay quiet unless a test asks for the lines.
	progressAfter = time.Hour
}

// lockedBuffer is a bytes.Buffer for writers on several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressPhase: a phase shows nothing when it is quick, a notice
// once it passes the threshold and its time when it ends.
func TestProgressPhase(t *testing.T) {
	for _, tc := range []struct {
		name   string
		after  time.Duration
		notice bool
		sleep  time.Duration
		want   string // a regular expression for the whole output
	}{
		{"quick", time.Hour, true, 0, ``},
		{"slow", 20 * time.Millisecond, true, 150 * time.Millisecond, `^tilefuse run: opt/llc \.\.\.\ntilefuse run: opt/llc 1[0-9.]+ ms\n$`},
		{"slow without notice", 20 * time.Millisecond, false, 60 * time.Millisecond, `^tilefuse run: opt/llc [0-9.]+ ms\n$`},
		{"every phase", 0, false, 0, `^tilefuse run: opt/llc [0-9.]+ (ns|µs|ms)\n$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out lockedBuffer
			p := &progress{w: &out, cmd: "run", after: tc.after, notice: tc.notice}
			end := p.phase("opt/llc")
			time.Sleep(tc.sleep)
			d := end()
			if d < tc.sleep {
				t.Errorf("phase time %v, slept %v", d, tc.sleep)
			}
			end() // a second end prints nothing more
			if tc.notice && tc.after < time.Second {
				time.Sleep(2 * tc.after) // no notice after the end
			}
			if got := out.String(); !regexp.MustCompile(tc.want).MatchString(got) {
				t.Errorf("output %q, want %q", got, tc.want)
			}
		})
	}
}

// TestProgressTimedCalls: only the slow timed calls are shown, each with
// its number.
func TestProgressTimedCalls(t *testing.T) {
	var out lockedBuffer
	p := &progress{w: &out, cmd: "run", after: time.Second}
	p.timedCalls("gcc ", []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 2 * time.Second})
	want := "tilefuse run: gcc timed call 2 of 3 1.50 s\ntilefuse run: gcc timed call 3 of 3 2.00 s\n"
	if got := out.String(); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestProgressLines runs compile and run with every phase shown (the
// threshold 0) and checks the phase lines' form: "tilefuse CMD: PHASE
// TIME", the compiler's stages, runner's phases and the gcc build's.
func TestProgressLines(t *testing.T) {
	old := progressAfter
	progressAfter = 0
	defer func() { progressAfter = old }()
	phase := `(schedule|tile|fuse|map|ast|emit|opt/llc|harness and link|warm-up and timed calls|reference|timed call \d+ of \d+|gcc (build|harness and link|warm-up and timed calls|timed call \d+ of \d+))`
	line := regexp.MustCompile(`^tilefuse (compile|run): ` + phase + ` [0-9.]+ (ns|µs|ms|s)$`)
	for _, tc := range []struct {
		name      string
		toolchain bool
		args      []string
		want      []string // phases that must show
	}{
		{"compile", false, []string{"compile", "-o", "OUT", "polybench/gemm"}, []string{"schedule", "ast", "emit"}},
		{"compile -c", true, []string{"compile", "-c", "-o", "OUT", "polybench/gemm"}, []string{"schedule", "opt/llc"}},
		{"run", true, []string{"run", "--repeat", "2", "polybench/gemm"}, []string{"schedule", "opt/llc", "harness and link", "warm-up and timed calls", "timed call 2 of 2", "gcc build", "gcc timed call 1 of 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.toolchain {
				needToolchain(t)
			}
			args := append([]string{}, tc.args...)
			for i, a := range args {
				if a == "OUT" {
					args[i] = t.TempDir() + "/out"
				}
			}
			_, stderr, status := runCmd("", args...)
			if status != exitOK {
				t.Fatalf("status %d: %s", status, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			for _, l := range lines {
				if !line.MatchString(l) {
					t.Errorf("line %q is no phase line", l)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, ": "+w+" ") {
					t.Errorf("no line for %s in\n%s", w, stderr)
				}
			}
		})
	}
}

// TestInterruptible: SIGINT cancels the context and is reported; the
// exit status is 128 plus the signal's number.
func TestInterruptible(t *testing.T) {
	ctx, stop, caught := interruptible()
	defer stop()
	if caught() != nil {
		t.Fatal("a signal before any was sent")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Skip(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	if s := caught(); s != os.Interrupt {
		t.Errorf("caught %v, want interrupt", s)
	}
	if st := signalStatus(caught()); st != 130 {
		t.Errorf("status %d, want 130", st)
	}
}
