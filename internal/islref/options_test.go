//go:build isl && cgo

package islref

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/internal/trace"
	"github.com/tilefuse/tilefuse/presburger/calc"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// optionTrees are trees in the forms of isl's tree language that go
// beyond plain sets (issue 17 item 3): the options' every-member idiom,
// "*" and ranges in tuples, isolate with its own loop types, contexts of
// the prefix schedule space, backslash continuations.
var optionTrees = []struct{ name, yaml string }{
	{"every member separate", `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M; T[i, j] : 2 <= i < N + 2 and 0 <= j <= i }"
child:
  schedule: "[{ S[i, j] -> [(i)]; T[i, j] -> [(i)] }, { S[i, j] -> [(j)]; T[i, j] -> [(j)] }]"
  options: "{ separate[i0] }"
`}, {"every member atomic, star", `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M; T[i, j] : 2 <= i < N + 2 and 0 <= j <= i }"
child:
  schedule: "[{ S[i, j] -> [(i)]; T[i, j] -> [(i)] }, { S[i, j] -> [(j)]; T[i, j] -> [(j)] }]"
  options: "{ atomic[*] }"
`}, {"unroll range on a point band", `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 7 }"
child:
  schedule: "[{ S[i, j] -> [(floor(i/3))] }]"
  child:
    schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
    options: "{ unroll[s = 0:23] }"
`}, {"isolate a range with unroll inside", `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 10 }"
child:
  schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
  options: "{ isolate[[] -> [x, y]] : 2 <= x <= 5; [isolate[] -> unroll[x]] : x = 1 }"
`}, {"isolate full tiles", `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M }"
child:
  schedule: "[{ S[i, j] -> [(floor(i/4))] }, { S[i, j] -> [(floor(j/3))] }]"
  options: "[N, M] -> { isolate[[] -> [a, b]] : 4a + 3 < N and 3b + 2 < M }"
  child:
    schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
`}, {"isolate in a point band", `
domain: "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M }"
child:
  schedule: "[{ S[i, j] -> [(floor(i/4))] }, { S[i, j] -> [(floor(j/4))] }]"
  child:
    schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
    options: "[N, M] -> { isolate[[t0, t1] -> [x, y]] : 4t0 + 1 <= x <= 4t0 + 2 and y < M - 1; [isolate[] -> separate[*]] }"
`}, {"contexts", `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }"
child:
  context: "[N] -> { [] : N >= 4 }"
  child:
    schedule: "[{ S[i, j] -> [(i)] }]"
    child:
      context: "[N] -> { [t] : 0 <= t < N and N <= 100 }"
      child:
        schedule: "[{ S[i, j] -> [(j)] }]"
`}, {"parametric, out of range, default and unknown options", `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 4 }"
child:
  schedule: "[{ S[i, j] -> [(floor(i/2))] }, { S[i, j] -> [(floor(j/2))] }]"
  options: "[N] -> { atomic[x] : x < N - 20; unroll[5]; default[0]; foo[1]; separate[0, 1] }"
  child:
    schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
    options: "{ unroll[1:7]; isolate[[t0, t1] -> A[x, y]] : x > 2; isolate[[] -> [x, y]] : x > 2 }"
`}, {"isolate sets of two depths", `
domain: "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < 10 }"
child:
  schedule: "[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]"
  options: "{ isolate[[t] -> [x, y]] : x >= t; isolate[[] -> [x, y]] : x >= 3 }"
  child:
    schedule: "[{ S[i, j] -> [(i + j)] }]"
    options: "{ isolate[[t, u] -> [x]] : x <= t + 4; isolate[[] -> [x]] : x >= 3 }"
`}, {"tuple shorthands in sets", `
domain: "[N] -> { S[i, j = 0:9] : 0 <= i < N; T[0:3, 0:2] }"
child:
  filter: "{ S[*, *]; T[i, j] }"
  child:
    schedule: "[{ S[i, j] -> [(i)]; T[i, j] -> [(i)] }, { S[i, j] -> [(j)]; T[i, j] -> [(j)] }]"
`}, {"backslash continuation", "\ndomain: \"[N] -> { S[i, j] : 0 <= i < N \\\n   and 0 <= j < 3 }\"\nchild:\n  schedule: \"[{ S[i, j] -> [(i)] }, \\\n  { S[i, j] -> [(j)] }]\"\n  options: \"{ unroll[1] }\"\n"},
}

var optionParams = map[string]int64{"N": 11, "M": 10}

// TestOptionFormsVsISL: isl and tilefuse read each tree the same way
// (isl reads back what tilefuse writes, to the same schedule map and the
// same AST), and both ASTs run the tree's instances in its order.
func TestOptionFormsVsISL(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	for _, tt := range optionTrees {
		t.Run(tt.name, func(t *testing.T) {
			checkOptionTree(t, tt.yaml, optionParams, true)
		})
	}
}

// checkOptionTree compares isl's reading and AST of the YAML text with
// tilefuse's. With sameAST, isl's AST of the text tilefuse writes back
// must be isl's AST of the original text.
func checkOptionTree(t *testing.T, yaml string, params map[string]int64, sameAST bool) {
	t.Helper()
	islCode, islSt, err := ASTFromYAMLStats(yaml)
	if err != nil {
		t.Fatalf("%v\n%s", err, yaml)
	}
	tr, err := scheduletree.UnmarshalYAML([]byte(yaml))
	if err != nil {
		t.Fatalf("tilefuse cannot read what isl reads: %v\n%s", err, yaml)
	}
	back, err := scheduletree.MarshalYAML(tr)
	if err != nil {
		t.Fatal(err)
	}
	// The same meaning: isl reads our text to its schedule map and, the
	// options included, to its AST.
	m1, err1 := ScheduleMap(yaml)
	m2, err2 := ScheduleMap(string(back))
	if err1 != nil || err2 != nil {
		t.Fatalf("isl schedule maps: %v, %v\n%s", err1, err2, back)
	}
	if eq, err := Equal(calc.MapKind, m1, m2); err != nil || !eq {
		t.Errorf("isl's map of the original %s, of ours %s (%v)", m1, m2, err)
	}
	if sameAST {
		code2, err := ASTFromYAML(string(back))
		if err != nil {
			t.Fatalf("%v\n%s", err, back)
		}
		if code2 != islCode {
			t.Errorf("isl's AST of the tree tilefuse wrote differs:\n%s\nfrom the original's:\n%s\nwritten:\n%s", code2, islCode, back)
		}
	}
	want, err := treeOrder(tr, params)
	if err != nil {
		t.Fatal(err)
	}
	got, err := trace.RunC(islCode, params, arities(want))
	if err != nil {
		t.Fatalf("%v\n%s", err, islCode)
	}
	if err := trace.Compare(got, want); err != nil {
		t.Fatalf("isl's AST: %v\n%s", err, islCode)
	}
	n, err := ast.Generate(tr, ast.Options{})
	if err != nil {
		t.Fatalf("tilefuse's AST: %v\n%s", err, yaml)
	}
	ours := astTrace(t, n, params)
	if err := trace.Compare(ours, want); err != nil {
		t.Errorf("tilefuse's AST: %v\n%s\nisl's:\n%s\ntree:\n%s", err, ast.PrintC(n, ast.PrintOptions{}), islCode, yaml)
	}
	if st := countAST(n); st.Loops != islSt.Loops && strings.Contains(yaml, "isolate") {
		t.Logf("loops: tilefuse %d, isl %d\n%s\nisl:\n%s", st.Loops, islSt.Loops, ast.PrintC(n, ast.PrintOptions{}), islCode)
	}
}

// countAST counts the loops, ifs and statements of a tilefuse AST.
func countAST(n ast.Node) ASTStats {
	var st ASTStats
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		switch x := n.(type) {
		case *ast.For:
			st.Loops++
			walk(x.Body)
		case *ast.If:
			st.Ifs++
			walk(x.Then)
			if x.Else != nil {
				walk(x.Else)
			}
		case *ast.Block:
			for _, c := range x.Children {
				walk(c)
			}
		case *ast.Mark:
			walk(x.Body)
		case *ast.User:
			st.Stmts++
		}
	}
	walk(n)
	return st
}

// TestRandomOptionTreesVsISL: random bands and tiled bands with random
// AST-build options in isl's forms (every member, single members,
// ranges, "*", isolate sets of the band's depth with their own loop
// types): isl's AST and tilefuse's run the same instances in the tree's
// order, and isl reads back what tilefuse writes to the same AST.
func TestRandomOptionTreesVsISL(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	n := 40
	if testing.Short() {
		n = 10
	}
	if v, err := strconv.Atoi(os.Getenv("TILEFUSE_OPTION_TREES")); err == nil {
		n = v // the long run
	}
	for seed := range n {
		r := rand.New(rand.NewPCG(uint64(seed), 17))
		yaml := randomOptionTree(r)
		params := map[string]int64{"N": int64(4 + r.IntN(9)), "M": int64(3 + r.IntN(9))}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if _, err := ASTFromYAML(yaml); err != nil && strings.Contains(err.Error(), "unroll") {
				t.Skipf("isl: %v", err)
			}
			checkOptionTree(t, yaml, params, true)
		})
	}
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// randomOption writes loop types for a band of n members in one of isl's
// forms; unrollable says which members have a constant number of values.
func randomOption(r *rand.Rand, n int, unrollable []bool, isolated bool) []string {
	wrap := func(s string) string {
		cond := ""
		if i := strings.Index(s, " : "); i >= 0 {
			s, cond = s[:i], s[i:]
		}
		if isolated {
			return "[isolate[] -> " + s + "]" + cond
		}
		return s + cond
	}
	types := []string{"atomic", "separate"}
	all := true
	for _, u := range unrollable {
		all = all && u
	}
	if all {
		types = append(types, "unroll")
	}
	switch r.IntN(4) {
	case 0:
		return nil
	case 1: // every member
		return []string{wrap(pick(r, types...) + pick(r, "[x]", "[*]", "[s = 0:7]", "[i0] : i0 >= 0"))}
	}
	var out []string
	for k := 0; k < n; k++ {
		ty := append([]string{"default"}, "atomic", "separate")
		if unrollable[k] {
			ty = append(ty, "unroll")
		}
		if o := pick(r, ty...); o != "default" || r.IntN(4) == 0 {
			out = append(out, wrap(fmt.Sprintf("%s[%d]", o, k)))
		}
	}
	return out
}

// randomOptionTree is a band over one or two statements, tiled or not,
// with random options on each band.
func randomOptionTree(r *rand.Rand) string {
	var b strings.Builder
	two := r.IntN(2) == 0
	dom := "[N, M] -> { S[i, j] : 0 <= i < N and 0 <= j < M"
	if two {
		dom += pick(r, "; T[i, j] : 2 <= i < N + 2 and 0 <= j <= i", "; T[i, j] : 0 <= i < N and 0 <= j < 3")
	}
	dom += " }"
	sched := func(e1, e2 string) string {
		s := fmt.Sprintf("[{ S[i, j] -> [(%s)]", e1)
		if two {
			s += fmt.Sprintf("; T[i, j] -> [(%s)]", e1)
		}
		s += fmt.Sprintf(" }, { S[i, j] -> [(%s)]", e2)
		if two {
			s += fmt.Sprintf("; T[i, j] -> [(%s)]", e2)
		}
		return s + " }]"
	}
	fmt.Fprintf(&b, "domain: %q\nchild:\n", dom)
	pad := "    "
	if r.IntN(3) == 0 {
		b.WriteString("  context: \"[N, M] -> { [] : N >= 4 and M >= 3 }\"\n  child:\n")
	} else {
		b.WriteString("  sequence:\n  - filter: \"{ S[i, j]" + map[bool]string{true: "; T[i, j]"}[two] + " }\"\n    child:\n")
		pad = "      "
	}
	band := func(sched string, opts []string, isolate string) {
		fmt.Fprintf(&b, "%sschedule: %q\n", pad, sched)
		if isolate != "" {
			opts = append(opts, isolate)
		}
		if len(opts) > 0 {
			fmt.Fprintf(&b, "%soptions: %q\n", pad, "[N, M] -> { "+strings.Join(opts, "; ")+" }")
		}
	}
	if r.IntN(2) == 0 {
		// A plain band.
		var iso string
		if r.IntN(2) == 0 {
			iso = pick(r, "isolate[[] -> [x, y]] : 2 <= x <= N - 3", "isolate[[] -> [x, y]] : 1 <= x <= 4 and y >= 1",
				"isolate[[] -> [x, y]] : x <= y", "isolate[[] -> [x, y]] : x > 100")
		}
		opts := randomOption(r, 2, []bool{false, false}, false)
		if iso != "" {
			opts = append(opts, randomOption(r, 2, []bool{false, false}, true)...)
		}
		band(sched("i", "j"), opts, iso)
		return b.String()
	}
	// A tile band over a point band.
	ti, tj := 2+r.IntN(3), 2+r.IntN(3)
	var iso string
	if r.IntN(2) == 0 {
		iso = pick(r, fmt.Sprintf("isolate[[] -> [a, b]] : %da + %d < N and %db + %d < M", ti, ti-1, tj, tj-1),
			fmt.Sprintf("isolate[[] -> [a, b]] : %da + %d < N", ti, ti-1), "isolate[[] -> [a, b]] : a >= 1")
	}
	opts := randomOption(r, 2, []bool{false, false}, false)
	if iso != "" {
		opts = append(opts, randomOption(r, 2, []bool{false, false}, true)...)
	}
	band(sched(fmt.Sprintf("floor(i/%d)", ti), fmt.Sprintf("floor(j/%d)", tj)), opts, iso)
	fmt.Fprintf(&b, "%schild:\n", pad)
	pad += "  "
	iso = ""
	if r.IntN(3) == 0 {
		iso = pick(r, fmt.Sprintf("isolate[[t0, t1] -> [x, y]] : x <= %dt0 + %d", ti, ti-2), "isolate[[t0, t1] -> [x, y]] : y < M - 1")
	}
	opts = randomOption(r, 2, []bool{true, !two}, false)
	if iso != "" {
		opts = append(opts, randomOption(r, 2, []bool{true, !two}, true)...)
	}
	band(sched("i", "j"), opts, iso)
	return b.String()
}
