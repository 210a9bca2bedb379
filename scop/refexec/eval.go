package refexec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// frame is the state a compiled statement runs in: the iteration vector of
// the current instance.
type frame struct {
	iters []int64
}

// An intFn computes an integer or Bool value, held as scop.Value.I holds
// it: wrapped to the type's width, unsigned types zero-extended, u64 as its
// bits, Bool as 0 or 1.
type intFn func(*frame) int64

// A floatFn computes a float value; an f32 value is held exactly as a
// float64.
type floatFn func(*frame) float64

// failure is raised (as a panic) by compiled code when an instance cannot
// run; Run turns it into an *InstanceError.
type failure struct {
	at  scop.Pos
	msg string
}

func fail(at scop.Pos, format string, args ...any) {
	panic(&failure{at: at, msg: fmt.Sprintf(format, args...)})
}

// compiler turns one statement into closures. Parameters are constants
// and buffers are bound at compile time.
type compiler struct {
	s      *scop.Stmt
	params map[string]int64
	bufs   map[string]*scop.Buffer
	// Set by Compile only (compile.go), so that Run's code is unchanged:
	// the statement's counters (nil: no counting), the arrays accessed
	// through a rebindable cell, and the observer with the statement's
	// last write (nil: no observing).
	count *stmtCounters
	cells map[string]*cell
	obs   Observer
	wrote *access
}

// compileStmt returns the code of one instance: the write's address (with
// its bounds check), then the value, then the store.
func (c *compiler) compileStmt() (func(*frame), error) {
	w := c.s.Write
	if cl := c.cells[w.Array]; cl != nil {
		return c.cellStmt(cl)
	}
	addr, buf, err := c.ref(w.Array, w.Index, scop.Pos{}, "write")
	if err != nil {
		return nil, err
	}
	if t := c.s.Value.Type(); t != buf.Type {
		return nil, fmt.Errorf("statement %s: %s value stored into %s array %s", c.s.Name, t, buf.Type, w.Array)
	}
	data := buf.Data
	if buf.Type.IsFloat() {
		v, err := c.float(c.s.Value)
		if err != nil {
			return nil, err
		}
		if buf.Type == scop.F32 {
			return func(f *frame) {
				off := addr(f)
				binary.LittleEndian.PutUint32(data[4*off:], math.Float32bits(float32(v(f))))
			}, nil
		}
		return func(f *frame) {
			off := addr(f)
			binary.LittleEndian.PutUint64(data[8*off:], math.Float64bits(v(f)))
		}, nil
	}
	v, err := c.int(c.s.Value)
	if err != nil {
		return nil, err
	}
	switch buf.Type.Size() {
	case 1:
		return func(f *frame) {
			off := addr(f)
			data[off] = byte(v(f))
		}, nil
	case 2:
		return func(f *frame) {
			off := addr(f)
			binary.LittleEndian.PutUint16(data[2*off:], uint16(v(f)))
		}, nil
	case 4:
		return func(f *frame) {
			off := addr(f)
			binary.LittleEndian.PutUint32(data[4*off:], uint32(v(f)))
		}, nil
	}
	return func(f *frame) {
		off := addr(f)
		binary.LittleEndian.PutUint64(data[8*off:], uint64(v(f)))
	}, nil
}

// ref compiles the address computation of an array element: the row-major
// element offset, after a bounds check of every subscript.
func (c *compiler) ref(array string, index []scop.Expr, at scop.Pos, what string) (func(*frame) int64, *scop.Buffer, error) {
	addr, buf, err := c.addrOf(array, index, at, what)
	if err != nil || c.obs == nil {
		return addr, buf, err
	}
	return c.observed(array, func() *scop.Buffer { return buf }, addr, what), buf, nil
}

// addrOf is ref without observation.
func (c *compiler) addrOf(array string, index []scop.Expr, at scop.Pos, what string) (func(*frame) int64, *scop.Buffer, error) {
	buf := c.bufs[array]
	if buf == nil {
		return nil, nil, fmt.Errorf("statement %s: no buffer for array %s", c.s.Name, array)
	}
	if len(index) != len(buf.Shape) {
		return nil, nil, fmt.Errorf("statement %s: %s has %d dimensions, indexed with %d subscripts", c.s.Name, array, len(buf.Shape), len(index))
	}
	subs := make([]intFn, len(index))
	for d, x := range index {
		if !x.Type().IsInt() {
			return nil, nil, fmt.Errorf("statement %s: subscript %s of %s has type %s", c.s.Name, x, array, x.Type())
		}
		fn, err := c.int(x)
		if err != nil {
			return nil, nil, err
		}
		subs[d] = fn
	}
	shape := append([]int64(nil), buf.Shape...)
	text := scop.Ref{Array: array, Index: index}.String()
	var affs []*affSub // all the subscripts, or none
	for _, x := range index {
		a, ok := c.affine(x, x.Type())
		if !ok {
			affs = nil
			break
		}
		affs = append(affs, a)
	}
	oob := func(f *frame, vals []int64) {
		idx := make([]string, len(vals))
		for d, v := range vals {
			idx[d] = fmt.Sprint(v)
		}
		fail(at, "%s of %s out of bounds: element %s[%s] of shape %v", what, text, array, strings.Join(idx, "]["), shape)
	}
	switch {
	case len(subs) == 0:
		return func(*frame) int64 { return 0 }, buf, nil
	case len(affs) == 1:
		a0, n0 := affs[0], shape[0]
		return func(f *frame) int64 {
			i := a0.eval(f.iters)
			if uint64(i) >= uint64(n0) {
				oob(f, []int64{i})
			}
			return i
		}, buf, nil
	case len(affs) == 2:
		a0, a1, n0, n1 := affs[0], affs[1], shape[0], shape[1]
		return func(f *frame) int64 {
			i, j := a0.eval(f.iters), a1.eval(f.iters)
			if uint64(i) >= uint64(n0) || uint64(j) >= uint64(n1) {
				oob(f, []int64{i, j})
			}
			return i*n1 + j
		}, buf, nil
	case len(affs) == 3:
		a0, a1, a2, n0, n1, n2 := affs[0], affs[1], affs[2], shape[0], shape[1], shape[2]
		return func(f *frame) int64 {
			i, j, k := a0.eval(f.iters), a1.eval(f.iters), a2.eval(f.iters)
			if uint64(i) >= uint64(n0) || uint64(j) >= uint64(n1) || uint64(k) >= uint64(n2) {
				oob(f, []int64{i, j, k})
			}
			return (i*n1+j)*n2 + k
		}, buf, nil
	case affs != nil:
		vals := make([]int64, len(affs)) // not reentrant: one per reference
		return func(f *frame) int64 {
			var off int64
			bad := false
			for d, a := range affs {
				v := a.eval(f.iters)
				vals[d] = v
				bad = bad || uint64(v) >= uint64(shape[d])
				off = off*shape[d] + v
			}
			if bad {
				oob(f, vals)
			}
			return off
		}, buf, nil
	case len(subs) == 1:
		s0, n0 := subs[0], shape[0]
		return func(f *frame) int64 {
			i := s0(f)
			if uint64(i) >= uint64(n0) {
				oob(f, []int64{i})
			}
			return i
		}, buf, nil
	case len(subs) == 2:
		s0, s1, n0, n1 := subs[0], subs[1], shape[0], shape[1]
		return func(f *frame) int64 {
			i, j := s0(f), s1(f)
			if uint64(i) >= uint64(n0) || uint64(j) >= uint64(n1) {
				oob(f, []int64{i, j})
			}
			return i*n1 + j
		}, buf, nil
	}
	vals := make([]int64, len(subs)) // not reentrant: one per reference
	return func(f *frame) int64 {
		var off int64
		bad := false
		for d, s := range subs {
			vals[d] = s(f)
			bad = bad || uint64(vals[d]) >= uint64(shape[d])
			off = off*shape[d] + vals[d]
		}
		if bad {
			oob(f, vals)
		}
		return off
	}, buf, nil
}

// affSub is a subscript c0 + Σ coef·iters[k] computed in int64 and
// wrapped to its type at the end, which equals wrapping after every
// operation: wrapping is a ring homomorphism, so for trees of +, - and *
// of one integer type it commutes with the operations.
type affSub struct {
	c0     int64
	terms  []affTerm
	shift  uint // 64 - bits of the type
	signed bool
	unit   int // k when terms is iters[k] alone, else -1
}

type affTerm struct {
	k    int
	coef int64
}

func (a *affSub) eval(iters []int64) int64 {
	v := a.c0
	if a.unit >= 0 {
		v += iters[a.unit]
	} else {
		for _, t := range a.terms {
			v += t.coef * iters[t.k]
		}
	}
	if a.signed {
		return v << a.shift >> a.shift
	}
	return int64(uint64(v) << a.shift >> a.shift)
}

// affine returns e as an affSub when it is an affine tree of constants,
// parameters and iterators of the integer type t.
func (c *compiler) affine(e scop.Expr, t scop.ElemType) (*affSub, bool) {
	a, ok := c.affineTree(e, t)
	if !ok {
		return nil, false
	}
	a.unit = -1
	if len(a.terms) == 1 && a.terms[0].coef == 1 {
		a.unit = a.terms[0].k
	}
	return a, true
}

func (c *compiler) affineTree(e scop.Expr, t scop.ElemType) (*affSub, bool) {
	if e.Type() != t || !t.IsInt() {
		return nil, false
	}
	leaf := func(c0 int64, terms ...affTerm) (*affSub, bool) {
		return &affSub{c0: c0, terms: terms, shift: uint(64 - t.Bits()), signed: t.IsSigned()}, true
	}
	switch e := e.(type) {
	case *scop.Const:
		return leaf(e.I)
	case *scop.Param:
		v, ok := c.params[e.Name]
		if !ok {
			return nil, false
		}
		return leaf(v)
	case *scop.Iter:
		if e.Index < 0 || e.Index >= len(c.s.Iters) {
			return nil, false
		}
		return leaf(0, affTerm{e.Index, 1})
	case *scop.Cast:
		return c.affineTree(e.X, t)
	case *scop.Unary:
		if e.Op != scop.Neg {
			return nil, false
		}
		x, ok := c.affineTree(e.X, t)
		if !ok {
			return nil, false
		}
		return x.scale(-1), true
	case *scop.Binary:
		x, ok1 := c.affineTree(e.X, t)
		y, ok2 := c.affineTree(e.Y, t)
		if !ok1 || !ok2 {
			return nil, false
		}
		switch {
		case e.Op == scop.Add:
			return x.add(y, 1), true
		case e.Op == scop.Sub:
			return x.add(y, -1), true
		case e.Op == scop.Mul && len(x.terms) == 0:
			return y.scale(x.c0), true
		case e.Op == scop.Mul && len(y.terms) == 0:
			return x.scale(y.c0), true
		}
	}
	return nil, false
}

func (a *affSub) scale(m int64) *affSub {
	out := *a
	out.c0 = a.c0 * m
	out.terms = nil
	for _, t := range a.terms {
		out.terms = append(out.terms, affTerm{t.k, t.coef * m})
	}
	return &out
}

// add returns a + m·b.
func (a *affSub) add(b *affSub, m int64) *affSub {
	out := *a
	out.c0 = a.c0 + m*b.c0
	out.terms = append([]affTerm(nil), a.terms...)
next:
	for _, t := range b.terms {
		for i := range out.terms {
			if out.terms[i].k == t.k {
				out.terms[i].coef += m * t.coef
				continue next
			}
		}
		out.terms = append(out.terms, affTerm{t.k, m * t.coef})
	}
	return &out
}

// loadInt compiles a load from a buffer bound at compile time.
func (c *compiler) loadInt(e *scop.Read) (intFn, error) {
	addr, buf, err := c.ref(e.Array, e.Index, e.At, "read")
	if err != nil {
		return nil, err
	}
	if buf.Type != e.T {
		return nil, fmt.Errorf("statement %s: read of %s array %s typed %s", c.s.Name, buf.Type, e.Array, e.T)
	}
	data := buf.Data
	switch e.T {
	case scop.U8, scop.Bool:
		return func(f *frame) int64 { return int64(data[addr(f)]) }, nil
	case scop.I8:
		return func(f *frame) int64 { return int64(int8(data[addr(f)])) }, nil
	case scop.I16:
		return func(f *frame) int64 { return int64(int16(binary.LittleEndian.Uint16(data[2*addr(f):]))) }, nil
	case scop.U16:
		return func(f *frame) int64 { return int64(binary.LittleEndian.Uint16(data[2*addr(f):])) }, nil
	case scop.I32:
		return func(f *frame) int64 { return int64(int32(binary.LittleEndian.Uint32(data[4*addr(f):]))) }, nil
	case scop.U32:
		return func(f *frame) int64 { return int64(binary.LittleEndian.Uint32(data[4*addr(f):])) }, nil
	}
	return func(f *frame) int64 { return int64(binary.LittleEndian.Uint64(data[8*addr(f):])) }, nil
}

func (c *compiler) loadFloat(e *scop.Read) (floatFn, error) {
	addr, buf, err := c.ref(e.Array, e.Index, e.At, "read")
	if err != nil {
		return nil, err
	}
	if buf.Type != e.T {
		return nil, fmt.Errorf("statement %s: read of %s array %s typed %s", c.s.Name, buf.Type, e.Array, e.T)
	}
	data := buf.Data
	if e.T == scop.F32 {
		return func(f *frame) float64 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*addr(f):])))
		}, nil
	}
	return func(f *frame) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(data[8*addr(f):])) }, nil
}

// wrapFn returns fn wrapped to the width of t.
func wrapFn(t scop.ElemType, fn intFn) intFn {
	switch t {
	case scop.I64, scop.U64:
		return fn
	case scop.I32:
		return func(f *frame) int64 { return int64(int32(fn(f))) }
	case scop.U32:
		return func(f *frame) int64 { return int64(uint32(fn(f))) }
	}
	return func(f *frame) int64 { return scop.IntValue(t, fn(f)).I }
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// int compiles an expression of an integer type or Bool.
func (c *compiler) int(e scop.Expr) (intFn, error) {
	t := e.Type()
	if t.IsFloat() {
		return nil, fmt.Errorf("statement %s: %s has type %s where an integer is expected", c.s.Name, e, t)
	}
	switch e := e.(type) {
	case *scop.Const:
		v := scop.IntValue(t, e.I).I
		return func(*frame) int64 { return v }, nil
	case *scop.Param:
		pv, ok := c.params[e.Name]
		if !ok {
			return nil, fmt.Errorf("statement %s: no value for parameter %s", c.s.Name, e.Name)
		}
		v := scop.IntValue(t, pv).I
		return func(*frame) int64 { return v }, nil
	case *scop.Iter:
		k := e.Index
		if k < 0 || k >= len(c.s.Iters) {
			return nil, fmt.Errorf("statement %s: unknown iterator %s", c.s.Name, e.Name)
		}
		switch t {
		case scop.I64, scop.U64:
			return func(f *frame) int64 { return f.iters[k] }, nil
		case scop.I32:
			return func(f *frame) int64 { return int64(int32(f.iters[k])) }, nil
		}
		return func(f *frame) int64 { return scop.IntValue(t, f.iters[k]).I }, nil
	case *scop.Read:
		return c.readInt(e)
	case *scop.Unary:
		return c.intUnary(e)
	case *scop.Binary:
		return c.intBinary(e)
	case *scop.Select:
		return compileSelect(c, e, c.int)
	case *scop.Cast:
		return c.castToInt(e)
	case *scop.Call:
		if e.Fn != "abs" || len(e.Args) != 1 {
			return nil, fmt.Errorf("statement %s: %s on %s", c.s.Name, e.Fn, t)
		}
		x, err := c.int(e.Args[0])
		if err != nil {
			return nil, err
		}
		if !t.IsSigned() {
			return countCall(c, e.Fn, x), nil
		}
		return countCall(c, e.Fn, wrapFn(t, func(f *frame) int64 {
			v := x(f)
			if v < 0 {
				return -v
			}
			return v
		})), nil
	}
	return nil, fmt.Errorf("statement %s: cannot evaluate %T %s", c.s.Name, e, e)
}

func (c *compiler) intUnary(e *scop.Unary) (intFn, error) {
	x, err := c.int(e.X)
	if err != nil {
		return nil, err
	}
	t := e.X.Type()
	switch e.Op {
	case scop.Neg:
		return wrapFn(t, func(f *frame) int64 { return -x(f) }), nil
	case scop.Not:
		return func(f *frame) int64 { return 1 ^ x(f) }, nil
	case scop.BitNot:
		return wrapFn(t, func(f *frame) int64 { return ^x(f) }), nil
	}
	return nil, fmt.Errorf("statement %s: unknown unary operator in %s", c.s.Name, e)
}

func (c *compiler) intBinary(e *scop.Binary) (intFn, error) {
	if e.Op.IsCompare() && e.X.Type().IsFloat() {
		return c.floatCompare(e)
	}
	x, err := c.int(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.int(e.Y)
	if err != nil {
		return nil, err
	}
	t := e.X.Type()
	uns := t == scop.U64 // other unsigned types are non-negative int64s
	switch e.Op {
	case scop.And:
		return func(f *frame) int64 {
			if x(f) == 0 {
				return 0
			}
			return y(f)
		}, nil
	case scop.Or:
		return func(f *frame) int64 {
			if x(f) != 0 {
				return 1
			}
			return y(f)
		}, nil
	case scop.Eq:
		return func(f *frame) int64 { return b2i(x(f) == y(f)) }, nil
	case scop.Ne:
		return func(f *frame) int64 { return b2i(x(f) != y(f)) }, nil
	case scop.Lt, scop.Le, scop.Gt, scop.Ge:
		return intCompare(e.Op, uns, x, y), nil
	}
	if t == scop.Bool {
		return nil, fmt.Errorf("statement %s: arithmetic on bool in %s", c.s.Name, e)
	}
	at := e.At
	text := e.String()
	nonZero := func(v int64) {
		if v == 0 {
			fail(at, "integer division by zero in %s", text)
		}
	}
	switch e.Op {
	case scop.Add:
		switch t {
		case scop.I32:
			return func(f *frame) int64 { return int64(int32(x(f) + y(f))) }, nil
		case scop.I64, scop.U64:
			return func(f *frame) int64 { return x(f) + y(f) }, nil
		}
		return wrapFn(t, func(f *frame) int64 { return x(f) + y(f) }), nil
	case scop.Sub:
		switch t {
		case scop.I32:
			return func(f *frame) int64 { return int64(int32(x(f) - y(f))) }, nil
		case scop.I64, scop.U64:
			return func(f *frame) int64 { return x(f) - y(f) }, nil
		}
		return wrapFn(t, func(f *frame) int64 { return x(f) - y(f) }), nil
	case scop.Mul:
		switch t {
		case scop.I32:
			return func(f *frame) int64 { return int64(int32(x(f) * y(f))) }, nil
		case scop.I64, scop.U64:
			return func(f *frame) int64 { return x(f) * y(f) }, nil
		}
		return wrapFn(t, func(f *frame) int64 { return x(f) * y(f) }), nil
	case scop.Div:
		if uns {
			return func(f *frame) int64 {
				a, b := x(f), y(f)
				nonZero(b)
				return int64(uint64(a) / uint64(b))
			}, nil
		}
		return wrapFn(t, func(f *frame) int64 {
			a, b := x(f), y(f)
			nonZero(b)
			return a / b // truncating, as C; MinInt64 / -1 wraps
		}), nil
	case scop.Rem:
		if uns {
			return func(f *frame) int64 {
				a, b := x(f), y(f)
				nonZero(b)
				return int64(uint64(a) % uint64(b))
			}, nil
		}
		return wrapFn(t, func(f *frame) int64 {
			a, b := x(f), y(f)
			nonZero(b)
			return a % b
		}), nil
	case scop.FloorDiv:
		if !t.IsSigned() {
			return func(f *frame) int64 {
				a, b := x(f), y(f)
				nonZero(b)
				return int64(uint64(a) / uint64(b))
			}, nil
		}
		return wrapFn(t, func(f *frame) int64 {
			a, b := x(f), y(f)
			nonZero(b)
			q := a / b
			if a%b != 0 && (a < 0) != (b < 0) {
				q--
			}
			return q
		}), nil
	case scop.Mod:
		if !t.IsSigned() {
			return func(f *frame) int64 {
				a, b := x(f), y(f)
				nonZero(b)
				return int64(uint64(a) % uint64(b))
			}, nil
		}
		return wrapFn(t, func(f *frame) int64 {
			a, b := x(f), y(f)
			nonZero(b)
			m := a % b
			if m != 0 && (m < 0) != (b < 0) {
				m += b
			}
			return m
		}), nil
	case scop.Min, scop.Max:
		if e.Op == scop.Min {
			return func(f *frame) int64 {
				a, b := x(f), y(f)
				if lessInt(uns, b, a) {
					return b
				}
				return a
			}, nil
		}
		return func(f *frame) int64 {
			a, b := x(f), y(f)
			if lessInt(uns, a, b) {
				return b
			}
			return a
		}, nil
	case scop.BitAnd:
		return func(f *frame) int64 { return x(f) & y(f) }, nil
	case scop.BitOr:
		return func(f *frame) int64 { return x(f) | y(f) }, nil
	case scop.BitXor:
		return func(f *frame) int64 { return x(f) ^ y(f) }, nil
	case scop.Shl, scop.Shr:
		bits := uint64(t.Bits())
		signed := t.IsSigned()
		count := func(b int64) uint64 {
			if (signed && b < 0) || uint64(b) >= bits {
				fail(at, "shift count %s out of range for %s in %s", fmtInt(t, b), t, text)
			}
			return uint64(b)
		}
		if e.Op == scop.Shl {
			return wrapFn(t, func(f *frame) int64 {
				a, b := x(f), y(f)
				return a << count(b)
			}), nil
		}
		if uns {
			return func(f *frame) int64 {
				a, b := x(f), y(f)
				return int64(uint64(a) >> count(b))
			}, nil
		}
		// Signed values are sign-extended (arithmetic shift), other
		// unsigned ones non-negative.
		return func(f *frame) int64 {
			a, b := x(f), y(f)
			return a >> count(b)
		}, nil
	}
	return nil, fmt.Errorf("statement %s: operator %s on %s in %s", c.s.Name, e.Op, t, e)
}

func lessInt(uns bool, a, b int64) bool {
	if uns {
		return uint64(a) < uint64(b)
	}
	return a < b
}

func fmtInt(t scop.ElemType, v int64) string {
	if t == scop.U64 {
		return fmt.Sprint(uint64(v))
	}
	return fmt.Sprint(v)
}

// intCompare compiles <, <=, > and >= on integers (unsigned for u64).
func intCompare(op scop.BinOp, uns bool, x, y intFn) intFn {
	if uns {
		switch op {
		case scop.Lt:
			return func(f *frame) int64 { return b2i(uint64(x(f)) < uint64(y(f))) }
		case scop.Le:
			return func(f *frame) int64 { return b2i(uint64(x(f)) <= uint64(y(f))) }
		case scop.Gt:
			return func(f *frame) int64 { return b2i(uint64(x(f)) > uint64(y(f))) }
		}
		return func(f *frame) int64 { return b2i(uint64(x(f)) >= uint64(y(f))) }
	}
	switch op {
	case scop.Lt:
		return func(f *frame) int64 { return b2i(x(f) < y(f)) }
	case scop.Le:
		return func(f *frame) int64 { return b2i(x(f) <= y(f)) }
	case scop.Gt:
		return func(f *frame) int64 { return b2i(x(f) > y(f)) }
	}
	return func(f *frame) int64 { return b2i(x(f) >= y(f)) }
}

func (c *compiler) floatCompare(e *scop.Binary) (intFn, error) {
	x, err := c.float(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.float(e.Y)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case scop.Lt:
		return func(f *frame) int64 { return b2i(x(f) < y(f)) }, nil
	case scop.Le:
		return func(f *frame) int64 { return b2i(x(f) <= y(f)) }, nil
	case scop.Gt:
		return func(f *frame) int64 { return b2i(x(f) > y(f)) }, nil
	case scop.Ge:
		return func(f *frame) int64 { return b2i(x(f) >= y(f)) }, nil
	case scop.Eq:
		return func(f *frame) int64 { return b2i(x(f) == y(f)) }, nil
	}
	return func(f *frame) int64 { return b2i(x(f) != y(f)) }, nil
}

// castToInt compiles a conversion to an integer type or Bool.
func (c *compiler) castToInt(e *scop.Cast) (intFn, error) {
	from, to := e.X.Type(), e.T
	if from.IsFloat() {
		x, err := c.float(e.X)
		if err != nil {
			return nil, err
		}
		return func(f *frame) int64 { return scop.Convert(scop.Value{F: x(f)}, from, to).I }, nil
	}
	x, err := c.int(e.X)
	if err != nil {
		return nil, err
	}
	if from == to {
		return x, nil
	}
	if to == scop.Bool {
		return func(f *frame) int64 { return b2i(x(f) != 0) }, nil
	}
	return wrapFn(to, x), nil
}

// float compiles an expression of a float type. Every f32 result is
// rounded to float32 at once, which for +, -, *, / and sqrt computed in
// float64 is the correctly rounded f32 result.
func (c *compiler) float(e scop.Expr) (floatFn, error) {
	t := e.Type()
	if !t.IsFloat() {
		return nil, fmt.Errorf("statement %s: %s has type %s where a float is expected", c.s.Name, e, t)
	}
	f32 := t == scop.F32
	switch e := e.(type) {
	case *scop.Const:
		v := scop.FloatValue(t, e.F).F
		return func(*frame) float64 { return v }, nil
	case *scop.Read:
		return c.readFloat(e)
	case *scop.Unary:
		if e.Op != scop.Neg {
			break
		}
		x, err := c.float(e.X)
		if err != nil {
			return nil, err
		}
		return func(f *frame) float64 { return -x(f) }, nil
	case *scop.Binary:
		return c.floatBinary(e, f32)
	case *scop.Select:
		return compileSelect(c, e, c.float)
	case *scop.Cast:
		return c.castToFloat(e)
	case *scop.Call:
		return c.call(e, f32)
	case *scop.Iter:
		k := e.Index
		if k < 0 || k >= len(c.s.Iters) {
			return nil, fmt.Errorf("statement %s: unknown iterator %s", c.s.Name, e.Name)
		}
		return func(f *frame) float64 { return scop.IntValue(t, f.iters[k]).F }, nil
	case *scop.Param:
		pv, ok := c.params[e.Name]
		if !ok {
			return nil, fmt.Errorf("statement %s: no value for parameter %s", c.s.Name, e.Name)
		}
		v := scop.IntValue(t, pv).F
		return func(*frame) float64 { return v }, nil
	}
	return nil, fmt.Errorf("statement %s: cannot evaluate %T %s at %s", c.s.Name, e, e, t)
}

func (c *compiler) floatBinary(e *scop.Binary, f32 bool) (floatFn, error) {
	x, err := c.float(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.float(e.Y)
	if err != nil {
		return nil, err
	}
	// Each result is converted explicitly, which keeps Go from fusing a
	// multiplication and an addition into one rounding.
	switch e.Op {
	case scop.Add:
		if f32 {
			return func(f *frame) float64 { return float64(float32(x(f) + y(f))) }, nil
		}
		return func(f *frame) float64 { return float64(x(f) + y(f)) }, nil
	case scop.Sub:
		if f32 {
			return func(f *frame) float64 { return float64(float32(x(f) - y(f))) }, nil
		}
		return func(f *frame) float64 { return float64(x(f) - y(f)) }, nil
	case scop.Mul:
		if f32 {
			return func(f *frame) float64 { return float64(float32(x(f) * y(f))) }, nil
		}
		return func(f *frame) float64 { return float64(x(f) * y(f)) }, nil
	case scop.Div:
		if f32 {
			return func(f *frame) float64 { return float64(float32(x(f) / y(f))) }, nil
		}
		return func(f *frame) float64 { return float64(x(f) / y(f)) }, nil
	case scop.Min:
		return func(f *frame) float64 { return fmin(x(f), y(f)) }, nil
	case scop.Max:
		return func(f *frame) float64 { return fmax(x(f), y(f)) }, nil
	}
	return nil, fmt.Errorf("statement %s: operator %s on floats in %s", c.s.Name, e.Op, e)
}

// fmin is C's fmin: a NaN operand is ignored, -0 is below +0.
func fmin(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Min(a, b)
}

// fmax is C's fmax.
func fmax(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Max(a, b)
}

// castToFloat compiles a conversion to a float type, as scop.Convert.
func (c *compiler) castToFloat(e *scop.Cast) (floatFn, error) {
	from, to := e.X.Type(), e.T
	if from.IsFloat() {
		x, err := c.float(e.X)
		if err != nil {
			return nil, err
		}
		if from == to || to == scop.F64 {
			return x, nil
		}
		return func(f *frame) float64 { return float64(float32(x(f))) }, nil
	}
	x, err := c.int(e.X)
	if err != nil {
		return nil, err
	}
	if from == scop.U64 {
		return func(f *frame) float64 { return scop.Convert(scop.Value{I: x(f)}, from, to).F }, nil
	}
	if to == scop.F32 {
		return func(f *frame) float64 { return float64(float32(x(f))) }, nil
	}
	return func(f *frame) float64 { return float64(x(f)) }, nil
}

// mathFuncs1 and mathFuncs2 are the float functions of one and two
// arguments. math.Round rounds half away from zero, as C's round.
var (
	mathFuncs1 = map[string]func(float64) float64{
		"sqrt": math.Sqrt, "exp": math.Exp, "log": math.Log, "abs": math.Abs,
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "tanh": math.Tanh,
		"atan": math.Atan, "floor": math.Floor, "ceil": math.Ceil,
		"round": math.Round, "exp2": math.Exp2, "log2": math.Log2,
	}
	mathFuncs2 = map[string]func(float64, float64) float64{"pow": math.Pow, "atan2": math.Atan2}
)

// call compiles a math function. At f32 it is computed in float64 and
// rounded to float32 (exact for sqrt, floor, ceil, round and abs).
func (c *compiler) call(e *scop.Call, f32 bool) (floatFn, error) {
	args := make([]floatFn, len(e.Args))
	for i, a := range e.Args {
		fn, err := c.float(a)
		if err != nil {
			return nil, err
		}
		args[i] = fn
	}
	if fn, ok := mathFuncs1[e.Fn]; ok && len(args) == 1 {
		x := args[0]
		if f32 {
			return countCall(c, e.Fn, func(f *frame) float64 { return float64(float32(fn(x(f)))) }), nil
		}
		return countCall(c, e.Fn, func(f *frame) float64 { return fn(x(f)) }), nil
	}
	if fn, ok := mathFuncs2[e.Fn]; ok && len(args) == 2 {
		x, y := args[0], args[1]
		if f32 {
			return countCall(c, e.Fn, func(f *frame) float64 { return float64(float32(fn(x(f), y(f)))) }), nil
		}
		return countCall(c, e.Fn, func(f *frame) float64 { return fn(x(f), y(f)) }), nil
	}
	return nil, fmt.Errorf("statement %s: unknown function %s/%d", c.s.Name, e.Fn, len(e.Args))
}

// compileSelect compiles a select whose branches compile with branch
// (c.int or c.float); only the chosen branch runs.
func compileSelect[F ~func(*frame) T, T any](c *compiler, e *scop.Select, branch func(scop.Expr) (F, error)) (F, error) {
	cond, err := c.int(e.Cond)
	if err != nil {
		return nil, err
	}
	th, err := branch(e.Then)
	if err != nil {
		return nil, err
	}
	el, err := branch(e.Else)
	if err != nil {
		return nil, err
	}
	return F(func(f *frame) T {
		if cond(f) != 0 {
			return th(f)
		}
		return el(f)
	}), nil
}
