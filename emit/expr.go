package emit

import (
	"math/bits"

	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file lowers the AST's integer expressions (loop bounds, guards,
// statement arguments) to i64 arithmetic. They are affine with floor
// divisions by positive constants, so they cannot overflow in a valid
// program (the C printer computes them in int): additions and products
// carry nsw, which lets scalar evolution see the loops' affine accesses.

// aexpr computes e as an i64.
func (fs *fnState) aexpr(ev *env, e ast.Expr) value.Value {
	switch e.Op {
	case ast.OpInt:
		return i64(e.Val)
	case ast.OpVar:
		if v := ev.iters[e.Name]; v != nil {
			return v
		}
		if v := ev.params[e.Name]; v != nil {
			return v
		}
		fail("unknown name %s in %s", e.Name, e)
	case ast.OpAdd:
		var sum value.Value
		for _, a := range e.Args {
			// k * x with k < 0 reads best as a subtraction.
			if a.Op == ast.OpMul && a.Val < 0 && sum != nil {
				sum = subNSW(fs.cur, sum, fs.aexpr(ev, ast.Mul(-a.Val, a.Args[0])))
				continue
			}
			if a.Op == ast.OpInt && a.Val < 0 && sum != nil {
				sum = subNSW(fs.cur, sum, i64(-a.Val))
				continue
			}
			x := fs.aexpr(ev, a)
			if sum == nil {
				sum = x
			} else {
				sum = addNSW(fs.cur, sum, x)
			}
		}
		if sum == nil {
			return i64(0)
		}
		return sum
	case ast.OpMul:
		x := fs.aexpr(ev, e.Args[0])
		return mulNSW(fs.cur, x, i64(e.Val))
	case ast.OpFloorDiv:
		return fs.floorDivConst(fs.aexpr(ev, e.Args[0]), e.Val)
	case ast.OpCeilDiv:
		x := fs.aexpr(ev, e.Args[0])
		return fs.floorDivConst(addNSW(fs.cur, x, i64(e.Val-1)), e.Val)
	case ast.OpMod:
		return fs.modConst(fs.aexpr(ev, e.Args[0]), e.Val)
	case ast.OpDiv:
		// Exact wherever it is evaluated; C's truncating division, as
		// the printer writes it.
		x := fs.aexpr(ev, e.Args[0])
		if e.Val == 1 {
			return x
		}
		return fs.cur.NewSDiv(x, i64(e.Val))
	case ast.OpMin, ast.OpMax:
		pred := enum.IPredSLT
		if e.Op == ast.OpMax {
			pred = enum.IPredSGT
		}
		m := fs.aexpr(ev, e.Args[0])
		for _, a := range e.Args[1:] {
			x := fs.aexpr(ev, a)
			m = fs.cur.NewSelect(fs.cur.NewICmp(pred, x, m), x, m)
		}
		return m
	case ast.OpEq, ast.OpLe, ast.OpLt, ast.OpGe, ast.OpGt, ast.OpAnd, ast.OpOr:
		c := fs.acond(ev, e)
		return fs.cur.NewZExt(c, types.I64)
	}
	fail("cannot lower AST expression %s (%s)", e, e.Op)
	return nil
}

var astPreds = map[ast.Op]enum.IPred{ast.OpEq: enum.IPredEQ, ast.OpLe: enum.IPredSLE, ast.OpLt: enum.IPredSLT, ast.OpGe: enum.IPredSGE, ast.OpGt: enum.IPredSGT}

// acond computes e as an i1 condition. Operands of && and || are all
// evaluated: AST expressions cannot fail, and branch-free guards are
// easier on the optimizer.
func (fs *fnState) acond(ev *env, e ast.Expr) value.Value {
	switch {
	case e.Op == ast.OpInt:
		return constant.NewBool(e.Val != 0)
	case e.Op.IsCompare():
		x, y := fs.aexpr(ev, e.Args[0]), fs.aexpr(ev, e.Args[1])
		return fs.cur.NewICmp(astPreds[e.Op], x, y)
	case e.Op == ast.OpAnd || e.Op == ast.OpOr:
		var c value.Value
		for _, a := range e.Args {
			x := fs.acond(ev, a)
			switch {
			case c == nil:
				c = x
			case e.Op == ast.OpAnd:
				c = fs.cur.NewAnd(c, x)
			default:
				c = fs.cur.NewOr(c, x)
			}
		}
		if c == nil {
			return constant.NewBool(e.Op == ast.OpAnd)
		}
		return c
	}
	return fs.cur.NewICmp(enum.IPredNE, fs.aexpr(ev, e), i64(0))
}

// floorDivConst is floor(x / d) for a constant d > 0.
func (fs *fnState) floorDivConst(x value.Value, d int64) value.Value {
	b := fs.cur
	switch {
	case d <= 0:
		fail("division by non-positive %d", d)
	case d == 1:
		return x
	case d&(d-1) == 0:
		return b.NewAShr(x, i64(int64(bits.TrailingZeros64(uint64(d)))))
	}
	q := b.NewSDiv(x, i64(d))
	r := b.NewSRem(x, i64(d))
	return nsw(b.NewSub(q, b.NewZExt(b.NewICmp(enum.IPredSLT, r, i64(0)), types.I64)))
}

// modConst is x mod d in [0, d) for a constant d > 0.
func (fs *fnState) modConst(x value.Value, d int64) value.Value {
	b := fs.cur
	switch {
	case d <= 0:
		fail("modulo by non-positive %d", d)
	case d == 1:
		return i64(0)
	case d&(d-1) == 0:
		return b.NewAnd(x, i64(d-1))
	}
	r := b.NewSRem(x, i64(d))
	return nsw(b.NewAdd(r, b.NewSelect(b.NewICmp(enum.IPredSLT, r, i64(0)), i64(d), i64(0))))
}
