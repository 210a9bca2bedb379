package presburger

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// seeds returns the objects under testdata/parse, by file name.
func seeds(t testing.TB) map[string]string {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.isl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(data)
	}
	return out
}

func TestParseSeeds(t *testing.T) {
	for name, src := range seeds(t) {
		_, err := Parse(src)
		if strings.HasPrefix(name, "errors") {
			if err == nil {
				t.Errorf("%s: parsed, want an error", name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// checkPosition verifies that err is a *ParseError inside src.
func checkPosition(t *testing.T, src string, err error) {
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Parse(%q): error %T %v is not a *ParseError", src, err, err)
	}
	lines := strings.Split(src, "\n")
	if pe.Line < 1 || pe.Line > len(lines) {
		t.Fatalf("Parse(%q): %v: line outside the input", src, err)
	}
	if n := utf8.RuneCountInString(lines[pe.Line-1]); pe.Col < 1 || pe.Col > n+1 {
		t.Fatalf("Parse(%q): %v: column outside line %d", src, err, pe.Line)
	}
}

// FuzzParse checks that no input makes the parser panic, that errors point
// into the input, and that whatever parses prints to something that parses.
func FuzzParse(f *testing.F) {
	for _, src := range seeds(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return // keep the budget on syntax, not on huge sets
		}
		v, err := Parse(src)
		if err != nil {
			checkPosition(t, src, err)
		} else {
			printed := v.(interface{ String() string }).String()
			if _, err := Parse(printed); err != nil {
				t.Fatalf("Parse(%q) printed as %q: %v", src, printed, err)
			}
		}
		_, n, err := ParsePrefix(src)
		if err != nil {
			checkPosition(t, src, err)
		} else if n < 1 || n > len(src) || src[n-1] != '}' {
			t.Fatalf("ParsePrefix(%q) consumed %d bytes", src, n)
		}
	})
}
