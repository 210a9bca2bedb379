package randprog

import (
	"strings"
	"testing"
)

// TestGenerateDataDepParses: programs with the data-dependent parts parse,
// and over 200 seeds every kind of part appears.
func TestGenerateDataDepParses(t *testing.T) {
	seen := map[string]int{}
	for seed := int64(1); seed <= 200; seed++ {
		p := GenerateShape(seed, Shape{DataDep: true})
		if _, err := p.Parse(); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, p.Source)
		}
		for _, kind := range []string{"while (", "hist[idx[i]]", "hist[(idx[i] + i) % 16]", "[idx[", "else"} {
			if strings.Contains(p.Source, kind) {
				seen[kind]++
			}
		}
	}
	for _, kind := range []string{"while (", "hist[idx[i]]", "hist[(idx[i] + i) % 16]", "[idx[", "else"} {
		if seen[kind] < 10 {
			t.Errorf("%q in %d of 200 programs, want at least 10", kind, seen[kind])
		}
	}
}
