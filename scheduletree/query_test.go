package scheduletree

import (
	"testing"
)

func TestMap(t *testing.T) {
	fx := fixtures(t)
	for _, tc := range []struct {
		tree, want string
	}{
		{"sequence", "{ S[i, j] -> [0, i, j]; T[i, j] -> [1, i, j] }"},
		{"fused", "{ S[i, j] -> [i, j, 0]; T[i, j] -> [i, j + 1, 1] }"},
		// The set numbers its children like a sequence (isl's default);
		// A is padded with zeros.
		{"misc", "[N] -> { A[i] -> [N - 1 - i, 0, 0, 0]; B[i, j] -> [floor(i/2), 1, j, i mod 2] }"},
		{"extension", `[N] -> {
			S[i, j] -> [0, i, j, 0, 0, 0];
			S[i, j] -> [1, o0, o1, 0, i, j] : 4o0 <= i <= 4o0 + 4 and 4o1 <= j <= 4o1 + 3 and 0 <= i < N and 0 <= j < N;
			T[i, j] -> [1, floor(i/4), floor(j/4), 1, i, j] }`},
	} {
		got, err := fx[tc.tree].Map()
		if err != nil {
			t.Fatalf("%s: %v", tc.tree, err)
		}
		mapEqual(t, tc.tree, got, tc.want)
	}
}

func TestMapLeafAndEmptyChildren(t *testing.T) {
	// A domain alone: every instance at the empty schedule point.
	got, err := FromDomain(uset(t, "[N] -> { S[i] : 0 <= i < N }")).Map()
	if err != nil {
		t.Fatal(err)
	}
	mapEqual(t, "domain only", got, "{ S[i] -> [] }")
	// An empty child is dropped; the others keep their positions.
	tr := tree(t, NewDomain(uset(t, "{ S[i] : 0 <= i < 4; T[i] : 0 <= i < 4 }"), NewSequence(
		NewFilter(uset(t, "{ S[i] }"), NewBand(band(t, "{ S[i] -> [i] }", false), nil)),
		NewFilter(uset(t, "{ T[i] : i < 0 and i > 0 }"), NewBand(band(t, "{ T[i] -> [i, i] }", false), nil)),
		NewFilter(uset(t, "{ T[i] }"), nil),
	)))
	got, err = tr.Map()
	if err != nil {
		t.Fatal(err)
	}
	mapEqual(t, "empty child", got, "{ S[i] -> [0, i]; T[i] -> [2, 0] }")
}

func TestPrefixAndInstances(t *testing.T) {
	fx := fixtures(t)
	for _, tc := range []struct {
		tree            string
		path            Path
		prefix, reached string
	}{
		{"sequence", Path{}, "{ }", "{ }"},
		{"sequence", Path{0}, "{ S[i, j] -> []; T[i, j] -> [] }", domST},
		{"sequence", Path{0, 1, 0}, "{ T[i, j] -> [] }", "[N] -> { T[i, j] : 0 <= i < N and 0 <= j < N }"},
		{"sequence", Path{0, 1, 0, 0}, "{ T[i, j] -> [i, j] }", "[N] -> { T[i, j] : 0 <= i < N and 0 <= j < N }"},
		// Sequence positions are not part of the prefix schedule.
		{"fused", Path{0, 0, 1, 0}, "{ T[i, j] -> [i, j + 1] }", "[N] -> { T[i, j] : 0 <= i < N and 0 <= j < N }"},
		{"misc", Path{0, 0, 0, 0, 0, 1, 0, 0}, "{ B[i, j] -> [floor(i/2), j, i mod 2] }", "[N, M] -> { B[i, j] : 0 <= i < N and 0 <= j < M }"},
		// Below the extension: the extra S instances at their tile.
		{"extension", Path{0, 1, 0, 0, 0, 0, 0, 0},
			"[N] -> { S[i, j] -> [o0, o1, i, j] : 4o0 <= i <= 4o0 + 4 and 4o1 <= j <= 4o1 + 3 and 0 <= i < N and 0 <= j < N }",
			"[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }"},
		{"extension", Path{0, 1, 0, 0, 0, 1, 0, 0},
			"{ T[i, j] -> [floor(i/4), floor(j/4), i, j] }",
			"[N] -> { T[i, j] : 0 <= i < N and 0 <= j < N }"},
	} {
		pre, err := fx[tc.tree].PrefixSchedule(tc.path)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.tree, tc.path, err)
		}
		mapEqual(t, tc.tree+" prefix at "+tc.path.String(), pre, tc.prefix)
		in, err := fx[tc.tree].Instances(tc.path)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.tree, tc.path, err)
		}
		setEqual(t, tc.tree+" instances at "+tc.path.String(), in, tc.reached)
	}
}
