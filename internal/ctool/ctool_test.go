package ctool

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunAndOutput(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	ctx := context.Background()
	script := `echo out; echo err >&2; echo "$X"; exit 3`
	err := Run(ctx, []string{"X=env"}, "sh", "-c", script)
	var e *Error
	var ee *exec.ExitError
	if !errors.As(err, &e) || !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("Run: error %v, want an *Error wrapping exit status 3", err)
	}
	if e.Output != "out\nerr\nenv\n" || !strings.HasPrefix(err.Error(), "sh: exit status 3\nout\nerr") {
		t.Errorf("Run: output %q, message %q", e.Output, err)
	}
	_, err = Output(ctx, nil, "sh", "-c", script)
	if !errors.As(err, &e) || e.Output != "err\n" {
		t.Errorf("Output: error %v, want the standard error alone", err)
	}
	out, err := Output(ctx, nil, "sh", "-c", "echo out; echo err >&2")
	if err != nil || string(out) != "out\n" {
		t.Errorf("Output: %q, %v", out, err)
	}
}

func TestCompile(t *testing.T) {
	if _, err := exec.LookPath(GCC); err != nil {
		t.Skip("no gcc")
	}
	ctx, dir := context.Background(), t.TempDir()
	bin := filepath.Join(dir, "p")
	code := "#include <math.h>\n#include <stdio.h>\nint main(void) { printf(\"%g\\n\", sqrt(16.0)); return 0; }\n"
	if err := Compile(ctx, GCC, nil, code, bin+".c", bin, []string{"-O0"}, "-lm"); err != nil {
		t.Fatal(err)
	}
	if out, err := Output(ctx, nil, bin); err != nil || string(out) != "4\n" {
		t.Errorf("the program printed %q (%v), want 4", out, err)
	}
	err := Compile(ctx, GCC, []string{"LC_ALL=C"}, "int main(void) { return x; }\n", bin+".c", bin, nil)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "'x' undeclared") || !strings.HasPrefix(err.Error(), "gcc: exit status 1") {
		t.Errorf("bad C: error %v, want gcc's complaint", err)
	}
}
