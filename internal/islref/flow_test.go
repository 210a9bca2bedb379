//go:build isl && cgo

package islref

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

// TestComputeFlow pins isl's dataflow answers, so that a wrong isl call in
// the harness cannot pass unnoticed: isl's may-dependences include the
// must-dependences and its may-no-source includes the must-no-source.
func TestComputeFlow(t *testing.T) {
	const (
		read   = "{ R[i] -> A[i] : 0 <= i < 10 }"
		must   = "{ W[i] -> A[i] : 0 <= i < 5 }"
		may    = "{ M[i] -> A[i] : 3 <= i < 8 }"
		sched  = "{ W[i] -> [0, i]; M[i] -> [1, i]; R[i] -> [2, i] }"
		noneOf = "{ }"
	)
	tests := []struct {
		name                   string
		sink, must, may, sched string
		want                   Flow
	}{
		{"must then may", read, must, may, sched, Flow{
			MustDep:      "{ W[i] -> R[i] : 0 <= i < 3 }",
			MayDep:       "{ W[i] -> R[i] : 0 <= i < 5; M[i] -> R[i] : 3 <= i < 8 }",
			MustNoSource: "{ R[i] -> A[i] : 8 <= i < 10 }",
			MayNoSource:  "{ R[i] -> A[i] : 5 <= i < 10 }",
		}},
		{"no sources", read, noneOf, noneOf, sched, Flow{
			MustDep: "{ }", MayDep: "{ }", MustNoSource: read, MayNoSource: read,
		}},
		{"last writer wins", "{ R[] -> A[0] }", "{ W[i] -> A[0] : 0 <= i < 10 }", noneOf, "{ W[i] -> [0, i]; R[] -> [1, 0] }", Flow{
			MustDep: "{ W[9] -> R[] }", MayDep: "{ W[9] -> R[] }", MustNoSource: "{ }", MayNoSource: "{ }",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ComputeFlow(tc.sink, tc.must, tc.may, tc.sched)
			if err != nil {
				t.Fatal(err)
			}
			pairs := [][3]string{
				{"must dependence", got.MustDep, tc.want.MustDep},
				{"may dependence", got.MayDep, tc.want.MayDep},
				{"must no source", got.MustNoSource, tc.want.MustNoSource},
				{"may no source", got.MayNoSource, tc.want.MayNoSource},
			}
			for _, p := range pairs {
				eq, err := Equal(calc.MapKind, p[1], p[2])
				if err != nil || !eq {
					t.Errorf("%s = %s, want %s (%v)", p[0], p[1], p[2], err)
				}
			}
		})
	}
	if _, err := ComputeFlow("{ R[i] -> }", must, may, sched); err == nil {
		t.Error("a malformed sink was accepted")
	}
}
