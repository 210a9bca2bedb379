package scheduler

import (
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// setFlags returns tr with the flags of the band at p replaced: the
// members in coincident marked coincident (the others not, when
// coincident is not nil), and permutable set.
func setFlags(t *testing.T, tr scheduletree.Tree, p scheduletree.Path, permutable bool, coincident []int) scheduletree.Tree {
	t.Helper()
	n, err := tr.At(p)
	if err != nil {
		t.Fatal(err)
	}
	b := n.Band()
	b.Permutable = permutable
	if coincident != nil {
		for k := range b.Coincident {
			b.Coincident[k] = false
		}
		for _, k := range coincident {
			b.Coincident[k] = true
		}
	}
	out, err := tr.SetBand(p, b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCheckFlagsCatches plants false flags and checks that each is
// reported with a pair of instances that shows it.
func TestCheckFlagsCatches(t *testing.T) {
	original := func(t *testing.T, p *scop.Program, _ *deps.Graph) scheduletree.Tree {
		tr, err := Original(p)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	smart := func(t *testing.T, p *scop.Program, g *deps.Graph) scheduletree.Tree {
		return mustSchedule(t, p, g, FuseSmart)
	}
	for _, tc := range []struct {
		name, program string
		tree          func(*testing.T, *scop.Program, *deps.Graph) scheduletree.Tree
		permutable    bool
		coincident    []int
		check         CheckKind
		member        int // the member reported
		message       string
	}{
		// The case: for t { S0: for i, j; S1: for i, j } with
		// the time loop marked parallel.
		{"jacobi-2d time loop", "jacobi-2d", original, true, []int{0}, CheckCoincident, 0,
			"member 0 of the band at /0/0 is marked coincident but carries the RAW dependence"},
		// The skewed band [t, 2t + i, 2t + j]: every member carries a
		// dependence.
		{"jacobi-2d skewed band", "jacobi-2d", smart, true, []int{0, 1, 2}, CheckCoincident, 0, "is marked coincident"},
		{"jacobi-2d skewed inner members", "jacobi-2d", smart, true, []int{1, 2}, CheckCoincident, 1, "member 1 of the band"},
		// gemm's k loop (member 1 of [i, k, j]) carries the accumulation
		// into C[i][j].
		{"gemm k loop", "gemm", smart, true, []int{0, 1, 2}, CheckCoincident, 1, "member 1 of the band"},
		// seidel-2d in its original order [t, i, j]: A[i+1][..] written
		// at t is read at t + 1, distance (1, -1, ..).
		{"seidel-2d unskewed", "seidel-2d", original, true, nil, CheckPermutable, 1,
			"is marked permutable but the RAW dependence S0 -> S0 on A goes backwards in member 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := program(t, tc.program)
			g := memoryDeps(t, p)
			tr := tc.tree(t, p, g)
			if vs, err := Check(tr, g); err != nil || len(vs) > 0 {
				t.Fatalf("the tree before the change: %v %v", err, vs)
			}
			at := firstPath(t, tr, scheduletree.KindBand)
			tr = setFlags(t, tr, at, tc.permutable, tc.coincident)
			vs, err := Check(tr, g)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) == 0 {
				t.Fatalf("no violation found in\n%s", sketch(tr))
			}
			found := false
			for _, v := range vs {
				t.Log(v)
				if v.Check == CheckOrder {
					t.Errorf("an order violation: %s", v)
				}
				verifyFlag(t, g, tr, v)
				if v.Check == tc.check && v.Member == tc.member && strings.Contains(v.String(), tc.message) {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s violation of member %d saying %q", tc.check, tc.member, tc.message)
			}
		})
	}
}

// verifyFlag checks a reported flag violation: the pair is in the
// dependence, its times are the tree's, they agree above the band and
// differ in the member as the flag forbids.
func verifyFlag(t *testing.T, g *deps.Graph, tr scheduletree.Tree, v Violation) {
	t.Helper()
	verifyPair(t, g, tr, v)
	depth, err := tr.TimeDepth(v.Band)
	if err != nil {
		t.Fatal(err)
	}
	s, k := v.SourceTime, v.SinkTime
	if s == nil || k == nil {
		t.Fatalf("%s: an instance without time", v)
	}
	at := depth + v.Member
	if !equalVec(s[:depth], k[:depth]) {
		t.Errorf("%s: the times differ above the band (dimensions 0 to %d)", v, depth-1)
	}
	switch v.Check {
	case CheckCoincident:
		if s[at] == k[at] {
			t.Errorf("%s: the times agree in dimension %d", v, at)
		}
	case CheckPermutable:
		if s[at] <= k[at] {
			t.Errorf("%s: the dependence does not go backwards in dimension %d", v, at)
		}
	}
}

// verifyPair checks that a violation's pair is in its dependence and that
// its times are the tree's.
func verifyPair(t *testing.T, g *deps.Graph, tr scheduletree.Tree, v Violation) {
	t.Helper()
	var rel presburger.Map
	for _, d := range g.Deps {
		if d.Kind == v.Kind && d.Source == v.Source && d.Sink == v.Sink && d.Array == v.Array {
			rel = d.Rel
		}
	}
	var pt []int64
	for _, n := range rel.Space().Params {
		pt = append(pt, v.Params[n])
	}
	pt = append(append(pt, v.SourceInstance...), v.SinkInstance...)
	if in, err := rel.Contains(pt); err != nil || !in {
		t.Errorf("%s: the pair is not in the dependence %s (%v)", v, rel, err)
	}
	sched, err := tr.Map()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sched.Maps() {
		var inst, want []int64
		switch m.Space().In.Name {
		case v.Source:
			inst, want = v.SourceInstance, v.SourceTime
		case v.Sink:
			inst, want = v.SinkInstance, v.SinkTime
		default:
			continue
		}
		got, err := timeOf(m, pt[:len(rel.Space().Params)], inst)
		if err != nil || !equalVec(got, want) {
			t.Errorf("%s: time of %v is %v (%v)", v, inst, got, err)
		}
	}
}

// TestCheckFlagsString checks the messages of flag violations.
func TestCheckFlagsString(t *testing.T) {
	v := Violation{Check: CheckCoincident, Band: scheduletree.Path{0, 1}, Member: 0,
		Kind: deps.RAW, Source: "S0", Sink: "S1", Array: "A",
		Params: map[string]int64{"n": 4}, ParamNames: []string{"n"},
		SourceInstance: []int64{0, 1}, SinkInstance: []int64{1, 1},
		SourceTime: []int64{0, 1}, SinkTime: []int64{1, 1}}
	want := "member 0 of the band at /0/1 is marked coincident but carries the RAW dependence S0 -> S1 on A: S0[0, 1] runs at [0, 1], S1[1, 1] runs at [1, 1] (n = 4)"
	if got := v.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	v.Check, v.Member = CheckPermutable, 1
	want = "the band at /0/1 is marked permutable but the RAW dependence S0 -> S1 on A goes backwards in member 1: S0[0, 1] runs at [0, 1], S1[1, 1] runs at [1, 1] (n = 4)"
	if got := v.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestCheckFlagsScheduled checks the flags of the scheduler's trees: every
// PolyBench kernel (a sample under -short) and every pipeline, in the
// original order and under every fusion mode, tiled or not, has no flag
// violation (the PolyMage pipelines at benchmark depth only without
// -short).
func TestCheckFlagsScheduled(t *testing.T) {
	var cases []scheduleCase
	every := 1
	if testing.Short() {
		every = 3
	}
	for _, k := range polybench.Every(every) {
		cases = append(cases, scheduleCase{name: k.Name, build: func(t testing.TB) *scop.Program {
			_, p := kernel(t, k.Name)
			return p
		}})
	}
	for _, e := range pipelines.All() {
		cases = append(cases, scheduleCase{name: e.Name, build: func(t testing.TB) *scop.Program {
			p, _ := program(t, e.Name)
			return p
		}})
	}
	if !testing.Short() {
		// The PolyMage pipelines at their benchmark depth (seconds each).
		for _, e := range polymage.All() {
			cases = append(cases, scheduleCase{name: "polymage/" + e.Name, build: func(t testing.TB) *scop.Program {
				p, err := e.Build()
				if err != nil {
					t.Fatalf("%s: %v", e.Name, err)
				}
				return p
			}})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.build(t)
			g := memoryDeps(t, p)
			trees := []struct {
				mode string
				tree scheduletree.Tree
			}{}
			orig, err := Original(p)
			if err != nil {
				t.Fatal(err)
			}
			trees = append(trees, struct {
				mode string
				tree scheduletree.Tree
			}{"original", orig})
			for _, f := range modes {
				tr := mustSchedule(t, p, g, f)
				// Tiling keeps the flags on the tile and point bands.
				tiled, _, err := tiling.Apply(tr, tiling.Policy{Sizes: []int64{4}})
				if err != nil {
					t.Fatal(err)
				}
				trees = append(trees, struct {
					mode string
					tree scheduletree.Tree
				}{f.String(), tr}, struct {
					mode string
					tree scheduletree.Tree
				}{f.String() + " tiled", tiled})
			}
			for _, m := range trees {
				vs, err := Check(m.tree, g)
				if err != nil {
					t.Fatalf("%s: Check: %v", m.mode, err)
				}
				for _, v := range vs {
					t.Errorf("%s: %s\n%s", m.mode, v, sketch(m.tree))
				}
			}
		})
	}
}

// diagonalSrc has one dependence, of distance (1, 1): no member of the
// band [t, i] is coincident, though i is parallel inside one t.
const diagonalSrc = `
void diagonal(int T, int N, double B[100][100])
{
  int t, i;
  for (t = 1; t < T; t++)
    for (i = 1; i < N; i++)
      B[t][i] = B[t - 1][i - 1] + 1.0;
}
`

// TestCheckFlagsStrict checks that a coincident flag holds against the
// dependences the band's earlier members carry, as isl's (tiling keeps
// the flag on the tile band, where i's tiles of one tile of t would run
// in parallel while B's values flow between them).
func TestCheckFlagsStrict(t *testing.T) {
	p, err := cparse.ParseFunc("diagonal.c", []byte(diagonalSrc), "diagonal")
	if err != nil {
		t.Fatal(err)
	}
	g := memoryDeps(t, p)
	tr, err := Original(p)
	if err != nil {
		t.Fatal(err)
	}
	at := firstPath(t, tr, scheduletree.KindBand)
	n, err := tr.At(at)
	if err != nil {
		t.Fatal(err)
	}
	if b := n.Band(); b.Members() != 2 {
		t.Fatalf("want one band [t, i]:\n%s", sketch(tr))
	}
	if vs, err := Check(tr, g); err != nil || len(vs) > 0 {
		t.Fatalf("the original tree: %v %v", err, vs)
	}
	tr = setFlags(t, tr, at, true, []int{1})
	vs, err := Check(tr, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Check != CheckCoincident || vs[0].Member != 1 {
		t.Fatalf("want member 1 reported, got %v\n%s", vs, sketch(tr))
	}
	t.Log(vs[0])
	verifyFlag(t, g, tr, vs[0])
}
