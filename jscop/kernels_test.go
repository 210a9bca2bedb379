package jscop_test

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/pollytest"
	"github.com/tilefuse/tilefuse/jscop"
	"github.com/tilefuse/tilefuse/polybench"
)

// TestPollyKernels has Polly export the JSCoPs of each of the 30
// PolyBench kernels and reads them: each parses, and either matches the
// tilefuse program of the same C with a schedule that respects the
// dependences, or is refused with a message naming the statement it
// cannot place or
// the parameter it cannot name. The counts are logged.
func TestPollyKernels(t *testing.T) {
	pollytest.Need(t)
	ks := polybench.Kernels()
	if len(ks) != 30 {
		t.Fatalf("%d PolyBench kernels, want 30", len(ks))
	}
	matched, files := 0, 0
	var refused []string
	for _, k := range ks {
		t.Run(k.Name, func(t *testing.T) {
			_, exported := pollytest.Export(t, k, t.TempDir())
			files += len(exported)
			scops := readJSCoPs(t, exported)
			p := program(t, k)
			m, err := jscop.Match(p, scops...)
			if err != nil {
				if msg := err.Error(); !strings.Contains(msg, "statement") && !strings.Contains(msg, "parameter") {
					t.Fatalf("refused without naming a statement or parameter: %v", err)
				}
				refused = append(refused, k.Name+": "+err.Error())
				return
			}
			tree, err := m.Tree()
			if err != nil {
				t.Fatal(err)
			}
			if vs := violations(t, p, tree); len(vs) > 0 {
				t.Fatalf("Polly's schedule, read by tilefuse, breaks %v", vs[0])
			}
			matched++
		})
	}
	t.Logf("%d JSCoP files of 30 kernels parsed; %d kernels matched with a legal schedule, %d refused", files, matched, len(refused))
	for _, r := range refused {
		t.Log("refused: " + r)
	}
}
