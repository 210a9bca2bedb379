package scheduler

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// TestSiblings: with Options.Siblings, FuseMin gives two independent
// updates of one array over one domain a shared band (their consumer
// keeps its own), and keeps apart two updates joined by a dependence,
// border statements and a loop over the same array, and updates of
// different arrays; every tree is legal.
func TestSiblings(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		filters   [2]int // top-level filters without and with Siblings
	}{
		{"independent", `void f(int n, float in[n], float a[2][n], float b[n]) {
  for (int i = 0; i < n; i++) a[0][i] = in[i] * 2;
  for (int i = 0; i < n; i++) a[1][i] = in[i] + 1;
  for (int i = 0; i < n; i++) b[i] = a[0][i] + a[1][i];
}`, [2]int{3, 2}},
		{"dependent", `void f(int n, float in[n], float a[2][n]) {
  for (int i = 0; i < n; i++) a[0][i] = in[i] * 2;
  for (int i = 0; i < n; i++) a[1][i] = a[0][n - 1 - i];
}`, [2]int{2, 2}},
		{"border statements", `void f(int n, float in[n], float a[n + 2], float b[n]) {
  a[0] = 0;
  for (int i = 1; i <= n; i++) a[i] = in[i - 1];
  a[n + 1] = 0;
  for (int i = 0; i < n; i++) b[i] = a[i] + a[i + 2];
}`, [2]int{4, 4}},
		{"other arrays", `void f(int n, float in[n], float a[n], float c[n]) {
  for (int i = 0; i < n; i++) a[i] = in[i] * 2;
  for (int i = 0; i < n; i++) c[i] = in[i] + 1;
}`, [2]int{2, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := cparse.ParseFunc("f.c", []byte(tc.src), "f")
			if err != nil {
				t.Fatal(err)
			}
			g := memoryDeps(t, p)
			for k, siblings := range []bool{false, true} {
				tr, err := Schedule(p, g, Options{Fuse: FuseMin, Siblings: siblings})
				if err != nil {
					t.Fatal(err)
				}
				// The children of the outermost sequence.
				var top scheduletree.Path
				filters := 0
				tr.Walk(func(at scheduletree.Path, n *scheduletree.Node) bool {
					switch {
					case top == nil && n.Kind() == scheduletree.KindSequence:
						top = append(scheduletree.Path(nil), at...)
					case top != nil && n.Kind() == scheduletree.KindFilter && len(at) == len(top)+1:
						filters++
					}
					return true
				})
				if filters != tc.filters[k] {
					t.Errorf("siblings %v: %d filters, want %d\n%s", siblings, filters, tc.filters[k], sketch(tr))
				}
				vs, err := Check(tr, g)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range vs {
					t.Errorf("siblings %v: %s", siblings, v)
				}
			}
		})
	}
}
