package openscop

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/presburger"
)

// Scop is an OpenScop file as read.
type Scop struct {
	Language   string
	Context    []Relation
	Params     []string
	Statements []Statement
	// Arrays are the names of <arrays> by number.
	Arrays map[int64]string
}

// Statement is one statement: its relations (each a union of parts, in
// the file's order) and its <body>.
type Statement struct {
	Relations [][]Relation
	Iters     []string
	Body      string
}

// Relation is one basic relation: its type (DOMAIN, SCATTERING, READ,
// ...), its dimensions, and its rows in OpenScop's column order.
type Relation struct {
	Type                      string
	NOut, NIn, NLocal, NParam int
	Rows                      [][]int64
	Line                      int
}

// Error is a file that cannot be read, at Line.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

type line struct {
	n    int
	text string
}

type reader struct {
	lines []line
	at    int
}

// Read parses an OpenScop file.
func Read(text string) (*Scop, error) {
	r := &reader{}
	for i, l := range strings.Split(text, "\n") {
		if k := strings.IndexByte(l, '#'); k >= 0 {
			l = l[:k]
		}
		if l = strings.TrimSpace(l); l != "" {
			r.lines = append(r.lines, line{i + 1, l})
		}
	}
	s := &Scop{Arrays: map[int64]string{}}
	if err := r.expect("<OpenScop>"); err != nil {
		return nil, err
	}
	var err error
	if s.Language, err = r.next("the language"); err != nil {
		return nil, err
	}
	if s.Context, err = r.union(); err != nil {
		return nil, err
	}
	if provided, err := r.ints(1, "whether parameters are provided"); err != nil {
		return nil, err
	} else if provided[0] == 1 {
		body, err := r.extension("<strings>")
		if err != nil {
			return nil, err
		}
		s.Params = strings.Fields(strings.Join(body, " "))
	}
	n, err := r.ints(1, "the number of statements")
	if err != nil {
		return nil, err
	}
	for range n[0] {
		st, err := r.statement()
		if err != nil {
			return nil, err
		}
		s.Statements = append(s.Statements, st)
	}
	for {
		l, err := r.next("</OpenScop>")
		if err != nil {
			return nil, err
		}
		switch {
		case l == "</OpenScop>":
			return s, nil
		case l == "<arrays>":
			r.at--
			body, err := r.extension("<arrays>")
			if err != nil {
				return nil, err
			}
			if err := s.readArrays(body, r.lines[r.at-1].n); err != nil {
				return nil, err
			}
		case strings.HasPrefix(l, "<") && !strings.HasPrefix(l, "</"):
			r.at--
			if _, err := r.extension(l); err != nil {
				return nil, err
			}
		default:
			return nil, r.errorf("%q where an extension or </OpenScop> should be", l)
		}
	}
}

func (s *Scop) readArrays(body []string, at int) error {
	if len(body) == 0 {
		return &Error{at, "<arrays> without the number of arrays"}
	}
	for _, l := range body[1:] {
		f := strings.Fields(l)
		id, err := strconv.ParseInt(f[0], 10, 64)
		if len(f) != 2 || err != nil {
			return &Error{at, fmt.Sprintf("<arrays>: %q is not NUMBER NAME", l)}
		}
		s.Arrays[id] = f[1]
	}
	return nil
}

func (r *reader) statement() (Statement, error) {
	var st Statement
	n, err := r.ints(1, "the number of relations of a statement")
	if err != nil {
		return st, err
	}
	for range n[0] {
		u, err := r.union()
		if err != nil {
			return st, err
		}
		st.Relations = append(st.Relations, u)
	}
	provided, err := r.ints(1, "whether the statement's body is provided")
	if err != nil || provided[0] == 0 {
		return st, err
	}
	body, err := r.extension("<body>")
	if err != nil {
		return st, err
	}
	if len(body) == 0 {
		return st, r.errorf("<body> without the number of iterators")
	}
	k, err := strconv.Atoi(body[0])
	if err != nil || k < 0 {
		return st, r.errorf("<body>: %q is not a number of iterators", body[0])
	}
	rest := body[1:]
	if k > 0 {
		if len(rest) == 0 || len(strings.Fields(rest[0])) != k {
			return st, r.errorf("<body>: want a line of %d iterators", k)
		}
		st.Iters, rest = strings.Fields(rest[0]), rest[1:]
	}
	st.Body = strings.Join(rest, "\n")
	return st, nil
}

// union reads a relation, or a count and that many relations.
func (r *reader) union() ([]Relation, error) {
	count := 1
	if r.at < len(r.lines) {
		if v, err := strconv.Atoi(r.lines[r.at].text); err == nil {
			count = v
			r.at++
		}
	}
	var out []Relation
	for range count {
		rel, err := r.relation()
		if err != nil {
			return nil, err
		}
		out = append(out, rel)
	}
	return out, nil
}

func (r *reader) relation() (Relation, error) {
	typ, err := r.next("a relation type")
	if err != nil {
		return Relation{}, err
	}
	rel := Relation{Type: typ, Line: r.lines[r.at-1].n}
	d, err := r.ints(6, "a relation's rows, columns, output, input, local dimensions and parameters")
	if err != nil {
		return rel, err
	}
	rel.NOut, rel.NIn, rel.NLocal, rel.NParam = int(d[2]), int(d[3]), int(d[4]), int(d[5])
	if d[1] != int64(2+rel.NOut+rel.NIn+rel.NLocal+rel.NParam) {
		return rel, r.errorf("%d columns, want 2 + the %d dimensions", d[1], rel.NOut+rel.NIn+rel.NLocal+rel.NParam)
	}
	for range d[0] {
		row, err := r.ints(int(d[1]), "a row")
		if err != nil {
			return rel, err
		}
		if row[0] != 0 && row[0] != 1 {
			return rel, r.errorf("the first column is %d, neither 0 (=) nor 1 (>=)", row[0])
		}
		rel.Rows = append(rel.Rows, row)
	}
	return rel, nil
}

// extension reads <tag> ... </tag>: the lines between.
func (r *reader) extension(tag string) ([]string, error) {
	if err := r.expect(tag); err != nil {
		return nil, err
	}
	end := "</" + tag[1:]
	var body []string
	for {
		l, err := r.next(end)
		if err != nil {
			return nil, err
		}
		if l == end {
			return body, nil
		}
		body = append(body, l)
	}
}

func (r *reader) next(what string) (string, error) {
	if r.at >= len(r.lines) {
		last := 0
		if len(r.lines) > 0 {
			last = r.lines[len(r.lines)-1].n
		}
		return "", &Error{last, "the file ends where " + what + " should be"}
	}
	r.at++
	return r.lines[r.at-1].text, nil
}

func (r *reader) expect(want string) error {
	l, err := r.next(want)
	if err == nil && l != want {
		err = r.errorf("%q where %s should be", l, want)
	}
	return err
}

func (r *reader) ints(n int, what string) ([]int64, error) {
	l, err := r.next(what)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(l)
	if len(f) != n {
		return nil, r.errorf("%q: want %s (%d integers)", l, what, n)
	}
	out := make([]int64, n)
	for i, x := range f {
		if out[i], err = strconv.ParseInt(x, 10, 64); err != nil {
			return nil, r.errorf("%q: want %s, integers", l, what)
		}
	}
	return out, nil
}

func (r *reader) errorf(format string, args ...any) error {
	return &Error{r.lines[r.at-1].n, fmt.Sprintf(format, args...)}
}

// Map is the union of basic relations parts as a map in space sp (or a
// set, as a map with no input dimensions: use its AsSet): the locals are
// quantified away.
func Map(parts []Relation, sp presburger.Space) (presburger.Map, error) {
	out := presburger.EmptyMap(sp)
	for _, rel := range parts {
		if rel.NOut != sp.NOut() || rel.NIn != sp.NIn() || rel.NParam != sp.NParam() {
			return out, &Error{rel.Line, fmt.Sprintf("%s has %d output, %d input dimensions and %d parameters, want %d, %d and %d", rel.Type, rel.NOut, rel.NIn, rel.NParam, sp.NOut(), sp.NIn(), sp.NParam())}
		}
		// The locals become trailing output dimensions, projected out.
		outs := make([]string, rel.NOut+rel.NLocal)
		copy(outs, sp.Out.Dims)
		wide := presburger.MapSpace(sp.Params, sp.In, presburger.NewTuple(sp.Out.Name, outs...))
		var eqs, ineqs [][]int64
		for _, row := range rel.Rows {
			r := fromOpenScop(row, rel)
			if row[0] == 0 {
				eqs = append(eqs, r)
			} else {
				ineqs = append(ineqs, r)
			}
		}
		m, err := presburger.MapFromConstraints(wide, eqs, ineqs)
		if err == nil && rel.NLocal > 0 {
			m, err = m.ProjectOut(presburger.DimOut, rel.NOut, rel.NLocal)
		}
		if err == nil {
			out, err = out.Union(m)
		}
		if err != nil {
			return out, &Error{rel.Line, err.Error()}
		}
	}
	return out, nil
}

// fromOpenScop reorders [e/i, out, in, locals, params, 1] into
// [1, params, in, out, locals].
func fromOpenScop(row []int64, rel Relation) []int64 {
	no, ni, nl := rel.NOut, rel.NIn, rel.NLocal
	r := []int64{row[len(row)-1]}
	r = append(r, row[1+no+ni+nl:len(row)-1]...)
	r = append(r, row[1+no:1+no+ni]...)
	r = append(r, row[1:1+no]...)
	return append(r, row[1+no+ni:1+no+ni+nl]...)
}

// Set is the union of basic relations parts as a set in space sp (a
// DOMAIN, or a CONTEXT in a parameter space); the locals are quantified
// away.
func Set(parts []Relation, sp presburger.Space) (presburger.Set, error) {
	out := sp.Out
	if sp.IsParams {
		out = presburger.NewTuple("")
	}
	m, err := Map(parts, presburger.MapSpace(sp.Params, presburger.NewTuple(""), out))
	if err != nil {
		return presburger.EmptySet(sp), err
	}
	s, err := m.Range()
	if err == nil && sp.IsParams {
		s, err = s.Params()
	}
	return s, err
}
