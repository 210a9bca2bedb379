package cparse

import (
	"github.com/tilefuse/tilefuse/scop"
)

// maxDepth bounds the nesting of statements and expressions, so that
// hostile input cannot exhaust the stack.
const maxDepth = 200

// parser is a recursive-descent parser for the C subset. On the first
// error the lexer stops producing tokens, so every loop ends at tEOF and
// the (partial) tree is discarded.
type parser struct {
	lx       tokenSource
	errs     *first
	tok      token
	ahead    []token
	typedefs map[string]scop.ElemType
	depth    int
	macros   map[string]string // object-like macros, for #pragma tilefuse
}

func newParser(file string, src []byte) *parser {
	p := &parser{errs: &first{}, typedefs: map[string]scop.ElemType{}}
	for k, v := range builtinTypedefs {
		p.typedefs[k] = v
	}
	p.lx = newLexer(file, src, p.errs)
	p.tok = p.lx.next()
	return p
}

// tokenSource yields tokens: a lexer, or the tokens of one declaration
// found by the top-level scanner.
type tokenSource interface{ next() token }

// tokenList is a tokenSource over a slice; like the lexer, it yields only
// tEOF once an error is recorded.
type tokenList struct {
	toks []token
	end  scop.Pos
	errs *first
}

func (l *tokenList) next() token {
	if len(l.toks) == 0 || l.errs.failed() {
		return token{kind: tEOF, at: l.end}
	}
	t := l.toks[0]
	l.toks = l.toks[1:]
	return t
}

// newListParser parses toks with the given typedefs (shared, so that
// typedefs of one declaration serve the next).
func newListParser(toks []token, end scop.Pos, typedefs map[string]scop.ElemType) *parser {
	p := &parser{errs: &first{}, typedefs: typedefs}
	p.lx = &tokenList{toks: toks, end: end, errs: p.errs}
	p.tok = p.lx.next()
	return p
}

func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.tok, p.ahead = p.ahead[0], p.ahead[1:]
		return
	}
	p.tok = p.lx.next()
}

// peek returns the token after the current one.
func (p *parser) peek() token {
	if len(p.ahead) == 0 {
		p.ahead = append(p.ahead, p.lx.next())
	}
	return p.ahead[0]
}

func (p *parser) is(punct string) bool { return p.tok.kind == tPunct && p.tok.text == punct }

func (p *parser) isKeyword(kw string) bool { return p.tok.kind == tIdent && p.tok.text == kw }

func (p *parser) got(punct string) bool {
	if p.is(punct) {
		p.next()
		return true
	}
	return false
}

// fail records an error and ends the token stream, which ends every loop.
func (p *parser) fail(at scop.Pos, format string, args ...any) {
	p.errs.set(at, format, args...)
	p.tok, p.ahead = token{kind: tEOF, at: at}, nil
}

func (p *parser) expected(what string) {
	p.fail(p.tok.at, "expected %s, found %s", what, p.tok.describe())
}

func (p *parser) expect(punct string) scop.Pos {
	at := p.tok.at
	if !p.got(punct) {
		p.expected("'" + punct + "'")
	}
	return at
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.tok.at, "nesting deeper than %d levels", maxDepth)
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// parseUnit parses a whole file: typedefs, global declarations, function
// prototypes and definitions.
func (p *parser) parseUnit() *unit {
	u := &unit{}
	for p.tok.kind != tEOF {
		switch {
		case p.got(";"):
		case p.tok.kind == tPragmaScop || p.tok.kind == tPragmaEndscop:
			p.fail(p.tok.at, "%s outside a function", p.tok.text)
		case p.tok.kind == tPragmaTilefuse:
			p.fail(p.tok.at, "#pragma tilefuse outside a function (put it in the function body)")
		case p.isKeyword("typedef"):
			p.typedef()
		default:
			p.external(u)
		}
	}
	return u
}

// typedef parses `typedef type name, ...;`; only scalar types can be
// named.
func (p *parser) typedef() {
	p.next()
	t, at := p.declSpecs(true)
	for {
		d := p.declarator(t, false)
		if len(d.dims) > 0 {
			p.fail(d.at, "array typedefs are not supported")
		}
		if prev, ok := p.typedefs[d.name]; ok && prev != t {
			p.fail(d.at, "typedef %s redefined with a different type", d.name)
		}
		if t == scop.Invalid {
			p.fail(at, "typedef of void is not supported")
		}
		p.typedefs[d.name] = t
		if !p.got(",") {
			break
		}
	}
	p.expect(";")
}

// external parses a function definition or prototype, or global variables.
func (p *parser) external(u *unit) {
	t, _ := p.declSpecs(true)
	d := p.declarator(t, false)
	if p.is("(") {
		f := &funcDef{at: d.at, name: d.name, params: p.params()}
		if p.is("{") {
			f.body = p.block()
			u.funcs = append(u.funcs, f)
			return
		}
		p.expect(";")
		return
	}
	for {
		if t == scop.Invalid {
			p.fail(d.at, "variable %s declared void", d.name)
		}
		p.initializer(d)
		u.globals = append(u.globals, d)
		if !p.got(",") {
			break
		}
		d = p.declarator(t, false)
	}
	p.expect(";")
}

func (p *parser) params() []*declarator {
	p.expect("(")
	if p.isKeyword("void") && p.peek().kind == tPunct && p.peek().text == ")" {
		p.next()
	}
	var list []*declarator
	for !p.is(")") && p.tok.kind != tEOF {
		if p.is("...") {
			p.fail(p.tok.at, "variadic functions are not supported")
			break
		}
		t, at := p.declSpecs(true)
		d := p.declarator(t, true)
		if t == scop.Invalid {
			p.fail(at, "parameter of type void")
		}
		list = append(list, d)
		if !p.got(",") {
			break
		}
	}
	p.expect(")")
	return list
}

// qualifiers are accepted and ignored: they do not change what a scop
// computes.
var qualifiers = map[string]bool{
	"static": true, "extern": true, "inline": true, "const": true, "volatile": true,
	"restrict": true, "register": true, "auto": true, "__restrict": true,
	"__restrict__": true, "__inline": true, "__inline__": true,
}

// pointerQualifiers may follow the * of a pointer parameter; one of the
// restrict spellings is required.
var pointerQualifiers = map[string]bool{
	"const": true, "volatile": true, "restrict": true, "__restrict": true, "__restrict__": true,
}

var typeKeywords = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true,
	"double": true, "signed": true, "unsigned": true,
	"struct": true, "union": true, "enum": true, "_Bool": true, "_Complex": true,
}

// startsType reports whether the current token begins a declaration.
func (p *parser) startsType() bool {
	if p.tok.kind != tIdent {
		return false
	}
	_, isTypedef := p.typedefs[p.tok.text]
	return qualifiers[p.tok.text] || typeKeywords[p.tok.text] || isTypedef
}

// declSpecs parses qualifiers and type keywords or a typedef name. With
// need set, a missing type is an error (C's implicit int is not).
func (p *parser) declSpecs(need bool) (scop.ElemType, scop.Pos) {
	at := p.tok.at
	var s typeSpec
	seen := false
	for p.tok.kind == tIdent && p.errs.err == nil {
		w := p.tok.text
		switch {
		case qualifiers[w]:
		case w == "struct" || w == "union" || w == "enum":
			p.fail(p.tok.at, "%s types are not supported", w)
		case w == "_Bool" || w == "_Complex":
			p.fail(p.tok.at, "type %s is not supported", w)
		case typeKeywords[w]:
			if s.named {
				p.fail(p.tok.at, "unexpected %s after type name", w)
			}
			seen = true
			switch w {
			case "void":
				s.void = true
			case "char":
				s.char = true
			case "short":
				s.short = true
			case "int":
				s.int = true
			case "long":
				s.long++
			case "float":
				s.float = true
			case "double":
				s.double = true
			case "signed":
				s.signed = true
			case "unsigned":
				s.unsigned = true
			}
		default:
			t, ok := p.typedefs[w]
			if !ok || seen {
				goto done
			}
			s.named, s.t, seen = true, t, true
		}
		p.next()
	}
done:
	if !seen && need {
		p.expected("a type")
	}
	t, msg := s.elemType()
	if msg != "" {
		p.fail(at, "%s", msg)
	}
	return t, at
}

// declarator parses a name with array extents; optional allows an
// unnamed (prototype) parameter.
func (p *parser) declarator(t scop.ElemType, optional bool) *declarator {
	d := &declarator{at: p.tok.at, t: t}
	// A parameter may be a restrict pointer (double *restrict A) or a
	// pointer to arrays (double (*restrict A)[M]): an array whose
	// outermost extent is not declared.
	ptrAt, ptr, paren := p.tok.at, false, false
	switch {
	case p.is("*") && !optional:
		p.fail(p.tok.at, "pointers are not supported")
		return d
	case p.is("*"):
		ptr = true
	case p.is("(") && optional && p.peek().kind == tPunct && p.peek().text == "*":
		p.next()
		ptrAt, ptr, paren = p.tok.at, true, true
	}
	restrict := false
	if ptr {
		p.next()
		for p.tok.kind == tIdent && pointerQualifiers[p.tok.text] {
			restrict = restrict || p.tok.text != "const" && p.tok.text != "volatile"
			p.next()
		}
		if p.is("*") {
			p.fail(p.tok.at, "pointers to pointers are not supported")
			return d
		}
		d.at = p.tok.at
	}
	if p.tok.kind == tIdent && !keywords[p.tok.text] {
		d.name = p.tok.text
		p.next()
	} else if !optional {
		p.expected("identifier")
		return d
	}
	if paren {
		p.expect(")")
	}
	if ptr {
		if !restrict {
			name := d.name
			if name == "" {
				name = "P"
			}
			p.fail(ptrAt, "pointer parameter %s must be restrict-qualified (%s *restrict %s) or declared as an array (%s %s[N]): tilefuse assumes that parameters do not overlap", name, cTypeName(t), name, cTypeName(t), name)
			return d
		}
		if !paren && p.is("[") {
			p.fail(p.tok.at, "arrays of pointers are not supported")
			return d
		}
		d.dims, d.ptr = append(d.dims, nil), true
	}
	for p.got("[") {
		if p.got("]") {
			d.dims = append(d.dims, nil)
			continue
		}
		for p.isKeyword("static") || qualifiers[p.tok.text] && p.tok.kind == tIdent {
			p.next()
		}
		d.dims = append(d.dims, p.assign())
		p.expect("]")
	}
	if p.is("(") && d.name != "" && optional {
		p.fail(p.tok.at, "function parameters are not supported")
	}
	return d
}

func (p *parser) initializer(d *declarator) {
	if !p.got("=") {
		return
	}
	if p.is("{") {
		p.fail(p.tok.at, "initializer lists are not supported")
		return
	}
	d.init = p.assign()
}

// declaration parses a block-level declaration (the type is current).
func (p *parser) declaration() *declStmt {
	s := &declStmt{at: p.tok.at}
	t, _ := p.declSpecs(true)
	for {
		d := p.declarator(t, false)
		if t == scop.Invalid {
			p.fail(d.at, "variable %s declared void", d.name)
		}
		p.initializer(d)
		s.decls = append(s.decls, d)
		if !p.got(",") {
			break
		}
	}
	p.expect(";")
	return s
}
