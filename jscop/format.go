package jscop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tilefuse/tilefuse/presburger"
)

// Scop is one JSCoP file. The JSON keys are Polly 14's.
type Scop struct {
	Arrays     []Array     `json:"arrays,omitempty"`
	Context    string      `json:"context"`
	Location   string      `json:"location,omitempty"`
	Name       string      `json:"name"`
	Statements []Statement `json:"statements"`

	context presburger.Set
}

// Array is an entry of "arrays": an array that Polly models in memory.
type Array struct {
	Name string `json:"name"`
	// Sizes has one entry per dimension, outermost first: "*" where the
	// extent is unknown (Polly's outermost), else an integer or parameter
	// expression.
	Sizes []string `json:"sizes"`
	// Type is the LLVM element type: double, float, i32, ...
	Type string `json:"type"`
}

// Statement is one statement: its instances, their times and accesses.
type Statement struct {
	Accesses []Access `json:"accesses"`
	Domain   string   `json:"domain"`
	Name     string   `json:"name"`
	Schedule string   `json:"schedule"`

	domain   presburger.Set
	schedule presburger.Map
}

// Access is one memory access: Kind is "read" or "write" (Polly 14 writes
// no "may" kinds), Relation a map from the statement's domain to the
// elements it accesses.
type Access struct {
	Kind     string `json:"kind"`
	Relation string `json:"relation"`

	rel presburger.Map
}

// Error is a JSCoP that cannot be read: Where locates it, as line:column
// for JSON syntax, or as the path of the offending field.
type Error struct {
	Where string
	Msg   string
}

func (e *Error) Error() string { return e.Where + ": " + e.Msg }

// Parse reads a JSCoP file and parses every set and map in it.
func Parse(data []byte) (*Scop, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var s Scop
	if err := dec.Decode(&s); err != nil {
		return nil, syntaxError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Where: lineCol(data, dec.InputOffset()), Msg: "text after the JSCoP object"}
	}
	if err := s.parse(); err != nil {
		return nil, err
	}
	return &s, nil
}

func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &Error{Where: lineCol(data, se.Offset), Msg: se.Error()}
	case errors.As(err, &te):
		return &Error{Where: lineCol(data, te.Offset), Msg: fmt.Sprintf("%s: want a JSON %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Where: lineCol(data, int64(len(data))), Msg: "unexpected end of the JSCoP file"}
	}
	return &Error{Where: "1:1", Msg: err.Error()}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "slice":
		return "array"
	case "struct":
		return "object"
	}
	return goKind
}

// lineCol is the 1-based line and column of byte offset off.
func lineCol(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%d:%d", line, col)
}

// parse parses the isl strings and checks that each statement's domain,
// schedule and accesses agree on its space.
func (s *Scop) parse() error {
	var err error
	if s.Context == "" {
		return &Error{Where: "context", Msg: "missing (a parameter set such as \"[n] -> { : n >= 0 }\")"}
	}
	if s.context, err = presburger.ParseSet(s.Context); err != nil {
		return &Error{Where: "context", Msg: err.Error()}
	}
	if len(s.Statements) == 0 {
		return &Error{Where: "statements", Msg: "missing or empty"}
	}
	seen := map[string]bool{}
	for i := range s.Statements {
		st := &s.Statements[i]
		at := fmt.Sprintf("statements[%d]", i)
		if st.Name == "" {
			return &Error{Where: at + ".name", Msg: "missing"}
		}
		at += " (" + st.Name + ")"
		if seen[st.Name] {
			return &Error{Where: at + ".name", Msg: "a second statement of this name"}
		}
		seen[st.Name] = true
		if st.domain, err = presburger.ParseSet(st.Domain); err != nil {
			return &Error{Where: at + ".domain", Msg: err.Error()}
		}
		if got := st.domain.Space().Out.Name; got != st.Name {
			return &Error{Where: at + ".domain", Msg: fmt.Sprintf("the domain is a set of %s, not of the statement %s", got, st.Name)}
		}
		if st.schedule, err = presburger.ParseMap(st.Schedule); err != nil {
			return &Error{Where: at + ".schedule", Msg: err.Error()}
		}
		if err := sameDomain(st.schedule, st.domain); err != nil {
			return &Error{Where: at + ".schedule", Msg: err.Error()}
		}
		for j := range st.Accesses {
			a := &st.Accesses[j]
			aat := fmt.Sprintf("%s.accesses[%d]", at, j)
			if a.Kind != "read" && a.Kind != "write" {
				return &Error{Where: aat + ".kind", Msg: fmt.Sprintf("%q is neither read nor write", a.Kind)}
			}
			if a.rel, err = presburger.ParseMap(a.Relation); err != nil {
				return &Error{Where: aat + ".relation", Msg: err.Error()}
			}
			if err := sameDomain(a.rel, st.domain); err != nil {
				return &Error{Where: aat + ".relation", Msg: err.Error()}
			}
		}
	}
	return nil
}

// sameDomain checks that m's domain tuple is the domain's.
func sameDomain(m presburger.Map, dom presburger.Set) error {
	in, want := m.Space().In, dom.Space().Out
	if in.Name != want.Name || in.Len() != want.Len() {
		return fmt.Errorf("a map from %s[%d dimensions], not from the domain's %s[%d dimensions]", in.Name, in.Len(), want.Name, want.Len())
	}
	return nil
}

// Marshal writes s as Polly writes JSCoP: indented JSON, keys in
// alphabetical order.
func (s *Scop) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "   ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
