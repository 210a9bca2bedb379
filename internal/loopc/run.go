package loopc

import (
	"errors"
	"fmt"
	"math/bits"
)

// ErrSteps is returned (wrapped) when the code runs more loop iterations
// and statement calls than Run's limit: a loop without end, or too large
// parameter values.
var ErrSteps = errors.New("loopc: step limit reached")

// Visitor receives each statement call with its argument values; an
// error stops Run and is returned.
type Visitor func(name string, args []int64) error

// Run executes code with the parameters params, calling visit for each
// statement call. It stops with an error wrapping ErrSteps after limit
// steps (loop iterations and calls), with an error naming the variable
// when the code reads an unknown name, and with an error on overflow or
// division by zero.
func Run(code *Block, params map[string]int64, limit int, visit Visitor) error {
	r := &runner{vars: map[string]int64{}, left: limit, visit: visit}
	for k, v := range params {
		r.vars[k] = v
	}
	return r.stmt(code)
}

type runner struct {
	vars  map[string]int64
	left  int
	visit Visitor
}

func (r *runner) step() error {
	if r.left--; r.left < 0 {
		return ErrSteps
	}
	return nil
}

func (r *runner) stmt(s Stmt) error {
	switch s := s.(type) {
	case *Block:
		for _, x := range s.Stmts {
			if err := r.stmt(x); err != nil {
				return err
			}
		}
	case *If:
		c, err := r.eval(s.Cond)
		if err != nil {
			return err
		}
		if c != 0 {
			return r.stmt(s.Then)
		}
		if s.Else != nil {
			return r.stmt(s.Else)
		}
	case *For:
		return r.loop(s)
	case *Call:
		if err := r.step(); err != nil {
			return err
		}
		args := make([]int64, len(s.Args))
		for i, a := range s.Args {
			v, err := r.eval(a)
			if err != nil {
				return err
			}
			args[i] = v
		}
		return r.visit(s.Name, args)
	}
	return nil
}

func (r *runner) loop(f *For) error {
	if _, ok := r.vars[f.Iter]; ok {
		return fmt.Errorf("loopc: loop iterator %s shadows a name in scope", f.Iter)
	}
	defer delete(r.vars, f.Iter)
	v, err := r.eval(f.Init)
	if err != nil {
		return err
	}
	for {
		r.vars[f.Iter] = v
		c, err := r.eval(f.Cond)
		if err != nil || c == 0 {
			return err
		}
		if err := r.step(); err != nil {
			return err
		}
		if err := r.stmt(f.Body); err != nil {
			return err
		}
		step, err := r.eval(f.Step)
		if err != nil {
			return err
		}
		if v, err = add(v, step); err != nil {
			return err
		}
	}
}

var errOverflow = errors.New("loopc: integer overflow")

func add(x, y int64) (int64, error) {
	s := x + y
	if (s > x) != (y > 0) {
		return 0, errOverflow
	}
	return s, nil
}

func mul(x, y int64) (int64, error) {
	hi, lo := bits.Mul64(uint64(abs(x)), uint64(abs(y)))
	if hi != 0 || lo > 1<<62 {
		return 0, errOverflow
	}
	return x * y, nil
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func truth(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (r *runner) eval(e Expr) (int64, error) {
	switch e.Op {
	case "int":
		return e.Val, nil
	case "var":
		v, ok := r.vars[e.Name]
		if !ok {
			return 0, fmt.Errorf("loopc: unknown name %s", e.Name)
		}
		return v, nil
	case "?:":
		c, err := r.eval(e.Args[0])
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return r.eval(e.Args[1])
		}
		return r.eval(e.Args[2])
	case "&&", "||":
		x, err := r.eval(e.Args[0])
		if err != nil || (x != 0) == (e.Op == "||") {
			return truth(x != 0), err
		}
		y, err := r.eval(e.Args[1])
		return truth(y != 0), err
	}
	vals := make([]int64, len(e.Args))
	for i, a := range e.Args {
		v, err := r.eval(a)
		if err != nil {
			return 0, err
		}
		vals[i] = v
	}
	return apply(e.Op, vals)
}

// apply evaluates an operator or function on its operands' values, with
// C's semantics (truncating / and %).
func apply(op string, v []int64) (int64, error) {
	switch op {
	case "neg":
		return mul(-1, v[0])
	case "!":
		return truth(v[0] == 0), nil
	case "+":
		return add(v[0], v[1])
	case "-":
		if v[1] == -1<<63 {
			return 0, errOverflow
		}
		return add(v[0], -v[1])
	case "*":
		return mul(v[0], v[1])
	case "/", "%", "floord":
		if v[1] == 0 {
			return 0, errors.New("loopc: division by zero")
		}
		q, m := v[0]/v[1], v[0]%v[1]
		switch op {
		case "%":
			return m, nil
		case "floord":
			if m != 0 && (m < 0) != (v[1] < 0) {
				q--
			}
		}
		return q, nil
	case "<":
		return truth(v[0] < v[1]), nil
	case "<=":
		return truth(v[0] <= v[1]), nil
	case ">":
		return truth(v[0] > v[1]), nil
	case ">=":
		return truth(v[0] >= v[1]), nil
	case "==":
		return truth(v[0] == v[1]), nil
	case "!=":
		return truth(v[0] != v[1]), nil
	case "min", "max":
		best := v[0]
		for _, x := range v[1:] {
			if op == "min" && x < best || op == "max" && x > best {
				best = x
			}
		}
		return best, nil
	}
	return 0, fmt.Errorf("loopc: unknown operator %s", op)
}
