package calc

import (
	"fmt"
	"time"
)

// Output is one printed statement.
type Output struct {
	Stmt  *Stmt
	Value Value
	Text  string // what the calculator prints for the value
}

// Run evaluates prog statement by statement, calling emit for each printed
// value as soon as it is known. It stops at the first error, which is an
// *Error unless emit returned it.
func Run(prog *Program, b Backend, emit func(Output) error) error {
	s := NewSession(prog.File, b)
	for _, st := range prog.Stmts {
		out, err := s.Exec(st)
		if err != nil {
			return err
		}
		if out != nil {
			if err := emit(*out); err != nil {
				return err
			}
		}
	}
	return nil
}

// Session evaluates statements one at a time, keeping the names bound so far.
type Session struct {
	file string
	b    Backend
	env  map[string]Value
}

// NewSession starts an evaluation with backend b; file names the source in errors.
func NewSession(file string, b Backend) *Session {
	return &Session{file: file, b: b, env: map[string]Value{}}
}

// Exec runs one statement: an assignment binds its name and returns nil,
// any other statement returns what it prints.
func (s *Session) Exec(st *Stmt) (*Output, error) {
	v, err := s.Eval(st.X)
	if err != nil {
		return nil, err
	}
	if st.Name != "" {
		s.env[st.Name] = v
		return nil, nil
	}
	return &Output{Stmt: st, Value: v, Text: FormatValue(s.b, v)}, nil
}

// Time runs the statements of prog before statement i once, then evaluates
// statement i's expression n times and returns the mean time of one
// evaluation, for benchmarks that compare backends.
func Time(prog *Program, b Backend, i, n int) (time.Duration, error) {
	s := NewSession(prog.File, b)
	for _, st := range prog.Stmts[:i] {
		if _, err := s.Exec(st); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	for range n {
		if _, err := s.Eval(prog.Stmts[i].X); err != nil {
			return 0, err
		}
	}
	return time.Since(start) / time.Duration(max(n, 1)), nil
}

// FormatValue prints v as the calculator does: True or False for booleans,
// "{ N }" for a count (as iscc prints a constant).
func FormatValue(b Backend, v Value) string {
	if v.Kind == IntKind {
		return fmt.Sprintf("{ %d }", v.Int)
	}
	if v.Kind == BoolKind {
		if v.Bool {
			return "True"
		}
		return "False"
	}
	return b.Format(v)
}
