package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/scop"
)

// This file lowers statement bodies (scop expressions) with the meaning
// ast.PrintProgram's C gives them, which is the reference executor's:
// each operator at its operands' type, narrow integers wrapped after every
// operation, f32 arithmetic in float, C's truncating / and %, floor
// division and modulo rounding down, only the chosen branch of a select
// and the needed operand of && and || evaluated.

// stmtCtx lowers the expressions of one statement instance.
type stmtCtx struct {
	fs   *fnState
	env  *env
	args []value.Value // the instance's iterator values, i64
	what string        // "statement S0", for errors
	// forms and bases, in a strip-mined loop (env.strip), are the
	// iterators' coefficients of q and values at q = 0.
	forms stripForms
	bases []value.Value
}

func (c *stmtCtx) b() *ir.Block { return c.fs.cur }

// val computes e at its register type.
func (c *stmtCtx) val(e scop.Expr) value.Value {
	t := e.Type()
	if !validType(t) {
		fail("%s: %s has type %s", c.what, e, t)
	}
	switch e := e.(type) {
	case *scop.Const:
		if t.IsFloat() {
			return floatConst(t, e.F)
		}
		return intConst(t, scop.IntValue(t, e.I).I)
	case *scop.Iter:
		if e.Index < 0 || e.Index >= len(c.args) {
			fail("%s: iterator %s out of range", c.what, e.Name)
		}
		return c.fromI64(c.args[e.Index], t)
	case *scop.Param:
		v := c.env.params[e.Name]
		if v == nil {
			fail("%s: unknown parameter %s", c.what, e.Name)
		}
		return c.fromI64(v, t)
	case *scop.Read:
		b, addr := c.addr(e.Ref)
		if b.elem != e.T {
			fail("%s: read of %s array %s typed %s", c.what, b.elem, b.name, e.T)
		}
		ld := c.b().NewLoad(memType(t), addr)
		ld.Align = ir.Align(t.Size())
		c.fs.access(&ld.Metadata, b)
		return fromMem(c.b(), ld, t)
	case *scop.Unary:
		return c.unary(e)
	case *scop.Binary:
		if c.env.strip != nil && (e.Op == scop.FloorDiv || e.Op == scop.Mod) {
			if v, ok := c.stripValue(e); ok {
				return c.fromI64(v, t)
			}
		}
		return c.binary(e)
	case *scop.Select:
		return c.sel(e)
	case *scop.Cast:
		return c.convert(c.val(e.X), e.X.Type(), e.T)
	case *scop.Call:
		return c.call(e)
	}
	fail("%s: cannot lower %T %s", c.what, e, e)
	return nil
}

// fromI64 converts an iterator or parameter value to t, as C converts
// an int.
func (c *stmtCtx) fromI64(v value.Value, t scop.ElemType) value.Value {
	if k, ok := constI64(v); ok && t.IsInt() {
		return intConst(t, k)
	}
	switch {
	case t == scop.Bool:
		return c.b().NewICmp(enum.IPredNE, v, i64(0))
	case t.IsFloat():
		return c.b().NewSIToFP(v, llType(t))
	case t.Bits() < 64:
		return c.b().NewTrunc(v, llType(t))
	}
	return v
}

// toI64 extends an integer value of type t to i64.
func (c *stmtCtx) toI64(v value.Value, t scop.ElemType) value.Value {
	if k, ok := v.(*constant.Int); ok && k.X.IsInt64() && k.Typ.BitSize > 1 {
		// Constants are written signed; unsigned ones are zero-extended.
		w := k.X.Int64()
		if !t.IsSigned() && t.Bits() < 64 {
			w &= 1<<uint(t.Bits()) - 1
		}
		return i64(w)
	}
	switch {
	case t.Bits() == 64:
		return v
	case t.IsSigned():
		return c.b().NewSExt(v, types.I64)
	}
	return c.b().NewZExt(v, types.I64)
}

// addr returns the binding of r's array and the address of r's element:
// the row-major offset of its subscripts.
func (c *stmtCtx) addr(r scop.Ref) (*binding, value.Value) {
	if a := c.env.acc; a != nil && r.Array == a.array && r.String() == a.ref {
		return a.slot, a.slot.ptr
	}
	b := c.env.arrays[r.Array]
	if b == nil {
		fail("%s: unknown array %s", c.what, r.Array)
	}
	if len(r.Index) != len(b.dims) {
		fail("%s: %s has %d dimensions, indexed with %d subscripts", c.what, r.Array, len(b.dims), len(r.Index))
	}
	if len(r.Index) == 0 {
		return b, b.ptr
	}
	var off value.Value
	for d, x := range r.Index {
		s := c.subscript(x)
		if b.origin != nil {
			s = subNSW(c.b(), s, b.origin[d])
		}
		if d < len(b.fold) && b.fold[d] > 0 {
			s = ring(c.b(), s, b.fold[d])
		}
		if d == 0 {
			off = s
			continue
		}
		off = addNSW(c.b(), mulNSW(c.b(), off, b.dims[d]), s)
	}
	gep := c.b().NewGetElementPtr(memType(b.elem), b.ptr, off)
	gep.InBounds = true
	return b, gep
}

// ring is s's position in a ring of f elements (a folded dimension).
// For a power of two, s & (f-1) is the floor mod of any s; urem is only
// right for s >= 0, which the builder of folded buffers guarantees (every
// access inside the buffer's scope is at or after its origin).
func ring(b *ir.Block, s value.Value, f int64) value.Value {
	if k, ok := constI64(s); ok {
		return i64((k%f + f) % f)
	}
	if f&(f-1) == 0 {
		return b.NewAnd(s, i64(f-1))
	}
	return b.NewURem(s, i64(f))
}

// subscript computes an array subscript as i64. An affine subscript of
// int or int64_t type is computed in i64 without wrapping: its C
// arithmetic cannot overflow in a valid program, and the vectorizer then
// sees the affine access.
func (c *stmtCtx) subscript(x scop.Expr) value.Value {
	t := x.Type()
	if !t.IsInt() {
		fail("%s: subscript %s has type %s", c.what, x, t)
	}
	if (t == scop.I32 || t == scop.I64) && c.isAffine(x, t) {
		return c.affine(x)
	}
	if c.env.strip != nil {
		if v, ok := c.stripValue(x); ok {
			return v
		}
	}
	return c.toI64(c.val(x), t)
}

// isAffine reports whether x is a tree of +, -, * of constants,
// parameters and iterators all of type t.
func (c *stmtCtx) isAffine(x scop.Expr, t scop.ElemType) bool {
	if x.Type() != t {
		return false
	}
	switch x := x.(type) {
	case *scop.Const, *scop.Param:
		return true
	case *scop.Iter:
		return x.Index >= 0 && x.Index < len(c.args)
	case *scop.Cast:
		return c.isAffine(x.X, t)
	case *scop.Unary:
		return x.Op == scop.Neg && c.isAffine(x.X, t)
	case *scop.Binary:
		switch x.Op {
		case scop.Add, scop.Sub, scop.Mul:
			return c.isAffine(x.X, t) && c.isAffine(x.Y, t)
		}
	}
	return false
}

// affine computes an isAffine expression in i64.
func (c *stmtCtx) affine(x scop.Expr) value.Value {
	switch x := x.(type) {
	case *scop.Const:
		return i64(scop.IntValue(x.T, x.I).I)
	case *scop.Param:
		v := c.env.params[x.Name]
		if v == nil {
			fail("%s: unknown parameter %s", c.what, x.Name)
		}
		return v
	case *scop.Iter:
		return c.args[x.Index]
	case *scop.Cast:
		return c.affine(x.X)
	case *scop.Unary:
		return subNSW(c.b(), i64(0), c.affine(x.X))
	case *scop.Binary:
		a, b := c.affine(x.X), c.affine(x.Y)
		switch x.Op {
		case scop.Add:
			return addNSW(c.b(), a, b)
		case scop.Sub:
			return subNSW(c.b(), a, b)
		}
		return mulNSW(c.b(), a, b)
	}
	panic("unreachable")
}

func (c *stmtCtx) unary(e *scop.Unary) value.Value {
	t := e.X.Type()
	x := c.val(e.X)
	switch e.Op {
	case scop.Neg:
		if t.IsFloat() {
			return c.b().NewFNeg(x)
		}
		return c.b().NewSub(intConst(t, 0), x)
	case scop.Not:
		if t != scop.Bool {
			fail("%s: ! on %s in %s", c.what, t, e)
		}
		return c.b().NewXor(x, intConst(scop.Bool, 1))
	case scop.BitNot:
		if t == scop.Bool {
			// ~ of a promoted 0 or 1 is never 0.
			return intConst(scop.Bool, 1)
		}
		if t.IsInt() {
			return c.b().NewXor(x, intConst(t, -1))
		}
	}
	fail("%s: cannot lower %s", c.what, e)
	return nil
}

// sel branches to the chosen operand only: the other may divide by zero
// or read out of bounds. SimplifyCFG makes a select where it sees that
// is safe; a select Options.Speculable names is one from the start,
// since LLVM cannot tell that a load from a tile-local buffer at a
// variable offset stays inside it, and a branch keeps the loop from
// vectorizing.
func (c *stmtCtx) sel(e *scop.Select) value.Value {
	if e.Cond.Type() != scop.Bool || e.Then.Type() != e.Else.Type() {
		fail("%s: ill-typed select %s", c.what, e)
	}
	cond := c.val(e.Cond)
	fs := c.fs
	if fs.e.opts.Speculable[e] {
		a, b := c.val(e.Then), c.val(e.Else)
		return fs.cur.NewSelect(cond, a, b)
	}
	then, els, end := fs.newBlock("sel.then"), fs.newBlock("sel.else"), fs.newBlock("sel.end")
	fs.cur.NewCondBr(cond, then, els)
	fs.start(then)
	a := c.val(e.Then)
	aEnd := fs.cur
	aEnd.NewBr(end)
	fs.start(els)
	b := c.val(e.Else)
	bEnd := fs.cur
	bEnd.NewBr(end)
	fs.start(end)
	return end.NewPhi(ir.NewIncoming(a, aEnd), ir.NewIncoming(b, bEnd))
}

// logical evaluates Y only when X does not decide.
func (c *stmtCtx) logical(e *scop.Binary) value.Value {
	if e.X.Type() != scop.Bool || e.Y.Type() != scop.Bool {
		fail("%s: %s on non-bool operands in %s", c.what, e.Op, e)
	}
	fs := c.fs
	x := c.val(e.X)
	from := fs.cur
	rhs, end := fs.newBlock("logic.rhs"), fs.newBlock("logic.end")
	decided := intConst(scop.Bool, 0)
	if e.Op == scop.And {
		from.NewCondBr(x, rhs, end)
	} else {
		from.NewCondBr(x, end, rhs)
		decided = intConst(scop.Bool, 1)
	}
	fs.start(rhs)
	y := c.val(e.Y)
	yEnd := fs.cur
	yEnd.NewBr(end)
	fs.start(end)
	return end.NewPhi(ir.NewIncoming(decided, from), ir.NewIncoming(y, yEnd))
}

func (c *stmtCtx) binary(e *scop.Binary) value.Value {
	if e.Op.IsLogical() {
		return c.logical(e)
	}
	t := e.X.Type()
	if e.Y.Type() != t {
		fail("%s: operands of %s differ in type in %s", c.what, e.Op, e)
	}
	x, y := c.val(e.X), c.val(e.Y)
	switch {
	case e.Op.IsCompare():
		return c.compare(e.Op, x, y, t)
	case t.IsFloat():
		return c.floatBinary(e, x, y)
	case t == scop.Bool:
		fail("%s: arithmetic on bool in %s", c.what, e)
	}
	return c.intBinary(e, x, y)
}

var (
	signedPreds   = map[scop.BinOp]enum.IPred{scop.Lt: enum.IPredSLT, scop.Le: enum.IPredSLE, scop.Gt: enum.IPredSGT, scop.Ge: enum.IPredSGE, scop.Eq: enum.IPredEQ, scop.Ne: enum.IPredNE}
	unsignedPreds = map[scop.BinOp]enum.IPred{scop.Lt: enum.IPredULT, scop.Le: enum.IPredULE, scop.Gt: enum.IPredUGT, scop.Ge: enum.IPredUGE, scop.Eq: enum.IPredEQ, scop.Ne: enum.IPredNE}
	// C's comparisons are false on NaN operands, except !=.
	floatPreds = map[scop.BinOp]enum.FPred{scop.Lt: enum.FPredOLT, scop.Le: enum.FPredOLE, scop.Gt: enum.FPredOGT, scop.Ge: enum.FPredOGE, scop.Eq: enum.FPredOEQ, scop.Ne: enum.FPredUNE}
)

func (c *stmtCtx) compare(op scop.BinOp, x, y value.Value, t scop.ElemType) value.Value {
	switch {
	case t.IsFloat():
		return c.b().NewFCmp(floatPreds[op], x, y)
	case t.IsSigned():
		return c.b().NewICmp(signedPreds[op], x, y)
	}
	return c.b().NewICmp(unsignedPreds[op], x, y)
}

func (c *stmtCtx) floatBinary(e *scop.Binary, x, y value.Value) value.Value {
	b := c.b()
	switch e.Op {
	case scop.Add:
		return b.NewFAdd(x, y)
	case scop.Sub:
		return b.NewFSub(x, y)
	case scop.Mul:
		return b.NewFMul(x, y)
	case scop.Div:
		return b.NewFDiv(x, y)
	case scop.Min, scop.Max:
		// minnum and maxnum are C's fmin and fmax (a NaN operand is
		// ignored).
		name := map[scop.BinOp]string{scop.Min: "llvm.minnum", scop.Max: "llvm.maxnum"}[e.Op]
		return c.intrinsic(name, e.X.Type(), x, y)
	}
	fail("%s: operator %s on floats in %s", c.what, e.Op, e)
	return nil
}

// intrinsic calls the LLVM intrinsic name overloaded at float type t.
func (c *stmtCtx) intrinsic(name string, t scop.ElemType, args ...value.Value) value.Value {
	suffix := ".f64"
	if t == scop.F32 {
		suffix = ".f32"
	}
	ft := llType(t)
	params := make([]types.Type, len(args))
	for i := range params {
		params[i] = ft
	}
	return c.b().NewCall(c.fs.e.declare(name+suffix, ft, params...), args...)
}
