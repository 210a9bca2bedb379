package ast

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// This file writes statement bodies (scop expressions) as C with the
// semantics of the reference executor: every operator at its node's type,
// narrow integers wrapped after each operation, floor division and modulo
// through helpers, C's fmin/fmax for floats.

// bodyHelpers are the helpers statement bodies may call.
const bodyHelpers = `static inline int64_t tf_floordiv(int64_t a, int64_t b) { int64_t q = a / b; return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q; }
static inline int64_t tf_mod(int64_t a, int64_t b) { int64_t m = a % b; return (m != 0 && (m < 0) != (b < 0)) ? m + b : m; }
`

// cBody writes scop expressions with the statement iterators replaced by
// AST expressions.
type cBody struct {
	args []Expr // the values of the iterators
	// live are the Allocs of the tile-local buffers live here: their
	// subscripts are printed relative to their origins, folded.
	live map[string]*Alloc
}

// narrow reports whether C computes t's arithmetic in a wider type.
func narrow(t scop.ElemType) bool {
	switch t {
	case scop.I8, scop.U8, scop.I16, scop.U16:
		return true
	}
	return false
}

// cast writes x converted to t, unless t is C's int and x already int.
func castTo(t scop.ElemType, x string) string {
	return "((" + t.CName() + ")(" + x + "))"
}

func (c *cBody) expr(e scop.Expr) (string, error) {
	switch e := e.(type) {
	case *scop.Const:
		return constC(e), nil
	case *scop.Iter:
		if e.Index < 0 || e.Index >= len(c.args) {
			return "", fmt.Errorf("ast: iterator %s out of range", e.Name)
		}
		a := c.args[e.Index]
		x := a.String()
		if a.Op != OpVar && !(a.Op == OpInt && a.Val >= 0) {
			x = "(" + x + ")"
		}
		if e.T != scop.I32 {
			x = castTo(e.T, x)
		}
		return x, nil
	case *scop.Param:
		if e.T != scop.I32 {
			return castTo(e.T, e.Name), nil
		}
		return e.Name, nil
	case *scop.Read:
		return c.ref(e.Ref)
	case *scop.Unary:
		x, err := c.expr(e.X)
		if err != nil {
			return "", err
		}
		op := map[scop.UnOp]string{scop.Neg: "-", scop.Not: "!", scop.BitNot: "~"}[e.Op]
		out := "(" + op + x + ")"
		if e.Op != scop.Not && narrow(e.Type()) {
			out = castTo(e.Type(), out)
		}
		return out, nil
	case *scop.Binary:
		return c.binary(e)
	case *scop.Select:
		cond, err := c.expr(e.Cond)
		if err != nil {
			return "", err
		}
		a, err := c.expr(e.Then)
		if err != nil {
			return "", err
		}
		b, err := c.expr(e.Else)
		if err != nil {
			return "", err
		}
		return "(" + cond + " ? " + a + " : " + b + ")", nil
	case *scop.Cast:
		x, err := c.expr(e.X)
		if err != nil {
			return "", err
		}
		return castTo(e.T, x), nil
	case *scop.Call:
		return c.call(e)
	}
	return "", fmt.Errorf("ast: cannot print %T %s as C", e, e)
}

// ref writes an array element, or a scalar's name.
func (c *cBody) ref(r scop.Ref) (string, error) {
	var b strings.Builder
	b.WriteString(r.Array)
	a := c.live[r.Array]
	for d, x := range r.Index {
		s, err := c.expr(x)
		if err != nil {
			return "", err
		}
		if a != nil && a.Origin != nil {
			s = "(" + s + ") - (" + a.Origin[d].String() + ")"
		}
		if a != nil && d < len(a.Fold) && a.Fold[d] > 0 {
			// A true floor mod: rings are folded from the origin up.
			s = "tf_mod(" + s + ", " + itoa(a.Fold[d]) + ")"
		}
		b.WriteString("[" + s + "]")
	}
	return b.String(), nil
}

func (c *cBody) binary(e *scop.Binary) (string, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return "", err
	}
	y, err := c.expr(e.Y)
	if err != nil {
		return "", err
	}
	t := e.X.Type()
	var out string
	switch e.Op {
	case scop.FloorDiv, scop.Mod:
		if !t.IsSigned() {
			op := map[scop.BinOp]string{scop.FloorDiv: " / ", scop.Mod: " % "}[e.Op]
			out = "(" + x + op + y + ")"
			break
		}
		fn := map[scop.BinOp]string{scop.FloorDiv: "tf_floordiv", scop.Mod: "tf_mod"}[e.Op]
		out = castTo(t, fn+"((int64_t)"+x+", (int64_t)"+y+")")
		return out, nil
	case scop.Min, scop.Max:
		if t.IsFloat() {
			fn := map[scop.BinOp]string{scop.Min: "fmin", scop.Max: "fmax"}[e.Op]
			if t == scop.F32 {
				fn += "f"
			}
			return fn + "(" + x + ", " + y + ")", nil
		}
		// As the reference executor: min is y when y < x, max y when x < y.
		if e.Op == scop.Min {
			return "(" + y + " < " + x + " ? " + y + " : " + x + ")", nil
		}
		return "(" + x + " < " + y + " ? " + y + " : " + x + ")", nil
	case scop.Rem:
		if t.IsFloat() {
			return "", fmt.Errorf("ast: %% on floats in %s", e)
		}
		out = "(" + x + " % " + y + ")"
	default:
		out = "(" + x + " " + e.Op.String() + " " + y + ")"
	}
	if !e.Op.IsCompare() && !e.Op.IsLogical() && narrow(e.T) {
		out = castTo(e.T, out)
	}
	return out, nil
}

// mathNames maps the generic function names to C's, for double; the
// float versions add "f".
var mathNames = map[string]string{
	"sqrt": "sqrt", "exp": "exp", "log": "log", "pow": "pow", "abs": "fabs",
	"sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh", "atan": "atan",
	"atan2": "atan2", "floor": "floor", "ceil": "ceil", "round": "round",
	"exp2": "exp2", "log2": "log2",
}

func (c *cBody) call(e *scop.Call) (string, error) {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		s, err := c.expr(a)
		if err != nil {
			return "", err
		}
		args[i] = s
	}
	list := strings.Join(args, ", ")
	if e.T.IsInt() {
		if e.Fn != "abs" {
			return "", fmt.Errorf("ast: %s on integers in %s", e.Fn, e)
		}
		// abs of the most negative value wraps, as in the reference.
		return castTo(e.T, "("+list+") < 0 ? -("+list+") : ("+list+")"), nil
	}
	name, ok := mathNames[e.Fn]
	if !ok {
		return "", fmt.Errorf("ast: unknown function %s", e.Fn)
	}
	if e.T == scop.F32 {
		name += "f"
	}
	return name + "(" + list + ")", nil
}

// constC writes a constant as a C literal of its type.
func constC(e *scop.Const) string {
	switch t := e.T; {
	case t == scop.Bool:
		return strconv.Itoa(int(b2i(e.I != 0)))
	case t.IsFloat():
		var s string
		switch {
		case math.IsInf(e.F, 1):
			s = "INFINITY"
		case math.IsInf(e.F, -1):
			s = "(-INFINITY)"
		case math.IsNaN(e.F):
			s = "NAN"
		default:
			bits := 64
			if t == scop.F32 {
				bits = 32
			}
			s = strconv.FormatFloat(e.F, 'g', -1, bits)
			if !strings.ContainsAny(s, ".eE") {
				s += ".0"
			}
			if t == scop.F32 {
				return s + "f"
			}
			return s
		}
		return castTo(t, s)
	case t == scop.I32:
		if e.I == math.MinInt32 {
			return "(-2147483647 - 1)"
		}
		return strconv.FormatInt(e.I, 10)
	case t == scop.I64:
		if e.I == math.MinInt64 {
			return "INT64_MIN"
		}
		return "INT64_C(" + strconv.FormatInt(e.I, 10) + ")"
	case t == scop.U32:
		return strconv.FormatUint(uint64(uint32(e.I)), 10) + "u"
	case t == scop.U64:
		return "UINT64_C(" + strconv.FormatUint(uint64(e.I), 10) + ")"
	}
	return castTo(e.T, strconv.FormatInt(e.I, 10))
}
