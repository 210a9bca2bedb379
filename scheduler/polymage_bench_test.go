package scheduler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// scheduleCase is one program of the timing suite; check asks for the
// legality of its trees (PolyBench's are checked by TestAllLegal).
type scheduleCase struct {
	name  string
	build func(testing.TB) *scop.Program
	check bool
}

// timingCases lists the PolyMage pipelines of polymage.All (at their benchmark
// depth; parameters are symbolic) and the PolyBench kernels.
func timingCases() []scheduleCase {
	var out []scheduleCase
	for _, e := range polymage.All() {
		out = append(out, scheduleCase{e.Name, func(t testing.TB) *scop.Program {
			p, err := e.Build()
			if err != nil {
				t.Fatalf("%s: %v", e.Name, err)
			}
			return p
		}, true})
	}
	for _, k := range polybench.Kernels() {
		out = append(out, scheduleCase{k.Name, func(t testing.TB) *scop.Program {
			_, p := kernel(t, k.Name)
			return p
		}, false})
	}
	return out
}

// TestScheduleTimes schedules every PolyMage pipeline and PolyBench
// kernel under every mode (none = the original order, min, smart, max)
// and logs the time of the dependence analysis and of the schedule
// apart (the times are only logged: tests assert no wall-clock limit;
// BenchmarkPolyMage times the same schedules). The pipelines' trees must
// be valid and respect every dependence. Under FuseMax, interpolate and
// local_laplacian fuse the whole pipeline with hyperplanes scaled by 2
// per pyramid level, a band too expensive to find (see workLimit): they
// fall back to FuseSmart's rules at the root, and their trees must be
// FuseSmart's. With TILEFUSE_TREE_DIR=dir set, it writes each tree's JSON
// to dir/<program>.<mode>.json (to compare trees across changes);
// TILEFUSE_MODES=smart,max restricts the modes. Skipped in -short.
func TestScheduleTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("timing suite")
	}
	dir := os.Getenv("TILEFUSE_TREE_DIR")
	var total [4]time.Duration
	names := []string{"none", "min", "smart", "max"}
	fallback := map[string]bool{"interpolate": true, "local_laplacian": true}
	only := map[string]bool{}
	for _, m := range strings.Fields(strings.ReplaceAll(os.Getenv("TILEFUSE_MODES"), ",", " ")) {
		only[m] = true
	}
	for _, c := range timingCases() {
		t.Run(c.name, func(t *testing.T) {
			p := c.build(t)
			start := time.Now()
			g, err := deps.Memory(p)
			if err != nil {
				t.Fatal(err)
			}
			depTime := time.Since(start)
			var times [4]time.Duration
			trees := map[string]string{}
			for m, name := range names {
				if len(only) > 0 && !only[name] {
					continue
				}
				start := time.Now()
				var tr scheduletree.Tree
				if name == "none" {
					tr, err = Original(p)
				} else {
					f, _ := ParseFuse(name)
					tr, err = Schedule(p, g, Options{Fuse: f})
				}
				times[m] = time.Since(start)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				total[m] += times[m]
				if c.check {
					if err := scheduletree.Validate(tr); err != nil {
						t.Errorf("%s: invalid tree: %v", name, err)
					}
					vs, err := Check(tr, g)
					if err != nil {
						t.Fatalf("%s: Check: %v", name, err)
					}
					for _, v := range vs {
						t.Errorf("%s: %s", name, v)
					}
				}
				js, err := scheduletree.Marshal(tr)
				if err != nil {
					t.Fatal(err)
				}
				trees[name] = string(js)
				if dir != "" {
					if err := os.WriteFile(filepath.Join(dir, c.name+"."+name+".json"), js, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if fallback[c.name] && trees["max"] != "" && trees["smart"] != "" && trees["max"] != trees["smart"] {
				t.Errorf("FuseMax's tree is not FuseSmart's: the fallback at the root was not taken")
			}
			t.Logf("%-18s %4d stmts  deps %8v  none %8v  min %8v  smart %8v  max %8v", c.name, len(p.Stmts),
				depTime.Round(time.Millisecond), times[0].Round(time.Millisecond), times[1].Round(time.Millisecond),
				times[2].Round(time.Millisecond), times[3].Round(time.Millisecond))
		})
	}
	t.Logf("total: none %v  min %v  smart %v  max %v", total[0].Round(time.Millisecond), total[1].Round(time.Millisecond),
		total[2].Round(time.Millisecond), total[3].Round(time.Millisecond))
}
