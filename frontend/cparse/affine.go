package cparse

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Loop bounds and conditions become isl-notation text over the iterators
// and parameters. A value is piecewise: a list of (guard, value) pieces
// with disjoint guards covering everything, so that C's truncating
// division and ternaries translate exactly (each splits on a condition).
// min, max, floord and ceild map onto isl's own min, max and floor.

type piece struct {
	guard string // isl formula; "" means true
	val   string // isl quasi-affine expression
}

type pwAff []piece

// maxPieces bounds the case splits of one expression.
const maxPieces = 64

// affCtx translates the affine expressions of one construct; what names
// the construct in messages ("loop bound", "condition").
type affCtx struct {
	b    *builder
	what string
}

// constPw is a constant; negative ones are parenthesized, as isl reads
// a minus after an operator only at the start of a parenthesized term.
func constPw(v int64) pwAff {
	if v == math.MinInt64 { // isl reads the magnitude first, which overflows
		return pwAff{{val: "(-9223372036854775807 - 1)"}}
	}
	if v < 0 {
		return pwAff{{val: "(" + strconv.FormatInt(v, 10) + ")"}}
	}
	return pwAff{{val: strconv.FormatInt(v, 10)}}
}

// constant reports the value of an unguarded constant.
func (x pwAff) constant() (int64, bool) {
	if len(x) != 1 || x[0].guard != "" {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.Trim(x[0].val, "()"), 10, 64)
	return v, err == nil
}

func and(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return "(" + a + ") and (" + b + ")"
}

// combine applies f to every pair of pieces.
func (c affCtx) combine(x, y pwAff, at expr, f func(a, b string) string) (pwAff, error) {
	if len(x)*len(y) > maxPieces {
		return nil, errorf(at.pos(), "%s %s is too complex", c.what, exprString(at))
	}
	var out pwAff
	for _, p := range x {
		for _, q := range y {
			out = append(out, piece{and(p.guard, q.guard), f(p.val, q.val)})
		}
	}
	return out, nil
}

func mapPw(x pwAff, f func(string) string) pwAff {
	out := make(pwAff, len(x))
	for i, p := range x {
		out[i] = piece{p.guard, f(p.val)}
	}
	return out
}

// aff translates an integer expression.
func (c affCtx) aff(e expr) (pwAff, error) {
	switch e := e.(type) {
	case *identExpr:
		return c.ident(e)
	case *numExpr:
		if !e.t.IsInt() {
			return nil, errorf(e.at, "non-integer constant %s in %s", e.text, c.what)
		}
		return constPw(e.i), nil
	case *indexExpr:
		base := e.x
		for {
			ix, ok := base.(*indexExpr)
			if !ok {
				break
			}
			base = ix.x
		}
		return nil, errorf(e.at, "data-dependent %s: reads %s", c.what, exprString(base))
	case *castExpr:
		if !e.t.IsInt() {
			return nil, errorf(e.at, "non-integer cast in %s %s", c.what, exprString(e))
		}
		return c.aff(e.x)
	case *unaryExpr:
		return c.unary(e)
	case *binaryExpr:
		return c.binary(e)
	case *condExpr:
		return c.ternary(e)
	case *callExpr:
		return c.call(e)
	}
	return nil, errorf(e.pos(), "non-affine %s %s", c.what, exprString(e))
}

func (c affCtx) ident(e *identExpr) (pwAff, error) {
	s := e.sym
	switch {
	case s == nil:
		return nil, errorf(e.at, "unknown identifier %s", e.name)
	case s.size:
		return pwAff{{val: s.name}}, nil
	case s.iter:
		if c.b.loopOf(s) < 0 {
			return nil, errorf(e.at, "iterator %s used outside its loop", s.name)
		}
		return pwAff{{val: s.name}}, nil
	case c.b.inductions[s] != nil:
		return c.aff(c.b.inductions[s].value)
	}
	return nil, errorf(e.at, "data-dependent %s: reads %s", c.what, s.name)
}

func (c affCtx) unary(e *unaryExpr) (pwAff, error) {
	switch e.op {
	case "+":
		return c.aff(e.x)
	case "-":
		x, err := c.aff(e.x)
		if err != nil {
			return nil, err
		}
		if v, ok := x.constant(); ok && v != math.MinInt64 {
			return constPw(-v), nil
		}
		return mapPw(x, func(v string) string { return "-(" + v + ")" }), nil
	case "!":
		return c.truth(e)
	}
	return nil, errorf(e.at, "non-affine %s %s", c.what, exprString(e))
}

// truth is the C value (0 or 1) of a condition.
func (c affCtx) truth(e expr) (pwAff, error) {
	f, err := c.formula(e)
	if err != nil {
		return nil, err
	}
	return pwAff{{guard: f, val: "1"}, {guard: "not (" + f + ")", val: "0"}}, nil
}

func (c affCtx) binary(e *binaryExpr) (pwAff, error) {
	switch e.op {
	case "<", "<=", ">", ">=", "==", "!=", "&&", "||":
		return c.truth(e)
	case "+", "-", "*", "/", "%":
	default:
		return nil, errorf(e.at, "non-affine %s %s", c.what, exprString(e))
	}
	x, err := c.aff(e.x)
	if err != nil {
		return nil, err
	}
	y, err := c.aff(e.y)
	if err != nil {
		return nil, err
	}
	xv, xc := x.constant()
	yv, yc := y.constant()
	if xc && yc {
		v, msg := foldInt(e.op, xv, yv)
		if msg != "" {
			return nil, errorf(e.at, "%s in %s %s", msg, c.what, exprString(e))
		}
		return constPw(v), nil
	}
	switch e.op {
	case "+", "-":
		return c.combine(x, y, e, func(a, b string) string { return "(" + a + " " + e.op + " " + b + ")" })
	case "*":
		switch {
		case yc:
			return mapPw(x, func(v string) string { return "(" + strconv.FormatInt(yv, 10) + "*(" + v + "))" }), nil
		case xc:
			return mapPw(y, func(v string) string { return "(" + strconv.FormatInt(xv, 10) + "*(" + v + "))" }), nil
		}
		return nil, errorf(e.at, "non-affine %s %s", c.what, exprString(e))
	}
	if !yc {
		return nil, errorf(e.at, "non-affine %s %s", c.what, exprString(e))
	}
	if yv == 0 {
		return nil, errorf(e.at, "division by zero in %s %s", c.what, exprString(e))
	}
	return c.truncDiv(e, x, yv)
}

// truncDiv translates C's / and %, which truncate towards zero, by
// splitting on the sign of the dividend: floor(x/d) where x >= 0 and
// -floor(-x/d) where x < 0.
func (c affCtx) truncDiv(e *binaryExpr, x pwAff, k int64) (pwAff, error) {
	if 2*len(x) > maxPieces {
		return nil, errorf(e.at, "%s %s is too complex", c.what, exprString(e))
	}
	d := k
	if d < 0 {
		d = -d
	}
	if d < 0 {
		return nil, errorf(e.at, "integer overflow in %s %s", c.what, exprString(e))
	}
	ds := strconv.FormatInt(d, 10)
	var out pwAff
	for _, p := range x {
		var pos, neg string
		if e.op == "/" {
			pos = "floor((" + p.val + ")/" + ds + ")"
			neg = "-floor((-(" + p.val + "))/" + ds + ")"
			if k < 0 { // x / -d == -(x / d)
				pos, neg = "-("+pos+")", "-("+neg+")"
			}
		} else { // the remainder takes the dividend's sign, whatever k's
			pos = "((" + p.val + ") mod " + ds + ")"
			neg = "-((-(" + p.val + ")) mod " + ds + ")"
		}
		out = append(out,
			piece{and(p.guard, p.val+" >= 0"), pos},
			piece{and(p.guard, p.val+" < 0"), neg})
	}
	return out, nil
}

func (c affCtx) ternary(e *condExpr) (pwAff, error) {
	f, err := c.formula(e.cond)
	if err != nil {
		return nil, err
	}
	x, err := c.aff(e.then)
	if err != nil {
		return nil, err
	}
	y, err := c.aff(e.els)
	if err != nil {
		return nil, err
	}
	if len(x)+len(y) > maxPieces {
		return nil, errorf(e.at, "%s %s is too complex", c.what, exprString(e))
	}
	var out pwAff
	for _, p := range x {
		out = append(out, piece{and(f, p.guard), p.val})
	}
	for _, p := range y {
		out = append(out, piece{and("not ("+f+")", p.guard), p.val})
	}
	return out, nil
}

// call handles the helpers of Pluto and CLooG output: floord, ceild, min
// and max.
func (c affCtx) call(e *callExpr) (pwAff, error) {
	switch e.fn {
	case "floord", "ceild", "min", "max":
	default:
		return nil, errorf(e.at, "non-affine %s %s", c.what, exprString(e))
	}
	if len(e.args) != 2 {
		return nil, errorf(e.at, "%s takes 2 arguments, got %d", e.fn, len(e.args))
	}
	x, err := c.aff(e.args[0])
	if err != nil {
		return nil, err
	}
	y, err := c.aff(e.args[1])
	if err != nil {
		return nil, err
	}
	if e.fn == "min" || e.fn == "max" {
		return c.combine(x, y, e, func(a, b string) string { return e.fn + "(" + a + ", " + b + ")" })
	}
	k, ok := y.constant()
	if !ok || k <= 0 {
		return nil, errorf(e.args[1].pos(), "%s needs a positive constant divisor", e.fn)
	}
	fn := "floor"
	if e.fn == "ceild" {
		fn = "ceil"
	}
	ks := strconv.FormatInt(k, 10)
	return mapPw(x, func(v string) string { return fn + "((" + v + ")/" + ks + ")" }), nil
}

// foldInt evaluates a binary operator on constants as C does (int64).
func foldInt(op string, x, y int64) (int64, string) {
	switch op {
	case "+":
		s := x + y
		if (s > x) != (y > 0) {
			return 0, "integer overflow"
		}
		return s, ""
	case "-":
		s := x - y
		if (s < x) != (y > 0) {
			return 0, "integer overflow"
		}
		return s, ""
	case "*":
		hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
		if hi != 0 || lo > math.MaxInt64 || x == math.MinInt64 || y == math.MinInt64 {
			return 0, "integer overflow"
		}
		return x * y, ""
	}
	if y == 0 {
		return 0, "division by zero"
	}
	if x == -1<<63 && y == -1 {
		return 0, "integer overflow"
	}
	if op == "/" {
		return x / y, ""
	}
	return x % y, ""
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

var islOps = map[string]string{"<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "=", "!=": "!="}

// formula translates a condition.
func (c affCtx) formula(e expr) (string, error) {
	switch e := e.(type) {
	case *unaryExpr:
		if e.op == "!" {
			f, err := c.formula(e.x)
			return "not (" + f + ")", err
		}
	case *binaryExpr:
		switch e.op {
		case "&&", "||":
			x, err := c.formula(e.x)
			if err != nil {
				return "", err
			}
			y, err := c.formula(e.y)
			if err != nil {
				return "", err
			}
			op := " and "
			if e.op == "||" {
				op = " or "
			}
			return "(" + x + ")" + op + "(" + y + ")", nil
		case "<", "<=", ">", ">=", "==", "!=":
			x, err := c.aff(e.x)
			if err != nil {
				return "", err
			}
			y, err := c.aff(e.y)
			if err != nil {
				return "", err
			}
			return c.compare(x, islOps[e.op], y, e)
		}
	}
	x, err := c.aff(e)
	if err != nil {
		return "", err
	}
	return c.compare(x, "!=", constPw(0), e)
}

// compare is the disjunction, over pairs of pieces, of x op y.
func (c affCtx) compare(x pwAff, op string, y pwAff, at expr) (string, error) {
	if len(x)*len(y) > maxPieces {
		return "", errorf(at.pos(), "%s %s is too complex", c.what, exprString(at))
	}
	var parts []string
	for _, p := range x {
		for _, q := range y {
			parts = append(parts, "("+and(and(p.guard, q.guard), p.val+" "+op+" "+q.val)+")")
		}
	}
	return strings.Join(parts, " or "), nil
}
