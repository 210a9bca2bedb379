package scop

import (
	"bytes"
	"encoding/json"
)

// The JSON form is for reading, not for round trips: sets, maps and
// bodies appear as text.
type (
	jsonProgram struct {
		Name       string      `json:"name"`
		Params     []string    `json:"params"`
		Context    string      `json:"context"`
		Arrays     []jsonArray `json:"arrays"`
		Statements []jsonStmt  `json:"statements"`
	}
	jsonArray struct {
		Name    string   `json:"name"`
		Type    ElemType `json:"type"`
		Extent  []string `json:"extent"`
		LiveIn  bool     `json:"liveIn"`
		LiveOut bool     `json:"liveOut"`
	}
	jsonStmt struct {
		Name     string       `json:"name"`
		Iters    []string     `json:"iterators"`
		Domain   string       `json:"domain"`
		Schedule string       `json:"schedule"`
		Body     string       `json:"body"`
		Writes   []jsonAccess `json:"writes"`
		Reads    []jsonAccess `json:"reads"`
		Pos      string       `json:"pos,omitempty"`
	}
	jsonAccess struct {
		Array    string `json:"array"`
		Relation string `json:"relation"`
		May      bool   `json:"may,omitempty"`
	}
)

// MarshalJSON writes the program model as documented in jsonProgram.
func (p *Program) MarshalJSON() ([]byte, error) {
	jp := jsonProgram{Name: p.Name, Params: nonNil(p.Params), Context: p.Context.String(), Arrays: []jsonArray{}, Statements: []jsonStmt{}}
	for _, a := range p.Arrays {
		ext := []string{}
		for _, e := range a.Extent {
			ext = append(ext, e.String())
		}
		jp.Arrays = append(jp.Arrays, jsonArray{a.Name, a.Type, ext, a.LiveIn, a.LiveOut})
	}
	for _, s := range p.Stmts {
		js := jsonStmt{Name: s.Name, Iters: nonNil(s.Iters), Domain: s.Domain.String(), Schedule: s.Schedule.String(),
			Body: s.Body(), Writes: jsonAccesses(s.Writes), Reads: jsonAccesses(s.Reads)}
		if s.At.IsValid() {
			js.Pos = s.At.String()
		}
		jp.Statements = append(jp.Statements, js)
	}
	return marshalPlain(jp)
}

// marshalPlain is json.Marshal without HTML escaping, so that relations
// read "->" rather than "-\u003e".
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func jsonAccesses(as []Access) []jsonAccess {
	out := []jsonAccess{}
	for _, a := range as {
		out = append(out, jsonAccess{a.Array, a.Rel.String(), a.May})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
