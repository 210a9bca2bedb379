package bench

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/tilefuse/tilefuse/runner"
)

// The exit status of a Halide wrapper whose pipeline returned an error
// (tf_check in bench/halide/src/tf_halide.h): Halide's runtime refused
// the call, its message on the standard error.
const halideErrorExit = 3

// signalNames name the signals a crashed kernel dies of.
var signalNames = map[syscall.Signal]string{
	syscall.SIGILL: "SIGILL", syscall.SIGSEGV: "SIGSEGV", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGABRT: "SIGABRT", syscall.SIGKILL: "SIGKILL",
}

// runFailure is the cell of a built cell whose run failed with err
// after d. A crash says why in its first words: the signal, and for
// SIGILL that the code uses an instruction the CPU lacks; a Halide
// pipeline that returned an error (its bounds checks, an allocation) is
// PeerFailed with Halide's message. Either way it is the cell's own
// failure: the row's other cells run on.
func (cfg *Config) runFailure(bc *builtCell, err error, d time.Duration) Cell {
	c := cfg.failure(err, d, "running")
	var ke *runner.KernelError
	var ee *exec.ExitError
	if c.Status != Crashed || !errors.As(err, &ke) || !errors.As(err, &ee) {
		return c
	}
	out := strings.TrimSpace(ke.Output)
	ws, ok := ee.Sys().(syscall.WaitStatus)
	switch {
	case ok && ws.Signaled():
		sig := ws.Signal()
		reason := "killed by " + sig.String()
		if name, ok := signalNames[sig]; ok {
			reason = fmt.Sprintf("killed by %s (%s)", name, sig)
		}
		if sig == syscall.SIGILL {
			reason += ": the code uses an instruction this CPU lacks"
			if bc.halideTarget != "" {
				reason += " (Halide target " + bc.halideTarget + ")"
			}
		}
		return Cell{Status: Crashed, Err: join(reason, out)}
	case bc.halideTarget != "" && ee.ExitCode() == halideErrorExit:
		return Cell{Status: PeerFailed, Err: join("Halide's runtime refused the call", out)}
	}
	return c
}

// join is a reason and the program's diagnostics, on lines of their
// own.
func join(reason, out string) string {
	if out == "" {
		return reason
	}
	return reason + "\n" + out
}
