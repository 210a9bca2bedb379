package presburger

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// ParseError is a syntax or semantic error in isl notation. Line and Col are
// 1-based; Col counts characters (runes), not bytes.
type ParseError struct {
	Line, Col int
	Msg       string
	err       error // cause of a build failure (ErrOverflow, ErrBudget)
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Unwrap lets errors.Is see ErrOverflow and ErrBudget.
func (e *ParseError) Unwrap() error { return e.err }

// bail is the panic pwValue the parser and builder use to unwind on the first
// error; toError attaches the line and column.
type bail struct {
	pos int
	msg string
}

func failAt(pos int, format string, args ...any) {
	panic(bail{pos, fmt.Sprintf(format, args...)})
}

// errorAt converts a byte offset into a ParseError.
func errorAt(src string, pos int, msg string) *ParseError {
	pos = min(max(pos, 0), len(src))
	line := 1 + strings.Count(src[:pos], "\n")
	start := strings.LastIndexByte(src[:pos], '\n') + 1
	return &ParseError{Line: line, Col: 1 + utf8.RuneCountInString(src[start:pos]), Msg: msg}
}

// maxDepth bounds nesting so that hostile input can neither exhaust the
// stack nor make parenthesis backtracking slow.
const maxDepth = 1000

type parser struct {
	lx    lexer
	toks  []token // tokens lexed so far; backtracking rewinds i
	i     int
	depth int
}

func newParser(src string) *parser {
	return &parser{lx: lexer{src: src}, toks: make([]token, 0, len(src)/3+4)}
}

func (p *parser) peekN(k int) token {
	for len(p.toks) <= p.i+k {
		if n := len(p.toks); n > 0 && p.toks[n-1].kind == tEOF {
			return p.toks[n-1]
		}
		p.toks = append(p.toks, p.lx.next())
	}
	return p.toks[p.i+k]
}

func (p *parser) peek() token { return p.peekN(0) }

func (p *parser) advance() token {
	t := p.peek()
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// accept consumes the next token if it has kind k.
func (p *parser) accept(k tokKind) bool {
	if p.peek().kind == k {
		p.advance()
		return true
	}
	return false
}

// unexpected reports that the next token is none of the expected things.
func (p *parser) unexpected(what ...string) {
	t := p.peek()
	if t.kind == tIllegal {
		failAt(t.pos, "%s", t.err)
	}
	list := what[0]
	if n := len(what); n > 1 {
		list = strings.Join(what[:n-1], ", ") + " or " + what[n-1]
	}
	failAt(t.pos, "expected %s but found %s", list, t.describe())
}

func (p *parser) expect(k tokKind) token {
	if p.peek().kind != k {
		p.unexpected(k.String())
	}
	return p.advance()
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		failAt(p.peek().pos, "nesting deeper than %d", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// object parses `[params] -> { disjunct; ... }`.
func (p *parser) object() *astObject {
	obj := &astObject{pos: p.peek().pos}
	if p.accept(tLBrack) {
		if p.peek().kind != tRBrack {
			for {
				t := p.peek()
				if t.kind != tIdent {
					p.unexpected("parameter name")
				}
				p.advance()
				for _, q := range obj.params {
					if q.name == t.text {
						failAt(t.pos, "parameter %s listed twice", t.text)
					}
				}
				obj.params = append(obj.params, astIdent{t.pos, t.text})
				if p.accept(tEq) {
					lo := p.expr()
					p.expect(tColon)
					obj.ranges = append(obj.ranges, astRange{param: len(obj.params) - 1, lo: lo, hi: p.expr()})
				}
				if !p.accept(tComma) {
					break
				}
			}
		}
		if !p.accept(tRBrack) {
			p.unexpected("']'", "','")
		}
		p.expect(tArrow)
	}
	if !p.accept(tLBrace) {
		if obj.params == nil {
			p.unexpected("'{'", "'['")
		}
		p.unexpected("'{'")
	}
	for p.peek().kind != tRBrace {
		obj.parts = append(obj.parts, p.disjunct())
		if !p.accept(tSemi) {
			if p.peek().kind != tRBrace {
				p.unexpected("';'", "'}'")
			}
		}
	}
	obj.end = p.advance().end
	return obj
}

func (p *parser) disjunct() *astDisjunct {
	d := &astDisjunct{pos: p.peek().pos}
	if p.accept(tColon) {
		// isl's "{ : }" is the universe parameter set.
		if k := p.peek().kind; k != tSemi && k != tRBrace {
			d.cond = p.formula()
		}
		return d
	}
	switch t := p.peek(); {
	case t.kind == tLBrack, t.kind == tIdent && p.peekN(1).kind == tLBrack:
	default:
		p.unexpected("tuple", "':'", "'}'")
	}
	d.out = p.tuple()
	if p.accept(tArrow) {
		d.in, d.out = d.out, p.tuple()
	}
	if p.accept(tColon) {
		if k := p.peek().kind; k != tSemi && k != tRBrace {
			d.cond = p.formula()
		}
	} else if k := p.peek().kind; k != tSemi && k != tRBrace {
		if d.in == nil {
			p.unexpected("'->'", "':'", "';'", "'}'")
		}
		p.unexpected("':'", "';'", "'}'")
	}
	return d
}

// tuple parses `Name[entries]`, `[entries]` or `Name[dom -> ran]`.
func (p *parser) tuple() *astTuple {
	p.enter()
	defer p.leave()
	t := &astTuple{pos: p.peek().pos}
	if p.peek().kind == tIdent {
		t.name = p.advance().text
	}
	if !p.accept(tLBrack) {
		if t.name == "" {
			p.unexpected("tuple")
		}
		p.unexpected("'['")
	}
	if p.accept(tRBrack) {
		return t
	}
	if k := p.peek().kind; k == tLBrack || k == tIdent && p.peekN(1).kind == tLBrack {
		dom := p.tuple()
		p.expect(tArrow)
		ran := p.tuple()
		t.nest = &[2]*astTuple{dom, ran}
		p.expect(tRBrack)
		return t
	}
	for {
		t.entries = append(t.entries, p.entry())
		if p.accept(tRBrack) {
			return t
		}
		if !p.accept(tComma) {
			p.unexpected("']'", "','")
		}
	}
}

// entry parses `i`, `i = e`, `i = lo:hi`, `*` or an expression e.
func (p *parser) entry() astEntry {
	t := p.peek()
	if t.kind == tStar {
		// isl's anonymous dimension, any value.
		p.advance()
		return astEntry{pos: t.pos}
	}
	if t.kind == tIdent && p.peekN(1).kind == tEq {
		p.advance()
		p.advance()
		e := astEntry{pos: t.pos, name: t.text, expr: p.expr()}
		if p.accept(tColon) {
			e.hi = p.expr()
		}
		return e
	}
	e := p.expr()
	if v, ok := e.(*astVar); ok {
		return astEntry{pos: v.pos, name: v.name}
	}
	return astEntry{pos: e.epos(), expr: e}
}

// formula := disj ['implies' formula]; implies is right associative.
func (p *parser) formula() astFormula {
	p.enter()
	defer p.leave()
	f := p.disj()
	if t := p.peek(); t.kind == tImplies {
		p.advance()
		return &astBinary{pos: t.pos, op: tImplies, x: f, y: p.formula()}
	}
	return f
}

func (p *parser) disj() astFormula {
	f := p.conj()
	for t := p.peek(); t.kind == tOr; t = p.peek() {
		p.advance()
		f = &astBinary{pos: t.pos, op: tOr, x: f, y: p.conj()}
	}
	return f
}

func (p *parser) conj() astFormula {
	f := p.unary()
	for t := p.peek(); t.kind == tAnd; t = p.peek() {
		p.advance()
		f = &astBinary{pos: t.pos, op: tAnd, x: f, y: p.unary()}
	}
	return f
}

func (p *parser) unary() astFormula {
	p.enter()
	defer p.leave()
	t := p.peek()
	switch t.kind {
	case tNot:
		p.advance()
		return &astNot{pos: t.pos, x: p.unary()}
	case tTrue, tFalse:
		p.advance()
		return &astBool{pos: t.pos, val: t.kind == tTrue}
	case tExists:
		return p.exists()
	case tLParen:
		return p.paren()
	}
	return p.compare()
}

// paren resolves `(` at the start of a formula: `(i + 1) < N` is a
// comparison, `(i < N)` a parenthesized formula. It tries the comparison
// first and, if both readings fail, reports the error that got further.
func (p *parser) paren() (f astFormula) {
	start := p.i
	first, ok := p.try(func() { f = p.compare() })
	if ok {
		return f
	}
	p.i = start
	second, ok := p.try(func() {
		p.advance()
		f = p.formula()
		p.expect(tRParen)
	})
	if ok {
		return f
	}
	if first.pos > second.pos {
		panic(first)
	}
	panic(second)
}

// try runs fn, recovering a syntax error into its result.
func (p *parser) try(fn func()) (err bail, ok bool) {
	depth := p.depth
	defer func() {
		if r := recover(); r != nil {
			b, isBail := r.(bail)
			if !isBail {
				panic(r)
			}
			err, ok, p.depth = b, false, depth
		}
	}()
	fn()
	return bail{}, true
}

func (p *parser) exists() astFormula {
	f := &astExists{pos: p.advance().pos}
	paren := p.accept(tLParen)
	for {
		t := p.peek()
		if t.kind != tIdent {
			p.unexpected("variable name")
		}
		p.advance()
		v := astEntry{pos: t.pos, name: t.text}
		if p.accept(tEq) {
			v.expr = p.expr()
		}
		f.vars = append(f.vars, v)
		if p.accept(tColon) {
			break
		}
		if !p.accept(tComma) {
			if v.expr == nil {
				p.unexpected("','", "':'", "'='")
			}
			p.unexpected("','", "':'")
		}
	}
	f.body = p.formula()
	if paren {
		p.expect(tRParen)
	}
	return f
}

func isCompareOp(k tokKind) bool {
	switch k {
	case tEq, tNe, tLt, tLe, tGt, tGe:
		return true
	}
	return false
}

// compare parses a chain `list op list op ...` of comma lists.
func (p *parser) compare() astFormula {
	c := &astCompare{pos: p.peek().pos}
	c.lists = append(c.lists, p.exprList())
	for isCompareOp(p.peek().kind) {
		c.ops = append(c.ops, p.advance())
		c.lists = append(c.lists, p.exprList())
	}
	if len(c.ops) == 0 {
		p.unexpected("comparison operator")
	}
	return c
}

func (p *parser) exprList() []astExpr {
	list := []astExpr{p.expr()}
	for p.accept(tComma) {
		list = append(list, p.expr())
	}
	return list
}

// expr := ['-'] term {('+'|'-') term}. A leading minus negates the whole
// first term, so `-i mod 3` is -(i mod 3) as in isl.
func (p *parser) expr() astExpr {
	p.enter()
	defer p.leave()
	var e astExpr
	if t := p.peek(); t.kind == tMinus {
		p.advance()
		e = &astNeg{pos: t.pos, x: p.term()}
	} else {
		e = p.term()
	}
	for t := p.peek(); t.kind == tPlus || t.kind == tMinus; t = p.peek() {
		p.advance()
		e = &astArith{pos: t.pos, op: t.kind, x: e, y: p.term()}
	}
	return e
}

func (p *parser) term() astExpr {
	e := p.factor()
	for t := p.peek(); ; t = p.peek() {
		switch t.kind {
		case tStar, tSlash, tPercent, tMod:
			p.advance()
			e = &astArith{pos: t.pos, op: t.kind, x: e, y: p.factor()}
		default:
			return e
		}
	}
}

// startsFactor reports whether k can follow an integer as an implicit
// product: `2i`, `2(i + j)`, `3floor(i/3)`.
func startsFactor(k tokKind) bool {
	switch k {
	case tIdent, tLParen, tFloor, tCeil, tFloord, tCeild, tMin, tMax:
		return true
	}
	return false
}

func (p *parser) factor() astExpr {
	p.enter()
	defer p.leave()
	t := p.peek()
	switch t.kind {
	case tMinus:
		p.advance()
		return &astNeg{pos: t.pos, x: p.factor()}
	case tInt:
		if t.err != "" {
			failAt(t.pos, "%s", t.err)
		}
		p.advance()
		var e astExpr = &astInt{pos: t.pos, val: t.val}
		if startsFactor(p.peek().kind) {
			e = &astArith{pos: t.pos, op: tStar, x: e, y: p.factor()}
		}
		return e
	case tIdent:
		p.advance()
		return &astVar{pos: t.pos, name: t.text}
	case tLParen:
		p.advance()
		e := p.expr()
		p.expect(tRParen)
		return e
	case tLBrack:
		// isl's integer division: [e / k] is floor(e / k).
		p.advance()
		c := &astCall{pos: t.pos, fn: tFloor, args: []astExpr{p.expr()}}
		p.expect(tRBrack)
		return c
	case tFloor, tCeil, tFloord, tCeild, tMin, tMax:
		p.advance()
		c := &astCall{pos: t.pos, fn: t.kind}
		p.expect(tLParen)
		c.args = p.exprList()
		p.expect(tRParen)
		want := map[tokKind]int{tFloor: 1, tCeil: 1, tFloord: 2, tCeild: 2}[t.kind]
		if want > 0 && len(c.args) != want {
			failAt(t.pos, "%s takes %d argument(s), not %d", t.text, want, len(c.args))
		}
		return c
	}
	p.unexpected("expression")
	panic("unreachable")
}

// parseObject parses one object; with prefix set, input after it is left
// alone, otherwise it must be empty. Errors from building (overflow, an
// exhausted budget) are reported at the construct being built.
func parseObject(src string, prefix bool) (res built, n int, err error) {
	bd := &builder{}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			res, err = built{}, errorAt(src, b.pos, b.msg)
			return
		}
		if _, ok := err.(*ParseError); err != nil && !ok {
			msg := strings.ReplaceAll(err.Error(), "\n", "; ")
			if o := (arith.Overflow{}); errors.As(err, &o) {
				msg = "int64 overflow in " + o.Op
			}
			pe := errorAt(src, bd.pos, msg)
			pe.err = err
			res, err = built{}, pe
		}
	}()
	defer catch(&err)
	p := newParser(src)
	obj := p.object()
	if !prefix && p.peek().kind != tEOF {
		p.unexpected("end of input")
	}
	return bd.object(obj), obj.end, nil
}

// Parse reads any object: a UnionSet, a UnionMap, or a Set for a parameter
// set. An empty `{ }` is an empty UnionSet.
func Parse(src string) (any, error) {
	res, _, err := parseObject(src, false)
	if err != nil {
		return nil, err
	}
	return res.value(), nil
}

// ParsePrefix parses one object at the start of src (after white space and
// comments) and returns it as Parse does, with the number of bytes it
// spans; the rest of src is not examined.
func ParsePrefix(src string) (obj any, n int, err error) {
	res, n, err := parseObject(src, true)
	if err != nil {
		return nil, 0, err
	}
	return res.value(), n, nil
}

func (res built) value() any {
	switch res.kind {
	case kindParams:
		return Set{res.rels[0]}
	case kindMap:
		return unionMapFromRels(res.params, res.rels)
	}
	return unionSetFromRels(res.params, res.rels)
}

// singleRel returns the one rel of a Set or Map, or an empty one in sp.
func singleRel(src string, res built, want objKind, sp Space) (rel, error) {
	if res.kind == kindEmpty {
		return emptyRel(sp), nil
	}
	if res.kind != want && !(want == kindSet && res.kind == kindParams) {
		return rel{}, errorAt(src, res.pos[0], fmt.Sprintf("expected %s but found %s", want, res.kind))
	}
	if len(res.rels) > 1 {
		return rel{}, errorAt(src, res.pos[1], fmt.Sprintf("%s must lie in one space, found %s and %s",
			want, res.rels[0].space, res.rels[1].space))
	}
	return res.rels[0], nil
}

// ParseSet reads a set in isl notation, all of whose disjuncts lie in one
// space (a parameter set such as `[N] -> { : N > 0 }` included).
//
// The grammar, as isl 0.25 reads and prints it:
//
//	object   := [ '[' params ']' '->' ] '{' [ disjunct { ';' disjunct } ] '}'
//	params   := param { ',' param };  param := ident [ '=' expr ':' expr ]
//	disjunct := tuple [ '->' tuple ] [ ':' [ formula ] ] | ':' [ formula ]
//	tuple    := [name] '[' [ entry { ',' entry } ] ']' | [name] '[' tuple '->' tuple ']'
//	entry    := ident | ident '=' expr | ident '=' expr ':' expr | '*' | expr
//	formula  := formula 'implies' formula | formula 'or' formula
//	          | formula 'and' formula | 'not' formula | '(' formula ')'
//	          | 'true' | 'false' | 'exists' [ '(' ] evars ':' formula [ ')' ]
//	          | list op list { op list }
//	evars    := ident [ '=' expr ] { ',' ident [ '=' expr ] }
//	list     := expr { ',' expr }            (each link relates all pairs)
//	op       := '=' | '==' | '!=' | '<' | '<=' | '>' | '>='
//	expr     := integers, identifiers, '+', '-', '*' (one side constant),
//	            implicit products '2i' and '2(i + j)', e 'mod' k, e '%' k,
//	            'floor(' e ')', 'ceil(' e ')' (with e '/' k inside),
//	            'floord(' e ',' k ')', 'ceild(' e ',' k ')', '[' e '/' k ']' (floor),
//	            'min(' e, ... ')', 'max(' e, ... ')'; k a positive constant.
//
// A tuple entry `*` is an anonymous dimension of any value. A range
// `i = lo:hi` of a parameter or tuple entry names it and bounds it,
// lo <= i <= hi (a parameter's range holds in every disjunct); an empty
// condition `{ : }` is true.
//
// Precedence from loose to tight: implies (right associative), or, and, not;
// in expressions + and -, then * / mod %, then unary minus, except that a
// leading minus negates the whole first term (`-i mod 3` is -(i mod 3)), as
// in isl. '&', '&&' and '/\' spell and; '|', '||' and '\/' spell or; '!'
// spells not. '#' starts a comment to the end of the line.
//
// A fresh identifier in a tuple names its dimension; an expression, or a
// parameter or dimension named before, makes an anonymous dimension equal
// to it: `{ [i] -> [i + 1, i] }` maps i to (i + 1, i). Identifiers in
// formulas must name a parameter, a dimension or a quantified variable, and
// quantified variables must not reuse a name in scope. Disjuncts in the same
// space are united. Errors are *ParseError values with a position.
func ParseSet(src string) (Set, error) {
	res, _, err := parseObject(src, false)
	if err != nil {
		return Set{}, err
	}
	r, err := singleRel(src, res, kindSet, SetSpace(res.params, Tuple{}))
	return Set{r}, err
}

// ParseMap reads a map whose disjuncts lie in one space; see ParseSet.
func ParseMap(src string) (Map, error) {
	res, _, err := parseObject(src, false)
	if err != nil {
		return Map{}, err
	}
	r, err := singleRel(src, res, kindMap, MapSpace(res.params, Tuple{}, Tuple{}))
	return Map{r}, err
}

// ParseUnionSet reads a union of sets in any number of spaces; see ParseSet.
func ParseUnionSet(src string) (UnionSet, error) {
	res, _, err := parseObject(src, false)
	if err != nil {
		return UnionSet{}, err
	}
	if res.kind != kindSet && res.kind != kindEmpty {
		return UnionSet{}, errorAt(src, res.pos[0], "expected a set but found "+res.kind.String())
	}
	return unionSetFromRels(res.params, res.rels), nil
}

// ParseUnionMap reads a union of maps in any number of spaces; see ParseSet.
func ParseUnionMap(src string) (UnionMap, error) {
	res, _, err := parseObject(src, false)
	if err != nil {
		return UnionMap{}, err
	}
	if res.kind != kindMap && res.kind != kindEmpty {
		return UnionMap{}, errorAt(src, res.pos[0], "expected a map but found "+res.kind.String())
	}
	return unionMapFromRels(res.params, res.rels), nil
}
