package ast_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/ast/asttest"
	"github.com/tilefuse/tilefuse/scop/charness"
)

// TestPrintFolded prints the ring ASTs as C functions, compiles them with
// gcc and compares B with the reference executor's; a ring of one row
// must differ.
func TestPrintFolded(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	p, err := asttest.RingProgram()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		fold, tile int64
		alloc      string // the Alloc as printed
		same       bool
	}{
		{"fold 2", 2, 0, "float (*P)[8] = malloc(sizeof(float) * (2) * (8)); // folded [2, 0]", true},
		{"fold 3, tiles of 4", 3, 4, "float (*P)[8] = malloc(sizeof(float) * (3) * (8)); // from [4 * c, 0], folded [3, 0]", true},
		{"fold 2, tiles of 5", 2, 5, "", true},
		{"fold 1 too small", 1, 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := asttest.Ring(tc.fold, tc.tile, false)
			if c := ast.PrintC(n, ast.PrintOptions{}); !strings.Contains(c, tc.alloc) {
				t.Errorf("no %q in\n%s", tc.alloc, c)
			}
			src, err := ast.PrintProgram(p, n, "kernel")
			if err != nil {
				t.Fatal(err)
			}
			diffs, err := charness.Verify(t.TempDir(), p, map[string]int64{"n": 11}, src, "kernel", 0, "-Wall", "-Wno-unused-function", "-Werror")
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			if same := len(diffs) == 0; same != tc.same {
				t.Errorf("same as the reference: %v, want %v: %s\n%s", same, tc.same, strings.Join(diffs, "\n"), src)
			}
		})
	}
}
