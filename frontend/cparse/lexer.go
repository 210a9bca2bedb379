package cparse

import (
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tChar
	tString
	tPunct
	tPragmaScop
	tPragmaEndscop
	// tPragmaTilefuse is "#pragma tilefuse ..."; text is the rest of the
	// line and at its position.
	tPragmaTilefuse
)

// token is one lexeme. Literals keep their text; the parser types them.
type token struct {
	kind tokKind
	text string
	at   scop.Pos
}

// describe names the token for "expected X, found Y" messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		if keywords[t.text] {
			return "keyword " + t.text
		}
		return "identifier " + t.text
	case tInt, tFloat, tChar:
		return "constant " + t.text
	case tString:
		return "string literal"
	case tPragmaScop:
		return "#pragma scop"
	case tPragmaEndscop:
		return "#pragma endscop"
	case tPragmaTilefuse:
		return "#pragma tilefuse"
	}
	return "'" + t.text + "'"
}

var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`auto break case char const continue default do double else enum
		extern float for goto if inline int long register restrict return short signed sizeof static
		struct switch typedef union unsigned void volatile while _Bool _Complex _Alignas _Alignof
		_Atomic _Generic _Noreturn _Static_assert _Thread_local`) {
		keywords[k] = true
	}
}

// puncts lists the C punctuators, longest first so that the lexer takes
// the longest match.
var puncts = []string{
	"<<=", ">>=", "...",
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
	"[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!",
	"/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",",
}

// lexer splits a file into tokens. Preprocessor lines are skipped except
// #pragma scop and #pragma endscop, which become tokens.
type lexer struct {
	src       []byte
	file      string
	off       int
	line, col int
	lineStart bool // only white space since the start of the line
	errs      *first
	// macros, when not nil, collects the object-like macros that
	// #define lines define (cpp -dD keeps them), for #pragma tilefuse.
	macros map[string]string
}

func newLexer(file string, src []byte, errs *first) *lexer {
	return &lexer{src: src, file: file, line: 1, col: 1, lineStart: true, errs: errs}
}

func (lx *lexer) pos() scop.Pos { return scop.Pos{File: lx.file, Line: lx.line, Col: lx.col} }

func (lx *lexer) peekByte(k int) byte {
	if lx.off+k < len(lx.src) {
		return lx.src[lx.off+k]
	}
	return 0
}

func (lx *lexer) advance(n int) {
	for ; n > 0 && lx.off < len(lx.src); n-- {
		if lx.src[lx.off] == '\n' {
			lx.line++
			lx.col = 1
			lx.lineStart = true
		} else {
			lx.col++
		}
		lx.off++
	}
}

// next returns the next token; after an error it returns only tEOF, so
// that every parsing loop ends.
func (lx *lexer) next() token {
	for !lx.errs.failed() {
		lx.skipSpace()
		if lx.errs.failed() || lx.off >= len(lx.src) {
			break
		}
		at := lx.pos()
		c := lx.src[lx.off]
		if c == '#' {
			if !lx.lineStart {
				lx.errs.set(at, "unexpected '#' in the middle of a line")
				break
			}
			if t, ok := lx.directive(at); ok {
				return t
			}
			continue
		}
		lx.lineStart = false
		switch {
		case isIdentStart(c):
			n := 1
			for isIdentStart(lx.peekByte(n)) || isDigit(lx.peekByte(n)) {
				n++
			}
			return lx.take(tIdent, n, at)
		case isDigit(c) || c == '.' && isDigit(lx.peekByte(1)):
			return lx.number(at)
		case c == '\'':
			return lx.quoted(tChar, '\'', at)
		case c == '"':
			return lx.quoted(tString, '"', at)
		}
		for _, p := range puncts {
			if strings.HasPrefix(string(lx.src[lx.off:min(lx.off+3, len(lx.src))]), p) {
				return lx.take(tPunct, len(p), at)
			}
		}
		if c < 0x20 || c >= 0x7f {
			lx.errs.set(at, "invalid character 0x%02x", c)
		} else {
			lx.errs.set(at, "invalid character %q", c)
		}
	}
	return token{kind: tEOF, at: lx.pos()}
}

func (lx *lexer) take(k tokKind, n int, at scop.Pos) token {
	t := token{kind: k, text: string(lx.src[lx.off : lx.off+n]), at: at}
	lx.advance(n)
	return t
}

func isIdentStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool      { return '0' <= c && c <= '9' }

// skipSpace skips white space, comments and backslash-newlines.
func (lx *lexer) skipSpace() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.advance(1)
		case c == '\\' && (lx.peekByte(1) == '\n' || lx.peekByte(1) == '\r' && lx.peekByte(2) == '\n'):
			lx.advance(2)
		case c == '/' && lx.peekByte(1) == '/':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance(1)
			}
		case c == '/' && lx.peekByte(1) == '*':
			at := lx.pos()
			end := strings.Index(string(lx.src[lx.off+2:]), "*/")
			if end < 0 {
				lx.errs.set(at, "unterminated comment")
				lx.advance(len(lx.src))
				return
			}
			start := lx.lineStart
			lx.advance(end + 4)
			lx.lineStart = start && lx.lineStart // a comment is white space
		default:
			return
		}
	}
}

// directive handles a preprocessor line starting at '#'. It returns a
// token for #pragma scop, #pragma endscop and #pragma tilefuse, follows
// the line markers of the C preprocessor ("# 12 \"file.c\"" and
// "#line 12 \"file.c\""), so that positions name the original file and
// line, and skips anything else.
func (lx *lexer) directive(at scop.Pos) (token, bool) {
	start := lx.off
	if line, file, ok := lineMarker(lx.src[start:]); ok {
		for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
			lx.advance(1)
		}
		// The newline that ends the marker starts line `line`.
		lx.line = line - 1
		if file != "" {
			lx.file = file
		}
		return token{}, false
	}
	for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
		if lx.src[lx.off] == '\\' && lx.peekByte(1) == '\n' {
			lx.advance(1)
		}
		lx.advance(1)
	}
	text := strings.ReplaceAll(string(lx.src[start:lx.off]), "\\\n", " ")
	if i := strings.Index(text, "//"); i >= 0 {
		text = text[:i]
	}
	if i := strings.Index(text, "/*"); i >= 0 {
		text = text[:i]
	}
	f := strings.Fields(strings.TrimPrefix(text, "#"))
	if lx.macros != nil && len(f) >= 2 && (f[0] == "define" || f[0] == "undef") {
		name := f[1]
		if i := strings.IndexByte(name, '('); i >= 0 {
			name = name[:i]
		}
		delete(lx.macros, name)
		if f[0] == "define" && name == f[1] {
			i := strings.Index(text, "define") + len("define")
			i += strings.Index(text[i:], name) + len(name)
			lx.macros[name] = strings.TrimSpace(text[i:])
		}
	}
	if len(f) >= 2 && f[0] == "pragma" && f[1] == "tilefuse" {
		raw := string(lx.src[start:lx.off])
		i := strings.Index(raw, "tilefuse") + len("tilefuse")
		rest := strings.TrimRight(text[min(i, len(text)):], " \t\r")
		return token{kind: tPragmaTilefuse, text: rest, at: scop.Pos{File: at.File, Line: at.Line, Col: at.Col + i}}, true
	}
	if len(f) == 2 && f[0] == "pragma" {
		switch f[1] {
		case "scop":
			return token{kind: tPragmaScop, text: "#pragma scop", at: at}, true
		case "endscop":
			return token{kind: tPragmaEndscop, text: "#pragma endscop", at: at}, true
		}
	}
	return token{}, false
}

// number lexes an integer or floating constant, suffixes included; the
// parser checks the text.
func (lx *lexer) number(at scop.Pos) token {
	n := 0
	for {
		c := lx.peekByte(n)
		if isDigit(c) || isIdentStart(c) || c == '.' {
			n++
			continue
		}
		if (c == '+' || c == '-') && n > 0 {
			prev := lx.src[lx.off+n-1] | 0x20
			hex := strings.HasPrefix(strings.ToLower(string(lx.src[lx.off:lx.off+n])), "0x")
			if prev == 'e' && !hex || prev == 'p' && hex {
				n++
				continue
			}
		}
		break
	}
	text := string(lx.src[lx.off : lx.off+n])
	kind := tInt
	lower := strings.ToLower(text)
	if strings.HasPrefix(lower, "0x") {
		if strings.ContainsAny(lower, ".p") {
			kind = tFloat
		}
	} else if strings.ContainsAny(lower, ".e") {
		kind = tFloat
	}
	return lx.take(kind, n, at)
}

// quoted lexes a character constant or string literal.
func (lx *lexer) quoted(k tokKind, q byte, at scop.Pos) token {
	n := 1
	for {
		c := lx.peekByte(n)
		if lx.off+n >= len(lx.src) || c == '\n' {
			what := "character constant"
			if k == tString {
				what = "string literal"
			}
			lx.errs.set(at, "unterminated %s", what)
			return token{kind: tEOF, at: at}
		}
		n++
		if c == '\\' {
			n++
			continue
		}
		if c == q {
			return lx.take(k, n, at)
		}
	}
}

// charValue decodes a character constant such as 'a' or '\n'.
func charValue(text string) (int64, bool) {
	if len(text) < 3 {
		return 0, false
	}
	body := text[1 : len(text)-1]
	if body == "\\'" {
		return '\'', true
	}
	if body == "\"" {
		return '"', true
	}
	if body == `\0` {
		return 0, true
	}
	s, err := strconv.Unquote("\"" + body + "\"")
	if err != nil || len(s) != 1 {
		return 0, false
	}
	return int64(int8(s[0])), true
}

// lineMarker reads a line marker of the C preprocessor at the start of
// src ("# 12 \"file.c\" 1 3", or "#line 12 \"file.c\""): the number of
// the next line and its file ("" when the marker names none).
func lineMarker(src []byte) (line int, file string, ok bool) {
	end := 0
	for end < len(src) && src[end] != '\n' {
		end++
	}
	text := strings.TrimSpace(strings.TrimPrefix(string(src[:end]), "#"))
	text = strings.TrimSpace(strings.TrimPrefix(text, "line"))
	n := 0
	for n < len(text) && isDigit(text[n]) {
		n++
	}
	if n == 0 || n > 9 || n < len(text) && text[n] != ' ' && text[n] != '\t' && text[n] != '\r' {
		return 0, "", false
	}
	line, err := strconv.Atoi(text[:n])
	if err != nil {
		return 0, "", false
	}
	rest := strings.TrimSpace(text[n:])
	if !strings.HasPrefix(rest, `"`) {
		return line, "", true
	}
	// The name is a string literal: find its closing quote.
	for i := 1; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '"':
			if f, err := strconv.Unquote(rest[:i+1]); err == nil {
				return line, f, true
			}
			return line, rest[1:i], true
		}
	}
	return line, "", true
}
