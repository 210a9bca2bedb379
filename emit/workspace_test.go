package emit

import (
	"os"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// TestWorkspace: temporaries live in the per-thread workspace, allocated
// aligned and advised to huge pages, zeroed at each call unless
// Options.Initialized names them; the header says so.
func TestWorkspace(t *testing.T) {
	src, err := os.ReadFile("testdata/temps.c")
	if err != nil {
		t.Fatal(err)
	}
	p, err := cparse.ParseFunc("temps.c", src, "f")
	if err != nil {
		t.Fatal(err)
	}
	n := originalAST(t, p)
	for _, tc := range []struct {
		initialized map[string]bool
		memsets     int // two per zeroed array: at reuse and when fresh
	}{{nil, 4}, {map[string]bool{"a": true}, 2}} {
		m, err := Emit(p, n, Options{Initialized: tc.initialized})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(m.IR, "call i8* @memset("); got != tc.memsets {
			t.Errorf("initialized %v: %d memset calls, want %d", tc.initialized, got, tc.memsets)
		}
		for _, want := range []string{"@f.ws.a = internal thread_local global", "call i8* @aligned_alloc(", "call i32 @madvise("} {
			if !strings.Contains(m.IR, want) {
				t.Errorf("the IR lacks %q", want)
			}
		}
		if !strings.Contains(m.Header, "the temporary arrays a, acc live in a workspace per calling thread") {
			t.Errorf("the header does not describe the workspace:\n%s", m.Header)
		}
	}
}
