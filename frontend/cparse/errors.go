package cparse

import (
	"errors"
	"fmt"

	"github.com/tilefuse/tilefuse/presburger"

	"github.com/tilefuse/tilefuse/scop"
)

// errorf makes the package's only error type: a *scop.Error at a source
// position.
func errorf(at scop.Pos, format string, args ...any) *scop.Error {
	return scop.Errorf(at, format, args...)
}

// internalError turns a recovered panic into an error: a last resort, so
// that no input can crash a caller.
func internalError(file string, r any) error {
	return errorf(scop.Pos{File: file}, "internal error: %v", fmt.Sprint(r))
}

// first keeps the first error reported; later ones are consequences.
type first struct{ err *scop.Error }

func (f *first) set(at scop.Pos, format string, args ...any) {
	if f.err == nil {
		f.err = errorf(at, format, args...)
	}
}

func (f *first) failed() bool { return f.err != nil }

// islMessage is the text of an error from the presburger package without
// its position, which points into generated isl text, not into the C
// source.
func islMessage(err error) string {
	var pe *presburger.ParseError
	if errors.As(err, &pe) {
		return pe.Msg
	}
	return err.Error()
}
