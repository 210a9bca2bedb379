package calc

import "fmt"

// Pos is a position in a source file. Line and Col count from 1; Col counts
// bytes, as go vet and most editors expect.
type Pos struct {
	Offset    int
	Line, Col int
}

// Error is a problem in a program, tied to the position where it was found.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	Err  error // the backend's error, if it caused this one
}

// Unwrap lets errors.Is see the backend's error, e.g. presburger.ErrBudget.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", file, e.Pos.Line, e.Pos.Col, e.Msg)
}

// after returns the position reached from p by reading text.
func (p Pos) after(text string) Pos {
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			p.Line++
			p.Col = 1
		} else {
			p.Col++
		}
	}
	p.Offset += len(text)
	return p
}
