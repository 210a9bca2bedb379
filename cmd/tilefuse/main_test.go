package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/golden"
)

// runCmd runs the command line in-process.
func runCmd(stdin string, args ...string) (stdout, stderr string, status int) {
	var out, errOut bytes.Buffer
	status = run(&env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut}, args)
	return out.String(), errOut.String(), status
}

// transcript is what a golden file holds: both streams and the status.
func transcript(stdout, stderr string, status int) string {
	return fmt.Sprintf("-- stdout --\n%s-- stderr --\n%s-- exit status --\n%d\n", stdout, stderr, status)
}

// TestGolden runs the shipped examples and the scripts in testdata and
// compares stdout, stderr and exit status with testdata/NAME.golden
// (go test -update rewrites them; the isl tests in presburger/calc check
// that the printed values are right).
func TestGolden(t *testing.T) {
	examples, _ := filepath.Glob("../../examples/*.calc")
	scripts, _ := filepath.Glob("testdata/*.calc")
	files := append(examples, scripts...)
	if len(examples) == 0 || len(scripts) == 0 {
		t.Fatalf("missing scripts: examples %v, testdata %v", examples, scripts)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".calc")
		t.Run(name, func(t *testing.T) {
			// Run from the script's directory so error messages name the
			// file as a user would type it.
			stdout, stderr, status := runCmd("", "calc", f)
			got := transcript(stdout, stderr, status)
			golden.Check(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		name   string
		stdin  string
		args   []string
		status int
		stdout string // a substring, "" for empty
		stderr string // a substring, "" for empty
	}{
		{"no arguments", "", nil, exitUsage, "", "Usage:"},
		{"-h", "", []string{"-h"}, exitOK, "Commands:", ""},
		{"help", "", []string{"help"}, exitOK, "calc", ""},
		{"help calc", "", []string{"help", "calc"}, exitOK, "usage: tilefuse calc [--max-ops N] [FILE]", ""},
		{"help help", "", []string{"help", "-h"}, exitOK, "usage: tilefuse help", ""},
		{"help unknown", "", []string{"help", "frobnicate"}, exitUsage, "", `unknown command "frobnicate"`},
		{"unknown command", "", []string{"frobnicate"}, exitUsage, "", `unknown command "frobnicate"`},
		{"calc -h", "", []string{"calc", "-h"}, exitOK, "Operators, loosest first", ""},
		{"calc --help", "", []string{"calc", "--help"}, exitOK, "usage: tilefuse calc", ""},
		{"calc bad flag", "", []string{"calc", "--bogus"}, exitUsage, "", "flag provided but not defined: -bogus"},
		{"calc two files", "", []string{"calc", "a", "b"}, exitUsage, "", "too many arguments"},
		{"calc missing file", "", []string{"calc", "testdata/no-such.calc"}, exitUsage, "", "no such file"},
		{"calc stdin", "{ A[i] : 0 <= i <= 2 } * { A[1] };\n", []string{"calc"}, exitOK, "{ A[", ""},
		{"calc stdin dash", "{ A[1] } <= { A[i] };", []string{"calc", "-"}, exitOK, "True\n", ""},
		{"calc syntax error", "A := { A[i] };\nA +;\n", []string{"calc"}, exitUsage, "", "<stdin>:2:4: expected a literal, a name or '(', found ';'\n"},
		{"calc unknown name", "A := { A[i] };\nA + B;\n", []string{"calc"}, exitUsage, "", "<stdin>:2:5: undefined name B\n"},
		{"calc bad literal", "{ A[i] : i >= }; ", []string{"calc"}, exitUsage, "", "<stdin>:1:"},
		{"calc empty input", "", []string{"calc"}, exitOK, "", ""},
		{"calc card", "card { A[i] : 0 <= i < 10; B[i, j] : 0 <= i < j < 5 };\n", []string{"calc"}, exitOK, "{ 20 }\n", ""},
		{"calc card parametric", "card [N] -> { A[i] : 0 <= i < N };\n", []string{"calc"}, exitUsage, "", "<stdin>:1:1: presburger: set has parameters"},
		{"calc max-ops exceeded", "{ [a, b, c, d] : 3a + 5b - 7c + 11d >= 1 and 0 <= a, b, c, d <= 9 } - { [a, b, c, d] : (a + b) mod 3 = 1 or (c + d) mod 4 = 2 };\n",
			[]string{"calc", "--max-ops", "5"}, exitUsage, "", "operation budget exceeded"},
		{"calc max-ops invalid", "", []string{"calc", "--max-ops", "0"}, exitUsage, "", "--max-ops must be positive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, status := runCmd(tc.stdin, tc.args...)
			if status != tc.status {
				t.Errorf("status %d, want %d\nstdout: %s\nstderr: %s", status, tc.status, stdout, stderr)
			}
			check := func(stream, got, want string) {
				if want == "" && got != "" || !strings.Contains(got, want) {
					t.Errorf("%s = %q, want it to contain %q", stream, got, want)
				}
			}
			check("stdout", stdout, tc.stdout)
			check("stderr", stderr, tc.stderr)
			if status == exitUsage && strings.Count(stderr, "\n") > 1 && !strings.Contains(stderr, "Usage:") {
				t.Errorf("stderr has more than one line: %q", stderr)
			}
		})
	}
}

// TestBinary runs the built command, so the real exit status and the
// absence of a stack trace are checked, not just run's return value.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "tilefuse")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		input  string
		status int
	}{
		{"{ A[i] : 0 <= i <= 3 } - { A[2] };\n", exitOK},
		{"{ A[i] } +\n  ;\n", exitUsage},
		{"X;\n", exitUsage},
		{"{ A[i] : i >= 0 and ) };\n", exitUsage},
		{"dom { A[i] };\n", exitUsage},
	} {
		cmd := exec.Command(bin, "calc")
		cmd.Stdin = strings.NewReader(tc.input)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != tc.status {
			t.Errorf("%q: exit status %d, want %d; stderr %q", tc.input, status, tc.status, stderr.String())
		}
		if s := stderr.String(); strings.Contains(s, "goroutine") || strings.Count(s, "\n") > 1 ||
			(tc.status == exitUsage && !strings.HasPrefix(s, "<stdin>:")) {
			t.Errorf("%q: stderr should be one <stdin>:line:col: message line, got %q", tc.input, s)
		}
	}
}
