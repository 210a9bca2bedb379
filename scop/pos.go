package scop

import (
	"errors"
	"fmt"
)

// Pos is a source position: a file, a 1-based line and column. The zero
// Pos means unknown.
type Pos struct {
	File      string `json:"file,omitempty"`
	Line, Col int    `json:",omitempty"`
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String is file:line:col, or as much of it as is known.
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a problem with the input program, at a source position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string {
	if !e.Pos.IsValid() && e.Pos.File == "" {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// Errorf makes an *Error at pos.
func Errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// IsError reports whether err is (or wraps) an input *Error.
func IsError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
