package cparse

import (
	"math"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/scop"
)

// C's types map onto scop element types for an LP64 target: char is
// signed, long is 64 bits. Void is scop.Invalid.

// builtinTypedefs are the <stdint.h> names, so that code using them needs
// no header.
var builtinTypedefs = map[string]scop.ElemType{
	"int8_t": scop.I8, "uint8_t": scop.U8, "int16_t": scop.I16, "uint16_t": scop.U16,
	"int32_t": scop.I32, "uint32_t": scop.U32, "int64_t": scop.I64, "uint64_t": scop.U64,
}

// typeSpec accumulates the type keywords of one declaration.
type typeSpec struct {
	void, char, short, int, float, double bool
	long                                  int
	signed, unsigned                      bool
	named                                 bool // a typedef name
	t                                     scop.ElemType
}

// elemType resolves the keywords to a type, or explains why it cannot.
func (s *typeSpec) elemType() (scop.ElemType, string) {
	if s.named {
		return s.t, ""
	}
	sign := func(signed, unsigned scop.ElemType) scop.ElemType {
		if s.unsigned {
			return unsigned
		}
		return signed
	}
	switch {
	case s.signed && s.unsigned:
		return scop.Invalid, "both signed and unsigned"
	case s.void:
		return scop.Invalid, ""
	case s.float:
		return scop.F32, ""
	case s.double && s.long > 0:
		return scop.Invalid, "long double is not supported"
	case s.double:
		return scop.F64, ""
	case s.char:
		return sign(scop.I8, scop.U8), ""
	case s.short:
		return sign(scop.I16, scop.U16), ""
	case s.long > 0:
		return sign(scop.I64, scop.U64), ""
	}
	return sign(scop.I32, scop.U32), ""
}

// cTypeName spells t as C does.
func cTypeName(t scop.ElemType) string {
	switch t {
	case scop.Invalid:
		return "void"
	case scop.I8:
		return "char"
	case scop.U8:
		return "unsigned char"
	case scop.I16:
		return "short"
	case scop.U16:
		return "unsigned short"
	case scop.I32:
		return "int"
	case scop.U32:
		return "unsigned"
	case scop.I64:
		return "long"
	case scop.U64:
		return "unsigned long"
	case scop.F32:
		return "float"
	case scop.F64:
		return "double"
	}
	return t.String()
}

// promote is C's integer promotion: types narrower than int (and the
// result of a comparison) become int.
func promote(t scop.ElemType) scop.ElemType {
	switch t {
	case scop.Bool, scop.I8, scop.U8, scop.I16, scop.U16:
		return scop.I32
	}
	return t
}

// common is the type of C's usual arithmetic conversions.
func common(a, b scop.ElemType) scop.ElemType {
	a, b = promote(a), promote(b)
	switch {
	case a == scop.F64 || b == scop.F64:
		return scop.F64
	case a == scop.F32 || b == scop.F32:
		return scop.F32
	case a == b:
		return a
	case a == scop.U64 || b == scop.U64:
		return scop.U64
	case a == scop.I64 || b == scop.I64:
		return scop.I64 // long holds every unsigned int
	case a == scop.U32 || b == scop.U32:
		return scop.U32
	}
	return scop.I32
}

// intLiteral types an integer constant by C's rules: the first of int,
// (unsigned int,) long, unsigned long that holds it, as the suffix and
// base allow.
func intLiteral(text string) (scop.ElemType, int64, string) {
	lower := strings.ToLower(text)
	digits := strings.TrimRight(lower, "ul")
	suffix := lower[len(digits):]
	unsigned := strings.Count(suffix, "u")
	long := strings.Count(suffix, "l")
	if unsigned > 1 || long > 2 || long == 2 && !strings.Contains(suffix, "ll") {
		return scop.Invalid, 0, "invalid suffix on integer constant " + text
	}
	base := 10
	switch {
	case strings.HasPrefix(digits, "0x"):
		base, digits = 16, digits[2:]
	case len(digits) > 1 && digits[0] == '0':
		base, digits = 8, digits[1:]
	}
	v, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return scop.Invalid, 0, "integer constant " + text + " is too large"
		}
		return scop.Invalid, 0, "invalid integer constant " + text
	}
	var cands []scop.ElemType
	switch {
	case unsigned > 0 && long > 0:
		cands = []scop.ElemType{scop.U64}
	case unsigned > 0:
		cands = []scop.ElemType{scop.U32, scop.U64}
	case long > 0 && base == 10:
		cands = []scop.ElemType{scop.I64}
	case long > 0:
		cands = []scop.ElemType{scop.I64, scop.U64}
	case base == 10:
		cands = []scop.ElemType{scop.I32, scop.I64}
	default:
		cands = []scop.ElemType{scop.I32, scop.U32, scop.I64, scop.U64}
	}
	for _, t := range cands {
		if fits(v, t) {
			return t, int64(v), ""
		}
	}
	return scop.Invalid, 0, "integer constant " + text + " is too large"
}

func fits(v uint64, t scop.ElemType) bool {
	switch t {
	case scop.I32:
		return v <= math.MaxInt32
	case scop.U32:
		return v <= math.MaxUint32
	case scop.I64:
		return v <= math.MaxInt64
	}
	return true
}

// floatLiteral types a floating constant: double, or float with an f
// suffix.
func floatLiteral(text string) (scop.ElemType, float64, string) {
	lower := strings.ToLower(text)
	t := scop.F64
	switch {
	case strings.HasPrefix(lower, "0x"):
		return scop.Invalid, 0, "hexadecimal floating constants are not supported"
	case strings.HasSuffix(lower, "f"):
		t, lower = scop.F32, lower[:len(lower)-1]
	case strings.HasSuffix(lower, "l"):
		return scop.Invalid, 0, "long double constant " + text + " is not supported"
	}
	if strings.Contains(lower, "_") {
		return scop.Invalid, 0, "invalid floating constant " + text
	}
	v, err := strconv.ParseFloat(lower, 64)
	if err != nil || math.IsInf(v, 0) {
		return scop.Invalid, 0, "invalid floating constant " + text
	}
	if t == scop.F32 {
		v = float64(float32(v))
		if math.IsInf(v, 0) {
			return scop.Invalid, 0, "floating constant " + text + " overflows float"
		}
	}
	return t, v, ""
}
