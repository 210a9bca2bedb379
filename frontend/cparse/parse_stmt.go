package cparse

import "tilefuse/scop"

func (p *parser) block() *blockStmt {
	b := &blockStmt{at: p.expect("{")}
	if !p.enter() {
		return b
	}
	defer p.leave()
	for !p.is("}") && p.tok.kind != tEOF {
		b.list = append(b.list, p.blockItem())
	}
	p.expect("}")
	return b
}

func (p *parser) blockItem() stmt {
	if p.isKeyword("typedef") {
		at := p.tok.at
		p.typedef()
		return &exprStmt{at: at}
	}
	if p.startsType() && !(p.peek().kind == tPunct && p.peek().text == ":") {
		return p.declaration()
	}
	return p.statement()
}

// statement parses any statement; those outside the scop subset become
// otherStmt after their syntax is checked.
func (p *parser) statement() stmt {
	at := p.tok.at
	if !p.enter() {
		return &exprStmt{at: at}
	}
	defer p.leave()
	switch p.tok.kind {
	case tPragmaScop, tPragmaEndscop:
		s := &pragmaStmt{at: at, end: p.tok.kind == tPragmaEndscop}
		p.next()
		return s
	case tPunct:
		switch p.tok.text {
		case "{":
			return p.block()
		case ";":
			p.next()
			return &exprStmt{at: at}
		}
	case tIdent:
		if s := p.keywordStmt(at); s != nil {
			return s
		}
		if !keywords[p.tok.text] && p.peek().kind == tPunct && p.peek().text == ":" {
			p.next()
			p.next()
			if p.is("}") {
				return &otherStmt{at: at, what: "label"}
			}
			p.statement()
			return &otherStmt{at: at, what: "label"}
		}
	}
	x := p.expression()
	p.expect(";")
	return &exprStmt{at: at, x: x}
}

// keywordStmt parses statements that start with a keyword, or returns nil.
func (p *parser) keywordStmt(at scop.Pos) stmt {
	switch p.tok.text {
	case "if":
		p.next()
		s := &ifStmt{at: at, cond: p.parenExpr()}
		s.then = p.statement()
		if p.isKeyword("else") {
			p.next()
			s.els = p.statement()
		}
		return s
	case "for":
		return p.forStmt(at)
	case "while", "switch":
		what := p.tok.text
		p.next()
		p.parenExpr()
		p.statement()
		return &otherStmt{at: at, what: what}
	case "do":
		p.next()
		p.statement()
		if !p.isKeyword("while") {
			p.expected("while")
		}
		p.next()
		p.parenExpr()
		p.expect(";")
		return &otherStmt{at: at, what: "do"}
	case "return":
		p.next()
		if !p.is(";") {
			p.expression()
		}
		p.expect(";")
		return &otherStmt{at: at, what: "return"}
	case "break", "continue":
		what := p.tok.text
		p.next()
		p.expect(";")
		return &otherStmt{at: at, what: what}
	case "goto":
		p.next()
		if p.tok.kind != tIdent {
			p.expected("label")
		}
		p.next()
		p.expect(";")
		return &otherStmt{at: at, what: "goto"}
	case "case", "default":
		what := p.tok.text
		p.next()
		if what == "case" {
			p.conditional()
		}
		p.expect(":")
		return &otherStmt{at: at, what: what}
	case "else":
		p.fail(at, "else without if")
		return &exprStmt{at: at}
	}
	return nil
}

func (p *parser) parenExpr() expr {
	p.expect("(")
	x := p.expression()
	p.expect(")")
	return x
}

func (p *parser) forStmt(at scop.Pos) stmt {
	p.next()
	s := &forStmt{at: at}
	p.expect("(")
	switch {
	case p.got(";"):
	case p.startsType():
		s.init = p.declaration()
	default:
		s.init = &exprStmt{at: p.tok.at, x: p.expression()}
		p.expect(";")
	}
	if !p.is(";") {
		s.cond = p.expression()
	}
	p.expect(";")
	if !p.is(")") {
		s.post = p.expression()
	}
	p.expect(")")
	s.body = p.statement()
	return s
}
