//go:build isl && cgo

package deps

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
)

// TestPolyBenchAgreeWithISL compares the dataflow and the memory-based
// dependences of every PolyBench kernel with isl's.
func TestPolyBenchAgreeWithISL(t *testing.T) {
	agreed, parsed := 0, 0
	ks := polybench.Kernels()
	for _, k := range ks {
		t.Run(k.Name, func(t *testing.T) {
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Skipf("frontend/cparse cannot parse %s yet: %v", k.Name, err)
			}
			parsed++
			if err := agreeProgram(p); err != nil {
				t.Fatal(err)
			}
			agreed++
		})
	}
	t.Logf("%d of %d PolyBench kernels agree with isl (%d parsed)", agreed, len(ks), parsed)
}
