package refexec

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// Options configures Compile.
type Options struct {
	// Counts, when not nil, accumulates what the code executes. Code
	// compiled without it runs Run's closures, with no counting cost.
	Counts *Counts
	// Rebind names the arrays whose buffer Code.Bind may replace while
	// the code runs (tile-local buffers). Their accesses read the buffer
	// and its shape, origin and fold at each access; the others are
	// bound at compile time.
	Rebind []string
	// Observe, when not nil, sees every load and store executed. Code
	// compiled without it pays nothing.
	Observe Observer
}

// Observer sees the memory accesses of running code, in order: the
// array, the buffer accessed (a rebindable array's current one) and the
// element's row-major offset in it. A statement's store comes after the
// loads of its value.
type Observer interface {
	Load(array string, b *scop.Buffer, off int64)
	Store(array string, b *scop.Buffer, off int64)
}

// access is a statement's last write, for the observer's Store.
type access struct {
	b   *scop.Buffer
	off int64
}

// observed wraps addr, an address of array in the buffer buf returns, so
// that the observer sees a load (what is "read") or the statement's
// write records its element.
func (c *compiler) observed(array string, buf func() *scop.Buffer, addr func(*frame) int64, what string) func(*frame) int64 {
	obs := c.obs
	if what == "read" {
		return func(f *frame) int64 {
			off := addr(f)
			obs.Load(array, buf(), off)
			return off
		}
	}
	w := c.wrote
	return func(f *frame) int64 {
		off := addr(f)
		w.b, w.off = buf(), off
		return off
	}
}

// Code is a program compiled for running statement instances in any
// order, one at a time (Exec): the executor of an AST, say. It is not
// safe for concurrent use.
type Code struct {
	stmts map[string]*stmtCode
	cells map[string]*cell
	f     frame
}

type stmtCode struct {
	s   *scop.Stmt
	run func(*frame)
}

// Compile compiles every statement of p at the given parameter values,
// bound to bufs as Run binds them: an array without a buffer gets a
// zeroed one, added to bufs when bufs is not nil.
func Compile(p *scop.Program, params map[string]int64, bufs map[string]*scop.Buffer, opt Options) (*Code, error) {
	if err := p.CheckParams(params); err != nil {
		return nil, err
	}
	bufs, err := bindBuffers(p, params, bufs)
	if err != nil {
		return nil, err
	}
	code := &Code{stmts: map[string]*stmtCode{}, cells: map[string]*cell{}}
	for _, name := range opt.Rebind {
		cl := &cell{name: name, rank: -1, buf: bufs[name]}
		if a := p.Array(name); a != nil {
			cl.typ, cl.rank = a.Type, a.Rank()
		}
		code.cells[name] = cl
	}
	for _, s := range p.Stmts {
		if code.stmts[s.Name] != nil {
			return nil, fmt.Errorf("two statements named %s", s.Name)
		}
		c := &compiler{s: s, params: params, bufs: bufs, cells: code.cells}
		if opt.Counts != nil {
			c.count = opt.Counts.stmt(s.Name)
			c.count.write = s.Write.Array
		}
		if opt.Observe != nil {
			c.obs, c.wrote = opt.Observe, &access{}
		}
		run, err := c.compileStmt()
		if err != nil {
			return nil, err
		}
		if obs := c.obs; obs != nil {
			inner, w, array := run, c.wrote, s.Write.Array
			run = func(f *frame) {
				inner(f)
				obs.Store(array, w.b, w.off)
			}
		}
		if sc := c.count; sc != nil {
			inner := run
			run = func(f *frame) {
				sc.instances++
				inner(f)
				sc.stores++
			}
		}
		code.stmts[s.Name] = &stmtCode{s: s, run: run}
	}
	return code, nil
}

// Exec runs the instance iters of statement stmt. An instance that cannot
// run (an access out of bounds, say) gives an *InstanceError, as in Run.
func (c *Code) Exec(stmt string, iters []int64) (err error) {
	sc := c.stmts[stmt]
	if sc == nil {
		return fmt.Errorf("no statement %s", stmt)
	}
	if len(iters) != len(sc.s.Iters) {
		return fmt.Errorf("statement %s has %d iterators, run with %d values %v", stmt, len(sc.s.Iters), len(iters), iters)
	}
	defer func() {
		if r := recover(); r != nil {
			fl, ok := r.(*failure)
			if !ok {
				panic(r)
			}
			at := fl.at
			if !at.IsValid() {
				at = sc.s.At
			}
			err = &InstanceError{Stmt: stmt, Instance: slices.Clone(iters), Pos: at, Msg: fl.msg}
		}
	}()
	c.f.iters = iters
	sc.run(&c.f)
	return nil
}

// Bind makes b the buffer of the rebindable array name and returns the
// one bound before (nil for none). b must have the element type and rank
// the statements access the array with; nil unbinds the array, so that
// accessing it fails.
func (c *Code) Bind(name string, b *scop.Buffer) (*scop.Buffer, error) {
	cl := c.cells[name]
	if cl == nil {
		return nil, fmt.Errorf("array %s is not rebindable", name)
	}
	if b != nil {
		switch {
		case cl.typ != scop.Invalid && b.Type != cl.typ:
			return nil, fmt.Errorf("array %s is accessed as %s, not as the buffer's %s", name, cl.typ, b.Type)
		case cl.rank >= 0 && len(b.Shape) != cl.rank:
			return nil, fmt.Errorf("array %s is accessed with %d subscripts, not the buffer's %d", name, cl.rank, len(b.Shape))
		case b.Fold != nil && len(b.Fold) != len(b.Shape):
			return nil, fmt.Errorf("buffer for array %s has %d extents and %d folds", name, len(b.Shape), len(b.Fold))
		case int64(len(b.Data)) != product(b.Shape)*int64(b.Type.Size()):
			return nil, fmt.Errorf("buffer for array %s holds %d bytes, not %d elements of %s", name, len(b.Data), product(b.Shape), b.Type)
		}
	}
	prev := cl.buf
	cl.buf = b
	return prev, nil
}

// Counts accumulates, per statement, the instances, loads and stores
// executed, and per math function the calls executed (a select evaluates
// only its chosen branch, && and || only what they need). Several Codes
// may share one. Its zero value is ready to use.
type Counts struct {
	stmts map[string]*stmtCounters
	calls map[string]*int64
}

// StmtCounts is what one statement executed.
type StmtCounts struct {
	Instances, Loads, Stores int64
	// ArrayLoads splits Loads by array.
	ArrayLoads map[string]int64
}

type stmtCounters struct {
	all               *Counts
	instances, stores int64
	loads             map[string]*int64 // per array
	write             string            // the array stored to
}

func (c *Counts) stmt(name string) *stmtCounters {
	if c.stmts == nil {
		c.stmts = map[string]*stmtCounters{}
	}
	sc := c.stmts[name]
	if sc == nil {
		sc = &stmtCounters{all: c, loads: map[string]*int64{}}
		c.stmts[name] = sc
	}
	return sc
}

func counter(m map[string]*int64, name string) *int64 {
	n := m[name]
	if n == nil {
		n = new(int64)
		m[name] = n
	}
	return n
}

// Stmts returns the counts of every compiled statement.
func (c *Counts) Stmts() map[string]StmtCounts {
	out := make(map[string]StmtCounts, len(c.stmts))
	for name, sc := range c.stmts {
		s := StmtCounts{Instances: sc.instances, Stores: sc.stores, ArrayLoads: map[string]int64{}}
		for a, n := range sc.loads {
			s.Loads += *n
			s.ArrayLoads[a] += *n
		}
		out[name] = s
	}
	return out
}

// Accesses returns the loads of array and the stores to it counted so
// far, over every statement: cheaper than Stmts for polling.
func (c *Counts) Accesses(array string) int64 {
	var n int64
	for _, sc := range c.stmts {
		if p := sc.loads[array]; p != nil {
			n += *p
		}
		if sc.write == array {
			n += sc.stores
		}
	}
	return n
}

// Calls returns the number of calls of each math function that code
// compiled with c contains (zero for those never executed).
func (c *Counts) Calls() map[string]int64 {
	out := make(map[string]int64, len(c.calls))
	for name, n := range c.calls {
		out[name] = *n
	}
	return out
}

// countCall counts the calls of fn when counting.
func countCall[F ~func(*frame) T, T any](c *compiler, name string, fn F) F {
	if c.count == nil {
		return fn
	}
	all := c.count.all
	if all.calls == nil {
		all.calls = map[string]*int64{}
	}
	n := counter(all.calls, name)
	return F(func(f *frame) T {
		*n++
		return fn(f)
	})
}

// countLoad counts the executions of the load fn of array when counting.
func countLoad[F ~func(*frame) T, T any](c *compiler, array string, fn F) F {
	if c.count == nil {
		return fn
	}
	n := counter(c.count.loads, array)
	return F(func(f *frame) T {
		*n++
		return fn(f)
	})
}

// readInt compiles a load, through a cell for a rebindable array.
func (c *compiler) readInt(e *scop.Read) (intFn, error) {
	var fn intFn
	var err error
	if cl := c.cells[e.Array]; cl != nil {
		fn, err = c.cellLoadInt(e, cl)
	} else {
		fn, err = c.loadInt(e)
	}
	if err != nil {
		return nil, err
	}
	return countLoad(c, e.Array, fn), nil
}

func (c *compiler) readFloat(e *scop.Read) (floatFn, error) {
	var fn floatFn
	var err error
	if cl := c.cells[e.Array]; cl != nil {
		fn, err = c.cellLoadFloat(e, cl)
	} else {
		fn, err = c.loadFloat(e)
	}
	if err != nil {
		return nil, err
	}
	return countLoad(c, e.Array, fn), nil
}

// cell holds the current buffer of a rebindable array, with the element
// type and rank its accesses need (Invalid and -1 until one is compiled).
type cell struct {
	name string
	typ  scop.ElemType
	rank int
	buf  *scop.Buffer
}

// use records that an access of type t (Invalid: any) and rank reaches
// the cell, checking it against earlier ones.
func (c *compiler) use(cl *cell, t scop.ElemType, rank int, what string) error {
	if cl.rank < 0 {
		cl.rank = rank
	}
	if rank != cl.rank {
		return fmt.Errorf("statement %s: %s has %d dimensions, indexed with %d subscripts", c.s.Name, cl.name, cl.rank, rank)
	}
	if cl.typ == scop.Invalid {
		cl.typ = t
	}
	if t != cl.typ {
		return fmt.Errorf("statement %s: %s of %s array %s typed %s", c.s.Name, what, cl.typ, cl.name, t)
	}
	return nil
}

// cellRef is ref for a rebindable array: the buffer and its shape,
// origin and fold are read at each access.
func (c *compiler) cellRef(cl *cell, index []scop.Expr, at scop.Pos, what string) (func(*frame) int64, error) {
	addr, err := c.cellAddr(cl, index, at, what)
	if err != nil || c.obs == nil {
		return addr, err
	}
	return c.observed(cl.name, func() *scop.Buffer { return cl.buf }, addr, what), nil
}

// cellAddr is cellRef without observation.
func (c *compiler) cellAddr(cl *cell, index []scop.Expr, at scop.Pos, what string) (func(*frame) int64, error) {
	subs := make([]intFn, len(index))
	for d, x := range index {
		if !x.Type().IsInt() {
			return nil, fmt.Errorf("statement %s: subscript %s of %s has type %s", c.s.Name, x, cl.name, x.Type())
		}
		fn, err := c.int(x)
		if err != nil {
			return nil, err
		}
		subs[d] = fn
	}
	text := scop.Ref{Array: cl.name, Index: index}.String()
	vals := make([]int64, len(subs)) // not reentrant: one per reference
	return func(f *frame) int64 {
		b := cl.buf
		if b == nil {
			fail(at, "%s of %s: array %s has no buffer", what, text, cl.name)
		}
		var off int64
		bad := false
		for d, s := range subs {
			v := s(f)
			vals[d] = v
			if b.Origin != nil {
				v -= b.Origin[d]
			}
			if b.Fold != nil && b.Fold[d] > 0 {
				v = ring(v, b.Fold[d])
			}
			bad = bad || uint64(v) >= uint64(b.Shape[d])
			off = off*b.Shape[d] + v
		}
		if bad {
			idx := make([]string, len(vals))
			for d, v := range vals {
				idx[d] = fmt.Sprint(v)
			}
			if b.Fold != nil {
				fail(at, "%s of %s out of bounds: element %s[%s] of shape %v at origin %v folded %v", what, text, cl.name, strings.Join(idx, "]["), b.Shape, b.Origin, b.Fold)
			}
			if b.Origin != nil {
				fail(at, "%s of %s out of bounds: element %s[%s] of shape %v at origin %v", what, text, cl.name, strings.Join(idx, "]["), b.Shape, b.Origin)
			}
			fail(at, "%s of %s out of bounds: element %s[%s] of shape %v", what, text, cl.name, strings.Join(idx, "]["), b.Shape)
		}
		return off
	}, nil
}

func (c *compiler) cellLoadInt(e *scop.Read, cl *cell) (intFn, error) {
	if err := c.use(cl, e.T, len(e.Index), "read"); err != nil {
		return nil, err
	}
	addr, err := c.cellRef(cl, e.Index, e.At, "read")
	if err != nil {
		return nil, err
	}
	t := e.T
	return func(f *frame) int64 {
		off := addr(f)
		return scop.IntValue(t, loadBits(cl.buf.Data, off, t.Size())).I
	}, nil
}

func (c *compiler) cellLoadFloat(e *scop.Read, cl *cell) (floatFn, error) {
	if err := c.use(cl, e.T, len(e.Index), "read"); err != nil {
		return nil, err
	}
	addr, err := c.cellRef(cl, e.Index, e.At, "read")
	if err != nil {
		return nil, err
	}
	if e.T == scop.F32 {
		return func(f *frame) float64 {
			off := addr(f)
			return float64(math.Float32frombits(uint32(loadBits(cl.buf.Data, off, 4))))
		}, nil
	}
	return func(f *frame) float64 {
		off := addr(f)
		return math.Float64frombits(uint64(loadBits(cl.buf.Data, off, 8)))
	}, nil
}

// cellStmt is compileStmt for a statement writing a rebindable array.
func (c *compiler) cellStmt(cl *cell) (func(*frame), error) {
	w := c.s.Write
	t := c.s.Value.Type()
	if err := c.use(cl, t, len(w.Index), "write"); err != nil {
		return nil, err
	}
	addr, err := c.cellRef(cl, w.Index, scop.Pos{}, "write")
	if err != nil {
		return nil, err
	}
	size := t.Size()
	if t.IsFloat() {
		v, err := c.float(c.s.Value)
		if err != nil {
			return nil, err
		}
		if t == scop.F32 {
			return func(f *frame) {
				off := addr(f)
				storeBits(cl.buf.Data, off, 4, int64(math.Float32bits(float32(v(f)))))
			}, nil
		}
		return func(f *frame) {
			off := addr(f)
			storeBits(cl.buf.Data, off, 8, int64(math.Float64bits(v(f))))
		}, nil
	}
	v, err := c.int(c.s.Value)
	if err != nil {
		return nil, err
	}
	return func(f *frame) {
		off := addr(f)
		storeBits(cl.buf.Data, off, size, v(f))
	}, nil
}

// ring is i's position in a ring of f elements: i mod f, floor mod.
func ring(i, f int64) int64 {
	m := i % f
	if m < 0 {
		m += f
	}
	return m
}

// loadBits reads element off of size bytes, zero-extended.
func loadBits(data []byte, off int64, size int) int64 {
	switch size {
	case 1:
		return int64(data[off])
	case 2:
		return int64(binary.LittleEndian.Uint16(data[2*off:]))
	case 4:
		return int64(binary.LittleEndian.Uint32(data[4*off:]))
	}
	return int64(binary.LittleEndian.Uint64(data[8*off:]))
}

// storeBits writes the low size bytes of v to element off.
func storeBits(data []byte, off int64, size int, v int64) {
	switch size {
	case 1:
		data[off] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(data[2*off:], uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(data[4*off:], uint32(v))
	default:
		binary.LittleEndian.PutUint64(data[8*off:], uint64(v))
	}
}
