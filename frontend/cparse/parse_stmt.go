package cparse

import "github.com/tilefuse/tilefuse/scop"

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
	case tPragmaTilefuse:
		return p.tilefusePragma()
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
	case "while":
		p.next()
		s := &whileStmt{at: at, cond: p.parenExpr()}
		s.body = p.statement()
		return s
	case "switch":
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
		bare := p.is(";")
		if !bare {
			p.expression()
		}
		p.expect(";")
		return &otherStmt{at: at, what: "return", bare: bare}
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

// tilefusePragma parses "#pragma tilefuse array A[N][M], B[N]", which
// gives the extents of array parameters declared without them (restrict
// pointers, A[][M]).
func (p *parser) tilefusePragma() stmt {
	t := p.tok
	p.next()
	lx := newLexer(t.at.File, []byte(t.text), p.errs)
	lx.line, lx.col, lx.lineStart = t.at.Line, t.at.Col, false
	sub := &parser{lx: lx, errs: p.errs, typedefs: p.typedefs, depth: p.depth}
	if len(p.macros) > 0 {
		sub.lx = &expander{src: lx, macros: p.macros, errs: p.errs}
	}
	sub.tok = sub.lx.next()
	s := &shapeStmt{at: t.at}
	if !sub.isKeyword("array") {
		what := sub.tok.text
		if sub.tok.kind == tEOF {
			what = "without a directive"
		}
		sub.fail(t.at, "unknown #pragma tilefuse %s (the one known is: #pragma tilefuse array A[N][M], ...)", what)
	}
	sub.next()
	for sub.tok.kind != tEOF {
		d := &declarator{at: sub.tok.at}
		if sub.tok.kind != tIdent || keywords[sub.tok.text] {
			sub.expected("an array name")
			break
		}
		d.name = sub.tok.text
		sub.next()
		if !sub.is("[") {
			sub.expected("'['")
			break
		}
		for sub.got("[") {
			d.dims = append(d.dims, sub.assign())
			sub.expect("]")
		}
		s.decls = append(s.decls, d)
		if !sub.got(",") && sub.tok.kind != tEOF {
			sub.expected("',' or the end of the pragma")
		}
	}
	if len(s.decls) == 0 && !p.errs.failed() {
		p.errs.set(t.at, "#pragma tilefuse array names no array")
	}
	if p.errs.failed() {
		p.tok, p.ahead = token{kind: tEOF, at: t.at}, nil
	}
	return s
}

// expander expands object-like macros in the tokens of a #pragma
// tilefuse line, which the preprocessor leaves as written.
type expander struct {
	src     tokenSource
	macros  map[string]string
	errs    *first
	pending []token
	n       int // expansions so far
}

// maxExpansions bounds macro expansion in a pragma (a macro that
// expands to itself is left as it is, but mutual recursion is not
// detected).
const maxExpansions = 1000

func (e *expander) next() token {
	for {
		var t token
		if len(e.pending) > 0 {
			t, e.pending = e.pending[0], e.pending[1:]
		} else {
			t = e.src.next()
		}
		body, ok := e.macros[t.text]
		if t.kind != tIdent || !ok || e.errs.failed() {
			return t
		}
		e.n++
		if e.n > maxExpansions {
			e.errs.set(t.at, "macro %s expands more than %d times", t.text, maxExpansions)
			return token{kind: tEOF, at: t.at}
		}
		lx := newLexer(t.at.File, []byte(body), e.errs)
		var toks []token
		for x := lx.next(); x.kind != tEOF; x = lx.next() {
			x.at = t.at
			toks = append(toks, x)
		}
		if len(toks) == 1 && toks[0].kind == tIdent && toks[0].text == t.text {
			return t
		}
		e.pending = append(toks, e.pending...)
	}
}
