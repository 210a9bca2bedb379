package ast_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// TestRandomCoverage generates the AST of random trees and checks that
// it executes exactly the instances of the tree's schedule map, each as
// often as the map says, in schedule order.
func TestRandomCoverage(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 150
	}
	// Chunks run in parallel; the seeds are fixed, so failures reproduce.
	const chunk = 50
	for from := 0; from < n; from += chunk {
		t.Run(fmt.Sprintf("seeds%d-%d", from, from+chunk-1), func(t *testing.T) {
			t.Parallel()
			for seed := uint64(from); seed < uint64(min(from+chunk, n)); seed++ {
				c, err := newRandomCase(seed)
				if err != nil {
					t.Fatalf("seed %d: building the case: %v", seed, err)
				}
				// (The tree with the extension is valid by construction;
				// validating its partitions can be slow.)
				if err := scheduletree.Validate(c.base); err != nil {
					t.Fatalf("seed %d: invalid tree: %v\n%s", seed, err, strings.Join(c.desc, "\n"))
				}
				checkCase(t, seed, c)
			}
		})
	}
}

func checkCase(t *testing.T, seed uint64, c *randomCase) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		js, _ := scheduletree.Marshal(c.tree)
		t.Fatalf("seed %d: "+format+"\n%s\n%s", append(append([]any{seed}, args...), strings.Join(c.desc, "\n"), js)...)
	}
	n, err := ast.Generate(c.tree, ast.Options{})
	if err != nil {
		fail("generate: %v", err)
	}
	for _, vals := range []map[string]int64{{"N": 5, "M": 3}, {"N": 0, "M": 2}, {"N": 2, "M": 0}, {"N": 7, "M": 7}} {
		want, err := expected(c.tree, c.domain, vals)
		if err != nil {
			fail("expected: %v", err)
		}
		got, err := executed(n, vals, 10*len(want)+100)
		if err != nil {
			fail("run at %v: %v\n%s", vals, err, ast.PrintC(n, ast.PrintOptions{}))
		}
		if err := compareOrder(got, want); err != nil {
			fail("at %v: %v\n%s", vals, err, ast.PrintC(n, ast.PrintOptions{}))
		}
	}
}
