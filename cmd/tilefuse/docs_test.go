package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsPictures runs each command of docs/regenerate.sh in-process
// (writing to a temporary directory) and checks that the README's
// committed picture is what it makes now: run docs/regenerate.sh after
// a change that alters one.
func TestDocsPictures(t *testing.T) {
	script, err := os.ReadFile("../../docs/regenerate.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n := 0
	for _, line := range strings.Split(string(script), "\n") {
		rest, ok := strings.CutPrefix(line, "go run ./cmd/tilefuse ")
		if !ok {
			continue
		}
		n++
		args := strings.Fields(rest)
		committed := ""
		for i, a := range args {
			if !strings.HasPrefix(a, "docs/") {
				continue
			}
			if i > 0 && args[i-1] == "-o" {
				committed = "../../" + a
				args[i] = filepath.Join(dir, filepath.Base(a))
			} else {
				args[i] = "../../" + a
			}
		}
		if committed == "" {
			t.Fatalf("docs/regenerate.sh: %q writes no docs/ file with -o", line)
		}
		t.Run(filepath.Base(committed), func(t *testing.T) {
			_, stderr, status := runCmd("", args...)
			if status != exitOK {
				t.Fatalf("tilefuse %s: exit %d\n%s", rest, status, stderr)
			}
			got, err := os.ReadFile(filepath.Join(dir, filepath.Base(committed)))
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(committed)
			if err != nil {
				t.Fatalf("%v (run docs/regenerate.sh)", err)
			}
			if string(got) != string(want) {
				t.Errorf("%s is not current: run docs/regenerate.sh and commit the pictures", strings.TrimPrefix(committed, "../../"))
			}
		})
	}
	if n < 4 {
		t.Errorf("docs/regenerate.sh has %d commands, want the 4 pictures", n)
	}
}
