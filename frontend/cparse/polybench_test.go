package cparse_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/golden"
	"github.com/tilefuse/tilefuse/polybench"
)

// TestPolyBench parses every PolyBench/C 4.2.1 kernel as the C
// preprocessor leaves it.
func TestPolyBench(t *testing.T) {
	ks := polybench.Kernels()
	if len(ks) != 30 {
		t.Errorf("%d kernels, want 30", len(ks))
	}
	for _, k := range ks {
		t.Run(k.Name, func(t *testing.T) {
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(k.Params, p.Params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
			if p.Name != k.Func || len(p.Stmts) == 0 {
				t.Errorf("program %s with %d statements", p.Name, len(p.Stmts))
			}
			for _, a := range p.Arrays {
				if a.LiveOut && !a.LiveIn {
					t.Errorf("array %s is live-out but not live-in", a)
				}
			}
		})
	}
}

// TestGolden compares the printed programs of a few kernels with
// testdata/<name>.golden; -update rewrites them.
func TestGolden(t *testing.T) {
	for _, name := range []string{"gemm", "jacobi-2d", "nussinov"} {
		t.Run(name, func(t *testing.T) {
			k, ok := polybench.Lookup(name)
			if !ok {
				t.Fatalf("no kernel %s", name)
			}
			p, err := cparse.ParseFunc(name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			got := p.String()
			golden.Check(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}
