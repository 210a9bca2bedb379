package halide

import (
	"context"
	"os"
	"testing"

	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/runner"
)

// SourceEnv names the Halide v14 source tree the app tests build from
// (CI has none: they skip).
const SourceEnv = "TILEFUSE_HALIDE_SRC"

// haveSource returns the tree SourceEnv names, or skips the test.
func haveSource(t *testing.T) string {
	t.Helper()
	root := os.Getenv(SourceEnv)
	if root == "" {
		t.Skipf("skipping: set %s to a Halide v14 source tree (git archive v14.0.0 apps of github.com/halide/Halide)", SourceEnv)
	}
	if err := CheckSource(root); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestApps builds every app's own generator and runs it once through its
// wrapper at its pipeline's default size: it must pass its own bounds
// checks on tilefuse's arrays and write the output (the values differ
// from the reference's: the algorithms do; see App.Differs).
func TestApps(t *testing.T) {
	root := haveSource(t)
	in := install(t)
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	for _, name := range Apps() {
		if testing.Short() && name != "harris" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			en, ok := polymage.Lookup(name)
			if !ok {
				t.Fatalf("app %s is no PolyMage pipeline", name)
			}
			prog, err := en.Build()
			if err != nil {
				t.Fatal(err)
			}
			params := en.Defaults
			inputs, err := en.Inputs(prog, params, 1)
			if err != nil {
				t.Fatal(err)
			}
			k, err := in.AppKernel(context.Background(), root, name, prog.Name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			pr, err := tc.Prepare(context.Background(), prog, k, runner.Options{Params: params, Inputs: inputs, Threads: 2, Reference: runner.RefNone})
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close()
			_, got, err := pr.Execute(context.Background(), 0, 1)
			if err != nil {
				t.Fatal(err)
			}
			// The outputs are written: mostly nonzero (the harness's
			// outputs start zeroed; a pipeline that returned without
			// writing would leave them so).
			for _, a := range prog.Arrays {
				if !a.LiveOut || a.LiveIn {
					continue
				}
				b := got[a.Name]
				if b == nil {
					t.Fatalf("no output %s", a.Name)
				}
				nonzero := int64(0)
				for i := range b.Len() {
					if v := b.Load(i); v.F != 0 || v.I != 0 {
						nonzero++
					}
				}
				if nonzero < b.Len()/2 {
					t.Errorf("%s: %d of %d elements nonzero", a.Name, nonzero, b.Len())
				}
			}
		})
	}
}

func TestCheckSource(t *testing.T) {
	if err := CheckSource(t.TempDir()); err == nil {
		t.Error("an empty directory passed as Halide's source tree")
	}
	for _, name := range Apps() {
		if _, err := source("app/" + name + "_app_wrap.c"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !Has(name) {
			t.Errorf("app %s has no generator of tilefuse's", name)
		}
	}
}
