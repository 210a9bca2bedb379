package scop

import "fmt"

// ElemType is the type of an array element or an expression value.
type ElemType int

// The element types. Bool is the type of comparisons and conditions; it is
// stored as one byte.
const (
	Invalid ElemType = iota
	Bool
	I8
	U8
	I16
	U16
	I32
	U32
	I64
	U64
	F32
	F64
)

var typeNames = [...]string{"invalid", "bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"}

var typeCNames = [...]string{"void", "_Bool", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float", "double"}

var typeSizes = [...]int{0, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8}

func (t ElemType) valid() bool { return t > Invalid && t <= F64 }

// String is the short name: i32, f64, ...
func (t ElemType) String() string {
	if t < 0 || int(t) >= len(typeNames) {
		return fmt.Sprintf("ElemType(%d)", int(t))
	}
	return typeNames[t]
}

// CName is the C spelling of the type (with <stdint.h> names for integers).
func (t ElemType) CName() string {
	if !t.valid() {
		return "void"
	}
	return typeCNames[t]
}

// Size is the storage size in bytes.
func (t ElemType) Size() int {
	if !t.valid() {
		return 0
	}
	return typeSizes[t]
}

// IsFloat reports whether t is f32 or f64.
func (t ElemType) IsFloat() bool { return t == F32 || t == F64 }

// IsInt reports whether t is an integer type (not Bool).
func (t ElemType) IsInt() bool { return t >= I8 && t <= U64 }

// IsSigned reports whether t is a signed integer or a float.
func (t ElemType) IsSigned() bool {
	switch t {
	case I8, I16, I32, I64, F32, F64:
		return true
	}
	return false
}

// Bits is the width in bits (1 for Bool).
func (t ElemType) Bits() int {
	if t == Bool {
		return 1
	}
	return 8 * t.Size()
}

// ParseElemType reads a short type name as printed by String.
func ParseElemType(s string) (ElemType, error) {
	for i, n := range typeNames {
		if i > 0 && n == s {
			return ElemType(i), nil
		}
	}
	return Invalid, fmt.Errorf("unknown element type %q", s)
}

// MarshalText writes the short name.
func (t ElemType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads the short name.
func (t *ElemType) UnmarshalText(b []byte) error {
	v, err := ParseElemType(string(b))
	*t = v
	return err
}
