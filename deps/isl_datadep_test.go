//go:build isl && cgo

package deps

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/bigprog"
)

// TestDataDependentAgreeWithISL compares with isl's compute_flow (may and
// must sources) the dataflow and the memory-based dependences of the C
// kernels with data-dependent conditions and subscripts (may-writes and
// may-reads), and of a generated straight-line program whose
// dependences the footprint pruning finds.
func TestDataDependentAgreeWithISL(t *testing.T) {
	files, err := filepath.Glob("../internal/randprog/testdata/datadep/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernels: %v", err)
	}
	type src struct{ name, text, fn string }
	var srcs []src
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fn := strings.TrimSuffix(filepath.Base(f), ".c")
		srcs = append(srcs, src{fn, string(b), fn})
	}
	srcs = append(srcs, src{"bigprog", bigprog.Source(40), bigprog.Func})
	for _, s := range srcs {
		t.Run(s.name, func(t *testing.T) {
			p, err := cparse.ParseFunc(s.name+".c", []byte(s.text), s.fn)
			if err != nil {
				t.Fatal(err)
			}
			if err := agreeProgram(p); err != nil {
				t.Fatal(err)
			}
		})
	}
}
