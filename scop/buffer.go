package scop

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// Buffer is an array's storage: elements of Type in C row-major order, as
// little-endian bytes.
type Buffer struct {
	Type  ElemType
	Shape []int64
	Data  []byte
	// Origin, when set, is the index of the buffer's first element in
	// every dimension: element idx lives at idx - Origin (a tile-local
	// buffer holding one tile's part of an array).
	Origin []int64
	// Fold, when set, has one entry per dimension: F > 0 makes the
	// dimension a ring of F elements (Shape is F there), element idx
	// living at (idx - Origin) mod F, floor mod; 0 leaves it as is.
	Fold []int64
}

// MaxBufferBytes bounds a single buffer's size.
const MaxBufferBytes = 1 << 34

// NewBuffer allocates a zeroed buffer of the given shape.
func NewBuffer(t ElemType, shape []int64) (*Buffer, error) {
	n := uint64(1)
	for _, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("negative extent in shape %v", shape)
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 {
			return nil, fmt.Errorf("shape %v overflows", shape)
		}
		n = lo
	}
	if hi, size := bits.Mul64(n, uint64(t.Size())); hi != 0 || size > MaxBufferBytes {
		return nil, fmt.Errorf("buffer of shape %v and type %s exceeds %d bytes", shape, t, uint64(MaxBufferBytes))
	}
	return &Buffer{Type: t, Shape: append([]int64(nil), shape...), Data: make([]byte, n*uint64(t.Size()))}, nil
}

// Len is the number of elements.
func (b *Buffer) Len() int64 { return int64(len(b.Data) / b.Type.Size()) }

// Offset is the row-major element index of idx, and false when idx lies
// outside the shape.
func (b *Buffer) Offset(idx []int64) (int64, bool) {
	if len(idx) != len(b.Shape) {
		return 0, false
	}
	var off int64
	for d, i := range idx {
		if b.Origin != nil {
			i -= b.Origin[d]
		}
		if b.Fold != nil && b.Fold[d] > 0 {
			i = ring(i, b.Fold[d])
		}
		if i < 0 || i >= b.Shape[d] {
			return 0, false
		}
		off = off*b.Shape[d] + i
	}
	return off, true
}

// ring is i's position in a ring of f elements: i mod f, floor mod.
func ring(i, f int64) int64 {
	m := i % f
	if m < 0 {
		m += f
	}
	return m
}

// Load reads element i.
func (b *Buffer) Load(i int64) Value {
	p := b.Data[i*int64(b.Type.Size()):]
	switch b.Type {
	case Bool, U8:
		return Value{I: int64(p[0])}
	case I8:
		return Value{I: int64(int8(p[0]))}
	case I16:
		return Value{I: int64(int16(binary.LittleEndian.Uint16(p)))}
	case U16:
		return Value{I: int64(binary.LittleEndian.Uint16(p))}
	case I32:
		return Value{I: int64(int32(binary.LittleEndian.Uint32(p)))}
	case U32:
		return Value{I: int64(binary.LittleEndian.Uint32(p))}
	case I64, U64:
		return Value{I: int64(binary.LittleEndian.Uint64(p))}
	case F32:
		return Value{F: float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))}
	case F64:
		return Value{F: math.Float64frombits(binary.LittleEndian.Uint64(p))}
	}
	panic("scop: buffer of invalid type")
}

// Store writes element i; v must already have the buffer's type.
func (b *Buffer) Store(i int64, v Value) {
	p := b.Data[i*int64(b.Type.Size()):]
	switch b.Type.Size() {
	case 1:
		p[0] = byte(v.I)
	case 2:
		binary.LittleEndian.PutUint16(p, uint16(v.I))
	case 4:
		if b.Type == F32 {
			binary.LittleEndian.PutUint32(p, math.Float32bits(float32(v.F)))
		} else {
			binary.LittleEndian.PutUint32(p, uint32(v.I))
		}
	case 8:
		if b.Type == F64 {
			binary.LittleEndian.PutUint64(p, math.Float64bits(v.F))
		} else {
			binary.LittleEndian.PutUint64(p, uint64(v.I))
		}
	}
}

// Clone returns a deep copy.
func (b *Buffer) Clone() *Buffer {
	return &Buffer{Type: b.Type, Shape: append([]int64(nil), b.Shape...), Data: append([]byte(nil), b.Data...)}
}

// Fill writes deterministic values that depend on seed and the element
// index. Floats are multiples of 1/1024 in [0, 4) (exact in f32, so no
// rounding hides in the inputs); integers lie in [0, 16).
func (b *Buffer) Fill(seed uint64) {
	x := seed*0x9E3779B97F4A7C15 + 1
	for i := int64(0); i < b.Len(); i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if b.Type.IsFloat() {
			b.Store(i, Value{F: float64(x%4096) / 1024})
		} else {
			b.Store(i, IntValue(b.Type, int64(x%16)))
		}
	}
}

// Mismatch describes the first element where two buffers differ.
type Mismatch struct {
	Index     []int64
	Got, Want string
}

func (m *Mismatch) String() string {
	return fmt.Sprintf("element %v: got %s, want %s", m.Index, m.Got, m.Want)
}

// Compare reports the first element of got that differs from want. Floats
// compare within relative tolerance tol (0 means bitwise, with all NaNs
// equal); integers compare exactly.
func Compare(got, want *Buffer, tol float64) (*Mismatch, error) {
	if got.Type != want.Type || fmt.Sprint(got.Shape) != fmt.Sprint(want.Shape) {
		return nil, fmt.Errorf("buffers differ in type or shape: %s%v vs %s%v", got.Type, got.Shape, want.Type, want.Shape)
	}
	for i := int64(0); i < got.Len(); i++ {
		g, w := got.Load(i), want.Load(i)
		if sameValue(got.Type, g, w, tol) {
			continue
		}
		return &Mismatch{Index: got.unflatten(i), Got: got.format(g), Want: got.format(w)}, nil
	}
	return nil, nil
}

func sameValue(t ElemType, g, w Value, tol float64) bool {
	if !t.IsFloat() {
		return g.I == w.I
	}
	if math.IsNaN(g.F) || math.IsNaN(w.F) {
		return math.IsNaN(g.F) && math.IsNaN(w.F)
	}
	if tol == 0 {
		return math.Float64bits(g.F) == math.Float64bits(w.F) || g.F == w.F && g.F != 0
	}
	d := math.Abs(g.F - w.F)
	return d <= tol*math.Max(math.Abs(g.F), math.Abs(w.F)) || d <= tol
}

func (b *Buffer) unflatten(i int64) []int64 {
	idx := make([]int64, len(b.Shape))
	for d := len(b.Shape) - 1; d >= 0; d-- {
		idx[d] = i % b.Shape[d]
		i /= b.Shape[d]
	}
	return idx
}

func (b *Buffer) format(v Value) string {
	if b.Type.IsFloat() {
		return fmt.Sprintf("%.17g", v.F)
	}
	return fmt.Sprint(v.I)
}
