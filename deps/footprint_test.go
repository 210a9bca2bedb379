package deps_test

import (
	"fmt"
	"testing"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/bigprog"
	"github.com/tilefuse/tilefuse/internal/randprog"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// memoryBothWays computes the memory-based dependences of p with
// footprint pruning and with every pair of accesses compared.
func memoryBothWays(t *testing.T, p *scop.Program) (pruned, all *deps.Graph) {
	t.Helper()
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	old := deps.SetPruneByFootprint(false)
	defer deps.SetPruneByFootprint(old)
	h, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	return g, h
}

// sameGraph reports the first difference of two graphs: their lists of
// dependences (kind, statements, array, may flag, relation, in order) and
// the unions of each kind.
func sameGraph(g, h *deps.Graph) error {
	if len(g.Deps) != len(h.Deps) {
		return fmt.Errorf("%d dependences pruned, %d with every pair", len(g.Deps), len(h.Deps))
	}
	for i, d := range g.Deps {
		e := h.Deps[i]
		if d.Kind != e.Kind || d.Source != e.Source || d.Sink != e.Sink || d.Array != e.Array || d.May != e.May {
			return fmt.Errorf("dependence %d: %v %s->%s %s may=%v pruned, %v %s->%s %s may=%v with every pair",
				i, d.Kind, d.Source, d.Sink, d.Array, d.May, e.Kind, e.Source, e.Sink, e.Array, e.May)
		}
		if !d.Rel.Identical(e.Rel) {
			return fmt.Errorf("%v %s->%s on %s: %s pruned, %s with every pair", d.Kind, d.Source, d.Sink, d.Array, d.Rel, e.Rel)
		}
	}
	for _, k := range []deps.Kind{deps.RAW, deps.WAR, deps.WAW} {
		eq, err := g.Of(k).IsEqual(h.Of(k))
		if err != nil {
			return err
		}
		if !eq {
			return fmt.Errorf("%v: %s pruned, %s with every pair", k, g.Of(k), h.Of(k))
		}
	}
	return nil
}

// sameFlow reports the first difference between the dataflow of p with
// each read's candidate writes pruned by footprint and with all of them:
// the must and may sources, the reads without one and the live-out
// writes.
func sameFlow(p *scop.Program) error {
	var got [2][]presburger.UnionMap
	for i, prune := range []bool{true, false} {
		old := deps.SetPruneByFootprint(prune)
		f, err := deps.Dataflow(p)
		var lo *deps.LastWrites
		if err == nil {
			lo, err = f.LiveOut()
		}
		deps.SetPruneByFootprint(old)
		if err != nil {
			return err
		}
		got[i] = []presburger.UnionMap{f.Must, f.May, f.MustNoSource, f.MayNoSource, lo.Must, lo.May}
	}
	names := []string{"must", "may", "must-no-source", "may-no-source", "live-out must", "live-out may"}
	for k, name := range names {
		eq, err := got[0][k].IsEqual(got[1][k])
		if err != nil {
			return err
		}
		if !eq {
			return fmt.Errorf("%s: %s pruned, %s with every write", name, got[0][k], got[1][k])
		}
	}
	return nil
}

// TestFootprintPruningExact: pairing only the accesses whose footprints
// may overlap gives the dependences and the dataflow of comparing every
// pair, on every
// PolyBench kernel, random programs of the campaign generator and
// generated straight-line programs.
func TestFootprintPruningExact(t *testing.T) {
	type program struct {
		name, src, fn string
	}
	var progs []program
	for _, k := range polybench.Kernels() {
		progs = append(progs, program{k.Name, k.Source, k.Func})
	}
	seeds := 150
	if testing.Short() {
		seeds = 20
	}
	for seed := range int64(seeds) {
		r := randprog.Generate(seed)
		progs = append(progs, program{fmt.Sprintf("randprog-%d", seed), r.Source, r.Func})
	}
	for _, n := range []int{1, 7, 60} {
		progs = append(progs, program{fmt.Sprintf("bigprog-%d", n), bigprog.Source(n), bigprog.Func})
	}
	deps := 0
	for _, pr := range progs {
		p, err := cparse.ParseFunc(pr.name+".c", []byte(pr.src), pr.fn)
		if err != nil {
			t.Fatalf("%s: %v", pr.name, err)
		}
		g, h := memoryBothWays(t, p)
		if err := sameGraph(g, h); err != nil {
			t.Errorf("%s: %v", pr.name, err)
		}
		if err := sameFlow(p); err != nil {
			t.Errorf("%s: dataflow: %v", pr.name, err)
		}
		deps += len(g.Deps)
	}
	if deps == 0 {
		t.Fatal("no dependence in any program")
	}
	t.Logf("%d programs, %d dependences, equal both ways", len(progs), deps)
}

// BenchmarkScale computes the memory-based dependences and the dataflow
// of generated straight-line programs of 1,000, 5,000 and 13,000
// statements (package bigprog), to show how the cost grows.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{1000, 5000, 13000} {
		p, err := cparse.ParseFunc("big.c", []byte(bigprog.Source(n)), bigprog.Func)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("memory/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := deps.Memory(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("dataflow/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := deps.Dataflow(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
