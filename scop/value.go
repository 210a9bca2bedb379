package scop

import "math"

// Value is a scalar of a type known from context: integers and Bool in I
// (Bool as 0 or 1, unsigned types zero-extended, u64 as its bits), floats
// in F (an f32 value is held exactly as a float64).
type Value struct {
	I int64
	F float64
}

// IntValue wraps i to type t's width (C's conversion to an integer type).
func IntValue(t ElemType, i int64) Value {
	switch t {
	case Bool:
		if i != 0 {
			return Value{I: 1}
		}
		return Value{}
	case I8:
		return Value{I: int64(int8(i))}
	case U8:
		return Value{I: int64(uint8(i))}
	case I16:
		return Value{I: int64(int16(i))}
	case U16:
		return Value{I: int64(uint16(i))}
	case I32:
		return Value{I: int64(int32(i))}
	case U32:
		return Value{I: int64(uint32(i))}
	case F32:
		return Value{F: float64(float32(i))}
	case F64:
		return Value{F: float64(i)}
	}
	return Value{I: i}
}

// FloatValue rounds f to type t (a float type).
func FloatValue(t ElemType, f float64) Value {
	if t == F32 {
		return Value{F: float64(float32(f))}
	}
	return Value{F: f}
}

// Convert converts v of type from to type to, following C.
func Convert(v Value, from, to ElemType) Value {
	if from == to {
		return v
	}
	switch {
	case from.IsFloat() && to.IsFloat():
		return FloatValue(to, v.F)
	case from.IsFloat() && to == Bool:
		return IntValue(Bool, b2i(v.F != 0))
	case from.IsFloat():
		return IntValue(to, truncToInt(v.F, to))
	case to.IsFloat():
		if from == U64 {
			return FloatValue(to, float64(uint64(v.I)))
		}
		return IntValue(to, v.I)
	}
	return IntValue(to, v.I)
}

// truncToInt truncates towards zero; values out of range (undefined in
// C) saturate.
func truncToInt(f float64, to ElemType) int64 {
	f = math.Trunc(f)
	switch {
	case math.IsNaN(f):
		return 0
	case to == U64 && f >= 0:
		if f >= 1<<64 {
			return -1
		}
		return int64(uint64(f))
	case f >= 1<<63:
		return math.MaxInt64
	case f < -(1 << 63):
		return math.MinInt64
	}
	return int64(f)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Truth reports whether a Bool value is true.
func (v Value) Truth() bool { return v.I != 0 }
