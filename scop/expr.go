package scop

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a node of a statement body. Every node knows its type and the
// source position it came from.
type Expr interface {
	Type() ElemType
	Position() Pos
	String() string // C-like text
}

// Const is a literal: I holds integer and Bool values (Bool: 0 or 1), F
// float values.
type Const struct {
	At Pos
	T  ElemType
	I  int64
	F  float64
}

// Iter is the value of the statement's iterator number Index (its domain
// dimension), converted to T.
type Iter struct {
	At    Pos
	Name  string
	Index int
	T     ElemType
}

// Param is the value of a size parameter, converted to T.
type Param struct {
	At   Pos
	Name string
	T    ElemType
}

// Ref names an array element: the array and one subscript per dimension
// (none for a scalar).
type Ref struct {
	Array string
	Index []Expr
}

// Read loads an array element; T is the array's element type.
type Read struct {
	At Pos
	Ref
	T ElemType
}

// UnOp is a unary operator.
type UnOp int

// The unary operators. Not is logical (Bool to Bool); BitNot is for integers.
const (
	Neg UnOp = iota + 1
	Not
	BitNot
)

// Unary applies Op to X; the result has X's type.
type Unary struct {
	At Pos
	Op UnOp
	X  Expr
}

// BinOp is a binary operator.
type BinOp int

// The binary operators. Div and Rem follow C (truncating for integers);
// FloorDiv and Mod round towards negative infinity, as in Halide and in
// isl's floor and mod. Comparisons yield Bool; And and Or are logical
// operators on Bool and evaluate Y only when needed.
const (
	Add BinOp = iota + 1
	Sub
	Mul
	Div
	Rem
	FloorDiv
	Mod
	Min
	Max
	BitAnd
	BitOr
	BitXor
	Shl
	Shr
	Lt
	Le
	Gt
	Ge
	Eq
	Ne
	And
	Or
)

var binOpNames = [...]string{"", "+", "-", "*", "/", "%", "floordiv", "mod", "min", "max", "&", "|", "^", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&&", "||"}

func (op BinOp) String() string {
	if op <= 0 || int(op) >= len(binOpNames) {
		return fmt.Sprintf("BinOp(%d)", int(op))
	}
	return binOpNames[op]
}

// IsCompare reports whether op is a comparison (result Bool, operands of
// one type).
func (op BinOp) IsCompare() bool { return op >= Lt && op <= Ne }

// IsLogical reports whether op is && or ||.
func (op BinOp) IsLogical() bool { return op == And || op == Or }

// Binary applies Op to X and Y, which have the same type. T is that type
// for arithmetic and Bool for comparisons and logical operators.
type Binary struct {
	At   Pos
	Op   BinOp
	X, Y Expr
	T    ElemType
}

// Select is Cond ? Then : Else; only the chosen branch is evaluated.
type Select struct {
	At               Pos
	Cond, Then, Else Expr
}

// Cast converts X to T with C's conversion rules (floats to integers
// truncate towards zero; integers wrap to the target width).
type Cast struct {
	At Pos
	X  Expr
	T  ElemType
}

// Call applies a math function. Fn is the generic name (sqrt, not sqrtf);
// the arguments and the result all have type T, so sqrt at F32 is C's
// sqrtf. See MathFuncs.
type Call struct {
	At   Pos
	Fn   string
	Args []Expr
	T    ElemType
}

// MathFuncs gives the arity of each function a Call may name. All take
// floats; abs, min and max also take integers.
var MathFuncs = map[string]int{
	"sqrt": 1, "exp": 1, "log": 1, "pow": 2, "abs": 1, "sin": 1, "cos": 1,
	"tan": 1, "tanh": 1, "atan": 1, "atan2": 2, "floor": 1, "ceil": 1,
	"round": 1, "exp2": 1, "log2": 1,
}

func (e *Const) Type() ElemType  { return e.T }
func (e *Iter) Type() ElemType   { return e.T }
func (e *Param) Type() ElemType  { return e.T }
func (e *Read) Type() ElemType   { return e.T }
func (e *Unary) Type() ElemType  { return e.X.Type() }
func (e *Binary) Type() ElemType { return e.T }
func (e *Select) Type() ElemType { return e.Then.Type() }
func (e *Cast) Type() ElemType   { return e.T }
func (e *Call) Type() ElemType   { return e.T }

func (e *Const) Position() Pos  { return e.At }
func (e *Iter) Position() Pos   { return e.At }
func (e *Param) Position() Pos  { return e.At }
func (e *Read) Position() Pos   { return e.At }
func (e *Unary) Position() Pos  { return e.At }
func (e *Binary) Position() Pos { return e.At }
func (e *Select) Position() Pos { return e.At }
func (e *Cast) Position() Pos   { return e.At }
func (e *Call) Position() Pos   { return e.At }

// Children returns the operands of e in evaluation order.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *Read:
		return e.Index
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Select:
		return []Expr{e.Cond, e.Then, e.Else}
	case *Cast:
		return []Expr{e.X}
	case *Call:
		return e.Args
	}
	return nil
}

// Walk calls f on e and, while f returns true, on its operands (pre-order).
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	for _, c := range Children(e) {
		Walk(c, f)
	}
}

// Reads lists the array reads in e, outermost first.
func Reads(e Expr) []*Read {
	var out []*Read
	Walk(e, func(x Expr) bool {
		if r, ok := x.(*Read); ok {
			out = append(out, r)
		}
		return true
	})
	return out
}

// String prints the constant as a C literal of its type.
func (e *Const) String() string {
	switch {
	case e.T == Bool:
		if e.I != 0 {
			return "true"
		}
		return "false"
	case e.T.IsFloat():
		s := strconv.FormatFloat(e.F, 'g', -1, 64)
		if e.T == F32 {
			s = strconv.FormatFloat(e.F, 'g', -1, 32)
		}
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		if e.T == F32 {
			s += "f"
		}
		return s
	case e.T == U32 || e.T == U64:
		return strconv.FormatUint(uint64(e.I), 10) + "u"
	}
	return strconv.FormatInt(e.I, 10)
}

func (e *Iter) String() string  { return e.Name }
func (e *Param) String() string { return e.Name }
func (e *Read) String() string  { return e.Ref.String() }

// String prints the reference as A[i][j].
func (r Ref) String() string {
	var b strings.Builder
	b.WriteString(r.Array)
	for _, x := range r.Index {
		b.WriteString("[" + x.String() + "]")
	}
	return b.String()
}

func (e *Unary) String() string {
	op := map[UnOp]string{Neg: "-", Not: "!", BitNot: "~"}[e.Op]
	return op + "(" + e.X.String() + ")"
}

func (e *Binary) String() string {
	switch e.Op {
	case FloorDiv, Mod, Min, Max:
		return e.Op.String() + "(" + e.X.String() + ", " + e.Y.String() + ")"
	}
	return "(" + e.X.String() + " " + e.Op.String() + " " + e.Y.String() + ")"
}

func (e *Select) String() string {
	return "(" + e.Cond.String() + " ? " + e.Then.String() + " : " + e.Else.String() + ")"
}

func (e *Cast) String() string { return "(" + e.T.String() + ")" + paren(e.X) }

func (e *Call) String() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.String()
	}
	return e.Fn + "(" + strings.Join(args, ", ") + ")"
}

func paren(e Expr) string {
	s := e.String()
	if strings.HasPrefix(s, "(") {
		return s
	}
	return "(" + s + ")"
}
