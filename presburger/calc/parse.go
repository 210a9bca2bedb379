package calc

import "fmt"

// Parse parses a program. file names the source in error messages.
// Literals are not checked here: their text is kept for the evaluator.
func Parse(file, src string) (*Program, error) {
	toks, err := lex(file, src)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, toks: toks}
	prog := &Program{File: file, Src: src}
	for p.peek().kind != tEOF {
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		prog.Stmts = append(prog.Stmts, s)
	}
	return prog, nil
}

type parser struct {
	file string
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) errorf(pos Pos, format string, args ...any) error {
	return &Error{File: p.file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) unexpected(t token, want string) error {
	got := t.kind.String()
	if t.kind == tIdent || t.kind == tLiteral {
		got = fmt.Sprintf("%s %q", got, t.text)
	}
	return p.errorf(t.pos, "expected %s, found %s", want, got)
}

func (p *parser) expect(k tokKind) (token, error) {
	t := p.next()
	if t.kind != k {
		return t, p.unexpected(t, k.String())
	}
	return t, nil
}

// stmt parses NAME := expr ; or expr ;
func (p *parser) stmt() (*Stmt, error) {
	s := &Stmt{Pos: p.peek().pos}
	if t := p.peek(); t.kind == tIdent && p.toks[p.i+1].kind == tAssign {
		if _, kw := prefixOps[t.text]; kw {
			return nil, p.errorf(t.pos, "cannot assign to %q: it is an operator", t.text)
		}
		s.Name = t.text
		p.i += 2
	}
	x, err := p.expr()
	if err != nil {
		return nil, err
	}
	s.X = x
	if t := p.next(); t.kind != tSemi {
		return nil, p.unexpected(t, "an operator or ';'")
	}
	return s, nil
}

// expr parses a comparison, the loosest binding level; comparisons do not chain.
func (p *parser) expr() (Expr, error) {
	x, err := p.sum()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind != tEq && t.kind != tLe {
		return x, nil
	}
	p.next()
	y, err := p.sum()
	if err != nil {
		return nil, err
	}
	op := Equal
	if t.kind == tLe {
		op = Subset
	}
	if t2 := p.peek(); t2.kind == tEq || t2.kind == tLe {
		return nil, p.errorf(t2.pos, "comparisons do not chain; use parentheses")
	}
	return &Binary{Pos: t.pos, Op: op, X: x, Y: y}, nil
}

var (
	sumOps     = map[tokKind]BinOp{tPlus: Union, tMinus: Subtract}
	productOps = map[tokKind]BinOp{tStar: Intersect, tPercent: Gist, tDot: Join}
)

func (p *parser) sum() (Expr, error) { return p.binaryLevel(sumOps, p.product) }

func (p *parser) product() (Expr, error) { return p.binaryLevel(productOps, p.unary) }

// binaryLevel parses operand { op operand } with left associativity.
func (p *parser) binaryLevel(ops map[tokKind]BinOp, operand func() (Expr, error)) (Expr, error) {
	x, err := operand()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		op, ok := ops[t.kind]
		if !ok {
			return x, nil
		}
		p.next()
		y, err := operand()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: t.pos, Op: op, X: x, Y: y}
	}
}

// unary parses prefix operators, which bind looser than postfix ones.
func (p *parser) unary() (Expr, error) {
	t := p.peek()
	if t.kind == tIdent {
		if op, ok := prefixOps[t.text]; ok {
			p.next()
			x, err := p.unary()
			if err != nil {
				return nil, err
			}
			return &Unary{Pos: t.pos, Op: op, X: x}, nil
		}
	}
	return p.postfix()
}

// postfix parses a primary followed by any number of ^-1 and (arg).
func (p *parser) postfix() (Expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch t.kind {
		case tInverse:
			p.next()
			x = &Unary{Pos: t.pos, Op: Inverse, X: x}
		case tLParen:
			p.next()
			arg, err := p.expr()
			if err != nil {
				return nil, err
			}
			if _, err := p.expect(tRParen); err != nil {
				return nil, err
			}
			x = &Call{Pos: t.pos, F: x, Arg: arg}
		default:
			return x, nil
		}
	}
}

func (p *parser) primary() (Expr, error) {
	t := p.next()
	switch t.kind {
	case tLiteral:
		return &Literal{Pos: t.pos, Src: t.text}, nil
	case tIdent:
		return &Name{Pos: t.pos, Name: t.text}, nil
	case tLParen:
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tRParen); err != nil {
			return nil, err
		}
		return x, nil
	}
	return nil, p.unexpected(t, "a literal, a name or '('")
}
