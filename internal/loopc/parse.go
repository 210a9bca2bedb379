package loopc

import (
	"fmt"
	"strconv"
	"strings"
)

// Stmt is a statement of the code: *For, *If, *Block or *Call.
type Stmt interface{ stmt() }

// For is "for (int Iter = Init; Cond; Iter += Step) Body".
type For struct {
	Iter       string
	Init, Cond Expr
	Step       Expr
	Body       Stmt
}

// If is "if (Cond) Then else Else" (Else nil without else).
type If struct {
	Cond       Expr
	Then, Else Stmt
}

// Block is "{ Stmts }".
type Block struct{ Stmts []Stmt }

// Call is a statement instance "Name(Args);".
type Call struct {
	Name string
	Args []Expr
}

func (*For) stmt()   {}
func (*If) stmt()    {}
func (*Block) stmt() {}
func (*Call) stmt()  {}

// Expr is an integer expression: Op is "int" (Val), "var" (Name), a
// C operator ("+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=",
// "&&", "||", "!", "neg", "?:") or a function ("min", "max", "floord")
// over Args.
type Expr struct {
	Op   string
	Val  int64
	Name string
	Args []Expr
}

// Error is a syntax error at a position of the code.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

type token struct {
	text      string
	line, col int
}

// Parse reads the statements of code as a block.
func Parse(code string) (*Block, error) {
	toks, err := lex(code)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	b := &Block{}
	for p.peek() != "" {
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		b.Stmts = append(b.Stmts, s)
	}
	return b, nil
}

var puncts = []string{"+=", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "!", "?", ":", "(", ")", "{", "}", ";", ",", "="}

func lex(code string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i, col = i+1, col+1
			continue
		}
		j := i
		switch {
		case isIdent(c) || '0' <= c && c <= '9':
			for j < len(code) && (isIdent(code[j]) || '0' <= code[j] && code[j] <= '9') {
				j++
			}
		default:
			for _, p := range puncts {
				if strings.HasPrefix(code[i:], p) {
					j = i + len(p)
					break
				}
			}
			if j == i {
				return nil, &Error{line, col, fmt.Sprintf("unexpected character %q", c)}
			}
		}
		toks = append(toks, token{code[i:j], line, col})
		col += j - i
		i = j
	}
	return toks, nil
}

func isIdent(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos].text
	}
	return ""
}

func (p *parser) errorf(format string, args ...any) error {
	if p.pos < len(p.toks) {
		t := p.toks[p.pos]
		return &Error{t.line, t.col, fmt.Sprintf(format, args...)}
	}
	line := 1
	if n := len(p.toks); n > 0 {
		line = p.toks[n-1].line
	}
	return &Error{line, 0, "at the end: " + fmt.Sprintf(format, args...)}
}

func (p *parser) expect(text string) error {
	if p.peek() != text {
		return p.errorf("want %q, got %q", text, p.peek())
	}
	p.pos++
	return nil
}

func (p *parser) ident() (string, error) {
	t := p.peek()
	if t == "" || !isIdent(t[0]) {
		return "", p.errorf("want a name, got %q", t)
	}
	p.pos++
	return t, nil
}

func (p *parser) stmt() (Stmt, error) {
	switch p.peek() {
	case "{":
		p.pos++
		b := &Block{}
		for p.peek() != "}" {
			if p.peek() == "" {
				return nil, p.errorf("unclosed {")
			}
			s, err := p.stmt()
			if err != nil {
				return nil, err
			}
			b.Stmts = append(b.Stmts, s)
		}
		p.pos++
		return b, nil
	case "for":
		return p.forStmt()
	case "if":
		p.pos++
		if err := p.expect("("); err != nil {
			return nil, err
		}
		cond, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")"); err != nil {
			return nil, err
		}
		s := &If{Cond: cond}
		if s.Then, err = p.stmt(); err != nil {
			return nil, err
		}
		if p.peek() == "else" {
			p.pos++
			if s.Else, err = p.stmt(); err != nil {
				return nil, err
			}
		}
		return s, nil
	}
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	args, err := p.args()
	if err != nil {
		return nil, err
	}
	return &Call{Name: name, Args: args}, p.expect(";")
}

func (p *parser) forStmt() (Stmt, error) {
	p.pos++
	f := &For{}
	var err error
	for _, step := range []func() error{
		func() error { return p.expect("(") },
		func() error { return p.expect("int") },
		func() (err error) { f.Iter, err = p.ident(); return err },
		func() error { return p.expect("=") },
		func() (err error) { f.Init, err = p.expr(); return err },
		func() error { return p.expect(";") },
		func() (err error) { f.Cond, err = p.expr(); return err },
		func() error { return p.expect(";") },
		func() error {
			if t := p.peek(); t != f.Iter {
				return p.errorf("the loop increments %q, not its iterator %s", t, f.Iter)
			}
			p.pos++
			return p.expect("+=")
		},
		func() (err error) { f.Step, err = p.expr(); return err },
		func() error { return p.expect(")") },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	f.Body, err = p.stmt()
	return f, err
}

// args reads "(e, ...)".
func (p *parser) args() ([]Expr, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var args []Expr
	for p.peek() != ")" {
		if len(args) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	p.pos++
	return args, nil
}

func (p *parser) expr() (Expr, error) {
	c, err := p.binary(0)
	if err != nil || p.peek() != "?" {
		return c, err
	}
	p.pos++
	x, err := p.expr()
	if err != nil {
		return c, err
	}
	if err := p.expect(":"); err != nil {
		return c, err
	}
	y, err := p.expr()
	return Expr{Op: "?:", Args: []Expr{c, x, y}}, err
}

// levels are C's binary operators by increasing precedence.
var levels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) (Expr, error) {
	if level == len(levels) {
		return p.unary()
	}
	x, err := p.binary(level + 1)
	for err == nil {
		op := p.peek()
		found := false
		for _, o := range levels[level] {
			found = found || o == op
		}
		if !found {
			break
		}
		p.pos++
		var y Expr
		y, err = p.binary(level + 1)
		x = Expr{Op: op, Args: []Expr{x, y}}
	}
	return x, err
}

func (p *parser) unary() (Expr, error) {
	switch t := p.peek(); {
	case t == "-" || t == "!":
		p.pos++
		x, err := p.unary()
		op := t
		if t == "-" {
			op = "neg"
		}
		return Expr{Op: op, Args: []Expr{x}}, err
	case t == "(":
		p.pos++
		x, err := p.expr()
		if err != nil {
			return x, err
		}
		return x, p.expect(")")
	case t != "" && '0' <= t[0] && t[0] <= '9':
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return Expr{}, p.errorf("bad number %q", t)
		}
		p.pos++
		return Expr{Op: "int", Val: v}, nil
	}
	name, err := p.ident()
	if err != nil {
		return Expr{}, err
	}
	if p.peek() != "(" {
		return Expr{Op: "var", Name: name}, nil
	}
	args, err := p.args()
	if err != nil {
		return Expr{}, err
	}
	ok := name == "floord" && len(args) == 2 || (name == "min" || name == "max") && len(args) >= 2
	if !ok {
		return Expr{}, p.errorf("unknown function %s with %d arguments", name, len(args))
	}
	return Expr{Op: name, Args: args}, nil
}
