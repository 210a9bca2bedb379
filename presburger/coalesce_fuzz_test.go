package presburger

import "testing"

// FuzzCoalesce coalesces random unions (seeded by the fuzzer) and checks by
// brute force and exactly that the set is unchanged.
func FuzzCoalesce(f *testing.F) {
	for s := int64(0); s < 16; s++ {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed int64) { checkCoalesceCase(t, seed) })
}
