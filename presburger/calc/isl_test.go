//go:build isl && cgo

package calc_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilefuse/tilefuse/internal/islref"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/presburger/calc"
	"github.com/tilefuse/tilefuse/presburger/internal/gen"
)

// defaultCases is the number of random cases per operation; the whole suite
// takes a few minutes on two cores. TILEFUSE_ISL_CASES overrides it.
const defaultCases = 2000

// caseTimeout bounds one tilefuse evaluation; the library has operation
// budgets, so running into this is a bug.
const caseTimeout = 20 * time.Second

func numCases(t *testing.T) int {
	s := os.Getenv("TILEFUSE_ISL_CASES")
	if s == "" {
		if testing.Short() {
			return defaultCases / 10
		}
		return defaultCases
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		t.Fatalf("TILEFUSE_ISL_CASES=%q: want a non-negative integer", s)
	}
	return n
}

// tfResult is what tilefuse printed for a program, or how it failed.
type tfResult struct {
	out   []string
	err   error
	panic string
}

// runTilefuse evaluates prog with package presburger (or b, when testing
// this harness), turning a panic into a result and giving up after caseTimeout.
func runTilefuse(prog *calc.Program, b calc.Backend) tfResult {
	done := make(chan tfResult, 1)
	go func() {
		var r tfResult
		defer func() {
			if p := recover(); p != nil {
				r.panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- r
		}()
		r.err = calc.Run(prog, b, func(o calc.Output) error {
			r.out = append(r.out, o.Text)
			return nil
		})
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(caseTimeout):
		return tfResult{panic: fmt.Sprintf("no answer after %v", caseTimeout)}
	}
}

// outcome classifies one case.
type outcome int

const (
	agree       outcome = iota
	islGaveUp           // isl hit its operation quota: no reference answer
	tfLimit             // tilefuse returned a documented limit error: counted, not failed
	unsupported         // tilefuse does not implement the operation yet
	disagree            // a library bug (or a generator bug when isl rejects the script)
)

// tfLimits are the errors package presburger documents as its limits; an
// answer is still never wrong, so they are counted and shown, not failed,
// unless they become common.
var tfLimits = []error{presburger.ErrBudget, presburger.ErrOverflow, presburger.ErrNoExplicitLocals}

// verdict evaluates a script with backend b and with isl and explains any
// difference.
func verdict(script string, b calc.Backend) (outcome, string) {
	prog, err := calc.Parse("case.calc", script)
	if err != nil {
		return disagree, "generated script does not parse: " + err.Error()
	}
	isl := islref.Eval(prog)
	defer isl.Free()
	// isl refuses an unbounded lexmin or lexmax; tilefuse must refuse it too.
	islUnbounded := isl.Err != nil && strings.Contains(isl.Err.Error(), "unbounded optimum")
	if isl.Err != nil && !islUnbounded {
		if errors.Is(isl.Err, islref.ErrQuota) {
			return islGaveUp, ""
		}
		return disagree, "isl rejects the script (generator bug): " + isl.Err.Error()
	}
	tf := runTilefuse(prog, b)
	var islOut []string
	for _, o := range isl.Outputs {
		islOut = append(islOut, o.Text)
	}
	if islUnbounded {
		islOut = append(islOut, isl.Err.Error())
	}
	both := fmt.Sprintf("tilefuse: %s\nisl:      %s", strings.Join(tf.out, "\n          "), strings.Join(islOut, "\n          "))
	switch {
	case tf.panic != "":
		return disagree, "tilefuse panicked: " + tf.panic
	case islUnbounded && !errors.Is(tf.err, presburger.ErrUnbounded):
		return disagree, "isl finds the optimum unbounded, tilefuse does not\n" + both
	case islUnbounded:
		tf.err = nil // both refuse; compare what was printed before
	case tf.err != nil && strings.Contains(tf.err.Error(), "not supported yet"):
		return unsupported, tf.err.Error()
	case tf.err != nil && slices.ContainsFunc(tfLimits, func(e error) bool { return errors.Is(tf.err, e) }):
		return tfLimit, tf.err.Error() + "\n" + both
	case tf.err != nil:
		return disagree, "tilefuse fails: " + tf.err.Error() + "\n" + both
	case len(tf.out) != len(isl.Outputs):
		return disagree, "different number of outputs\n" + both
	}
	for i, text := range tf.out {
		if err := isl.Check(i, text); err != nil {
			if errors.Is(err, islref.ErrQuota) {
				return islGaveUp, ""
			}
			return disagree, err.Error() + "\n" + both
		}
	}
	return agree, ""
}

// minimise greedily takes smaller variants (gen.Case.Shrinks) while the
// case keeps the outcome want, within a bounded time.
func minimise(c *gen.Case, want outcome, b calc.Backend) (*gen.Case, string) {
	_, why := verdict(c.Script(), b)
	deadline := time.Now().Add(30 * time.Second)
	for smaller := true; smaller && time.Now().Before(deadline); {
		smaller = false
		for _, s := range c.Shrinks() {
			if time.Now().After(deadline) {
				break
			}
			// An ill-typed variant is not the same failure.
			o, w := verdict(s.Script(), b)
			if o == want && !strings.HasPrefix(w, "isl rejects") && !strings.HasPrefix(w, "generated script") {
				c, why, smaller = s, w, true
				break
			}
		}
	}
	return c, why
}

// envList reads a comma-separated list from the environment.
func envList(name string) []string {
	if v := os.Getenv(name); v != "" {
		return strings.Split(v, ",")
	}
	return nil
}

// TestISLDifferential runs random scripts (package internal/gen) through
// tilefuse and isl and checks that every printed value agrees.
// TILEFUSE_ISL_OPS=op,... and TILEFUSE_ISL_SEED=n narrow it down to
// reproduce a failure.
func TestISLDifferential(t *testing.T) {
	n := numCases(t)
	ops := gen.Ops
	if o := envList("TILEFUSE_ISL_OPS"); o != nil {
		ops = o
	}
	first := uint64(0)
	if s := os.Getenv("TILEFUSE_ISL_SEED"); s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("TILEFUSE_ISL_SEED=%q: %v", s, err)
		}
		first, n = seed, 1
	}
	for _, op := range ops {
		if !slices.Contains(gen.Ops, op) {
			t.Fatalf("unknown operation %q; have %v", op, gen.Ops)
		}
		t.Run(op, func(t *testing.T) {
			t.Parallel()
			var counts [disagree + 1]int
			for seed := first; seed < first+uint64(n); seed++ {
				c := gen.New(op, seed)
				o, why := verdict(c.Script(), calc.Tilefuse{})
				counts[o]++
				switch {
				case o == unsupported:
					t.Skipf("SKIPPED %s: tilefuse says %q", op, why)
				case o == disagree && counts[o] <= 3, o == tfLimit && counts[o] == 1:
					small, smallWhy := minimise(c, o, calc.Tilefuse{})
					report := t.Errorf
					if o == tfLimit {
						report = t.Logf
					}
					report("%s seed %d: %s.\nminimised script:\n%s%s\n\noriginal script:\n%s"+
						"reproduce: TILEFUSE_ISL_OPS=%s TILEFUSE_ISL_SEED=%d go test -tags isl -run TestISLDifferential ./presburger/calc",
						op, seed, map[outcome]string{disagree: "tilefuse disagrees with isl", tfLimit: "tilefuse gives up (a documented limit)"}[o],
						small.Script(), smallWhy, c.Script(), op, seed)
				}
			}
			t.Logf("%s: %d cases: %d agree, %d disagree, %d tilefuse limit errors, %d isl quota",
				op, n, counts[agree], counts[disagree], counts[tfLimit], counts[islGaveUp])
			if counts[tfLimit]+counts[islGaveUp] > n/20 {
				t.Errorf("%s: %d of %d cases gave no comparison; the generator makes cases too hard",
					op, counts[tfLimit]+counts[islGaveUp], n)
			}
		})
	}
}

// wrongUnion is package presburger with a planted bug: the union drops its
// second operand when that has a single space.
type wrongUnion struct{ calc.Tilefuse }

func (w wrongUnion) Do(op calc.Op, args []calc.Value) (calc.Value, error) {
	if op == calc.OpUnion && args[1].Kind == calc.SetKind && len(args[1].X.(presburger.UnionSet).Sets()) == 1 {
		return args[0], nil
	}
	return w.Tilefuse.Do(op, args)
}

// TestHarnessCatchesBugs checks that the differential test fails on a wrong
// answer and that minimising keeps the failure.
func TestHarnessCatchesBugs(t *testing.T) {
	for seed := range uint64(200) {
		c := gen.New("union", seed)
		o, _ := verdict(c.Script(), wrongUnion{})
		if o != disagree {
			continue
		}
		small, why := minimise(c, disagree, wrongUnion{})
		if o, _ := verdict(small.Script(), wrongUnion{}); o != disagree {
			t.Fatalf("minimised case no longer fails:\n%s", small.Script())
		}
		if !strings.Contains(why, "not equal to isl's") {
			t.Errorf("unexpected explanation %q", why)
		}
		return
	}
	t.Fatal("200 union cases did not expose a union that drops its second operand")
}

// TestISLExamples checks the shipped examples and the command's test
// scripts against isl, so their golden outputs are known to be right.
func TestISLExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.calc")
	more, _ := filepath.Glob("../../cmd/tilefuse/testdata/*.calc")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no example scripts found")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := calc.Parse(f, string(src))
			if err != nil {
				if !strings.Contains(f, "error") {
					t.Fatal(err)
				}
				return // a syntax error test: nothing to evaluate
			}
			isl := islref.Eval(prog)
			defer isl.Free()
			tf := runTilefuse(prog, calc.Tilefuse{})
			if tf.panic != "" {
				t.Fatalf("tilefuse panicked: %s", tf.panic)
			}
			for i := range min(len(tf.out), len(isl.Outputs)) {
				if err := isl.Check(i, tf.out[i]); err != nil {
					t.Errorf("%s: output %d (%s): %v", f, i+1, isl.Outputs[i].Stmt.X, err)
				}
			}
			if (tf.err == nil) != (isl.Err == nil) || len(tf.out) != len(isl.Outputs) {
				t.Errorf("tilefuse printed %d values (error %v), isl %d (error %v)", len(tf.out), tf.err, len(isl.Outputs), isl.Err)
			}
		})
	}
}
