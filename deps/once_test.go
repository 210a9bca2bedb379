package deps

import (
	"testing"

	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/presburger"
)

// TestOnceFastPath: the sources of single-assignment arrays, taken
// without a lexmax, are the general path's, on every PolyMage pipeline
// (whose images are written once per element) and the hand-built
// programs (whose arrays are not).
func TestOnceFastPath(t *testing.T) {
	flows := func(t *testing.T, build func() (*Flow, error)) [2]*Flow {
		var out [2]*Flow
		for i, fast := range []bool{true, false} {
			onceFastPath = fast
			f, err := build()
			onceFastPath = true
			if err != nil {
				t.Fatal(err)
			}
			out[i] = f
		}
		return out
	}
	same := func(t *testing.T, name string, f [2]*Flow) {
		checks := []struct {
			what       string
			fast, slow presburger.UnionMap
		}{
			{"must", f[0].Must, f[1].Must}, {"may", f[0].May, f[1].May},
			{"must-no-source", f[0].MustNoSource, f[1].MustNoSource},
			{"may-no-source", f[0].MayNoSource, f[1].MayNoSource},
		}
		for _, c := range checks {
			eq, err := c.fast.IsEqual(c.slow)
			if err != nil {
				t.Fatal(err)
			}
			if !eq {
				t.Errorf("%s: %s differs:\nfast %s\nslow %s", name, c.what, c.fast, c.slow)
			}
		}
	}
	for _, e := range polymage.All() {
		t.Run(e.Name, func(t *testing.T) {
			if testing.Short() && e.Name == "local_laplacian" {
				t.Skip("the largest pipeline")
			}
			p, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			f := flows(t, func() (*Flow, error) { return Dataflow(p) })
			same(t, e.Name, f)
			once := 0
			for _, ok := range f[0].must.once {
				if ok {
					once++
				}
			}
			if once == 0 {
				t.Errorf("%s: no array is single-assignment", e.Name)
			}
		})
	}
	for _, pr := range []prog{jacobi1d, histogram} {
		same(t, "hand-built", flows(t, func() (*Flow, error) { return Dataflow(pr.build(t)) }))
	}
}
