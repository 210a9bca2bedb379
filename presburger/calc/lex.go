package calc

import "fmt"

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tLiteral // an isl-notation set or map, kept as raw text
	tAssign  // :=
	tSemi
	tPlus
	tMinus
	tStar
	tPercent
	tDot
	tEq // =
	tLe // <=
	tLParen
	tRParen
	tInverse // ^-1
)

var tokNames = [...]string{
	tEOF: "end of input", tIdent: "name", tLiteral: "literal", tAssign: "':='",
	tSemi: "';'", tPlus: "'+'", tMinus: "'-'", tStar: "'*'", tPercent: "'%'",
	tDot: "'.'", tEq: "'='", tLe: "'<='", tLParen: "'('", tRParen: "')'",
	tInverse: "'^-1'",
}

var oneByteTokens = map[byte]tokKind{';': tSemi, '+': tPlus, '-': tMinus, '*': tStar,
	'%': tPercent, '.': tDot, '=': tEq, '(': tLParen, ')': tRParen}

func (k tokKind) String() string { return tokNames[k] }

type token struct {
	kind tokKind
	text string
	pos  Pos
}

// lexer splits a program into tokens, tracking line and column as it goes.
type lexer struct {
	file string
	src  string
	off  int
	pos  Pos
}

func (l *lexer) errorf(p Pos, format string, args ...any) error {
	return &Error{File: l.file, Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// advance moves n bytes forward, keeping the position up to date.
func (l *lexer) advance(n int) {
	for i := 0; i < n && l.off < len(l.src); i++ {
		if l.src[l.off] == '\n' {
			l.pos.Line++
			l.pos.Col = 1
		} else {
			l.pos.Col++
		}
		l.off++
		l.pos.Offset = l.off
	}
}

func (l *lexer) peekByte(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

// skipSpace skips white space and # comments.
func (l *lexer) skipSpace() {
	for l.off < len(l.src) {
		switch c := l.src[l.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.advance(1)
		case c == '#':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance(1)
			}
		default:
			return
		}
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentByte(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

func lex(file, src string) ([]token, error) {
	l := &lexer{file: file, src: src, pos: Pos{Line: 1, Col: 1}}
	var toks []token
	for {
		l.skipSpace()
		start := l.pos
		if l.off >= len(src) {
			return append(toks, token{kind: tEOF, pos: start}), nil
		}
		c := src[l.off]
		var kind tokKind
		var n int
		switch {
		case isIdentStart(c):
			n = 1
			for isIdentByte(l.peekByte(n)) {
				n++
			}
			kind = tIdent
		case c == '{' || c == '[':
			var err error
			if n, err = l.literalLen(); err != nil {
				return nil, err
			}
			kind = tLiteral
		case c == ':' && l.peekByte(1) == '=':
			kind, n = tAssign, 2
		case c == '<' && l.peekByte(1) == '=':
			kind, n = tLe, 2
		case c == '^':
			if l.peekByte(1) != '-' || l.peekByte(2) != '1' || isIdentByte(l.peekByte(3)) {
				return nil, l.errorf(start, "expected ^-1 (the only power is the inverse)")
			}
			kind, n = tInverse, 3
		default:
			k, ok := oneByteTokens[c]
			if !ok {
				return nil, l.errorf(start, "unexpected character %q", c)
			}
			kind, n = k, 1
		}
		text := src[l.off : l.off+n]
		l.advance(n)
		toks = append(toks, token{kind: kind, text: text, pos: start})
	}
}

// literalLen returns the length of the literal starting at l.off: either
// { ... } or [params] -> { ... }. isl notation never nests braces, so the
// literal ends at the first closing brace outside a # comment; its contents are checked later by
// whoever evaluates it, which keeps this package independent of any one
// parser (the isl reference reads the same raw text).
func (l *lexer) literalLen() (int, error) {
	src := l.src[l.off:]
	i := 0
	if src[0] == '[' {
		depth := 0
		for ; i < len(src); i++ {
			if src[i] == '[' {
				depth++
			} else if src[i] == ']' {
				depth--
				if depth == 0 {
					break
				}
			} else if src[i] == '{' || src[i] == '}' || src[i] == ';' {
				break
			}
		}
		if i == len(src) || src[i] != ']' {
			return 0, l.errorf(l.pos, "unterminated parameter list: missing ']'")
		}
		i++
		i = skipBlanks(src, i)
		if !hasPrefixAt(src, i, "->") {
			return 0, l.errorf(l.pos, "expected '->' and '{' after the parameter list of a literal")
		}
		i = skipBlanks(src, i+2)
		if i == len(src) || src[i] != '{' {
			return 0, l.errorf(l.pos, "expected '{' after '[...] ->' in a literal")
		}
	}
	for ; i < len(src); i++ {
		switch src[i] {
		case '}':
			return i + 1, nil
		case '#': // a comment may mention '}'
			for i < len(src) && src[i] != '\n' {
				i++
			}
		}
	}
	return 0, l.errorf(l.pos, "unterminated literal: missing '}'")
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func hasPrefixAt(s string, i int, p string) bool {
	return len(s)-i >= len(p) && s[i:i+len(p)] == p
}
