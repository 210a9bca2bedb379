package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/scop"
)

// This file maps scop element types to LLVM types. A value lives in a
// register at its own width (Bool as i1) and in memory as C stores it
// (_Bool as one byte).

func validType(t scop.ElemType) bool { return t >= scop.Bool && t <= scop.F64 }

// llType is the register type of t.
func llType(t scop.ElemType) types.Type {
	switch t {
	case scop.Bool:
		return types.I1
	case scop.I8, scop.U8:
		return types.I8
	case scop.I16, scop.U16:
		return types.I16
	case scop.I32, scop.U32:
		return types.I32
	case scop.I64, scop.U64:
		return types.I64
	case scop.F32:
		return types.Float
	case scop.F64:
		return types.Double
	}
	fail("no LLVM type for %s", t)
	return nil
}

// memType is the storage type of t.
func memType(t scop.ElemType) types.Type {
	if t == scop.Bool {
		return types.I8
	}
	return llType(t)
}

// toMem converts a register value of type t to its storage form.
func toMem(b *ir.Block, v value.Value, t scop.ElemType) value.Value {
	if t == scop.Bool {
		return b.NewZExt(v, types.I8)
	}
	return v
}

// fromMem converts a loaded value to its register form (a stored _Bool
// is 0 or 1).
func fromMem(b *ir.Block, v value.Value, t scop.ElemType) value.Value {
	if t == scop.Bool {
		return b.NewTrunc(v, types.I1)
	}
	return v
}

// intConst is the constant v of integer type t (wrapped to its width,
// written signed as LLVM prints integers).
func intConst(t scop.ElemType, v int64) constant.Constant {
	if t == scop.Bool {
		return constant.NewBool(v != 0)
	}
	bits := uint(t.Bits())
	return constant.NewInt(llType(t).(*types.IntType), v<<(64-bits)>>(64-bits))
}

// floatConst is the constant v of float type t. llir wants an f32
// constant as the float64 of its float32 value, or it prints the double.
func floatConst(t scop.ElemType, v float64) constant.Constant {
	if t == scop.F32 {
		return constant.NewFloat(types.Float, float64(float32(v)))
	}
	return constant.NewFloat(types.Double, v)
}

// nsw marks an add, sub or mul as not wrapping in the signed sense:
// used for index and bound arithmetic, where C's int arithmetic would
// have undefined overflow and the polyhedral model assumes none.
func nsw[T interface {
	*ir.InstAdd | *ir.InstSub | *ir.InstMul
}](inst T) T {
	switch i := any(inst).(type) {
	case *ir.InstAdd:
		i.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
	case *ir.InstSub:
		i.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
	case *ir.InstMul:
		i.OverflowFlags = []enum.OverflowFlag{enum.OverflowFlagNSW}
	}
	return inst
}

// The index arithmetic below folds constants, so that the IR of
// constant extents and unit strides reads as the C does.

func constI64(v value.Value) (int64, bool) {
	k, ok := v.(*constant.Int)
	if !ok || !k.X.IsInt64() {
		return 0, false
	}
	return k.X.Int64(), true
}

// addNSW is x + y on i64 index values.
func addNSW(b *ir.Block, x, y value.Value) value.Value {
	kx, okx := constI64(x)
	ky, oky := constI64(y)
	switch {
	case okx && oky:
		return i64(kx + ky)
	case okx && kx == 0:
		return y
	case oky && ky == 0:
		return x
	}
	return nsw(b.NewAdd(x, y))
}

// subNSW is x - y on i64 index values.
func subNSW(b *ir.Block, x, y value.Value) value.Value {
	kx, okx := constI64(x)
	ky, oky := constI64(y)
	switch {
	case okx && oky:
		return i64(kx - ky)
	case oky && ky == 0:
		return x
	}
	return nsw(b.NewSub(x, y))
}

// mulNSW is x * y on i64 index values.
func mulNSW(b *ir.Block, x, y value.Value) value.Value {
	kx, okx := constI64(x)
	ky, oky := constI64(y)
	switch {
	case okx && oky:
		return i64(kx * ky)
	case okx && kx == 1:
		return y
	case oky && ky == 1:
		return x
	case okx && kx == 0, oky && ky == 0:
		return i64(0)
	}
	return nsw(b.NewMul(x, y))
}
