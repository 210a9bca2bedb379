package scheduletree

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is a reader for the subset of YAML that isl writes and reads:
// block mappings and sequences (a sequence may sit at the indentation of
// its key), flow mappings and sequences ({ a: 1, b: [ 1, 0 ] }, the form
// of isl_schedule_to_str), double- and single-quoted scalars, plain
// scalars (quoted ones may span lines: line breaks fold as in YAML, and
// a backslash at the end of a line in double quotes continues the
// string), and comments on lines of their own. Anchors, tags, multi-line
// plain scalars and document markers are not supported.

type yamlKind int

const (
	yamlScalar yamlKind = iota
	yamlMap
	yamlSeq
)

// yamlValue is a parsed YAML value; mappings keep their key order.
type yamlValue struct {
	kind      yamlKind
	str       string
	keys      []string
	vals      []*yamlValue
	items     []*yamlValue
	line, col int
}

func (v *yamlValue) get(key string) *yamlValue {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

type yamlParser struct {
	src string
	pos int
}

// YAMLError is a syntax or content error in a YAML schedule.
type YAMLError struct {
	Line, Col int
	Msg       string
}

func (e *YAMLError) Error() string {
	return fmt.Sprintf("scheduletree: YAML %d:%d: %s", e.Line, e.Col, e.Msg)
}

type yamlBail struct{ err *YAMLError }

func (p *yamlParser) lineCol(pos int) (int, int) {
	line := 1 + strings.Count(p.src[:pos], "\n")
	return line, pos - strings.LastIndex(p.src[:pos], "\n")
}

func (p *yamlParser) fail(format string, args ...any) {
	l, c := p.lineCol(p.pos)
	panic(yamlBail{&YAMLError{Line: l, Col: c, Msg: fmt.Sprintf(format, args...)}})
}

// parseYAML parses one YAML document.
func parseYAML(src string) (v *yamlValue, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(yamlBail)
			if !ok {
				panic(r)
			}
			err = b.err
		}
	}()
	p := &yamlParser{src: src}
	// YAML is Unicode text: a name with bytes that are not UTF-8 would
	// come back from the JSON writer as another name.
	if !utf8.ValidString(src) {
		for i, r := range src {
			if r == utf8.RuneError {
				p.pos = i
				break
			}
		}
		p.fail("the text is not valid UTF-8")
	}
	p.skipBlank()
	if p.pos >= len(p.src) {
		p.fail("empty document")
	}
	v = p.block(0)
	p.skipBlank()
	if p.pos < len(p.src) {
		p.fail("unexpected text")
	}
	return v, nil
}

func (p *yamlParser) col() int { return p.pos - strings.LastIndex(p.src[:p.pos], "\n") - 1 }

func (p *yamlParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// skipSpaces skips blanks on the current line.
func (p *yamlParser) skipSpaces() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// skipBlank skips white space, line ends and comments.
func (p *yamlParser) skipBlank() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// endLine expects only blanks or a comment up to the end of the line.
func (p *yamlParser) endLine() {
	p.skipSpaces()
	if c := p.peek(); c != 0 && c != '\n' && c != '\r' && c != '#' {
		p.fail("unexpected %q after the value", c)
	}
}

func (p *yamlParser) at(line, col int) *yamlValue {
	return &yamlValue{line: line, col: col}
}

// block parses a value starting at the current position (after blank
// lines), which must be indented at least min columns.
func (p *yamlParser) block(min int) *yamlValue {
	c := p.col()
	if c < min {
		p.fail("value expected, indented more")
	}
	switch ch := p.peek(); {
	case ch == '-' && p.isSeqDash():
		return p.blockSeq(c)
	case ch == '{' || ch == '[':
		v := p.flow()
		p.endLine()
		return v
	}
	start := p.pos
	p.scalar(false)
	p.skipSpaces()
	isKey := p.peek() == ':'
	p.pos = start
	if isKey {
		return p.blockMap(c)
	}
	v := p.scalar(false)
	p.endLine()
	return v
}

func (p *yamlParser) isSeqDash() bool {
	n := p.pos + 1
	return n >= len(p.src) || p.src[n] == ' ' || p.src[n] == '\n' || p.src[n] == '\r'
}

// blockMap parses "key: value" lines at column c.
func (p *yamlParser) blockMap(c int) *yamlValue {
	l, cc := p.lineCol(p.pos)
	v := p.at(l, cc)
	for {
		k := p.mapKey(v, false, p.skipSpaces)
		var val *yamlValue
		if ch := p.peek(); ch == 0 || ch == '\n' || ch == '\r' || ch == '#' {
			p.skipBlank()
			// A block sequence may sit at the key's own indentation.
			if p.pos < len(p.src) && p.col() == c && p.peek() == '-' && p.isSeqDash() {
				val = p.blockSeq(c)
			} else if p.pos < len(p.src) && p.col() > c {
				val = p.block(c + 1)
			} else {
				val = &yamlValue{str: "", line: k.line, col: k.col}
			}
		} else if ch := p.peek(); ch == '{' || ch == '[' {
			val = p.flow()
			p.endLine()
		} else {
			val = p.scalar(false)
			p.endLine()
		}
		v.keys = append(v.keys, k.str)
		v.vals = append(v.vals, val)
		v.kind = yamlMap
		p.skipBlank()
		if p.pos >= len(p.src) || p.col() < c {
			return v
		}
		if p.col() > c {
			p.fail("bad indentation")
		}
		if p.peek() == '-' && p.isSeqDash() {
			return v
		}
	}
}

// blockSeq parses "- item" lines at column c.
func (p *yamlParser) blockSeq(c int) *yamlValue {
	l, cc := p.lineCol(p.pos)
	v := p.at(l, cc)
	v.kind = yamlSeq
	v.items = []*yamlValue{}
	for {
		p.pos++ // the dash
		p.skipSpaces()
		var item *yamlValue
		if ch := p.peek(); ch == 0 || ch == '\n' || ch == '\r' || ch == '#' {
			p.skipBlank()
			item = p.block(c + 1)
		} else {
			item = p.block(c + 1)
		}
		v.items = append(v.items, item)
		p.skipBlank()
		if p.pos >= len(p.src) || p.col() < c {
			return v
		}
		if p.col() > c || p.peek() != '-' || !p.isSeqDash() {
			if p.col() == c {
				return v
			}
			p.fail("bad indentation in a sequence")
		}
	}
}

// flow parses a flow mapping or sequence, which may span lines.
func (p *yamlParser) flow() *yamlValue {
	l, c := p.lineCol(p.pos)
	v := p.at(l, c)
	open := p.peek()
	close := byte(']')
	v.kind = yamlSeq
	v.items = []*yamlValue{}
	if open == '{' {
		close = '}'
		v.kind = yamlMap
	}
	p.pos++
	for {
		p.skipBlank()
		if p.peek() == close {
			p.pos++
			return v
		}
		if open == '{' {
			k := p.mapKey(v, true, p.skipBlank)
			v.keys = append(v.keys, k.str)
			v.vals = append(v.vals, p.flowValue())
		} else {
			v.items = append(v.items, p.flowValue())
		}
		p.skipBlank()
		switch p.peek() {
		case ',':
			p.pos++
		case close:
		default:
			p.fail("',' or %q expected", close)
		}
	}
}

func (p *yamlParser) flowValue() *yamlValue {
	if c := p.peek(); c == '{' || c == '[' {
		return p.flow()
	}
	return p.scalar(true)
}

// scalar parses a quoted or plain scalar; in flow context plain scalars
// end at , ] } too. A plain scalar also ends before ": " (a key).
func (p *yamlParser) scalar(inFlow bool) *yamlValue {
	l, c := p.lineCol(p.pos)
	v := p.at(l, c)
	switch p.peek() {
	case '"':
		v.str = p.doubleQuoted()
		return v
	case '\'':
		v.str = p.singleQuoted()
		return v
	case 0:
		p.fail("value expected")
	}
	start := p.pos
	for p.pos < len(p.src) {
		ch := p.src[p.pos]
		if ch == '\n' || ch == '\r' || ch == '#' && p.pos > start && p.src[p.pos-1] == ' ' {
			break
		}
		if ch == ':' && (p.pos+1 >= len(p.src) || strings.ContainsRune(" \n\r", rune(p.src[p.pos+1])) || inFlow) {
			break
		}
		if inFlow && (ch == ',' || ch == ']' || ch == '}') {
			break
		}
		p.pos++
	}
	v.str = strings.TrimSpace(p.src[start:p.pos])
	if v.str == "" {
		p.fail("value expected")
	}
	return v
}

func (p *yamlParser) doubleQuoted() string {
	start := p.pos
	p.pos++
	var b strings.Builder
	hex := func(n int) {
		if p.pos+n >= len(p.src) {
			p.fail("bad \\%c escape", p.src[p.pos])
		}
		r, err := strconv.ParseUint(p.src[p.pos+1:p.pos+1+n], 16, 32)
		if err != nil {
			p.fail("bad \\%c escape", p.src[p.pos])
		}
		b.WriteRune(rune(r))
		p.pos += n
	}
	for {
		if p.pos >= len(p.src) {
			p.pos = start
			p.fail("unterminated string")
		}
		ch := p.src[p.pos]
		switch ch {
		case '"':
			p.pos++
			return b.String()
		case '\\':
			if p.pos+1 >= len(p.src) {
				p.fail("unterminated string")
			}
			p.pos++
			switch e := p.src[p.pos]; e {
			case '"', '\\', '/', ' ', '\t':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '0':
				b.WriteByte(0)
			case 'a':
				b.WriteByte(7)
			case 'b':
				b.WriteByte(8)
			case 'e':
				b.WriteByte(0x1b)
			case 'f':
				b.WriteByte(0xc)
			case 'v':
				b.WriteByte(0xb)
			case 'N':
				b.WriteRune(0x85)
			case '_':
				b.WriteRune(0xa0)
			case 'L':
				b.WriteRune(0x2028)
			case 'P':
				b.WriteRune(0x2029)
			case 'x':
				hex(2)
			case 'u':
				hex(4)
			case 'U':
				hex(8)
			case '\n', '\r':
				// An escaped line break: the string goes on at the next
				// line's first non-blank, with nothing in between.
				if e == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n' {
					p.pos++
				}
				p.pos++
				p.skipSpaces()
				continue
			default:
				p.fail("unknown escape \\%c", e)
			}
		case '\n', '\r':
			// A line break inside quotes folds to a space, or to one line
			// break per empty line after it; blanks around it go.
			p.foldBreak(&b)
			continue
		default:
			b.WriteByte(ch)
		}
		p.pos++
	}
}

// foldBreak folds the line break at p.pos inside a quoted scalar as YAML
// does: trailing blanks before it and leading blanks after it go, and
// the break becomes a space, or n line breaks if n empty lines follow.
func (p *yamlParser) foldBreak(b *strings.Builder) {
	s := strings.TrimRight(b.String(), " \t")
	b.Reset()
	b.WriteString(s)
	empty := 0
	for {
		if p.src[p.pos] == '\r' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n' {
			p.pos++
		}
		p.pos++
		p.skipSpaces()
		if c := p.peek(); c != '\n' && c != '\r' {
			break
		}
		empty++
	}
	if empty == 0 {
		b.WriteByte(' ')
	}
	for ; empty > 0; empty-- {
		b.WriteByte('\n')
	}
}

func (p *yamlParser) singleQuoted() string {
	start := p.pos
	p.pos++
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			p.pos = start
			p.fail("unterminated string")
		}
		ch := p.src[p.pos]
		if ch == '\'' {
			if p.pos+1 < len(p.src) && p.src[p.pos+1] == '\'' {
				b.WriteByte('\'')
				p.pos += 2
				continue
			}
			p.pos++
			return b.String()
		}
		if ch == '\n' || ch == '\r' {
			p.foldBreak(&b)
			continue
		}
		b.WriteByte(ch)
		p.pos++
	}
}

// mapKey reads a mapping key of v and the ':' after it, skipping with
// skip (spaces in block style, blank lines too in flow style); a missing
// ':' or a repeated key fails.
func (p *yamlParser) mapKey(v *yamlValue, flow bool, skip func()) *yamlValue {
	kpos := p.pos
	k := p.scalar(flow)
	skip()
	if p.peek() != ':' {
		p.fail("':' expected after key %q", k.str)
	}
	if v.get(k.str) != nil {
		p.pos = kpos
		p.fail("duplicate key %q", k.str)
	}
	p.pos++
	skip()
	return k
}
