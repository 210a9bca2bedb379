package runner

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// TestRunCancelled: a run whose context ends, at whatever phase, stops
// at once with an error wrapping context.Canceled and leaves no work
// directory behind (TMPDIR is a test directory, empty afterwards).
func TestRunCancelled(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	const (
		good  = "void saxpy(int n, float a, float *x, float *y) { for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i]; }\n"
		sleep = "#include <unistd.h>\nvoid saxpy(int n, float a, float *x, float *y) { sleep(60); }\n"
	)
	for _, tc2 := range []struct {
		name   string
		cancel string // the phase whose start cancels; "" cancels before the run
		src    string
		expect bool // ExpectContext instead of RunContext
	}{
		{"before", "", good, false},
		{"building", "cc", good, false},
		{"linking", "link", good, false},
		{"running", "run", sleep, false},
		{"reference", "reference", good, false},
		{"expect", "reference", good, true},
	} {
		t.Run(tc2.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc2.cancel == "" {
				cancel()
			}
			var seen []string
			opts := Options{Params: map[string]int64{"n": 1000}, Repeat: 1, Reference: RefC,
				Phases: func(name string) func() {
					seen = append(seen, name)
					if name == tc2.cancel {
						cancel()
					}
					return nil
				}}
			start := time.Now()
			if tc2.expect {
				_, err = tc.ExpectContext(ctx, saxpy, opts)
			} else {
				_, err = tc.RunContext(ctx, saxpy, Kernel{C: tc2.src, Func: "saxpy"}, opts)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want one wrapping context.Canceled", err)
			}
			var ke *KernelError
			if errors.As(err, &ke) {
				t.Errorf("a cancelled run is a *KernelError: %v", err)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v to stop", d)
			}
			if tc2.cancel != "" && !slices.Contains(seen, tc2.cancel) {
				t.Errorf("phases %v, never %s", seen, tc2.cancel)
			}
			es, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range es {
				t.Errorf("left in TMPDIR: %s", e.Name())
			}
		})
	}
}

// TestRunPhases: Options.Phases hears of every phase, in order, each
// ended before the next starts.
func TestRunPhases(t *testing.T) {
	tc := toolchain(t)
	saxpy, err := cparse.ParseFunc("saxpy.c", []byte(readFile(t, "testdata/saxpy.c")), "saxpy")
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	opts := Options{Params: map[string]int64{"n": 100}, Repeat: 2, Reference: RefC,
		Phases: func(name string) func() {
			log = append(log, name)
			return func() { log = append(log, "/"+name) }
		}}
	src := "void saxpy(int n, float a, float *x, float *y) { for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i]; }\n"
	if _, err := tc.Run(saxpy, Kernel{C: src, Func: "saxpy"}, opts); err != nil {
		t.Fatal(err)
	}
	want := []string{"cc", "/cc", "link", "/link", "run", "/run", "reference", "/reference"}
	if !slices.Equal(log, want) {
		t.Errorf("phases %v, want %v", log, want)
	}
}
