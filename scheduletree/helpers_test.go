package scheduletree

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

func uset(t testing.TB, s string) presburger.UnionSet {
	t.Helper()
	x, err := presburger.ParseUnionSet(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return x
}

func umap(t testing.TB, s string) presburger.UnionMap {
	t.Helper()
	x, err := presburger.ParseUnionMap(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return x
}

func pset(t testing.TB, s string) presburger.Set {
	t.Helper()
	x, err := presburger.ParseSet(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return x
}

func band(t testing.TB, sched string, permutable bool, coincident ...bool) Band {
	return Band{Schedule: umap(t, sched), Permutable: permutable, Coincident: coincident}
}

func tree(t testing.TB, root *Node) Tree {
	t.Helper()
	tr, err := NewTree(root)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// mapEqual fails unless got equals the map written as want.
func mapEqual(t testing.TB, what string, got presburger.UnionMap, want string) {
	t.Helper()
	eq, err := got.IsEqual(umap(t, want))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !eq {
		t.Errorf("%s = %s\nwant %s", what, got, want)
	}
}

func setEqual(t testing.TB, what string, got presburger.UnionSet, want string) {
	t.Helper()
	eq, err := got.IsEqual(uset(t, want))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !eq {
		t.Errorf("%s = %s\nwant %s", what, got, want)
	}
}

const (
	domST = "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"
)

// fixtures are the trees the tests share, by name.
func fixtures(t testing.TB) map[string]Tree {
	seq := tree(t, NewDomain(uset(t, domST), NewSequence(
		NewFilter(uset(t, "{ S[i, j] }"), NewBand(band(t, "{ S[i, j] -> [i, j] }", true, true, true), nil)),
		NewFilter(uset(t, "{ T[i, j] }"), NewBand(band(t, "{ T[i, j] -> [i, j] }", true, true, false), nil)),
	)))
	fused := tree(t, NewDomain(uset(t, domST),
		NewBand(band(t, "{ S[i, j] -> [i, j]; T[i, j] -> [i, j + 1] }", true, true, false),
			NewSequence(
				NewFilter(uset(t, "{ S[i, j] }"), nil),
				NewFilter(uset(t, "{ T[i, j] }"), nil),
			))))
	misc := tree(t, NewDomain(uset(t, "[N, M] -> { A[i] : 0 <= i < N; B[i, j] : 0 <= i < N and 0 <= j < M }"),
		NewContext(pset(t, "[N, M] -> { : N >= 4 and M >= 2 }"),
			NewMark("kernel", NewBand(Band{Schedule: umap(t, "[N] -> { A[i] -> [N - 1 - i]; B[i, j] -> [floor(i / 2)] }"), Options: []Option{OptionSeparate}},
				NewGuard(pset(t, "[N] -> { [t] : t >= 0 }"),
					NewSet(
						NewFilter(uset(t, "{ A[i] }"), NewMark("skipped", nil)),
						NewFilter(uset(t, "{ B[i, j] }"), NewBand(Band{Schedule: umap(t, "{ B[i, j] -> [j, i mod 2] }"), Coincident: []bool{true, false}, Options: []Option{OptionUnroll, OptionAtomic}}, nil)),
					)))))))
	// Post-tiling fusion: T reads S[i + 1, j] and S[i, j]; each tile of T
	// recomputes the S instances it needs.
	ext := tree(t, NewDomain(uset(t, domST), NewSequence(
		NewFilter(uset(t, "{ S[i, j] }"), NewMark("skipped", NewBand(band(t, "{ S[i, j] -> [i, j] }", true, true, true), nil))),
		NewFilter(uset(t, "{ T[i, j] }"), NewBand(band(t, "{ T[i, j] -> [floor(i/4), floor(j/4)] }", true, true, true),
			NewExtension(umap(t, "[N] -> { [o0, o1] -> S[i, j] : 4o0 <= i <= 4o0 + 4 and 4o1 <= j <= 4o1 + 3 and 0 <= i < N and 0 <= j < N }"),
				NewSequence(
					NewFilter(uset(t, "{ S[i, j] }"), NewBand(band(t, "{ S[i, j] -> [i, j] }", true, true, true), nil)),
					NewFilter(uset(t, "{ T[i, j] }"), NewBand(band(t, "{ T[i, j] -> [i, j] }", true, true, true), nil)),
				)))),
	)))
	return map[string]Tree{"sequence": seq, "fused": fused, "misc": misc, "extension": ext}
}
