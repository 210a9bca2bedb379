package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/bench/halide"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/runner"
)

func TestHalidePeers(t *testing.T) {
	found := func(name string) (string, error) { return "/found/" + name, nil }
	noHalide := func(name string) (string, error) {
		if strings.HasPrefix(name, "/") {
			return "", errors.New("no such file")
		}
		return "/found/" + name, nil
	}
	type peer struct {
		Name, CC, Missing string
		Schedule          halide.Schedule
		Installed         bool
		Description       string
	}
	tests := []struct {
		name     string
		look     func(string) (string, error)
		contract bool
		want     []peer
	}{
		{"installed", found, false, []peer{
			{"halide", "/found/g++", "", halide.Manual, true, "Halide 14 generator, manual schedule, target=" + halide.HostTarget() + "-strict_float, 4 threads"},
			{"halide-auto", "/found/g++", "", halide.Auto, true, "Halide 14 generator, Mullapudi2016 autoscheduler, target=" + halide.HostTarget() + "-strict_float, 4 threads"},
		}},
		{"contracting", found, true, []peer{
			{"halide", "/found/g++", "", halide.Manual, true, "Halide 14 generator, manual schedule, target=" + halide.HostTarget() + ", 4 threads"},
			{"halide-auto", "/found/g++", "", halide.Auto, true, "Halide 14 generator, Mullapudi2016 autoscheduler, target=" + halide.HostTarget() + ", 4 threads"},
		}},
		{"missing", noHalide, false, []peer{
			{"halide", "", halide.Package, halide.Manual, false, "not installed (libhalide14-0-dev not found)"},
			{"halide-auto", "", halide.Package, halide.Auto, false, "not installed (libhalide14-0-dev not found)"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := Peers([]string{"halide", "halide-auto"}, PeerOptions{Contract: tt.contract, Look: tt.look})
			if err != nil {
				t.Fatal(err)
			}
			var got []peer
			for _, p := range ps {
				got = append(got, peer{p.Name, p.CC, p.Missing, p.Schedule, p.Halide != nil, p.description(4)})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("peers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNoGenerator runs Halide peers on a benchmark without a generator:
// their cells say so and are no failure; nothing is built.
func TestNoGenerator(t *testing.T) {
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	p, err := cparse.ParseFunc("k.c", []byte(smallKernel), "k")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Peers([]string{"halide", "halide-auto"}, PeerOptions{Look: func(name string) (string, error) { return "/nonexistent/" + name, nil }})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Suite: "test", Peers: ps, Threads: 1, Repeat: 1, Toolchain: tc}
	tab := Run(cfg, []*Benchmark{{Name: "k", Prog: p, Func: "k", Params: map[string]int64{"n": 100}}})
	for j, c := range tab.Rows[0].Cells {
		if c.Status != NoGenerator || c.Err != "no Halide generator for k" {
			t.Errorf("%s: %s (%s)", tab.Columns[j].Name, c.Status, c.Err)
		}
	}
	if n := tab.Failures(); n != 0 {
		t.Errorf("%d failures, want 0", n)
	}
}

// TestHalideAppPeer: halide-app needs a Halide source tree, is skipped as
// not installed without one, refuses a directory that is not one, and
// says in its legend that its cells are timed only.
func TestHalideAppPeer(t *testing.T) {
	found := func(name string) (string, error) { return "/found/" + name, nil }
	tree := t.TempDir()
	for _, name := range halide.Apps() {
		a, _ := halide.AppOf(name)
		f := a.AppSource(tree)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("// a generator\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, src               string
		wantErr                 string
		wantMissing, wantPrefix string
	}{
		{"no tree", "", "", NoHalideSource, "not installed (" + NoHalideSource},
		{"a tree", tree, "", "", "Halide 14's own v14 app generators from " + tree},
		{"not a tree", t.TempDir(), "is not Halide's v14 source tree: no apps/", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := Peers([]string{"halide-app"}, PeerOptions{Look: found, HalideSrc: tt.src})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := ps[0]
			if p.Missing != tt.wantMissing || !strings.HasPrefix(p.description(2), tt.wantPrefix) {
				t.Errorf("missing %q, description %q; want %q and a description starting %q", p.Missing, p.description(2), tt.wantMissing, tt.wantPrefix)
			}
			if tt.src != "" && !strings.Contains(p.description(2), "timed only") {
				t.Errorf("description %q does not say the cells are timed only", p.description(2))
			}
		})
	}
}
