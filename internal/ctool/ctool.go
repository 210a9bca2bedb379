// Package ctool compiles C and runs the programs it builds: the mechanics
// that runner (kernels and their harness), scop/charness (C checked
// against the reference executor) and internal/trace (printed loop nests
// run for their instance order) share. It imports nothing of the
// project, so that a package at any level may use it.
package ctool

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GCC is the C compiler of scop/charness and internal/trace, found on
// PATH.
const GCC = "gcc"

// Error is a failed run of a program, with the diagnostics it wrote.
type Error struct {
	Cmd []string // the program and its arguments
	Err error    // from os/exec: an *exec.ExitError, a context error, ...
	// Output is what the program wrote: both streams for Run, the
	// standard error for Output.
	Output string
}

// Error names the program (its base name), the failure and the
// program's diagnostics, cut after 4000 bytes.
func (e *Error) Error() string {
	out := strings.TrimSpace(e.Output)
	const limit = 4000
	if len(out) > limit {
		out = out[:limit] + "\n..."
	}
	msg := fmt.Sprintf("%s: %v", filepath.Base(e.Cmd[0]), e.Err)
	if out != "" {
		msg += "\n" + out
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// command is name with args under ctx, with env added to the
// environment.
func command(ctx context.Context, env []string, name string, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	return cmd
}

// Run runs name with args under ctx (which kills it at its deadline),
// with env ("KEY=value" entries) added to the environment. A failure is
// an *Error with everything the program wrote.
func Run(ctx context.Context, env []string, name string, args ...string) error {
	cmd := command(ctx, env, name, args)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return &Error{Cmd: cmd.Args, Err: err, Output: out.String()}
	}
	return nil
}

// Output is Run for a program whose standard output is data: it returns
// that output, and a failure's *Error holds the standard error alone.
func Output(ctx context.Context, env []string, name string, args ...string) ([]byte, error) {
	cmd := command(ctx, env, name, args)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, &Error{Cmd: cmd.Args, Err: err, Output: stderr.String()}
	}
	return stdout.Bytes(), nil
}

// Compile writes code to the C file src and compiles it into out with
// Run: "cc flags... -o out src libs...".
func Compile(ctx context.Context, cc string, env []string, code, src, out string, flags []string, libs ...string) error {
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		return err
	}
	args := append(append(flags[:len(flags):len(flags)], "-o", out, src), libs...)
	return Run(ctx, env, cc, args...)
}
