package randprog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/runner"
)

// TestDataDependentKernels: the kernels of testdata/datadep, with
// data-dependent conditions, indirect subscripts and histograms, compile
// under every combination of Combos (every strategy, tiled and not, CPU
// and emulated GPU) and compute the reference executor's arrays bit for
// bit, in the AST interpreter for all of them and natively (gcc-built,
// two threads) for one combination in six.
func TestDataDependentKernels(t *testing.T) {
	files, err := filepath.Glob("testdata/datadep/*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no kernels: %v", err)
	}
	tc, err := runner.FindToolchain()
	if err != nil {
		t.Logf("no native runs: %v", err)
		tc = nil
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".c")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int64{9, 2} {
				p := &Program{Func: name, Source: string(src), Params: map[string]int64{"n": n}}
				c := &Checker{Toolchain: tc, Native: func(_ *Program, i int) bool { return n == 9 && i%6 == 0 && !testing.Short() }}
				fails, st := c.Check(p)
				for _, f := range fails {
					t.Errorf("n=%d: %v", n, f)
				}
				if len(st.Limits) > 0 {
					t.Errorf("n=%d: %d combinations hit a limit: %v", n, len(st.Limits), st.Limits[0])
				}
				if st.Combos != len(Combos()) {
					t.Errorf("n=%d: %d combinations checked, want %d", n, st.Combos, len(Combos()))
				}
			}
		})
	}
}
