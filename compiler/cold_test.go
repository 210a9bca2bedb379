package compiler

import (
	"testing"

	"github.com/tilefuse/tilefuse/polymage"
)

// TestColdStatements: in interpolate, the borders and the coarse levels
// are cold, the full-resolution stages are not, and the cold statements
// together run under 1/coldShare of the instances.
func TestColdStatements(t *testing.T) {
	e, ok := polymage.Lookup("interpolate")
	if !ok {
		t.Fatal("no interpolate")
	}
	p, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	cold := coldStatements(p, nil)
	for name, want := range map[string]bool{
		"Dx_2_s0_c0": true, "D_9_s0_c1": true, "interpolated_L7_s0_c1": true,
		"interpolate_s0": false, "Uy_0_s0_c1": false, "downsampled_L0_s0_c0": false,
	} {
		if cold[name] != want {
			t.Errorf("%s cold: %v, want %v", name, cold[name], want)
		}
	}
	var coldSum, total float64
	for _, s := range p.Stmts {
		n, ok := instances(s.Domain, nil)
		if !ok {
			t.Fatalf("%s: no estimate", s.Name)
		}
		total += n
		if cold[s.Name] {
			coldSum += n
		}
	}
	if coldSum*coldShare >= total {
		t.Errorf("cold statements run %g of %g instances, over 1/%d", coldSum, total, coldShare)
	}
	// A border's count is exact (its box is the whole image).
	for _, s := range p.Stmts {
		if s.Name == "Dx_1_s0_c0" {
			if n, _ := instances(s.Domain, nil); n != 24592 {
				t.Errorf("Dx_1_s0_c0: %g instances, want 24592", n)
			}
		}
	}
}
