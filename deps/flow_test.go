package deps

import (
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
)

func TestDataflow(t *testing.T) {
	tests := []struct {
		prog                              prog
		must, may, mustNoSource, mayNoSrc string // "" for may: same as must
	}{
		{prog: jacobi1d,
			// Each step reads the neighbours the other statement wrote last.
			must: "[T, N] -> { S0[t, i] -> S1[t, i'] : 0 <= t < T and 1 <= i, i' <= N - 2 and i' - 1 <= i <= i' + 1;" +
				" S1[t, i] -> S0[t + 1, i'] : 0 <= t < T - 1 and 1 <= i, i' <= N - 2 and i' - 1 <= i <= i' + 1 }",
			// The first step reads the input A, every step the borders.
			mustNoSource: "[T, N] -> { S0[t, i] -> A[a] : 0 <= t < T and 1 <= i <= N - 2 and i - 1 <= a <= i + 1 and (t = 0 or a = 0 or a = N - 1);" +
				" S1[t, i] -> B[a] : 0 <= t < T and 1 <= i <= N - 2 and ((i = 1 and a = 0) or (i = N - 2 and a = N - 1)) }"},
		{prog: sum,
			// The reduction chain; with no iteration S2 reads S0's zero.
			must:         "[N] -> { S0[] -> S1[0] : N >= 1; S1[i] -> S1[i + 1] : 0 <= i < N - 1; S1[N - 1] -> S2[] : N >= 1; S0[] -> S2[] : N <= 0 }",
			mustNoSource: "[N] -> { S1[i] -> x[i] : 0 <= i < N }"},
		{prog: histogram,
			// Only the first increment certainly sees the cleared bins; any
			// earlier increment may have changed the bin a later one reads.
			must: "[N] -> { S0[b] -> S1[0] : 0 <= b < 16 and N >= 1; S0[b] -> S2[b] : 0 <= b < 16 and N <= 0 }",
			may: "[N] -> { S0[b] -> S1[i] : 0 <= b < 16 and 0 <= i < N; S1[i] -> S1[i'] : 0 <= i < i' < N;" +
				" S1[i] -> S2[b] : 0 <= i < N and 0 <= b < 16; S0[b] -> S2[b] : 0 <= b < 16 }",
			mustNoSource: "[N] -> { S1[i] -> img[i] : 0 <= i < N }"},
	}
	for _, tc := range tests {
		t.Run(tc.prog.name, func(t *testing.T) {
			f, err := Dataflow(tc.prog.build(t))
			if err != nil {
				t.Fatal(err)
			}
			may, mayNo := tc.may, tc.mayNoSrc
			if may == "" {
				may = tc.must
			}
			if mayNo == "" {
				mayNo = tc.mustNoSource
			}
			checkEqual(t, "must", f.Must, tc.must, presburger.ParseUnionMap)
			checkEqual(t, "may", f.May, may, presburger.ParseUnionMap)
			checkEqual(t, "must no source", f.MustNoSource, tc.mustNoSource, presburger.ParseUnionMap)
			checkEqual(t, "may no source", f.MayNoSource, mayNo, presburger.ParseUnionMap)
		})
	}
}

// TestComputeFlowMaySources covers the may cases the programs above do
// not: a may-write after the last must-write, and reads that only
// may-writes precede.
func TestComputeFlowMaySources(t *testing.T) {
	sched := mustUnion(t, "{ W[i] -> [0, i]; M[i] -> [1, i]; R[i] -> [2, i] }")
	sink := mustUnion(t, "{ R[i] -> A[i] : 0 <= i < 10 }")
	must := mustUnion(t, "{ W[i] -> A[i] : 0 <= i < 5 }")
	may := mustUnion(t, "{ M[i] -> A[i] : 3 <= i < 8 }")
	f, err := ComputeFlow(sink, must, may, sched)
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "must", f.Must, "{ W[i] -> R[i] : 0 <= i < 3 }", presburger.ParseUnionMap)
	checkEqual(t, "may", f.May, "{ W[i] -> R[i] : 0 <= i < 5; M[i] -> R[i] : 3 <= i < 8 }", presburger.ParseUnionMap)
	checkEqual(t, "must no source", f.MustNoSource, "{ R[i] -> A[i] : 8 <= i < 10 }", presburger.ParseUnionMap)
	checkEqual(t, "may no source", f.MayNoSource, "{ R[i] -> A[i] : 5 <= i < 10 }", presburger.ParseUnionMap)
	checkEqual(t, "must from", f.MustFrom, "{ [R[i] -> A[i]] -> W[i] : 0 <= i < 3 }", presburger.ParseUnionMap)

	// The same writes, all passed as may-sources too, change nothing.
	both, err := must.Union(may)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ComputeFlow(sink, must, both, sched)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want presburger.UnionMap
	}{{"must", g.Must, f.Must}, {"may", g.May, f.May}, {"must no source", g.MustNoSource, f.MustNoSource}, {"may no source", g.MayNoSource, f.MayNoSource}} {
		checkEqual(t, c.name+" (all writes as may-sources)", c.got, c.want.String(), presburger.ParseUnionMap)
	}
}

func TestLiveInOut(t *testing.T) {
	tests := []struct {
		prog                    prog
		liveIn, mustOut, mayOut string // "" for mayOut: same as mustOut
	}{
		{prog: jacobi1d,
			liveIn:  "[T, N] -> { A[a] : T >= 1 and N >= 3 and 0 <= a < N; B[a] : T >= 1 and N >= 3 and (a = 0 or a = N - 1) }",
			mustOut: "[T, N] -> { S0[T - 1, i] -> B[i] : T >= 1 and 1 <= i <= N - 2; S1[T - 1, i] -> A[i] : T >= 1 and 1 <= i <= N - 2 }"},
		{prog: sum,
			liveIn:  "[N] -> { x[a] : 0 <= a < N }",
			mustOut: "{ S2[] -> out[] }"},
		{prog: histogram,
			liveIn:  "[N] -> { img[a] : 0 <= a < N }",
			mustOut: "{ S2[b] -> out[b] : 0 <= b < 16 }"},
	}
	for _, tc := range tests {
		t.Run(tc.prog.name, func(t *testing.T) {
			f, err := Dataflow(tc.prog.build(t))
			if err != nil {
				t.Fatal(err)
			}
			in, err := f.LiveIn()
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, "live-in", in, tc.liveIn, presburger.ParseUnionSet)
			out, err := f.LiveOut()
			if err != nil {
				t.Fatal(err)
			}
			mayOut := tc.mayOut
			if mayOut == "" {
				mayOut = tc.mustOut
			}
			checkEqual(t, "live-out must", out.Must, tc.mustOut, presburger.ParseUnionMap)
			checkEqual(t, "live-out may", out.May, mayOut, presburger.ParseUnionMap)
		})
	}
}

// TestLastWritesMay: the last write of a histogram bin is the last
// increment that may hit it, or the clearing when none does.
func TestLastWritesMay(t *testing.T) {
	f, err := Dataflow(histogram.build(t))
	if err != nil {
		t.Fatal(err)
	}
	lw, err := f.LastWrites("hist")
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "must", lw.Must, "[N] -> { S0[b] -> hist[b] : 0 <= b < 16 and N <= 0 }", presburger.ParseUnionMap)
	checkEqual(t, "may", lw.May, "[N] -> { S0[b] -> hist[b] : 0 <= b < 16; S1[i] -> hist[b] : 0 <= i < N and 0 <= b < 16 }", presburger.ParseUnionMap)
	if _, err := (&Flow{}).LiveOut(); err == nil {
		t.Error("LiveOut of a Flow not built by Dataflow did not fail")
	}
	// Without live-out arrays nothing is live-out.
	noOut := sum
	noOut.arrays = append([]arr(nil), sum.arrays...)
	noOut.arrays[2].out = false
	f, err = Dataflow(noOut.build(t))
	if err != nil {
		t.Fatal(err)
	}
	lo, err := f.LiveOut()
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, "no live-out", lo.May, "{ }", presburger.ParseUnionMap)
}

func mustUnion(t *testing.T, s string) presburger.UnionMap {
	t.Helper()
	m, err := presburger.ParseUnionMap(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
