package bigprog

import (
	"flag"
	"os"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
)

var write = flag.String("write", "", "write Source(-stmts) to this file (for timing the command line)")
var size = flag.Int("stmts", 13000, "statements for -write")

// TestSource checks that the generated program parses with one statement
// per generated statement; with -write it also writes a file.
func TestSource(t *testing.T) {
	for _, n := range []int{1, 4, 9, 100} {
		p, err := cparse.ParseFunc("big.c", []byte(Source(n)), Func)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if len(p.Stmts) != n {
			t.Errorf("n=%d: %d statements", n, len(p.Stmts))
		}
	}
	if *write != "" {
		if err := os.WriteFile(*write, []byte(Source(*size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
