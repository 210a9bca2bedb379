package emit

import (
	"fmt"
	"math"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/scop"
)

// This file lowers integer operators, conversions and math calls.
// Integers are computed at their own width, which wraps as the reference
// executor does; where LLVM's operation has undefined cases that the
// reference defines (INT_MIN / -1, shifting a promoted narrow value),
// the operation is done wider or guarded.

func (c *stmtCtx) intBinary(e *scop.Binary, x, y value.Value) value.Value {
	t := e.X.Type()
	b := c.b()
	switch e.Op {
	case scop.Add:
		return b.NewAdd(x, y)
	case scop.Sub:
		return b.NewSub(x, y)
	case scop.Mul:
		return b.NewMul(x, y)
	case scop.BitAnd:
		return b.NewAnd(x, y)
	case scop.BitOr:
		return b.NewOr(x, y)
	case scop.BitXor:
		return b.NewXor(x, y)
	case scop.Div, scop.Rem, scop.FloorDiv, scop.Mod:
		if _, ok := y.(*constant.Int); !ok && t.Bits() <= 32 {
			return c.fpDiv(e.Op, x, y, t)
		}
	}
	switch e.Op {
	case scop.Div, scop.Rem:
		if !t.IsSigned() {
			if e.Op == scop.Div {
				return b.NewUDiv(x, y)
			}
			return b.NewURem(x, y)
		}
		return c.truncDiv(e.Op, x, y, t)
	case scop.FloorDiv, scop.Mod:
		if !t.IsSigned() {
			if e.Op == scop.FloorDiv {
				return b.NewUDiv(x, y)
			}
			return b.NewURem(x, y)
		}
		return c.floorDiv(e.Op, x, y, t)
	case scop.Min:
		// As the reference: y when y < x, else x.
		return b.NewSelect(c.compare(scop.Lt, y, x, t), y, x)
	case scop.Max:
		return b.NewSelect(c.compare(scop.Lt, x, y, t), y, x)
	case scop.Shl, scop.Shr:
		return c.shift(e.Op, x, y, t)
	}
	fail("%s: operator %s on %s in %s", c.what, e.Op, t, e)
	return nil
}

// notMinusOne reports whether v is a constant other than -1, for which
// sdiv and srem are defined whenever C's / and % are.
func notMinusOne(v value.Value) bool {
	k, ok := v.(*constant.Int)
	return ok && !(k.X.IsInt64() && k.X.Int64() == -1)
}

// truncDiv is C's truncating / or % of signed integers. Narrower types
// are computed in a wider one, where INT_MIN / -1 cannot overflow; i64
// tests for -1 (the quotient wraps, the remainder is 0).
func (c *stmtCtx) truncDiv(op scop.BinOp, x, y value.Value, t scop.ElemType) value.Value {
	b := c.b()
	apply := func(x, y value.Value) value.Value {
		if op == scop.Div {
			return b.NewSDiv(x, y)
		}
		return b.NewSRem(x, y)
	}
	switch {
	case notMinusOne(y) && t.Bits() >= 32:
		return apply(x, y)
	case t.Bits() < 32:
		return b.NewTrunc(apply(b.NewSExt(x, types.I32), b.NewSExt(y, types.I32)), llType(t))
	case t.Bits() == 32:
		return b.NewTrunc(apply(b.NewSExt(x, types.I64), b.NewSExt(y, types.I64)), types.I32)
	}
	m1 := b.NewICmp(enum.IPredEQ, y, i64(-1))
	safe := b.NewSelect(m1, i64(1), y)
	if op == scop.Div {
		return b.NewSelect(m1, b.NewSub(i64(0), x), b.NewSDiv(x, safe))
	}
	return b.NewSRem(x, safe)
}

// fpDiv is division or remainder (truncating, or floor for FloorDiv and
// Mod) of integers of at most 32 bits by a divisor that is not a
// constant, computed through double: LLVM vectorizes it (x86 has no
// vector integer division) where it would divide element by element. It
// is exact: both operands convert exactly, and the correctly rounded
// quotient of integers below 2^53 never crosses an integer (a quotient
// that is not one lies at least 1/|y| from the nearest, the rounding
// error is below |x/y| * 2^-53), so truncating or flooring it gives the
// integer quotient; INT_MIN / -1 wraps 2^31 to INT_MIN, as the wider
// computation of the reference does. The remainder is x - q*y at t's
// width. A zero divisor is undefined, as in C. (A constant divisor is
// left to LLVM and floorDivConst, which multiply by its reciprocal.)
func (c *stmtCtx) fpDiv(op scop.BinOp, x, y value.Value, t scop.ElemType) value.Value {
	b := c.b()
	toFP := func(v value.Value) value.Value {
		if t.IsSigned() {
			return b.NewSIToFP(v, types.Double)
		}
		return b.NewUIToFP(v, types.Double)
	}
	quot := value.Value(b.NewFDiv(toFP(x), toFP(y)))
	if t.IsSigned() && (op == scop.FloorDiv || op == scop.Mod) {
		quot = c.intrinsic("llvm.floor", scop.F64, quot)
	}
	q := b.NewTrunc(b.NewFPToSI(quot, types.I64), llType(t))
	if op == scop.Div || op == scop.FloorDiv {
		return q
	}
	return b.NewSub(x, b.NewMul(q, y))
}

// floorDiv is floor division or modulo of signed integers, as C's
// tf_floordiv and tf_mod on int64_t: computed in i64, the quotient moved
// down (the remainder up by y) when the remainder is non-zero and its
// sign differs from y's.
func (c *stmtCtx) floorDiv(op scop.BinOp, x, y value.Value, t scop.ElemType) value.Value {
	b := c.b()
	if k, ok := y.(*constant.Int); ok && k.X.IsInt64() && k.X.Int64() > 0 {
		return c.floorDivConst(op, x, k.X.Int64(), t)
	}
	x, y = c.toI64(x, t), c.toI64(y, t)
	var m1 value.Value
	if t.Bits() == 64 && !notMinusOne(y) {
		m1 = b.NewICmp(enum.IPredEQ, y, i64(-1))
		y = b.NewSelect(m1, i64(1), y)
	}
	r := b.NewSRem(x, y)
	adjust := b.NewAnd(
		b.NewICmp(enum.IPredNE, r, i64(0)),
		b.NewICmp(enum.IPredNE, b.NewICmp(enum.IPredSLT, r, i64(0)), b.NewICmp(enum.IPredSLT, y, i64(0))))
	var out value.Value
	if op == scop.Mod {
		out = b.NewAdd(r, b.NewSelect(adjust, y, i64(0)))
	} else {
		out = b.NewSub(b.NewSDiv(x, y), b.NewZExt(adjust, types.I64))
		if m1 != nil {
			out = b.NewSelect(m1, b.NewSub(i64(0), x), out)
		}
	}
	if t.Bits() < 64 {
		out = b.NewTrunc(out, llType(t))
	}
	return out
}

// floorDivConst is floor division or modulo by a positive constant k at
// t's own width, where nothing can overflow: an arithmetic shift and a
// mask when k is a power of two (exact for every two's complement x),
// else sdiv and srem with the remainder moved up into [0, k). Narrow
// image values then stay narrow and vectorize at their width.
func (c *stmtCtx) floorDivConst(op scop.BinOp, x value.Value, k int64, t scop.ElemType) value.Value {
	b := c.b()
	if k&(k-1) == 0 {
		n := int64(0)
		for 1<<uint(n) < k {
			n++
		}
		if op == scop.FloorDiv {
			return b.NewAShr(x, intConst(t, n))
		}
		return b.NewAnd(x, intConst(t, k-1))
	}
	kc := intConst(t, k)
	r := b.NewSRem(x, kc)
	neg := b.NewICmp(enum.IPredSLT, r, intConst(t, 0))
	if op == scop.Mod {
		return b.NewAdd(r, b.NewSelect(neg, kc, intConst(t, 0)))
	}
	return b.NewSub(b.NewSDiv(x, kc), b.NewZExt(neg, llType(t)))
}

// shift is << or >>: C promotes a narrow operand to int, so a count up
// to 31 is defined there and the result is truncated back.
func (c *stmtCtx) shift(op scop.BinOp, x, y value.Value, t scop.ElemType) value.Value {
	b := c.b()
	wide := t.Bits() < 32
	if wide {
		ext := func(v value.Value) value.Value {
			if t.IsSigned() {
				return b.NewSExt(v, types.I32)
			}
			return b.NewZExt(v, types.I32)
		}
		x, y = ext(x), ext(y)
	}
	var out value.Value
	switch {
	case op == scop.Shl:
		out = b.NewShl(x, y)
	case t.IsSigned():
		out = b.NewAShr(x, y)
	default:
		out = b.NewLShr(x, y)
	}
	if wide {
		out = b.NewTrunc(out, llType(t))
	}
	return out
}

// convert is C's conversion of v from type from to type to.
func (c *stmtCtx) convert(v value.Value, from, to scop.ElemType) value.Value {
	b := c.b()
	if !validType(from) || !validType(to) {
		fail("%s: conversion from %s to %s", c.what, from, to)
	}
	switch {
	case from == to:
		return v
	case from.IsFloat() && to.IsFloat():
		if to == scop.F32 {
			return b.NewFPTrunc(v, types.Float)
		}
		return b.NewFPExt(v, types.Double)
	case from.IsFloat() && to == scop.Bool:
		// NaN converts to true.
		return b.NewFCmp(enum.FPredUNE, v, floatConst(from, 0))
	case from.IsFloat():
		if to == scop.U64 {
			return b.NewFPToUI(v, types.I64)
		}
		// Through i64, then wrapped, as the reference converts values
		// out of a narrow type's range (scop.Convert: saturated to
		// int64, NaN 0). fptosi is poison out of range, and x86-64 gives
		// MinInt64 above as below and for NaN: the selects make v >=
		// 2^63 MaxInt64 (low 32 bits -1), and NaN 0 where all 64 bits
		// are kept (MinInt64's low bits are already 0).
		var w value.Value = b.NewFPToSI(v, types.I64)
		w = b.NewSelect(b.NewFCmp(enum.FPredOGE, v, floatConst(from, 1<<63)), i64(math.MaxInt64), w)
		if to.Bits() == 64 {
			w = b.NewSelect(b.NewFCmp(enum.FPredUNO, v, v), i64(0), w)
		}
		if to.Bits() < 64 {
			return b.NewTrunc(w, llType(to))
		}
		return w
	case to.IsFloat():
		if from.IsSigned() {
			return b.NewSIToFP(v, llType(to))
		}
		return b.NewUIToFP(v, llType(to))
	case to == scop.Bool:
		return b.NewICmp(enum.IPredNE, v, intConst(from, 0))
	}
	fb, tb := from.Bits(), to.Bits()
	switch {
	case fb == tb:
		return v
	case fb > tb:
		return b.NewTrunc(v, llType(to))
	case from.IsSigned():
		return b.NewSExt(v, llType(to))
	}
	return b.NewZExt(v, llType(to))
}

// intrinsicNames are the functions with an exact LLVM intrinsic (round
// rounds half away from zero, as C's).
var intrinsicNames = map[string]string{
	"sqrt": "llvm.sqrt", "abs": "llvm.fabs", "floor": "llvm.floor",
	"ceil": "llvm.ceil", "round": "llvm.round",
}

func (c *stmtCtx) call(e *scop.Call) value.Value {
	t := e.T
	if n, ok := scop.MathFuncs[e.Fn]; !ok || n != len(e.Args) {
		fail("%s: unknown function %s/%d", c.what, e.Fn, len(e.Args))
	}
	args := make([]value.Value, len(e.Args))
	for i, a := range e.Args {
		if a.Type() != t {
			fail("%s: argument %s of %s has type %s, not %s", c.what, a, e.Fn, a.Type(), t)
		}
		args[i] = c.val(a)
	}
	if t.IsInt() {
		if e.Fn != "abs" {
			fail("%s: %s on integers in %s", c.what, e.Fn, e)
		}
		if !t.IsSigned() {
			return args[0]
		}
		// The most negative value stays itself, as in the reference.
		b := c.b()
		x := args[0]
		return b.NewSelect(b.NewICmp(enum.IPredSLT, x, intConst(t, 0)), b.NewSub(intConst(t, 0), x), x)
	}
	if !t.IsFloat() {
		fail("%s: %s on %s", c.what, e.Fn, t)
	}
	if name, ok := intrinsicNames[e.Fn]; ok {
		return c.intrinsic(name, t, args...)
	}
	if !scop.LibraryCall(e.Fn) {
		fail("%s: no code for %s", c.what, e.Fn)
	}
	// The C library's names (CUDA's with the __nv_ prefix); f32 calls
	// use the f variants.
	name := c.fs.e.libm + e.Fn
	if t == scop.F32 {
		name += "f"
	}
	ft := llType(t)
	params := make([]types.Type, len(args))
	for i := range params {
		params[i] = ft
	}
	r := c.b().NewCall(c.fs.e.declare(name, ft, params...), args...)
	if c.fs.e.hostLibm() {
		return c.fenceXMM(r, ft)
	}
	return r
}

// hostLibm reports whether math functions are the C library's called on
// x86-64 (not CUDA's libdevice), where their calls need fenceXMM and, in
// loops, their own function (callsLibmX86).
func (e *emitter) hostLibm() bool {
	return e.libm == "" && strings.HasPrefix(e.opts.Triple, "x86_64")
}

// xmmClobbers names the SSE registers a libm call has just clobbered.
var xmmClobbers = func() string {
	var sb strings.Builder
	for i := 1; i < 16; i++ {
		fmt.Fprintf(&sb, ",~{xmm%d}", i)
	}
	return sb.String()
}()

// fenceXMM passes a libm call's result through an empty inline asm that
// redefines xmm1-xmm15. LLVM 14's false-dependency breaker does not count
// a call's register-mask clobbers as definitions, so after a call it
// leaves cvtsi2ss/cvtss2sd merging into a register the callee just wrote:
// every conversion then waits for the previous call to finish (sinf in a
// loop ran at half speed). The asm's explicit clobbers are definitions it
// sees, so it breaks the dependency with a vxorps as gcc does.
func (c *stmtCtx) fenceXMM(v value.Value, t types.Type) value.Value {
	asm := ir.NewInlineAsm(types.NewPointer(types.NewFunc(t, t)), "", "=x,0"+xmmClobbers)
	return c.b().NewCall(asm, v)
}
