package golden

import (
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = append(r.failed, format)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = append(r.failed, format)
	panic(fatal{})
}

type fatal struct{}

// check runs Check with r, stopping at a Fatalf as the testing package does.
func (r *recorder) check(path, got string) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(fatal); !ok {
				panic(v)
			}
		}
	}()
	Check(r, path, got)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "x.golden")
	*update = true
	Check(t, path, "one\ntwo\n")
	*update = false

	for _, tt := range []struct {
		got  string
		fail string
	}{
		{"one\ntwo\n", ""},
		{"one\nthree\n", "differs"},
	} {
		r := &recorder{TB: t}
		r.check(path, tt.got)
		if tt.fail == "" && len(r.failed) != 0 || tt.fail != "" && (len(r.failed) != 1 || !strings.Contains(r.failed[0], tt.fail)) {
			t.Errorf("Check(%q): failures %q, want one containing %q", tt.got, r.failed, tt.fail)
		}
	}
	r := &recorder{TB: t}
	r.check(filepath.Join(dir, "missing.golden"), "x")
	if len(r.failed) != 1 || !strings.Contains(r.failed[0], "-update") {
		t.Errorf("missing file: failures %q", r.failed)
	}
}
