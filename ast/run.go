package ast

import (
	"errors"
	"fmt"
	"math"
)

// Visitor receives what running an AST does.
type Visitor struct {
	// User is called once per statement instance, with the values of its
	// arguments (the slice is reused: copy it to keep it).
	User func(stmt string, args []int64) error
	// Alloc and Free, when set, see the buffers with their shapes and
	// origins (nil when the Alloc has none); a.Fold is the fold.
	Alloc func(a *Alloc, shape, origin []int64) error
	Free  func(a *Free) error
	// Iteration, when set, is called at the start of every loop
	// iteration, i being the iterator's value. Loops compiled without it
	// pay nothing.
	Iteration func(f *For, i int64) error
}

// ErrStop may be returned by a visitor to end Run early without an error.
var ErrStop = errors.New("ast: stop")

// Run executes n at the given parameter values: loops, conditions and a
// call of v.User per statement instance, in program order. A loop without
// an upper bound (For.Unbounded) runs until a visitor returns an error or
// ErrStop. Expressions are
// compiled to closures over slots first, so a run costs little more than
// the calls.
func Run(n Node, params map[string]int64, v Visitor) error {
	c := &compiler{slots: map[string]int{}}
	for name := range params {
		c.slot(name)
	}
	code, err := c.node(n, v)
	if err != nil {
		return err
	}
	vals := make([]int64, len(c.slots))
	for name, val := range params {
		vals[c.slots[name]] = val
	}
	if err := code(vals); err != nil && err != ErrStop {
		return err
	}
	return nil
}

// CompileExpr compiles e for repeated evaluation: slots gives the index
// in vals of each name e uses.
func CompileExpr(e Expr, slots map[string]int) (func(vals []int64) int64, error) {
	c := &compiler{slots: slots, fixed: true}
	return c.expr(e)
}

type compiler struct {
	slots map[string]int
	fixed bool // no new slots
}

func (c *compiler) slot(name string) int {
	if k, ok := c.slots[name]; ok {
		return k
	}
	k := len(c.slots)
	c.slots[name] = k
	return k
}

type exec func(vals []int64) error

func (c *compiler) node(n Node, v Visitor) (exec, error) {
	switch n := n.(type) {
	case nil:
		return func([]int64) error { return nil }, nil
	case *Block:
		var parts []exec
		for _, ch := range n.Children {
			x, err := c.node(ch, v)
			if err != nil {
				return nil, err
			}
			parts = append(parts, x)
		}
		return func(vals []int64) error {
			for _, x := range parts {
				if err := x(vals); err != nil {
					return err
				}
			}
			return nil
		}, nil
	case *For:
		lo, err := c.expr(n.Lower)
		if err != nil {
			return nil, err
		}
		if n.Stride <= 0 {
			return nil, fmt.Errorf("ast: loop over %s with stride %d", n.Iter, n.Stride)
		}
		// An unbounded loop runs until a visitor stops it, or its
		// iterator would pass the largest int64.
		hi := func([]int64) int64 { return math.MaxInt64 - n.Stride }
		if !n.Unbounded {
			if hi, err = c.expr(n.Upper); err != nil {
				return nil, err
			}
		}
		k := c.slot(n.Iter)
		body, err := c.node(n.Body, v)
		if err != nil {
			return nil, err
		}
		step := n.Stride
		if it := v.Iteration; it != nil {
			return func(vals []int64) error {
				end := hi(vals)
				for i := lo(vals); i <= end; i += step {
					vals[k] = i
					if err := it(n, i); err != nil {
						return err
					}
					if err := body(vals); err != nil {
						return err
					}
				}
				return nil
			}, nil
		}
		return func(vals []int64) error {
			end := hi(vals)
			for i := lo(vals); i <= end; i += step {
				vals[k] = i
				if err := body(vals); err != nil {
					return err
				}
			}
			return nil
		}, nil
	case *If:
		cond, err := c.expr(n.Cond)
		if err != nil {
			return nil, err
		}
		then, err := c.node(n.Then, v)
		if err != nil {
			return nil, err
		}
		els, err := c.node(n.Else, v)
		if err != nil {
			return nil, err
		}
		return func(vals []int64) error {
			if cond(vals) != 0 {
				return then(vals)
			}
			return els(vals)
		}, nil
	case *Mark:
		return c.node(n.Body, v)
	case *User:
		args := make([]func([]int64) int64, len(n.Args))
		for i, a := range n.Args {
			f, err := c.expr(a)
			if err != nil {
				return nil, err
			}
			args[i] = f
		}
		out := make([]int64, len(args))
		name := n.Stmt
		return func(vals []int64) error {
			for i, f := range args {
				out[i] = f(vals)
			}
			if v.User == nil {
				return nil
			}
			return v.User(name, out)
		}, nil
	case *Alloc:
		shape, err := c.exprs(n.Shape)
		if err != nil {
			return nil, err
		}
		origin, err := c.exprs(n.Origin)
		if err != nil {
			return nil, err
		}
		return func(vals []int64) error {
			if v.Alloc == nil {
				return nil
			}
			var o []int64
			if origin != nil {
				o = evalAll(origin, vals)
			}
			return v.Alloc(n, evalAll(shape, vals), o)
		}, nil
	case *Free:
		return func([]int64) error {
			if v.Free == nil {
				return nil
			}
			return v.Free(n)
		}, nil
	}
	return nil, fmt.Errorf("ast: unknown node %T", n)
}

func (c *compiler) expr(e Expr) (func([]int64) int64, error) {
	switch e.Op {
	case OpInt:
		k := e.Val
		return func([]int64) int64 { return k }, nil
	case OpVar:
		k, ok := c.slots[e.Name]
		if !ok {
			if c.fixed {
				return nil, fmt.Errorf("ast: no slot for %s", e.Name)
			}
			return nil, fmt.Errorf("ast: %s is neither a parameter nor an enclosing iterator", e.Name)
		}
		return func(vals []int64) int64 { return vals[k] }, nil
	}
	args := make([]func([]int64) int64, len(e.Args))
	for i, a := range e.Args {
		f, err := c.expr(a)
		if err != nil {
			return nil, err
		}
		args[i] = f
	}
	d := e.Val
	switch e.Op {
	case OpAdd:
		if len(args) == 2 {
			x, y := args[0], args[1]
			return func(v []int64) int64 { return x(v) + y(v) }, nil
		}
		return func(v []int64) int64 {
			s := int64(0)
			for _, f := range args {
				s += f(v)
			}
			return s
		}, nil
	case OpMul:
		x := args[0]
		return func(v []int64) int64 { return d * x(v) }, nil
	case OpFloorDiv, OpDiv:
		x := args[0]
		return func(v []int64) int64 { return floorDiv(x(v), d) }, nil
	case OpCeilDiv:
		x := args[0]
		return func(v []int64) int64 { return -floorDiv(-x(v), d) }, nil
	case OpMod:
		x := args[0]
		return func(v []int64) int64 { return floorMod(x(v), d) }, nil
	case OpAnd:
		return func(v []int64) int64 {
			for _, f := range args {
				if f(v) == 0 {
					return 0
				}
			}
			return 1
		}, nil
	case OpOr:
		return func(v []int64) int64 {
			for _, f := range args {
				if f(v) != 0 {
					return 1
				}
			}
			return 0
		}, nil
	}
	// min, max and comparisons: through apply.
	op := e
	return func(v []int64) int64 {
		vals := make([]int64, len(args))
		for i, f := range args {
			vals[i] = f(v)
		}
		return apply(op, vals)
	}, nil
}

// exprs compiles each expression (nil for none).
func (c *compiler) exprs(es []Expr) ([]func([]int64) int64, error) {
	if es == nil {
		return nil, nil
	}
	out := make([]func([]int64) int64, len(es))
	for i, a := range es {
		f, err := c.expr(a)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// evalAll evaluates compiled expressions into a fresh slice.
func evalAll(fs []func([]int64) int64, vals []int64) []int64 {
	out := make([]int64, len(fs))
	for i, f := range fs {
		out[i] = f(vals)
	}
	return out
}
