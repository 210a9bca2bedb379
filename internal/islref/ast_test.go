//go:build isl && cgo

package islref

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/trace"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// astTrees are schedules whose isl AST must run the instances of their
// schedule map in order. extra holds the instances that are not in the
// root domain (added by an extension, expanded by an expansion).
var astTrees = []struct {
	name, yaml, extra string
	params            map[string]int64
}{{
	name:   "interchanged band",
	params: map[string]int64{"N": 3, "M": 4},
	yaml: `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M }"
child:
  schedule: "[N, M] -> [{ S[i, j] -> [(j)] }, { S[i, j] -> [(i)] }]"
  permutable: 1
`,
}, {
	name:   "sequence",
	params: map[string]int64{"N": 4},
	yaml: `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N; T[i] : 0 <= i < N }"
child:
  sequence:
  - filter: "{ T[i] }"
    child:
      schedule: "[N] -> [{ T[i] -> [(N - 1 - i)] }]"
  - filter: "{ S[i, j] }"
    child:
      schedule: "[N] -> [{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
`,
}, {
	name:   "tiled band",
	params: map[string]int64{"N": 10, "M": 7},
	yaml: `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M }"
child:
  schedule: "[N, M] -> [{ S[i, j] -> [(floor((i)/4))] }, { S[i, j] -> [(floor((j)/3))] }]"
  permutable: 1
  child:
    schedule: "[N, M] -> [{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
    permutable: 1
`,
}, {
	name:   "skewed triangle",
	params: map[string]int64{"N": 5, "M": 7},
	yaml: `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and i <= j < M }"
child:
  schedule: "[N, M] -> [{ S[i, j] -> [(i + j)] }, { S[i, j] -> [(j)] }]"
`,
}, {
	name:   "strided fused",
	params: map[string]int64{"N": 11},
	yaml: `
domain: "[N] -> { S[i] : 0 <= i < N and i mod 3 = 1; T[i] : 0 <= i < N and i mod 2 = 0 }"
child:
  schedule: "[N] -> [{ S[i] -> [(i)]; T[i] -> [(i + 1)] }]"
  options: "{ separate[0] }"
  child:
    sequence:
    - filter: "{ T[i] }"
    - filter: "{ S[i] }"
`,
}, {
	// S and T have equal times: they may run in any order.
	name:   "set and unordered instances",
	params: map[string]int64{"N": 7},
	yaml: `
domain: "[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }"
child:
  schedule: "[N] -> [{ S[i] -> [(floor((i)/2))]; T[i] -> [(floor((i)/2))] }]"
  child:
    set:
    - filter: "{ S[i] : i mod 2 = 0 }"
    - filter: "{ S[i] : i mod 2 = 1; T[i] }"
`,
}, {
	name:   "mark, parameter context and guard",
	params: map[string]int64{"N": 6},
	yaml: `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 3 }"
child:
  context: "[N] -> { : N >= 2 }"
  child:
    mark: "kernel"
    child:
      schedule: "[N] -> [{ S[i, j] -> [(i)] }]"
      child:
        guard: "[N] -> { : N >= 1 }"
        child:
          mark: "inner"
          child:
            schedule: "[N] -> [{ S[i, j] -> [(-j)] }]"
            options: "{ unroll[0] }"
`,
}, {
	name:   "extension",
	params: map[string]int64{"N": 9},
	extra:  "[N] -> { U[i] : 0 <= i < N }",
	yaml: `
domain: "[N] -> { S[i] : 0 <= i < N; T[i] : 0 <= i < N }"
child:
  schedule: "[N] -> [{ S[i] -> [(floor((i)/4))]; T[i] -> [(floor((i)/4))] }]"
  child:
    extension: "[N] -> { [o] -> U[i] : 4o <= i < 4o + 4 and 0 <= i < N }"
    child:
      sequence:
      - filter: "{ U[i] }"
        child:
          schedule: "[N] -> [{ U[i] -> [(i)] }]"
      - filter: "{ S[i] }"
        child:
          schedule: "[N] -> [{ S[i] -> [(i)] }]"
      - filter: "{ T[i] }"
        child:
          schedule: "[N] -> [{ T[i] -> [(2i + 1)] }]"
`,
}, {
	name:   "expansion",
	params: map[string]int64{"N": 4},
	extra:  "[N] -> { S[i] : 0 <= i < 2N }",
	yaml: `
domain: "[N] -> { C[c] : 0 <= c < N }"
child:
  schedule: "[N] -> [{ C[c] -> [(-c)] }]"
  child:
    contraction: "[N] -> { S[i] -> C[(floor((i)/2))] }"
    expansion: "[N] -> { C[c] -> S[i] : 2c <= i <= 2c + 1 }"
    child:
      schedule: "[N] -> [{ S[i] -> [(i)] }]"
`,
}}

// TestASTFromYAMLRuns runs isl's AST of each tree and compares the trace
// with the tree's schedule map.
func TestASTFromYAMLRuns(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	for _, tt := range astTrees {
		t.Run(tt.name, func(t *testing.T) {
			code, st, err := ASTFromYAMLStats(tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			if st.Stmts == 0 || st.Loops == 0 {
				t.Errorf("stats %+v: no statement or no loop in\n%s", st, code)
			}
			want := islScheduleOrder(t, tt.yaml, tt.extra, tt.params)
			got, err := trace.RunC(code, tt.params, arities(want))
			if err != nil {
				t.Fatalf("%v\n%s", err, code)
			}
			if err := trace.Compare(got, want); err != nil {
				t.Errorf("%v\nAST:\n%s", err, code)
			}
		})
	}
}

// islScheduleOrder enumerates isl's schedule map of the tree (extensions
// included), restricted to the root domain and extra.
func islScheduleOrder(t *testing.T, yaml, extra string, params map[string]int64) []trace.Timed {
	t.Helper()
	text, err := ScheduleExtendedMap(yaml)
	if err != nil {
		t.Fatal(err)
	}
	_, domText, err := ScheduleNode(yaml, []int{0}) // the root itself reports none
	if err != nil {
		t.Fatal(err)
	}
	sched, err := presburger.ParseUnionMap(text)
	if err != nil {
		t.Fatal(err)
	}
	dom, err := presburger.ParseUnionSet(domText)
	if err == nil && extra != "" {
		var ext presburger.UnionSet
		if ext, err = presburger.ParseUnionSet(extra); err == nil {
			dom, err = dom.Union(ext)
		}
	}
	if err == nil {
		sched, err = sched.IntersectDomain(dom)
	}
	if err != nil {
		t.Fatal(err)
	}
	timed, err := trace.Enumerate(sched, params)
	if err != nil {
		t.Fatal(err)
	}
	if len(timed) == 0 {
		t.Fatal("the schedule has no instances")
	}
	return timed
}

// TestASTPolyBenchFusion runs isl's AST for scheduler.Original and for
// scheduler.Schedule in every fusion mode, for every PolyBench kernel at
// MINI sizes.
func TestASTPolyBenchFusion(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	for _, k := range polybench.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			g, err := deps.Memory(p)
			if err != nil {
				t.Fatal(err)
			}
			t.Run("original", func(t *testing.T) {
				tr, err := scheduler.Original(p)
				if err != nil {
					t.Fatal(err)
				}
				checkTreeAST(t, tr, k.Sizes(polybench.Mini))
			})
			for _, fuse := range []scheduler.Fuse{scheduler.FuseMin, scheduler.FuseSmart, scheduler.FuseMax} {
				t.Run(fuse.String(), func(t *testing.T) {
					tr, err := scheduler.Schedule(p, g, scheduler.Options{Fuse: fuse})
					if err != nil {
						t.Fatal(err)
					}
					checkTreeAST(t, tr, k.Sizes(polybench.Mini))
				})
			}
		})
	}
}

// checkTreeAST runs isl's AST for tr with the parameters fixed to params
// and compares the trace with tr.Map() on the tree's instances.
func checkTreeAST(t *testing.T, tr scheduletree.Tree, params map[string]int64) {
	t.Helper()
	y, err := scheduletree.MarshalYAML(tr)
	if err != nil {
		t.Fatal(err)
	}
	// isl reads the YAML to the same schedule map.
	islMap, err := ScheduleMap(string(y))
	if err != nil {
		t.Fatalf("isl cannot read the tree: %v\n%s", err, y)
	}
	ours, err := tr.Map()
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := presburger.ParseUnionMap(islMap)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := theirs.IsEqual(ours); err != nil || !eq {
		t.Errorf("isl_schedule_get_map = %s, tilefuse's map = %s (%v)", islMap, ours, err)
	}
	code, err := ASTFromYAML(string(y))
	if err != nil {
		t.Fatalf("%v\n%s", err, y)
	}
	want, err := treeOrder(tr, params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := trace.RunC(code, params, arities(want))
	if err != nil {
		t.Fatalf("%v\n%s", err, code)
	}
	if err := trace.Compare(got, want); err != nil {
		t.Errorf("%v\ntree:\n%s\nAST:\n%s", err, y, code)
	}
}

// treeOrder enumerates tr.Map() restricted to the instances of the tree:
// the root domain, the ranges of extensions and the expanded instances
// (tr.Map() keeps the domains of the band schedules).
func treeOrder(tr scheduletree.Tree, params map[string]int64) ([]trace.Timed, error) {
	sched, err := tr.Map()
	if err != nil {
		return nil, err
	}
	inst := tr.Domain()
	addRange := func(m presburger.UnionMap) error {
		r, err := m.Range()
		if err == nil {
			inst, err = inst.Union(r)
		}
		return err
	}
	var walk func(n *scheduletree.Node) error
	walk = func(n *scheduletree.Node) error {
		var err error
		switch n.Kind() {
		case scheduletree.KindExtension:
			err = addRange(n.Extension())
		case scheduletree.KindExpansion:
			err = addRange(n.Expansion())
		}
		for _, c := range n.Children() {
			if err == nil {
				err = walk(c)
			}
		}
		return err
	}
	if err := walk(tr.Root()); err != nil {
		return nil, err
	}
	if sched, err = sched.IntersectDomain(inst); err != nil {
		return nil, err
	}
	return trace.Enumerate(sched, params)
}

// arities gives each statement its number of iterators.
func arities(ts []trace.Timed) map[string]int {
	m := map[string]int{}
	for _, x := range ts {
		m[x.Stmt] = len(x.Iter)
	}
	return m
}

func TestASTFromYAMLText(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		st               ASTStats
	}{{
		name: "statement arguments and floord",
		yaml: `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 3 }"
child:
  schedule: "[N] -> [{ S[i, j] -> [(floor((i)/4))] }, { S[i, j] -> [(i)] }]"
  child:
    schedule: "[N] -> [{ S[i, j] -> [(j)] }]"
`,
		want: `for (int c0 = 0; c0 <= floord(N - 1, 4); c0 += 1)
  for (int c1 = 4 * c0; c1 <= min(N - 1, 4 * c0 + 3); c1 += 1)
    for (int c2 = 0; c2 <= 2; c2 += 1)
      S(c1, c2);
`,
		st: ASTStats{Loops: 3, Stmts: 1},
	}, {
		name: "if and max",
		yaml: `
domain: "[N] -> { S[i] : 0 <= i < N; T[i] : 5 <= i < 2N }"
child:
  schedule: "[N] -> [{ S[i] -> [(i)]; T[i] -> [(i)] }]"
  child:
    sequence:
    - filter: "{ S[i] }"
    - filter: "{ T[i] }"
`,
		want: `{
  for (int c0 = 0; c0 < N; c0 += 1) {
    S(c0);
    if (c0 >= 5)
      T(c0);
  }
  for (int c0 = max(5, N); c0 < 2 * N; c0 += 1)
    T(c0);
}
`,
		st: ASTStats{Loops: 2, Ifs: 1, Stmts: 3},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, st, err := ASTFromYAMLStats(tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, code); diff != "" {
				t.Errorf("code (-want +got):\n%s", diff)
			}
			if st != tt.st {
				t.Errorf("stats %+v, want %+v", st, tt.st)
			}
		})
	}
}

func TestASTFromYAMLErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{name: "not YAML", yaml: "domain: [", want: "isl read schedule"},
		{name: "band adds a parameter", want: "isl AST generation: band node is not allowed to introduce new parameters", yaml: `
domain: "{ S[i] : 0 <= i < 10 }"
child:
  schedule: "[K] -> [{ S[i] -> [(i + K)] }]"
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ASTFromYAML(tt.yaml)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ASTFromYAML: error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
