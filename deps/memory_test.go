package deps

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger"
)

// depKey is a Dep without its relation, for comparing the list.
type depKey struct {
	Kind                Kind
	Source, Sink, Array string
	May                 bool
}

func TestMemory(t *testing.T) {
	tests := []struct {
		prog prog
		// want maps "KIND Source->Sink" to the relation in isl notation.
		want map[string]string
		keys []depKey
	}{
		{jacobi1d, map[string]string{
			"RAW S0->S1": "[T, N] -> { S0[t, i] -> S1[t', i'] : 0 <= t <= t' < T and 1 <= i, i' <= N - 2 and i' - 1 <= i <= i' + 1 }",
			"RAW S1->S0": "[T, N] -> { S1[t, i] -> S0[t', i'] : 0 <= t < t' < T and 1 <= i, i' <= N - 2 and i' - 1 <= i <= i' + 1 }",
			"WAR S0->S1": "[T, N] -> { S0[t, i] -> S1[t', i'] : 0 <= t <= t' < T and 1 <= i, i' <= N - 2 and i' - 1 <= i <= i' + 1 }",
			"WAR S1->S0": "[T, N] -> { S1[t, i] -> S0[t', i'] : 0 <= t < t' < T and 1 <= i, i' <= N - 2 and i' - 1 <= i <= i' + 1 }",
			"WAW S0->S0": "[T, N] -> { S0[t, i] -> S0[t', i] : 0 <= t < t' < T and 1 <= i <= N - 2 }",
			"WAW S1->S1": "[T, N] -> { S1[t, i] -> S1[t', i] : 0 <= t < t' < T and 1 <= i <= N - 2 }",
		}, []depKey{
			{RAW, "S0", "S1", "B", false}, {RAW, "S1", "S0", "A", false},
			{WAR, "S0", "S1", "A", false}, {WAR, "S1", "S0", "B", false},
			{WAW, "S0", "S0", "B", false}, {WAW, "S1", "S1", "A", false},
		}},
		{sum, map[string]string{
			"RAW S0->S1": "[N] -> { S0[] -> S1[i] : 0 <= i < N }",
			"RAW S0->S2": "{ S0[] -> S2[] }",
			"RAW S1->S1": "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }",
			"RAW S1->S2": "[N] -> { S1[i] -> S2[] : 0 <= i < N }",
			"WAR S1->S1": "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }",
			"WAW S0->S1": "[N] -> { S0[] -> S1[i] : 0 <= i < N }",
			"WAW S1->S1": "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }",
		}, []depKey{
			{RAW, "S0", "S1", "s", false}, {RAW, "S0", "S2", "s", false}, {RAW, "S1", "S1", "s", false}, {RAW, "S1", "S2", "s", false},
			{WAR, "S1", "S1", "s", false},
			{WAW, "S0", "S1", "s", false}, {WAW, "S1", "S1", "s", false},
		}},
		{histogram, map[string]string{
			"RAW S0->S1": "[N] -> { S0[b] -> S1[i] : 0 <= b < 16 and 0 <= i < N }",
			"RAW S0->S2": "{ S0[b] -> S2[b] : 0 <= b < 16 }",
			"RAW S1->S1": "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }",
			"RAW S1->S2": "[N] -> { S1[i] -> S2[b] : 0 <= b < 16 and 0 <= i < N }",
			"WAR S1->S1": "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }",
			"WAW S0->S1": "[N] -> { S0[b] -> S1[i] : 0 <= b < 16 and 0 <= i < N }",
			"WAW S1->S1": "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }",
		}, []depKey{
			{RAW, "S0", "S1", "hist", true}, {RAW, "S0", "S2", "hist", false}, {RAW, "S1", "S1", "hist", true}, {RAW, "S1", "S2", "hist", true},
			{WAR, "S1", "S1", "hist", true},
			{WAW, "S0", "S1", "hist", true}, {WAW, "S1", "S1", "hist", true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.prog.name, func(t *testing.T) {
			g, err := Memory(tc.prog.build(t))
			if err != nil {
				t.Fatal(err)
			}
			var keys []depKey
			for _, d := range g.Deps {
				keys = append(keys, depKey{d.Kind, d.Source, d.Sink, d.Array, d.May})
				name := d.Kind.String() + " " + d.Source + "->" + d.Sink
				checkEqual(t, name, d.Rel, tc.want[name], presburger.ParseMap)
			}
			if diff := cmp.Diff(tc.keys, keys); diff != "" {
				t.Errorf("dependences (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMemoryUnions(t *testing.T) {
	g, err := Memory(sum.build(t))
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "RAW", g.Of(RAW), "[N] -> { S0[] -> S1[i] : 0 <= i < N; S0[] -> S2[]; S1[i] -> S1[i'] : 0 <= i < i' < N; S1[i] -> S2[] : 0 <= i < N }", presburger.ParseUnionMap)
	checkEqual(t, "WAR", g.Of(WAR), "[N] -> { S1[i] -> S1[i'] : 0 <= i < i' < N }", presburger.ParseUnionMap)
	checkEqual(t, "WAW", g.Of(WAW), "[N] -> { S0[] -> S1[i] : 0 <= i < N; S1[i] -> S1[i'] : 0 <= i < i' < N }", presburger.ParseUnionMap)
	all, err := g.All()
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "all", all, "[N] -> { S0[] -> S1[i] : 0 <= i < N; S0[] -> S2[]; S1[i] -> S1[i'] : 0 <= i < i' < N; S1[i] -> S2[] : 0 <= i < N }", presburger.ParseUnionMap)
	if diff := cmp.Diff([]string{"RAW/s", "WAW/s"}, kindsOf(g.Between("S0", "S1"))); diff != "" {
		t.Errorf("Between(S0, S1) (-want +got):\n%s", diff)
	}
}

func kindsOf(ds []Dep) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind.String()+"/"+d.Array)
	}
	return out
}

func TestDistances(t *testing.T) {
	g, err := Memory(jacobi1d.build(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dep        int // index in g.Deps
		time, iter string
	}{
		// RAW S0 -> S1 through B: same or later time step, neighbours.
		{0, "[T, N] -> { [0, dt, 1, di, 0] : 0 <= dt < T and -1 <= di <= 1 and N >= 3 and (di >= 0 or N >= 4) and (di <= 0 or N >= 4) }",
			"[T, N] -> { S1[dt, di] : 0 <= dt < T and -1 <= di <= 1 and N >= 3 and (di >= 0 or N >= 4) and (di <= 0 or N >= 4) }"},
		// WAW S0 -> S0: the same element in a later time step.
		{4, "[T, N] -> { [0, dt, 0, 0, 0] : 0 < dt < T and N >= 3 }", "[T, N] -> { S0[dt, 0] : 0 < dt < T and N >= 3 }"},
	}
	for _, tc := range tests {
		d := g.Deps[tc.dep]
		name := d.Kind.String() + " " + d.Source + "->" + d.Sink
		td, err := g.TimeDistance(d)
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, name+" time", td, tc.time, presburger.ParseSet)
		id, err := IterDistance(d)
		if err != nil {
			t.Fatal(err)
		}
		checkEqual(t, name+" iter", id, tc.iter, presburger.ParseSet)
	}
	if _, err := IterDistance(Dep{Source: "S0", Sink: "S2", Rel: mustMap(t, "{ S0[i] -> S2[] }")}); err == nil {
		t.Error("IterDistance across different dimensions did not fail")
	}
}

func mustMap(t *testing.T, s string) presburger.Map {
	t.Helper()
	m, err := presburger.ParseMap(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
