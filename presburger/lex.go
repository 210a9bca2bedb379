package presburger

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// tokKind classifies the tokens of isl's notation.
type tokKind int

const (
	tEOF     tokKind = iota
	tIllegal         // a character that starts no token; text holds it
	tInt             // integer literal; val holds it
	tIdent           // identifier (not a keyword)
	tLBrace          // {
	tRBrace          // }
	tLBrack          // [
	tRBrack          // ]
	tLParen          // (
	tRParen          // )
	tComma           // ,
	tColon           // :
	tSemi            // ;
	tArrow           // ->
	tPlus            // +
	tMinus           // -
	tStar            // *
	tSlash           // /
	tPercent         // %
	tEq              // = or ==
	tNe              // !=
	tLt              // <
	tLe              // <=
	tGt              // >
	tGe              // >=
	tAnd             // and, &, &&, /\
	tOr              // or, |, ||, \/
	tNot             // not, !
	tImplies         // implies
	tExists          // exists
	tTrue            // true
	tFalse           // false
	tFloor           // floor
	tCeil            // ceil
	tFloord          // floord
	tCeild           // ceild
	tMod             // mod
	tMin             // min
	tMax             // max
)

var keywordKinds = map[string]tokKind{
	"and": tAnd, "or": tOr, "not": tNot, "implies": tImplies,
	"exists": tExists, "true": tTrue, "false": tFalse,
	"floor": tFloor, "ceil": tCeil, "floord": tFloord, "ceild": tCeild,
	"mod": tMod, "min": tMin, "max": tMax,
}

var tokNames = map[tokKind]string{
	tEOF: "end of input", tInt: "integer", tIdent: "identifier",
	tLBrace: "'{'", tRBrace: "'}'", tLBrack: "'['", tRBrack: "']'",
	tLParen: "'('", tRParen: "')'", tComma: "','", tColon: "':'",
	tSemi: "';'", tArrow: "'->'", tPlus: "'+'", tMinus: "'-'",
	tStar: "'*'", tSlash: "'/'", tPercent: "'%'", tEq: "'='", tNe: "'!='",
	tLt: "'<'", tLe: "'<='", tGt: "'>'", tGe: "'>='",
}

func (k tokKind) String() string {
	if s, ok := tokNames[k]; ok {
		return s
	}
	for w, kw := range keywordKinds {
		if kw == k {
			return "'" + w + "'"
		}
	}
	return fmt.Sprintf("token(%d)", int(k))
}

type token struct {
	kind tokKind
	pos  int    // byte offset of the first character
	end  int    // byte offset just past the token
	text string // source text of the token
	val  int64  // pwValue of a tInt
	err  string // why a tIllegal or out-of-range tInt is bad
}

// describe names the token for "but found ..." messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tIdent:
		return fmt.Sprintf("identifier %q", t.text)
	case tInt:
		return "integer " + t.text
	case tIllegal:
		return fmt.Sprintf("unexpected character %q", t.text)
	}
	return "'" + t.text + "'"
}

// lexer produces tokens on demand so that ParsePrefix never looks past the
// object it parses (the rest of the input may be in another language).
type lexer struct {
	src string
	off int
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skip passes over white space and '#' comments.
func (lx *lexer) skip() {
	for lx.off < len(lx.src) {
		switch c := lx.src[lx.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.off++
		case c == '#':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.off++
			}
		default:
			return
		}
	}
}

// twoCharOps maps two-character operators to their kinds.
var twoCharOps = map[string]tokKind{
	"->": tArrow, "==": tEq, "!=": tNe, "<=": tLe, ">=": tGe,
	"&&": tAnd, "||": tOr, `/\`: tAnd, `\/`: tOr,
}

var oneCharOps = map[byte]tokKind{
	'{': tLBrace, '}': tRBrace, '[': tLBrack, ']': tRBrack, '(': tLParen,
	')': tRParen, ',': tComma, ':': tColon, ';': tSemi, '+': tPlus,
	'-': tMinus, '*': tStar, '/': tSlash, '%': tPercent, '=': tEq,
	'<': tLt, '>': tGt, '&': tAnd, '|': tOr, '!': tNot,
}

func (lx *lexer) next() token {
	lx.skip()
	start := lx.off
	tok := func(k tokKind, n int) token {
		lx.off += n
		return token{kind: k, pos: start, end: lx.off, text: lx.src[start:lx.off]}
	}
	if start >= len(lx.src) {
		return token{kind: tEOF, pos: start, end: start}
	}
	c := lx.src[start]
	switch {
	case isDigit(c):
		n := start
		for n < len(lx.src) && isDigit(lx.src[n]) {
			n++
		}
		t := tok(tInt, n-start)
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			t.err = "integer " + t.text + " does not fit in 64 bits"
		}
		t.val = v
		return t
	case isIdentStart(c):
		n := start
		for n < len(lx.src) && (isIdentStart(lx.src[n]) || isDigit(lx.src[n])) {
			n++
		}
		for n < len(lx.src) && lx.src[n] == '\'' {
			n++
		}
		t := tok(tIdent, n-start)
		if k, ok := keywordKinds[t.text]; ok {
			t.kind = k
		}
		return t
	}
	if start+1 < len(lx.src) {
		if k, ok := twoCharOps[lx.src[start:start+2]]; ok {
			return tok(k, 2)
		}
	}
	if k, ok := oneCharOps[c]; ok {
		return tok(k, 1)
	}
	_, size := utf8.DecodeRuneInString(lx.src[start:])
	t := tok(tIllegal, size)
	t.err = fmt.Sprintf("unexpected character %q", t.text)
	return t
}
