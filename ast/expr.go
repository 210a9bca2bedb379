package ast

import (
	"fmt"
)

// Op is the operator of an expression node.
type Op uint8

// The operators. Division and modulo are by a positive constant (Val) and
// round towards negative infinity, as in isl; comparisons and logical
// operators yield 0 or 1.
const (
	OpInt      Op = iota // the constant Val
	OpVar                // the iterator or parameter Name
	OpAdd                // Args[0] + Args[1] + ...
	OpMul                // Val * Args[0]
	OpFloorDiv           // floor(Args[0] / Val)
	OpCeilDiv            // ceil(Args[0] / Val)
	OpMod                // Args[0] mod Val, in [0, Val)
	OpMin                // min(Args...)
	OpMax                // max(Args...)
	OpEq                 // Args[0] == Args[1]
	OpLe                 // Args[0] <= Args[1]
	OpLt                 // Args[0] < Args[1]
	OpGe                 // Args[0] >= Args[1]
	OpGt                 // Args[0] > Args[1]
	OpAnd                // Args[0] && Args[1] && ...
	OpOr                 // Args[0] || Args[1] || ...
	OpDiv                // Args[0] / Val, known to be exact
)

var opNames = [...]string{"int", "var", "+", "*", "floord", "ceild", "mod", "min", "max", "==", "<=", "<", ">=", ">", "&&", "||", "/"}

func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("Op(%d)", int(op))
}

// IsCompare reports whether op is a comparison.
func (op Op) IsCompare() bool { return op >= OpEq && op <= OpGt }

// Expr is an integer expression of the AST: a value type, a tree of
// operators over constants, loop iterators and parameters. Subtraction is
// addition of a product by -1; the printers show it as a difference.
type Expr struct {
	Op   Op
	Val  int64  // OpInt: the value; OpMul: the factor; divisions and mod: the divisor
	Name string // OpVar
	Args []Expr
}

// Int is the constant v.
func Int(v int64) Expr { return Expr{Op: OpInt, Val: v} }

// Var is the iterator or parameter called name.
func Var(name string) Expr { return Expr{Op: OpVar, Name: name} }

// Add is the sum of xs, with constants folded and zeros dropped.
func Add(xs ...Expr) Expr {
	var args []Expr
	var k int64
	for _, x := range xs {
		switch x.Op {
		case OpInt:
			k = mustAdd(k, x.Val)
		case OpAdd:
			for _, y := range x.Args {
				if y.Op == OpInt {
					k = mustAdd(k, y.Val)
				} else {
					args = append(args, y)
				}
			}
		default:
			args = append(args, x)
		}
	}
	if k != 0 {
		args = append(args, Int(k))
	}
	switch len(args) {
	case 0:
		return Int(0)
	case 1:
		return args[0]
	}
	return Expr{Op: OpAdd, Args: args}
}

// Sub is x - y.
func Sub(x, y Expr) Expr { return Add(x, Mul(-1, y)) }

// Mul is k * x.
func Mul(k int64, x Expr) Expr {
	switch {
	case k == 0:
		return Int(0)
	case k == 1:
		return x
	case x.Op == OpInt:
		return Int(mustMul(k, x.Val))
	case x.Op == OpMul:
		return Mul(mustMul(k, x.Val), x.Args[0])
	case x.Op == OpAdd:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = Mul(k, a)
		}
		return Add(args...)
	}
	return Expr{Op: OpMul, Val: k, Args: []Expr{x}}
}

// FloorDiv is floor(x / d) for a constant d > 0.
func FloorDiv(x Expr, d int64) Expr { return divOp(OpFloorDiv, x, d) }

// CeilDiv is ceil(x / d) for a constant d > 0.
func CeilDiv(x Expr, d int64) Expr { return divOp(OpCeilDiv, x, d) }

// Div is x / d for a constant d > 0 that divides x wherever the
// expression is evaluated (for other values it rounds down).
func Div(x Expr, d int64) Expr { return divOp(OpDiv, x, d) }

// Mod is x mod d for a constant d > 0, in [0, d).
func Mod(x Expr, d int64) Expr { return divOp(OpMod, x, d) }

func divOp(op Op, x Expr, d int64) Expr {
	if d <= 0 {
		panic(fmt.Sprintf("ast: %s by non-positive %d", op, d))
	}
	if x.Op == OpInt {
		return Int(evalDiv(op, x.Val, d))
	}
	if d == 1 {
		if op == OpMod {
			return Int(0)
		}
		return x
	}
	return Expr{Op: op, Val: d, Args: []Expr{x}}
}

// Min is the minimum of xs (at least one).
func Min(xs ...Expr) Expr { return minMax(OpMin, xs) }

// Max is the maximum of xs (at least one).
func Max(xs ...Expr) Expr { return minMax(OpMax, xs) }

func minMax(op Op, xs []Expr) Expr {
	var args []Expr
	seen := map[string]bool{}
	konst := -1 // index in args of the folded constants
	for _, x := range xs {
		list := []Expr{x}
		if x.Op == op {
			list = x.Args
		}
		for _, y := range list {
			if y.Op == OpInt && konst >= 0 {
				if c := args[konst].Val; (op == OpMin) == (y.Val < c) {
					args[konst] = y
				}
				continue
			}
			if k := y.String(); !seen[k] {
				seen[k] = true
				if y.Op == OpInt {
					konst = len(args)
				}
				args = append(args, y)
			}
		}
	}
	if len(args) == 1 {
		return args[0]
	}
	return Expr{Op: op, Args: args}
}

// Cmp is the comparison x op y.
func Cmp(op Op, x, y Expr) Expr {
	if !op.IsCompare() {
		panic("ast: Cmp with " + op.String())
	}
	return Expr{Op: op, Args: []Expr{x, y}}
}

// And is the conjunction of xs; no operand means true.
func And(xs ...Expr) Expr { return logic(OpAnd, xs) }

// Or is the disjunction of xs; no operand means false.
func Or(xs ...Expr) Expr { return logic(OpOr, xs) }

func logic(op Op, xs []Expr) Expr {
	// The neutral element (1 for &&, 0 for ||) is dropped; the absorbing
	// one decides.
	neutral := b2i(op == OpAnd)
	var args []Expr
	seen := map[string]bool{}
	for _, x := range xs {
		list := []Expr{x}
		if x.Op == op {
			list = x.Args
		}
		for _, y := range list {
			if y.Op == OpInt {
				if b2i(y.Val != 0) == neutral {
					continue
				}
				return Int(1 - neutral)
			}
			if k := y.String(); !seen[k] {
				seen[k] = true
				args = append(args, y)
			}
		}
	}
	switch len(args) {
	case 0:
		if op == OpAnd {
			return Int(1)
		}
		return Int(0)
	case 1:
		return args[0]
	}
	return Expr{Op: op, Args: args}
}

// IsConst reports whether e is the constant v.
func (e Expr) IsConst(v int64) bool { return e.Op == OpInt && e.Val == v }

// Vars returns the names e refers to, in order of first occurrence.
func (e Expr) Vars() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Expr)
	walk = func(x Expr) {
		if x.Op == OpVar && !seen[x.Name] {
			seen[x.Name] = true
			out = append(out, x.Name)
		}
		for _, a := range x.Args {
			walk(a)
		}
	}
	walk(e)
	return out
}

// Eval evaluates e with the values of its iterators and parameters in env;
// a missing name is an error.
func (e Expr) Eval(env map[string]int64) (int64, error) {
	switch e.Op {
	case OpInt:
		return e.Val, nil
	case OpVar:
		v, ok := env[e.Name]
		if !ok {
			return 0, fmt.Errorf("ast: no value for %s", e.Name)
		}
		return v, nil
	}
	vals := make([]int64, len(e.Args))
	for i, a := range e.Args {
		// && and || stop early, as in C.
		if i > 0 && (e.Op == OpAnd && vals[i-1] == 0 || e.Op == OpOr && vals[i-1] != 0) {
			return vals[i-1], nil
		}
		v, err := a.Eval(env)
		if err != nil {
			return 0, err
		}
		vals[i] = v
		if e.Op == OpAnd || e.Op == OpOr {
			vals[i] = b2i(v != 0)
		}
	}
	return apply(e, vals), nil
}

// apply computes e's operator on the values of its operands.
func apply(e Expr, vals []int64) int64 {
	switch e.Op {
	case OpAdd:
		s := int64(0)
		for _, v := range vals {
			s += v
		}
		return s
	case OpMul:
		return e.Val * vals[0]
	case OpFloorDiv, OpCeilDiv, OpMod, OpDiv:
		return evalDiv(e.Op, vals[0], e.Val)
	case OpMin, OpMax:
		m := vals[0]
		for _, v := range vals[1:] {
			if (e.Op == OpMin) == (v < m) {
				m = v
			}
		}
		return m
	case OpEq:
		return b2i(vals[0] == vals[1])
	case OpLe:
		return b2i(vals[0] <= vals[1])
	case OpLt:
		return b2i(vals[0] < vals[1])
	case OpGe:
		return b2i(vals[0] >= vals[1])
	case OpGt:
		return b2i(vals[0] > vals[1])
	case OpAnd, OpOr:
		return vals[len(vals)-1]
	}
	panic("ast: bad operator " + e.Op.String())
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func floorDiv(a, d int64) int64 {
	q := a / d
	if a%d != 0 && (a < 0) != (d < 0) {
		q--
	}
	return q
}

func evalDiv(op Op, a, d int64) int64 {
	switch op {
	case OpFloorDiv, OpDiv:
		return floorDiv(a, d)
	case OpCeilDiv:
		return -floorDiv(-a, d)
	}
	return a - d*floorDiv(a, d)
}

// rename returns e with the variables in names renamed.
func (e Expr) rename(names map[string]string) Expr {
	if e.Op == OpVar {
		if to, ok := names[e.Name]; ok {
			e.Name = to
		}
		return e
	}
	if len(e.Args) == 0 {
		return e
	}
	args := make([]Expr, len(e.Args))
	for i, a := range e.Args {
		args[i] = a.rename(names)
	}
	e.Args = args
	return e
}
