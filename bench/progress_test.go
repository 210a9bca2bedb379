package bench

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestProgressPlain: away from a terminal, one line per finished cell.
func TestProgressPlain(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, false)
	p.Begin(3)
	p.Start("gemm", "smart")
	p.Done("gemm", "smart", Cell{Status: OK, Median: ms(1.5), Compile: ms(200)})
	p.Start("gemm", "gcc")
	p.Done("gemm", "gcc", Cell{Status: BuildFailed, Err: "gcc: exit status 1\nbad flag"})
	p.Note("a %s", "warning")
	p.Done("gemm", "polly", Cell{Status: NotInstalled, Err: "clang-14 not found"})
	p.End()
	want := "bench: [1/3] gemm smart: ok 1.50 ms, compiled in 200 ms\n" +
		"bench: [2/3] gemm gcc: build failed: gcc: exit status 1; bad flag\n" +
		"bench: a warning\n" +
		"bench: [3/3] gemm polly: not installed\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var nilP *Progress // reports nothing, without failing
	nilP.Begin(1)
	nilP.Start("a", "b")
	nilP.Done("a", "b", Cell{})
	nilP.End()
}

// TestProgressTerminal: on a terminal, one line redrawn with a bar.
func TestProgressTerminal(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, true)
	now := time.Unix(1000, 0)
	p.now = func() time.Time { return now }
	p.Begin(4)
	p.Start("gemm", "smart")
	now = now.Add(3 * time.Second)
	p.Done("gemm", "smart", Cell{Status: OK})
	p.Start("gemm", "max")
	p.End()
	got := b.String()
	for _, want := range []string{
		"\r\033[K[                        ] 0/4  gemm smart (0s)",
		"\r\033[K[======                  ] 1/4",
		"\r\033[K[======                  ] 1/4  gemm max (0s)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%q", want, got)
		}
	}
	if !strings.HasSuffix(got, "\r\033[K") || strings.Contains(got, "\n") {
		t.Errorf("the line is not cleared at the end, or lines were written: %q", got)
	}
}

func TestIsTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is a terminal")
	}
}
