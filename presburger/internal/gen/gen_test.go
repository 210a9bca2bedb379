package gen

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

func TestDeterministic(t *testing.T) {
	for _, op := range Ops {
		a, b := New(op, 42).Script(), New(op, 42).Script()
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s: same seed, different scripts (-first +second):\n%s", op, diff)
		}
		if New(op, 43).Script() == a && New(op, 44).Script() == a {
			t.Errorf("%s: seeds 42, 43 and 44 give the same script", op)
		}
	}
}

// TestScriptsParse checks that every generated script is a valid calculator
// program whose printed statement is the case's expression.
func TestScriptsParse(t *testing.T) {
	for _, op := range Ops {
		for seed := range uint64(200) {
			c := New(op, seed)
			prog, err := calc.Parse("gen", c.Script())
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", op, seed, err, c.Script())
			}
			if n := len(prog.Stmts); n != len(c.Defs)+1 || prog.Stmts[n-1].Name != "" {
				t.Fatalf("%s seed %d: want %d definitions and a print:\n%s", op, seed, len(c.Defs), c.Script())
			}
		}
	}
}

// TestCoverage checks that the generator produces the features it promises.
func TestCoverage(t *testing.T) {
	var all strings.Builder
	for _, op := range Ops {
		for seed := range uint64(100) {
			all.WriteString(New(op, seed).Script())
		}
	}
	s := all.String()
	for _, want := range []string{"[N] -> ", "[N, M] -> ", "[M] -> ", "exists (e0 = floor(", "exists (e0, e1 :",
		" mod ", "floor((", " or ", "not (", "; ", "{ [", "-> [", "A[i0, i1, i2, i3]", "[] ", " - 1",
		"deltas", "^-1", " . ", "(S", "1", "-1", "19", "-20"} {
		if !strings.Contains(s, want) {
			t.Errorf("no generated script contains %q", want)
		}
	}
}

func TestShrinks(t *testing.T) {
	c := New("expr", 7)
	size := func(c *Case) int {
		n := len(c.Expr.String())
		for _, d := range c.Defs {
			for _, p := range d.Lit.Pieces {
				n += 1 + len(p.Conj)
			}
		}
		return n
	}
	before := c.Script()
	shrinks := c.Shrinks()
	if len(shrinks) == 0 {
		t.Fatal("no shrinks")
	}
	for _, s := range shrinks {
		if size(s) >= size(c) {
			t.Errorf("shrink has size %d, not below %d:\n%s", size(s), size(c), s.Script())
		}
	}
	if c.Script() != before {
		t.Error("Shrinks modified the case")
	}
	fewer := false
	for _, s := range shrinks {
		fewer = fewer || len(s.Defs) < len(c.Defs)
		if _, err := calc.Parse("shrink", s.Script()); err != nil {
			t.Errorf("shrink does not parse: %v\n%s", err, s.Script())
		}
	}
	if !fewer {
		t.Errorf("no shrink of an expression case drops a definition:\n%s", c.Script())
	}
}
