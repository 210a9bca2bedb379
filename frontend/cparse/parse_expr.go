package cparse

import "github.com/tilefuse/tilefuse/scop"

// binaryPrec gives the binding strength of C's binary operators.
var binaryPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8,
	"+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"<<=": true, ">>=": true, "&=": true, "^=": true, "|=": true,
}

// expression parses a comma expression.
func (p *parser) expression() expr {
	start := p.tok.at
	x := p.assign()
	for p.is(",") {
		p.next()
		x = &commaExpr{at: start, x: x, y: p.assign()}
	}
	return x
}

func (p *parser) assign() expr {
	if !p.enter() {
		return &numExpr{at: p.tok.at, text: "0", t: scop.I32}
	}
	defer p.leave()
	start := p.tok.at
	x := p.conditional()
	if p.tok.kind == tPunct && assignOps[p.tok.text] {
		op := p.tok.text
		p.next()
		return &assignExpr{at: start, op: op, lhs: x, rhs: p.assign()}
	}
	return x
}

func (p *parser) conditional() expr {
	start := p.tok.at
	x := p.binary(1)
	if !p.is("?") {
		return x
	}
	p.next()
	if !p.enter() {
		return x
	}
	defer p.leave()
	then := p.expression()
	p.expect(":")
	return &condExpr{at: start, cond: x, then: then, els: p.conditional()}
}

// binary parses operators of precedence prec and higher, left to right.
// Nodes start where their text starts, at a parenthesis if there is one.
func (p *parser) binary(prec int) expr {
	start := p.tok.at
	x := p.unary()
	for {
		op := p.tok.text
		q, ok := binaryPrec[op]
		if p.tok.kind != tPunct || !ok || q < prec {
			return x
		}
		p.next()
		y := p.binary(q + 1)
		x = &binaryExpr{at: start, op: op, x: x, y: y}
	}
}

func (p *parser) unary() expr {
	at := p.tok.at
	if !p.enter() {
		return &numExpr{at: at, text: "0", t: scop.I32}
	}
	defer p.leave()
	if p.tok.kind == tPunct {
		switch op := p.tok.text; op {
		case "-", "+", "!", "~", "++", "--":
			p.next()
			return &unaryExpr{at: at, op: op, x: p.unary()}
		case "*", "&":
			p.fail(at, "pointers are not supported")
			return &numExpr{at: at, text: "0", t: scop.I32}
		case "(":
			if p.castAhead() {
				p.next()
				t, _ := p.declSpecs(true)
				if p.is("*") {
					p.fail(p.tok.at, "pointers are not supported")
				}
				p.expect(")")
				if t == scop.Invalid && p.errs.err == nil {
					p.fail(at, "cast to void is not supported")
				}
				return &castExpr{at: at, t: t, x: p.unary()}
			}
		}
	}
	if p.isKeyword("sizeof") || p.isKeyword("_Alignof") {
		p.fail(at, "%s is not supported", p.tok.text)
	}
	return p.postfix()
}

// castAhead reports whether the '(' at the current token opens a cast.
func (p *parser) castAhead() bool {
	t := p.peek()
	if t.kind != tIdent {
		return false
	}
	_, isTypedef := p.typedefs[t.text]
	return typeKeywords[t.text] || qualifiers[t.text] || isTypedef
}

func (p *parser) postfix() expr {
	start := p.tok.at
	x := p.primary()
	for p.tok.kind == tPunct {
		at := p.tok.at
		switch p.tok.text {
		case "[":
			p.next()
			idx := p.expression()
			p.expect("]")
			x = &indexExpr{at: start, x: x, index: idx}
		case "(":
			id, ok := x.(*identExpr)
			if !ok {
				p.fail(at, "called object %s is not a function", exprString(x))
				return x
			}
			p.next()
			c := &callExpr{at: start, fn: id.name}
			for !p.is(")") && p.tok.kind != tEOF {
				c.args = append(c.args, p.assign())
				if !p.got(",") {
					break
				}
			}
			p.expect(")")
			x = c
		case "++", "--":
			x = &postfixExpr{at: start, op: p.tok.text, x: x}
			p.next()
		case ".", "->":
			p.fail(at, "member access %s is not supported", p.tok.text)
			return x
		default:
			return x
		}
	}
	return x
}

func (p *parser) primary() expr {
	t := p.tok
	switch t.kind {
	case tIdent:
		if keywords[t.text] {
			break
		}
		p.next()
		return &identExpr{at: t.at, name: t.text}
	case tInt:
		p.next()
		typ, v, msg := intLiteral(t.text)
		if msg != "" {
			p.fail(t.at, "%s", msg)
		}
		return &numExpr{at: t.at, text: t.text, t: typ, i: v}
	case tFloat:
		p.next()
		typ, v, msg := floatLiteral(t.text)
		if msg != "" {
			p.fail(t.at, "%s", msg)
		}
		return &numExpr{at: t.at, text: t.text, t: typ, f: v}
	case tChar:
		p.next()
		v, ok := charValue(t.text)
		if !ok {
			p.fail(t.at, "unsupported character constant %s", t.text)
		}
		return &numExpr{at: t.at, text: t.text, t: scop.I32, i: v}
	case tString:
		p.next()
		return &stringExpr{at: t.at}
	case tPunct:
		if t.text == "(" {
			p.next()
			x := p.expression()
			p.expect(")")
			return x
		}
	}
	p.expected("expression")
	return &numExpr{at: t.at, text: "0", t: scop.I32}
}
