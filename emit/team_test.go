package emit

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/polybench"
)

// TestTeamRegions checks the kernels whose parallel loops sit inside a
// sequential loop: the loop runs in one parallel region (one
// GOMP_parallel for the team, barriers inside it, no region per
// parallel loop), and the team computes what the reference executor
// does, bit for bit, on 1, 2 and 3 threads (3: blocks of unequal
// sizes, and threads with no iteration of a short loop).
func TestTeamRegions(t *testing.T) {
	tc := needTools(t)
	for _, tt := range []struct {
		kernel string
		// teams and fns are the team functions and the parallel loops'
		// own regions the module defines; singles says whether code
		// between the parallel loops runs on thread 0.
		teams, fns int
		singles    bool
	}{
		{"jacobi-1d", 1, 0, false},
		{"durbin", 1, 0, true},
		{"gramschmidt", 1, 0, true},
		{"adi", 1, 0, false},
	} {
		t.Run(tt.kernel, func(t *testing.T) {
			t.Parallel()
			k, ok := polybench.Lookup(tt.kernel)
			if !ok {
				t.Fatalf("no kernel %s", tt.kernel)
			}
			p, n, _ := kernelAST(t, k, false)
			mod, err := Emit(p, n, Options{Parallel: true, Func: "kernel"})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(mod.IR, "define internal void @kernel.omp_team."); got != tt.teams {
				t.Errorf("%d team functions, want %d", got, tt.teams)
			}
			if got := strings.Count(mod.IR, "define internal void @kernel.omp_fn."); got != tt.fns {
				t.Errorf("%d parallel loop functions, want %d", got, tt.fns)
			}
			if got := strings.Count(mod.IR, "call void @GOMP_parallel("); got != tt.teams+tt.fns {
				t.Errorf("%d GOMP_parallel calls, want %d", got, tt.teams+tt.fns)
			}
			if !strings.Contains(mod.IR, "call void @GOMP_barrier()") {
				t.Error("no barrier in the team")
			}
			if got := strings.Contains(mod.IR, "omp.single:"); got != tt.singles {
				t.Errorf("single sections: %v, want %v", got, tt.singles)
			}
			checkRuns(t, tc, k, p, n, func(mode string) []int {
				if mode == "static" {
					return []int{1, 2, 3}
				}
				return nil
			})
		})
	}
}
