package bench

import (
	"context"
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

// TestInterleaved: the columns' runs alternate, round after round, each
// round starting one column later than the one before, each
// a process of its own (a peer compiler that adds a constructor logging
// the column's name at every process start shows the order), and each
// cell gets Repeat times.
func TestInterleaved(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("skipping: no gcc")
	}
	ld, err := exec.LookPath("ld")
	if err != nil {
		t.Skip("skipping: no ld")
	}
	p, err := cparse.ParseFunc("k.c", []byte(smallKernel), "k")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	tagging := func(name string) string {
		return script(t, dir, name+"cc", `prev=""
for a; do if [ "$prev" = -o ]; then out=$a; fi; prev=$a; done
`+gcc+` "$@" || exit 1
printf '#include <stdio.h>\n__attribute__((constructor)) static void tag(void) { FILE *f = fopen("`+log+`", "a"); fputs("`+name+`\\n", f); fclose(f); }\n' > "$out.tag.c"
`+gcc+` -c -o "$out.tag.o" "$out.tag.c" && `+ld+` -r -o "$out.both.o" "$out" "$out.tag.o" && mv "$out.both.o" "$out"
`)
	}
	cfg := Config{
		Suite: "test", Baseline: "a", Threads: 1, Warmup: 1, Repeat: 3, Toolchain: tc,
		Peers: []PeerSpec{
			{Name: "a", CC: tagging("a"), Flags: []string{"-O2"}},
			{Name: "b", CC: tagging("b"), Flags: []string{"-O2"}},
		},
	}
	tab := Run(cfg, []*Benchmark{{Name: "k", Source: "k.c", Size: "n=100", Prog: p, Func: "k", Params: map[string]int64{"n": 100}}})
	for j, c := range tab.Rows[0].Cells {
		if c.Status != OK || len(c.Times) != 3 || c.Median <= 0 {
			t.Errorf("%s: %+v", tab.Columns[j].Name, c)
		}
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Fields(string(data)), "a b b a a b"; strings.Join(got, " ") != want {
		t.Errorf("processes ran in the order %v, want %s", got, want)
	}
}

// TestRunInterrupted: a run whose Config.Context ends while a peer's
// compiler works stops at once and leaves no work directory (TMPDIR is
// the test's, empty afterwards), though a tilefuse column was built.
func TestRunInterrupted(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	p, err := cparse.ParseFunc("k.c", []byte(smallKernel), "k")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	scripts := t.TempDir()
	started := filepath.Join(scripts, "started")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := Config{
		Suite: "test", Baseline: "none", Threads: 1, Repeat: 2, Toolchain: tc, Context: ctx,
		Strategies: []compiler.Strategy{compiler.None},
		Peers:      []PeerSpec{{Name: "slow", CC: script(t, scripts, "slowcc", "touch "+started+"\nexec sleep 60\n"), Flags: []string{"-O2"}}},
	}
	// Cancel once the peer's compiler runs, not after a fixed time: on a
	// loaded machine the tilefuse column's own cc could still be running,
	// and a cc killed mid-link leaves its temporary files behind.
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	benches := []*Benchmark{
		{Name: "k", Source: "k.c", Size: "n=100", Prog: p, Func: "k", Params: map[string]int64{"n": 100}},
		{Name: "k2", Source: "k.c", Size: "n=100", Prog: p, Func: "k", Params: map[string]int64{"n": 100}},
	}
	tab := Run(cfg, benches)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %v to stop", d)
	}
	if len(tab.Rows) != 1 {
		t.Errorf("%d rows, want the one interrupted", len(tab.Rows))
	}
	es, _ := os.ReadDir(tmp)
	for _, e := range es {
		t.Errorf("left in TMPDIR: %s", e.Name())
	}
}
