package deps

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

// The band of tmp a tile 32o <= i < 32o + 32 of blur2's C reads.
const band = "exists (i : 32o <= i < 32o + 32 and 0 <= i < N and i <= a <= i + 2)"

func TestUpwardsExposed(t *testing.T) {
	f, err := Dataflow(blur2.build(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, instances               string
		data, producers, from, liveIn string
	}{
		{name: "consumer tile",
			instances: "[N, o] -> { C[i] : 32o <= i < 32o + 32 }",
			data:      "[N, o] -> { tmp[a] : " + band + " }",
			producers: "[N, o] -> { P[a] : " + band + " }",
			from:      "[N, o] -> { tmp[a] -> P[a] : " + band + " }",
			liveIn:    "{ }"},
		{name: "fused tile",
			// With the producer instances it needs, the tile only reads input.
			instances: "[N, o] -> { C[i] : 32o <= i < 32o + 32; P[a] : 32o <= a < 32o + 34 }",
			data:      "[N, o] -> { in[b] : exists (a : 32o <= a < 32o + 34 and 0 <= a < N + 2 and a <= b <= a + 2) }",
			producers: "{ }", from: "{ }",
			liveIn: "[N, o] -> { in[b] : exists (a : 32o <= a < 32o + 34 and 0 <= a < N + 2 and a <= b <= a + 2) }"},
		{name: "fused tile without halo",
			// Missing the two halo producers, the tile needs them from outside.
			instances: "[N, o] -> { C[i] : 32o <= i < 32o + 32; P[a] : 32o <= a < 32o + 32 }",
			data: "[N, o] -> { tmp[a] : " + band + " and a >= 32o + 32;" +
				" in[b] : exists (a : 32o <= a < 32o + 32 and 0 <= a < N + 2 and a <= b <= a + 2) }",
			producers: "[N, o] -> { P[a] : " + band + " and a >= 32o + 32 }",
			from:      "[N, o] -> { tmp[a] -> P[a] : " + band + " and a >= 32o + 32 }",
			liveIn:    "[N, o] -> { in[b] : exists (a : 32o <= a < 32o + 32 and 0 <= a < N + 2 and a <= b <= a + 2) }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := presburger.ParseUnionSet(tc.instances)
			if err != nil {
				t.Fatal(err)
			}
			x, err := f.UpwardsExposed(s)
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, "data", x.Data, tc.data, presburger.ParseUnionSet)
			checkEqual(t, "producers", x.Producers, tc.producers, presburger.ParseUnionSet)
			checkEqual(t, "from", x.From, tc.from, presburger.ParseUnionMap)
			checkEqual(t, "live-in", x.LiveIn, tc.liveIn, presburger.ParseUnionSet)
		})
	}
}

// TestUpwardsExposedBy asks for all tiles at once: the producers are the
// extension schedule post-tiling fusion inserts above each tile.
func TestUpwardsExposedBy(t *testing.T) {
	f, err := Dataflow(blur2.build(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, group             string
		data, producers, liveIn string
	}{
		{name: "consumer tiles",
			group:     "{ C[i] -> [o] : 32o <= i < 32o + 32 }",
			data:      "[N] -> { [o] -> tmp[a] : " + band + " }",
			producers: "[N] -> { [o] -> P[a] : " + band + " }",
			liveIn:    "{ }"},
		{name: "tiles of both stages",
			// A tile of P only covers 32 of the 34 values a tile of C needs:
			// the rest come from the next tile.
			group: "{ C[i] -> [o] : 32o <= i < 32o + 32; P[i] -> [o] : 32o <= i < 32o + 32 }",
			data: "[N] -> { [o] -> tmp[a] : " + band + " and a >= 32o + 32;" +
				" [o] -> in[b] : exists (a : 32o <= a < 32o + 32 and 0 <= a < N + 2 and a <= b <= a + 2) }",
			producers: "[N] -> { [o] -> P[a] : " + band + " and a >= 32o + 32 }",
			liveIn:    "[N] -> { [o] -> in[b] : exists (a : 32o <= a < 32o + 32 and 0 <= a < N + 2 and a <= b <= a + 2) }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := presburger.ParseUnionMap(tc.group)
			if err != nil {
				t.Fatal(err)
			}
			x, err := f.UpwardsExposedBy(g)
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, "data", x.Data, tc.data, presburger.ParseUnionMap)
			checkEqual(t, "producers", x.Producers, tc.producers, presburger.ParseUnionMap)
			checkEqual(t, "live-in", x.LiveIn, tc.liveIn, presburger.ParseUnionMap)
		})
	}
}
