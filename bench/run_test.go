package bench

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/runner"
)

const smallKernel = `
void k(int n, double A[100], double B[100])
{
  for (int i = 0; i < n; i++)
    A[i] = A[i] * 2.0 + 1.0;
  for (int i = 1; i < n - 1; i++)
    B[i] = A[i - 1] + A[i] + A[i + 1];
}
`

// script writes an executable shell script into dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRun runs a small kernel under a tilefuse strategy and peers of
// every fate: right, wrong, failing to build, missing; a strategy that
// fails to compile, one that takes too long, and a benchmark that could
// not be prepared.
func TestRun(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("skipping: no gcc")
	}
	p, err := cparse.ParseFunc("k.c", []byte(smallKernel), "k")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// Polly's stand-in: gcc without the -mllvm options.
	fakeClang := script(t, dir, "clang-14", `args=""
skip=0
for a in "$@"; do
  if [ $skip = 1 ]; then skip=0; continue; fi
  if [ "$a" = -mllvm ]; then skip=1; continue; fi
  args="$args $a"
done
exec `+gcc+` $args
`)
	// A compiler that gets the sum wrong: the C source's last argument.
	wrong := script(t, dir, "wrongcc", `for a; do src=$a; done
sed 's/ + A/ - A/' "$src" > "$src.wrong.c" && mv "$src.wrong.c" "$src"
exec `+gcc+` "$@"
`)
	broken := script(t, dir, "brokencc", "echo 'brokencc: internal compiler error' >&2\nexit 1\n")

	look := func(name string) (string, error) {
		switch name {
		case "gcc":
			return gcc, nil
		case "clang-14":
			return fakeClang, nil
		}
		return "", errors.New("not found")
	}
	peers, err := Peers([]string{"gcc", "polly"}, PeerOptions{Look: look})
	if err != nil {
		t.Fatal(err)
	}
	peers = append(peers,
		PeerSpec{Name: "wrong", CC: wrong, Flags: []string{"-O2"}},
		PeerSpec{Name: "broken", CC: broken, Flags: []string{"-O2"}},
		PeerSpec{Name: "missing", Missing: "nonesuch-cc"},
	)
	// The default compilation (compiler.Compile in process) for none, a
	// failing one for max.
	var cfg Config
	compile := func(ctx context.Context, b *Benchmark, s compiler.Strategy) (string, error) {
		if s == compiler.Max {
			return "", errors.New("scheduler: no legal schedule")
		}
		return cfg.compile(ctx, b, s)
	}
	var progress strings.Builder
	cfg = Config{
		Suite: "test", Strategies: []compiler.Strategy{compiler.None, compiler.Max}, Compile: compile, Peers: peers, Baseline: "gcc",
		Threads: 2, Repeat: 2, Timeout: time.Minute, Toolchain: tc,
		Progress: NewProgress(&progress, false),
	}
	benches := []*Benchmark{
		{Name: "k", Source: "k.c", Size: "n=100", Prog: p, Func: "k", Params: map[string]int64{"n": 100}},
		{Name: "bad", Size: "?", Err: errors.New("no value for parameter n")},
	}
	tab := Run(cfg, benches)

	want := [][]Status{
		{OK, BuildFailed, OK, OK, Wrong, BuildFailed, NotInstalled},
		{Failed, Failed, Failed, Failed, Failed, Failed, Failed},
	}
	for i, r := range tab.Rows {
		for j, c := range r.Cells {
			if c.Status != want[i][j] {
				t.Errorf("%s, %s: %s (%s), want %s", r.Name, tab.Columns[j].Name, c.Status, c.Err, want[i][j])
			}
		}
	}
	row := tab.Rows[0].Cells
	if c := row[0]; c.Compile <= 0 || len(c.Times) != 2 || c.Median <= 0 || !strings.Contains(c.Check, "bit for bit") {
		t.Errorf("none: %+v", c)
	}
	if _, ok := tab.Ratio(0, 0); !ok {
		t.Error("no ratio for none")
	}
	for j, sub := range map[int]string{1: "no legal schedule", 4: "WRONG", 5: "internal compiler error", 6: "nonesuch-cc not found"} {
		if !strings.Contains(row[j].Err, sub) {
			t.Errorf("%s: error %q lacks %q", tab.Columns[j].Name, row[j].Err, sub)
		}
	}
	if !strings.Contains(tab.Rows[1].Cells[0].Err, "no value for parameter n") {
		t.Errorf("bad: %q", tab.Rows[1].Cells[0].Err)
	}
	if n := strings.Count(progress.String(), "\n"); n != 14 {
		t.Errorf("%d progress lines, want 14:\n%s", n, progress.String())
	}
	// polly is Polly's serial default (pattern matching on): one thread.
	if d := tab.Columns[3].Description; !strings.Contains(d, "clang-14 -O3 -march=native -mllvm -polly -ffp-contract=off, 1 thread") {
		t.Errorf("polly's description: %q", d)
	}

	// A compilation that outlives the timeout is stopped.
	cfg.Strategies, cfg.Peers, cfg.Timeout = []compiler.Strategy{compiler.Min}, nil, 100*time.Millisecond
	cfg.Compile = func(ctx context.Context, b *Benchmark, s compiler.Strategy) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}
	cfg.Progress = nil
	tab = Run(cfg, benches[:1])
	if c := tab.Rows[0].Cells[0]; c.Status != TimedOut {
		t.Errorf("slow compilation: %+v", c)
	}
}

func TestParallelC(t *testing.T) {
	p, err := cparse.ParseFunc("k.c", []byte(smallKernel), "k")
	if err != nil {
		t.Fatal(err)
	}
	src, err := ParallelC(p, "kernel_k")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(src, "#pragma omp parallel for") != 2 || !strings.Contains(src, "void kernel_k(int n") {
		t.Errorf("naive C:\n%s", src)
	}
}

func TestPeers(t *testing.T) {
	none := func(string) (string, error) { return "", errors.New("not found") }
	ps, err := Peers(PeerNames, PeerOptions{Look: none})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.CC != "" || p.Missing == "" || !strings.HasPrefix(p.description(4), "not installed (") {
			t.Errorf("%+v: %s", p, p.description(4))
		}
	}
	if !ps[1].Serial || ps[0].Serial {
		t.Errorf("gcc-serial is the serial one: %+v", ps)
	}
	for _, contract := range []bool{false, true} {
		ps, _ := Peers([]string{"gcc"}, PeerOptions{Contract: contract, Look: func(string) (string, error) { return "/usr/bin/gcc", nil }})
		if got := strings.Join(ps[0].Flags, " "); got != map[bool]string{false: "-O3 -march=native -fopenmp -ffp-contract=off", true: "-O3 -march=native -fopenmp"}[contract] {
			t.Errorf("contract %v: flags %s", contract, got)
		}
	}
	if _, err := Peers([]string{"icc"}, PeerOptions{Look: none}); err == nil || !strings.Contains(err.Error(), `unknown peer "icc"`) {
		t.Errorf("unknown peer: %v", err)
	}
}
