//go:build isl && cgo

package islref

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// scheduleTrees are the trees of the cross-checks, in isl's YAML form.
var scheduleTrees = map[string]string{
	"sequence": `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"
child:
  sequence:
  - filter: "{ S[i, j] }"
    child:
      schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
      permutable: 1
      coincident: [ 1, 1 ]
  - filter: "{ T[i, j] }"
    child:
      schedule: "[N] -> [{ T[i, j] -> [(N - 1 - i)] }, { T[i, j] -> [(j)] }]"
      coincident: [ 0, 1 ]
`,
	"fused": `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"
child:
  schedule: "[{ S[i, j] -> [(i)]; T[i, j] -> [(i)] }, { S[i, j] -> [(j)]; T[i, j] -> [(j + 1)] }]"
  permutable: 1
  coincident: [ 1, 0 ]
  child:
    sequence:
    - filter: "{ S[i, j] }"
    - filter: "{ T[i, j] }"
`,
	"misc": `
domain: "[N, M] -> { A[i] : 0 <= i < N; B[i, j] : 0 <= i < N and 0 <= j < M }"
child:
  context: "[N, M] -> { : N >= 4 and M >= 2 }"
  child:
    mark: "kernel"
    child:
      schedule: "[N] -> [{ A[i] -> [(N - 1 - i)]; B[i, j] -> [(floor(i/2))] }]"
      options: "{ separate[0] }"
      child:
        guard: "[N] -> { [t] : t >= 0 }"
        child:
          set:
          - filter: "{ A[i] }"
            child:
              mark: "skipped"
          - filter: "{ B[i, j] }"
            child:
              schedule: "[{ B[i, j] -> [(j)] }, { B[i, j] -> [(i mod 2)] }]"
              coincident: [ 1, 0 ]
              options: "{ unroll[0]; atomic[1] }"
`,
	"piecewise": `
domain: "[N] -> { S[i] : 0 <= i < N; T[i, j] : 0 <= i < N and 0 <= j <= i }"
child:
  schedule: "[N] -> [{ S[i] -> [(i)] : i < N - 2; S[i] -> [(N)] : i >= N - 2; T[i, j] -> [(i + j)] }, { S[i] -> [(0)]; T[i, j] -> [(-j)] }]"
  permutable: 1
  child:
    sequence:
    - filter: "[N] -> { S[i] : i < N - 2 }"
    - filter: "[N] -> { S[i] : i >= N - 2; T[i, j] }"
      child:
        mark: "parallel"
`,
	"extension": `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i, j] : 0 <= i < N and 0 <= j < N }"
child:
  sequence:
  - filter: "{ S[i, j] }"
    child:
      mark: "skipped"
      child:
        schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
  - filter: "{ T[i, j] }"
    child:
      schedule: "[{ T[i, j] -> [(floor(i/4))] }, { T[i, j] -> [(floor(j/4))] }]"
      permutable: 1
      coincident: [ 1, 1 ]
      child:
        extension: "[N] -> { [o0, o1] -> S[i, j] : 4o0 <= i <= 4o0 + 4 and 4o1 <= j <= 4o1 + 3 and 0 <= i < N and 0 <= j < N }"
        child:
          sequence:
          - filter: "{ S[i, j] }"
            child:
              schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
          - filter: "{ T[i, j] }"
            child:
              schedule: "[{ T[i, j] -> [(i)] }, { T[i, j] -> [(j)] }]"
`,
	"expansion": `
domain: "{ C[c] : 0 <= c < 4 }"
child:
  schedule: "[{ C[c] -> [(c)] }]"
  child:
    contraction: "{ S[i] -> C[(floor(i/2))] }"
    expansion: "{ C[c] -> S[i] : 2c <= i <= 2c + 1 }"
    child:
      schedule: "[{ S[i] -> [(i)] }]"
`,
}

func hasExtension(tr scheduletree.Tree) bool {
	found := false
	tr.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		found = found || n.Kind() == scheduletree.KindExtension
		return true
	})
	return found
}

// checkTreeWithISL checks that isl reads tr's YAML to the same schedule
// map, and that isl's printing (block and flow) reads back to tr.
func checkTreeWithISL(t *testing.T, name string, tr scheduletree.Tree) {
	t.Helper()
	y, err := scheduletree.MarshalYAML(tr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want, err := tr.Map()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ext, err := ScheduleExtendedMap(string(y))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, y)
	}
	sameUnionMap(t, name+": extended map", ext, want)
	if !hasExtension(tr) {
		m, err := ScheduleMap(string(y))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, y)
		}
		sameUnionMap(t, name+": isl_schedule_get_map", m, want)
	}
	for _, flow := range []bool{false, true} {
		text, err := ScheduleYAML(string(y), flow)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := scheduletree.UnmarshalYAML([]byte(text))
		if err != nil {
			t.Fatalf("%s: reading isl's YAML: %v\n%s", name, err, text)
		}
		if eq, err := back.Equal(tr); err != nil || !eq {
			t.Errorf("%s: isl's YAML (flow %v) reads back to a different tree (%v):\n%s\nours:\n%s", name, flow, err, text, y)
		}
	}
	// Prefix schedules and instances wherever isl defines them.
	tr.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		pre, dom, err := ScheduleNode(string(y), []int(p))
		if err != nil {
			if !strings.Contains(err.Error(), "extension") {
				t.Errorf("%s at %s: %v", name, p, err)
			}
			return true
		}
		gotPre, err := tr.PrefixSchedule(p)
		if err != nil {
			t.Fatal(err)
		}
		sameUnionMap(t, name+" prefix at "+p.String(), pre, gotPre)
		gotDom, err := tr.Instances(p)
		if err != nil {
			t.Fatal(err)
		}
		sameUnionSet(t, name+" instances at "+p.String(), dom, gotDom)
		return true
	})
}

func sameUnionMap(t *testing.T, what, islText string, got presburger.UnionMap) {
	t.Helper()
	m, err := presburger.ParseUnionMap(islText)
	if err != nil {
		t.Fatalf("%s: parsing isl's %s: %v", what, islText, err)
	}
	if eq, err := m.IsEqual(got); err != nil || !eq {
		t.Errorf("%s: isl %s\n  tilefuse %s (%v)", what, islText, got, err)
	}
}

func sameUnionSet(t *testing.T, what, islText string, got presburger.UnionSet) {
	t.Helper()
	s, err := presburger.ParseUnionSet(islText)
	if err != nil {
		t.Fatalf("%s: parsing isl's %s: %v", what, islText, err)
	}
	if eq, err := s.IsEqual(got); err != nil || !eq {
		t.Errorf("%s: isl %s\n  tilefuse %s (%v)", what, islText, got, err)
	}
}

func readTree(t *testing.T, name string) scheduletree.Tree {
	t.Helper()
	tr, err := scheduletree.UnmarshalYAML([]byte(scheduleTrees[name]))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := scheduletree.Validate(tr); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tr
}

func TestScheduleTreesVsISL(t *testing.T) {
	for name := range scheduleTrees {
		t.Run(name, func(t *testing.T) { checkTreeWithISL(t, name, readTree(t, name)) })
	}
}

// islTree reads a tree isl printed.
func islTree(t *testing.T, text string, err error) scheduletree.Tree {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := scheduletree.UnmarshalYAML([]byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return tr
}

func sameTree(t *testing.T, what string, got, isl scheduletree.Tree) {
	t.Helper()
	if eq, err := got.Equal(isl); err != nil || !eq {
		a, _ := scheduletree.MarshalYAML(got)
		b, _ := scheduletree.MarshalYAML(isl)
		t.Errorf("%s differs from isl (%v):\n%s\nisl:\n%s", what, err, a, b)
	}
}

func TestScheduleEditsVsISL(t *testing.T) {
	for _, tc := range []struct {
		tree  string
		path  scheduletree.Path
		sizes []int64
		split int
	}{
		{tree: "fused", path: scheduletree.Path{0}, sizes: []int64{32, 16}, split: 1},
		{tree: "sequence", path: scheduletree.Path{0, 1, 0}, sizes: []int64{4, 8}, split: 1},
		{tree: "misc", path: scheduletree.Path{0, 0, 0, 0, 0, 1, 0}, sizes: []int64{3, 2}, split: 1},
		{tree: "piecewise", path: scheduletree.Path{0}, sizes: []int64{5, 7}, split: 1},
		{tree: "extension", path: scheduletree.Path{0, 1, 0, 0, 0, 1, 0}, sizes: []int64{2, 2}, split: 1},
	} {
		tr := readTree(t, tc.tree)
		y, err := scheduletree.MarshalYAML(tr)
		if err != nil {
			t.Fatal(err)
		}
		name := tc.tree + " at " + tc.path.String()
		tiled, err := tr.TileBand(tc.path, tc.sizes)
		if err != nil {
			t.Fatal(err)
		}
		text, err := ScheduleTile(string(y), []int(tc.path), tc.sizes)
		sameTree(t, "tiled "+name, tiled, islTree(t, text, err))
		checkTreeWithISL(t, "tiled "+name, tiled)

		split, err := tr.SplitBand(tc.path, tc.split)
		if err != nil {
			t.Fatal(err)
		}
		text, err = ScheduleSplit(string(y), []int(tc.path), tc.split)
		sameTree(t, "split "+name, split, islTree(t, text, err))
		checkTreeWithISL(t, "split "+name, split)
	}
}

func TestScheduleGraftVsISL(t *testing.T) {
	graftU := `
domain: "[N] -> { U[i] : 0 <= i < N }"
child:
  schedule: "[{ U[i] -> [(i)] }]"
`
	graftV := `domain: "{ V[] }"`
	for _, tc := range []struct {
		tree   string
		path   scheduletree.Path
		graft  string
		before bool
	}{
		{"sequence", scheduletree.Path{0, 1, 0}, graftU, true},
		{"sequence", scheduletree.Path{0, 0, 0, 0}, graftV, false},
		{"fused", scheduletree.Path{0, 0}, graftV, true},
		// Into the sequence under the extension: isl extends that extension.
		{"extension", scheduletree.Path{0, 1, 0, 0, 0, 1, 0}, graftV, true},
		{"extension", scheduletree.Path{0, 1, 0, 0, 0, 0, 0}, graftU, false},
	} {
		tr := readTree(t, tc.tree)
		g, err := scheduletree.UnmarshalYAML([]byte(tc.graft))
		if err != nil {
			t.Fatal(err)
		}
		y, err := scheduletree.MarshalYAML(tr)
		if err != nil {
			t.Fatal(err)
		}
		name := tc.tree + " at " + tc.path.String()
		got, at, err := tr.GraftBefore(tc.path, g.Root())
		if !tc.before {
			got, at, err = tr.GraftAfter(tc.path, g.Root())
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n, _ := got.At(at); n == nil || n != mustAt(t, tr, tc.path) {
			t.Errorf("%s: the returned path %s is not the original node", name, at)
		}
		text, err := ScheduleGraft(string(y), []int(tc.path), tc.graft, tc.before)
		sameTree(t, "graft at "+name, got, islTree(t, text, err))
		checkTreeWithISL(t, "graft at "+name, got)
	}
}

func mustAt(t *testing.T, tr scheduletree.Tree, p scheduletree.Path) *scheduletree.Node {
	t.Helper()
	n, err := tr.At(p)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// treeGen builds random valid schedule trees over three statements.
type treeGen struct {
	r     *rand.Rand
	stmts map[string][]string // statement -> dimension names
}

func (g *treeGen) expr(dims []string) string {
	var terms []string
	for _, d := range dims {
		if c := g.r.IntN(5) - 2; c != 0 {
			terms = append(terms, fmt.Sprintf("%d%s", c, d))
		}
	}
	if g.r.IntN(4) == 0 {
		terms = append(terms, fmt.Sprintf("%dN", g.r.IntN(3)-1))
	}
	terms = append(terms, fmt.Sprint(g.r.IntN(7)-3))
	e := strings.Join(terms, " + ")
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprintf("floor((%s)/%d)", e, 2+g.r.IntN(3))
	case 1:
		return fmt.Sprintf("(%s) mod %d", e, 2+g.r.IntN(2))
	}
	return e
}

func (g *treeGen) band(stmts []string, depth int) *scheduletree.Node {
	n := 1 + g.r.IntN(2)
	var parts []string
	for _, s := range stmts {
		dims := g.stmts[s]
		var es []string
		for range n {
			es = append(es, g.expr(dims))
		}
		parts = append(parts, fmt.Sprintf("%s[%s] -> [%s]", s, strings.Join(dims, ", "), strings.Join(es, ", ")))
	}
	m, err := presburger.ParseUnionMap("[N] -> { " + strings.Join(parts, "; ") + " }")
	if err != nil {
		panic(err)
	}
	b := scheduletree.Band{Schedule: m, Permutable: g.r.IntN(2) == 0}
	for range n {
		b.Coincident = append(b.Coincident, g.r.IntN(2) == 0)
		b.Options = append(b.Options, scheduletree.Option(g.r.IntN(4)))
	}
	return scheduletree.NewBand(b, g.node(stmts, depth))
}

func (g *treeGen) filter(text string, child *scheduletree.Node) *scheduletree.Node {
	f, err := presburger.ParseUnionSet(text)
	if err != nil {
		panic(err)
	}
	return scheduletree.NewFilter(f, child)
}

// node builds a subtree for the instances of stmts.
func (g *treeGen) node(stmts []string, depth int) *scheduletree.Node {
	depth++
	if depth > 4 {
		return nil
	}
	switch k := g.r.IntN(10); {
	case k < 2:
		return nil
	case k < 6:
		return g.band(stmts, depth)
	case k < 7:
		return scheduletree.NewMark("m", g.node(stmts, depth))
	}
	// A sequence or set: the statements split into two groups, or the first
	// statement split by a condition on its first dimension.
	var a, b []string
	var fa, fb []string
	cut := g.r.IntN(4)
	for i, s := range stmts {
		d := g.stmts[s]
		whole := fmt.Sprintf("%s[%s]", s, strings.Join(d, ", "))
		switch {
		case i == 0 && (len(stmts) == 1 || g.r.IntN(2) == 0):
			a, b = append(a, s), append(b, s)
			fa = append(fa, fmt.Sprintf("%s : %s < %d", whole, d[0], cut))
			fb = append(fb, fmt.Sprintf("%s : %s >= %d", whole, d[0], cut))
		case g.r.IntN(2) == 0:
			a, fa = append(a, s), append(fa, whole)
		default:
			b, fb = append(b, s), append(fb, whole)
		}
	}
	if len(a) == 0 || len(b) == 0 {
		return g.band(stmts, depth)
	}
	children := []*scheduletree.Node{
		g.filter("{ "+strings.Join(fa, "; ")+" }", g.node(a, depth)),
		g.filter("{ "+strings.Join(fb, "; ")+" }", g.node(b, depth)),
	}
	if g.r.IntN(3) == 0 {
		return scheduletree.NewSet(children...)
	}
	return scheduletree.NewSequence(children...)
}

func randomTree(seed uint64) scheduletree.Tree {
	g := &treeGen{r: rand.New(rand.NewPCG(seed, 7)), stmts: map[string][]string{
		"S": {"i", "j"}, "T": {"i"}, "U": {"i", "j"},
	}}
	dom, err := presburger.ParseUnionSet("[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 3; T[i] : 0 <= i < N; U[i, j] : 0 <= i <= j < N }")
	if err != nil {
		panic(err)
	}
	tr, err := scheduletree.NewTree(scheduletree.NewDomain(dom, g.node([]string{"S", "T", "U"}, 0)))
	if err != nil {
		panic(err)
	}
	return tr
}

// TestScheduleRandomVsISL checks random trees, and tiling and splitting
// their bands, against isl.
func TestScheduleRandomVsISL(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 8
	}
	for seed := range uint64(n) {
		tr := randomTree(seed)
		if err := scheduletree.Validate(tr); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		name := fmt.Sprintf("seed %d", seed)
		checkTreeWithISL(t, name, tr)
		checkRandomGraft(t, name, tr, seed)
		y, err := scheduletree.MarshalYAML(tr)
		if err != nil {
			t.Fatal(err)
		}
		tr.Walk(func(p scheduletree.Path, nd *scheduletree.Node) bool {
			if nd.Kind() != scheduletree.KindBand {
				return true
			}
			m := nd.Band().Members()
			sizes := make([]int64, m)
			for i := range sizes {
				sizes[i] = int64(2 + (int(seed)+i)%4)
			}
			tiled, err := tr.TileBand(p, sizes)
			if err != nil {
				t.Fatal(err)
			}
			text, err := ScheduleTile(string(y), []int(p), sizes)
			sameTree(t, fmt.Sprintf("%s: tiled at %s", name, p), tiled, islTree(t, text, err))
			if m > 1 {
				split, err := tr.SplitBand(p, 1)
				if err != nil {
					t.Fatal(err)
				}
				text, err := ScheduleSplit(string(y), []int(p), 1)
				sameTree(t, fmt.Sprintf("%s: split at %s", name, p), split, islTree(t, text, err))
			}
			return true
		})
	}
}

// checkRandomGraft grafts a new statement before or after a node of tr
// where isl allows it and compares with isl's graft.
func checkRandomGraft(t *testing.T, name string, tr scheduletree.Tree, seed uint64) {
	var places []scheduletree.Path
	tr.Walk(func(p scheduletree.Path, n *scheduletree.Node) bool {
		if parent, ok := p.Parent(); ok {
			if pn, _ := tr.At(parent); pn.Kind() != scheduletree.KindSequence && pn.Kind() != scheduletree.KindSet {
				places = append(places, append(scheduletree.Path(nil), p...))
			}
		}
		return true
	})
	if len(places) == 0 {
		return
	}
	p := places[int(seed)%len(places)]
	before := seed%2 == 0
	graft := "domain: \"[N] -> { V[k] : 0 <= k < N }\"\nchild:\n  schedule: \"[{ V[k] -> [(k)] }]\"\n"
	g, err := scheduletree.UnmarshalYAML([]byte(graft))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := tr.GraftBefore(p, g.Root())
	if !before {
		got, _, err = tr.GraftAfter(p, g.Root())
	}
	if err != nil {
		t.Fatalf("%s: graft at %s: %v", name, p, err)
	}
	y, err := scheduletree.MarshalYAML(tr)
	if err != nil {
		t.Fatal(err)
	}
	text, err := ScheduleGraft(string(y), []int(p), graft, before)
	what := fmt.Sprintf("%s: graft at %s", name, p)
	sameTree(t, what, got, islTree(t, text, err))
	checkTreeWithISL(t, what, got)
}
