package compiler

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

// The inputs of issue 17 ("every stage bounded") that ran without bound:
// each now ends with a result or an error naming the limit to raise. The
// tests assert no wall-clock duration: the limits count work (the
// scheduling budget, the AST's nodes), and where only a deadline bounds a
// stage, the context's deadline is the mechanism and the error must wrap
// context.DeadlineExceeded. Each compilation also runs under a generous
// deadline (backstop) so that a regression fails instead of hanging.

const backstop = 5 * time.Minute

// nestSource is a loop nest depth deep summing an array into a scalar.
func nestSource(depth int) string {
	idx := "ijklmnop"[:depth]
	var b strings.Builder
	fmt.Fprintf(&b, "void f(int N, double A%s, double out[1]) {\n  double s = 0.0;\n#pragma scop\n", strings.Repeat("[N]", depth))
	for k, c := range idx {
		fmt.Fprintf(&b, "%sfor (int %c = 0; %c < N; %c++)\n", strings.Repeat("  ", k+1), c, c, c)
	}
	b.WriteString(strings.Repeat("  ", depth+1) + "s += A")
	for _, c := range idx {
		fmt.Fprintf(&b, "[%c]", c)
	}
	b.WriteString(";\n  out[0] = s;\n#pragma endscop\n}\n")
	return b.String()
}

// chainSource is n one-line loops, each reading what the previous wrote.
func chainSource(n int) string {
	var b strings.Builder
	b.WriteString("void g(int N, double A[N]) {\n#pragma scop\n")
	for range n {
		b.WriteString("  for (int i = 1; i < N; i++) A[i] = A[i-1] + 1.0;\n")
	}
	b.WriteString("#pragma endscop\n}\n")
	return b.String()
}

// straightSource is n statements without loops, each reading the last.
func straightSource(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "void h(double A[%d]) {\n#pragma scop\n", n+1)
	for k := range n {
		fmt.Fprintf(&b, "  A[%d] = A[%d] + 1.0;\n", k+1, k)
	}
	b.WriteString("#pragma endscop\n}\n")
	return b.String()
}

func parseC(t *testing.T, name, src string) *scop.Program {
	t.Helper()
	p, err := cparse.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p[0]
}

func compileWithin(t *testing.T, d time.Duration, p *scop.Program, opts Options) (*Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	r, err := Compile(ctx, p, opts)
	if errors.Is(err, context.DeadlineExceeded) && d == backstop {
		t.Fatalf("the backstop deadline stopped the compilation: a limit did not: %v", err)
	}
	return r, err
}

// wantLimit checks that err is a LimitError for field, whose message
// names the flag to raise.
func wantLimit(t *testing.T, err error, field, flag string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Field != field {
		t.Fatalf("want a LimitError of %s, got %v", field, err)
	}
	if !strings.Contains(err.Error(), flag) {
		t.Errorf("the message does not name %s: %v", flag, err)
	}
}

// scheduleWork is the budget of the scheduling cases: the default, or in
// -short a tenth of it (the same stop, sooner).
func scheduleWork() int64 {
	if testing.Short() {
		return scheduler.DefaultMaxWork / 10
	}
	return 0
}

// TestBoundedDeepNest: a loop nest 5 to 8 deep around a scalar
// accumulator ran past 30 s in the scheduler (depth 4: 2.2 s); it now
// stops at the scheduling budget with an error naming --schedule-work,
// while depth 4 still schedules.
func TestBoundedDeepNest(t *testing.T) {
	if _, err := compileWithin(t, backstop, parseC(t, "nest4.c", nestSource(4)), Options{Strategy: Smart, Stop: StageSchedule}); err != nil {
		t.Fatalf("depth 4: %v", err)
	}
	depths := []int{6, 8}
	if testing.Short() {
		depths = []int{6}
	}
	for _, depth := range depths {
		p := parseC(t, "nest.c", nestSource(depth))
		_, err := compileWithin(t, backstop, p, Options{Strategy: Smart, Stop: StageSchedule, ScheduleWork: scheduleWork()})
		wantLimit(t, err, "ScheduleWork", "--schedule-work")
		var be *scheduler.BudgetError
		if !errors.As(err, &be) {
			t.Errorf("depth %d: not a scheduler.BudgetError: %v", depth, err)
		}
		// The original order, which the message suggests, compiles it.
		if _, err := compileWithin(t, backstop, p, Options{Strategy: None, Stop: StageAST}); err != nil {
			t.Errorf("depth %d, none: %v", depth, err)
		}
	}
}

// TestBoundedLoopChain: 100 one-line loops, each depending on the last,
// took 20 s to over a minute; the scheduling budget stops them.
func TestBoundedLoopChain(t *testing.T) {
	p := parseC(t, "chain.c", chainSource(100))
	_, err := compileWithin(t, backstop, p, Options{Strategy: Smart, Stop: StageSchedule, ScheduleWork: scheduleWork()})
	wantLimit(t, err, "ScheduleWork", "--schedule-work")
	// A budget large enough gives a result.
	if testing.Short() {
		return
	}
	p = parseC(t, "chain.c", chainSource(20))
	if _, err := compileWithin(t, backstop, p, Options{Strategy: Smart, Stop: StageSchedule}); err != nil {
		t.Errorf("20 loops: %v", err)
	}
}

// TestBoundedManyStatements: a deadline shorter than the work stops a
// 13,000-statement compilation, with the context's error (the
// dependence analysis groups accesses by footprint, so the whole
// compilation takes seconds; 50 ms is well within it).
func TestBoundedManyStatements(t *testing.T) {
	p := parseC(t, "straight.c", straightSource(13_000))
	d := 50 * time.Millisecond
	for _, s := range []Strategy{None, Smart} {
		_, err := compileWithin(t, d, p, Options{Strategy: s, Stop: StageAST})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v: want the deadline's error, got %v", s, err)
		}
	}
}

// unrollTree unrolls every member of a depth-deep band of n iterations
// each: n^depth statement copies.
func unrollTree(t *testing.T, depth, n int) scheduletree.Tree {
	idx := []string{"i", "j", "k", "l", "m"}[:depth]
	var cons, members []string
	for _, v := range idx {
		cons = append(cons, fmt.Sprintf("0 <= %s < %d", v, n))
		members = append(members, fmt.Sprintf("{ S[%s] -> [(%s)] }", strings.Join(idx, ", "), v))
	}
	src := fmt.Sprintf("domain: \"{ S[%s] : %s }\"\nchild:\n  schedule: \"[%s]\"\n  options: \"{ unroll[x] }\"\n",
		strings.Join(idx, ", "), strings.Join(cons, " and "), strings.Join(members, ", "))
	tr, err := scheduletree.UnmarshalYAML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// boxesTree is one statement over a union of n parametric boxes with
// modulo conditions, whose band separates its loops into pieces: the
// kind of domain of isl's code-generation tests.
func boxesTree(t *testing.T, n int) scheduletree.Tree {
	rng := rand.New(rand.NewSource(3))
	ps := []string{"N", "M", "P"}
	var boxes []string
	for range n {
		boxes = append(boxes, fmt.Sprintf("S[i, j] : %d <= i <= %s + %d and %d + %s <= j <= %s + %d and i mod %d = %d",
			rng.Intn(21), ps[rng.Intn(3)], rng.Intn(10), rng.Intn(21), ps[rng.Intn(3)], ps[rng.Intn(3)], 20+rng.Intn(21), 2+rng.Intn(3), rng.Intn(2)))
	}
	src := fmt.Sprintf("domain: \"[N, M, P] -> { %s }\"\nchild:\n  schedule: \"[{ S[i, j] -> [(i)] }, { S[i, j] -> [(j)] }]\"\n  options: \"{ separate[x] }\"\n",
		strings.Join(boxes, "; "))
	tr, err := scheduletree.UnmarshalYAML([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestBoundedAST: AST generation of trees whose code is huge grew to
// 9-17 GB; the node limit stops it with an error naming --max-nodes, and
// the presburger limits stop a domain of many disjunctive pieces with one
// naming --max-pieces.
func TestBoundedAST(t *testing.T) {
	// 40^4 = 2.56 million statement copies.
	tr := unrollTree(t, 4, 40)
	maxNodes := 0
	if testing.Short() {
		maxNodes = ast.DefaultMaxNodes / 10
	}
	_, err := compileWithin(t, backstop, nil, Options{Tree: &tr, Stop: StageAST, MaxNodes: maxNodes})
	wantLimit(t, err, "MaxNodes", "--max-nodes")
	var le *ast.LimitError
	if !errors.As(err, &le) {
		t.Errorf("not an ast.LimitError: %v", err)
	}
	// Within the limit, the same option gives code: 8^3 copies.
	small := unrollTree(t, 3, 8)
	if r, err := compileWithin(t, backstop, nil, Options{Tree: &small, Stop: StageAST}); err != nil || r.AST == nil {
		t.Fatalf("8^3 unrolled: %v", err)
	}

	boxes := boxesTree(t, 16)
	if r, err := compileWithin(t, backstop, nil, Options{Tree: &boxes, Stop: StageAST}); err != nil || r.AST == nil {
		t.Fatalf("16 boxes: %v", err)
	}
	_, err = compileWithin(t, backstop, nil, Options{Tree: &boxes, Stop: StageAST, MaxPieces: 4})
	wantLimit(t, err, "MaxOps", "--max-pieces")
}
