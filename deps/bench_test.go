package deps

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
)

// BenchmarkAll computes every dependence of hand-built programs: the
// memory-based graph, the dataflow and the live-out writes.
func BenchmarkAll(b *testing.B) {
	for _, d := range []prog{stencil3, jacobi1d, histogram} {
		p := d.build(b)
		b.Run(d.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Memory(p); err != nil {
					b.Fatal(err)
				}
				f, err := Dataflow(p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.LiveOut(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMemory(b *testing.B) {
	p := stencil3.build(b)
	for b.Loop() {
		if _, err := Memory(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDataflow(b *testing.B) {
	p := stencil3.build(b)
	for b.Loop() {
		if _, err := Dataflow(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPolyBench computes every dependence of each PolyBench kernel.
func BenchmarkPolyBench(b *testing.B) {
	for _, k := range polybench.Kernels() {
		p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
		if err != nil {
			b.Logf("skipping %s: %v", k.Name, err)
			continue
		}
		b.Run(k.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Memory(p); err != nil {
					b.Fatal(err)
				}
				f, err := Dataflow(p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.LiveOut(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
