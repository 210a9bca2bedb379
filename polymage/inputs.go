package polymage

import (
	"fmt"
	"image/color"
	"image/png"
	"io"
	"os"

	"github.com/tilefuse/tilefuse/scop"
)

// Synthetic fills b with a seeded picture of 8-bit samples: floats get
// s/255 for s in 0..255 (an 8-bit image read as PolyMage's drivers read
// theirs), integers s. See SyntheticRange.
func Synthetic(b *scop.Buffer, seed uint64) { SyntheticRange(b, seed, 255) }

// SyntheticRange fills b with a seeded picture of samples s in [0, max]
// (max clipped to the element type's range): floats get s/max rounded to
// the type, integers s. The last two dimensions are rows and columns;
// each index of the ones before (a colour channel, say) is a plane of
// its own. A plane mixes smooth value noise (a 32-pixel lattice), flat
// blocks with step edges and corners (24 pixels), finer noise (4 pixels)
// and per-pixel noise, so stencils see both flat and busy regions.
// Everything is integer arithmetic on a hash of (seed, plane, position):
// the same picture on every machine and at every size, where a larger
// buffer extends a smaller one's picture.
func SyntheticRange(b *scop.Buffer, seed uint64, max int64) {
	max = clipMax(b.Type, max)
	rows, cols := planeShape(b.Shape)
	if rows*cols == 0 {
		return
	}
	planes := b.Len() / (rows * cols)
	for p := range planes {
		for r := range rows {
			for c := range cols {
				s := sample(seed, uint64(p), r, c) * max / 255
				b.Store((p*rows+r)*cols+c, scaled(b.Type, s, max))
			}
		}
	}
}

// Bayer fills a 2-D raw image with a seeded colour picture seen through
// a Bayer colour filter in PolyMage's camera_pipe layout: in each 2x2
// cell, green at (even, even), red at (even, odd), blue at (odd, even)
// and green at (odd, odd). Samples lie in [0, max]. The colour planes
// share two thirds of their content (a luminance plane), as a natural
// picture's do, so that colour correction does not push most pixels to
// one channel's extreme.
func Bayer(b *scop.Buffer, seed uint64, max int64) {
	max = clipMax(b.Type, max)
	rows, cols := planeShape(b.Shape)
	for r := range rows {
		for c := range cols {
			plane := uint64(1) // green
			switch {
			case r%2 == 0 && c%2 == 1:
				plane = 0 // red
			case r%2 == 1 && c%2 == 0:
				plane = 2 // blue
			}
			s := (2*sample(seed, 3, r, c) + sample(seed, plane, r, c)) / 3 * max / 255
			b.Store(r*cols+c, scaled(b.Type, s, max))
		}
	}
}

// planeShape is the number of rows and columns of each plane: a 1-D
// buffer is one row.
func planeShape(shape []int64) (rows, cols int64) {
	switch len(shape) {
	case 0:
		return 1, 1
	case 1:
		return 1, shape[0]
	}
	return shape[len(shape)-2], shape[len(shape)-1]
}

// clipMax keeps max inside what t holds, at least 1.
func clipMax(t scop.ElemType, max int64) int64 {
	if !t.IsFloat() {
		bits := 8 * t.Size()
		if t == scop.I8 || t == scop.I16 || t == scop.I32 || t == scop.I64 {
			bits--
		}
		if bits < 63 && max > 1<<bits-1 {
			max = 1<<bits - 1
		}
	}
	if max < 1 {
		max = 1
	}
	return max
}

// scaled is sample s of [0, max] as a value of t.
func scaled(t scop.ElemType, s, max int64) scop.Value {
	if t.IsFloat() {
		return scop.FloatValue(t, float64(s)/float64(max))
	}
	return scop.IntValue(t, s)
}

// sample is the picture's value in [0, 255] at (r, c) of a plane.
func sample(seed, plane uint64, r, c int64) int64 {
	coarse := lattice(seed, plane, 1, r, c, 32)
	fine := lattice(seed, plane, 2, r, c, 4)
	block := int64(hash(seed, plane, 3, floorDiv(r, 24), floorDiv(c, 24)) % 256)
	pixel := int64(hash(seed, plane, 4, r, c) % 256)
	return (3*coarse + 2*block + 2*fine + pixel) / 8
}

// lattice is value noise: hashed values in [0, 255] at the points of a
// square lattice of the given spacing, interpolated bilinearly in
// integers.
func lattice(seed, plane, level uint64, r, c, spacing int64) int64 {
	i, j := floorDiv(r, spacing), floorDiv(c, spacing)
	fr, fc := r-i*spacing, c-j*spacing
	h := func(di, dj int64) int64 { return int64(hash(seed, plane, level, i+di, j+dj) % 256) }
	top := h(0, 0)*(spacing-fr) + h(1, 0)*fr
	bottom := h(0, 1)*(spacing-fr) + h(1, 1)*fr
	return (top*(spacing-fc) + bottom*fc) / (spacing * spacing)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// hash mixes its arguments, each through splitmix64's finaliser.
func hash(seed, plane, level uint64, i, j int64) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, x := range [...]uint64{seed, plane, level, uint64(i), uint64(j)} {
		h ^= x + 0x9E3779B97F4A7C15 + h<<6 + h>>2
		h ^= h >> 30
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 27
		h *= 0x94D049BB133111EB
		h ^= h >> 31
	}
	return h
}

// LoadPNG decodes a PNG image into b, whose last two dimensions are rows
// and columns. A 2-D buffer gets the image's luminance; a 3-D buffer of
// shape [k, rows, cols], k <= 4, gets its channels R, G, B, A (colour
// dimension outermost, as PolyMage's drivers lay images out). The
// buffer's interior, without border elements on each side of both
// dimensions, takes the centre of the image (PolyMage's drivers crop the
// same way); the border is zero, the ghost zone its stencils read.
//
// Samples keep the PNG's depth d (16 bits for 16-bit images, else 8):
// floats get s/(2^d - 1), integers s converted as C converts (so a raw
// 16-bit camera image of at most 15 significant bits fits an i16 as it
// is; an 8-bit buffer needs an 8-bit image).
func LoadPNG(r io.Reader, b *scop.Buffer, border int64) error {
	img, err := png.Decode(r)
	if err != nil {
		return err
	}
	rank := len(b.Shape)
	if rank != 2 && (rank != 3 || b.Shape[0] < 1 || b.Shape[0] > 4) {
		return fmt.Errorf("polymage: PNG into a buffer of shape %v: want [rows, cols] or [channels <= 4, rows, cols]", b.Shape)
	}
	rows, cols := planeShape(b.Shape)
	inR, inC := rows-2*border, cols-2*border
	bounds := img.Bounds()
	if border < 0 || inR < 0 || inC < 0 || int64(bounds.Dy()) < inR || int64(bounds.Dx()) < inC {
		return fmt.Errorf("polymage: a %dx%d image cannot fill %dx%d pixels inside a border of %d", bounds.Dy(), bounds.Dx(), inR, inC, border)
	}
	depth := uint(8)
	switch img.ColorModel() {
	case color.Gray16Model, color.RGBA64Model, color.NRGBA64Model:
		depth = 16
	}
	planes := int64(1)
	if rank == 3 {
		planes = b.Shape[0]
	}
	clear(b.Data)
	r0 := int64(bounds.Min.Y) + (int64(bounds.Dy())-inR)/2
	c0 := int64(bounds.Min.X) + (int64(bounds.Dx())-inC)/2
	for i := range inR {
		for j := range inC {
			ch := channels(img.At(int(c0+j), int(r0+i)), rank == 2)
			for p := range planes {
				s := int64(ch[p] >> (16 - depth))
				off := (p*rows+i+border)*cols + j + border
				if b.Type.IsFloat() {
					b.Store(off, scop.FloatValue(b.Type, float64(s)/float64(int64(1)<<depth-1)))
				} else {
					b.Store(off, scop.IntValue(b.Type, s))
				}
			}
		}
	}
	return nil
}

// channels is a pixel's 16-bit R, G, B, A (not premultiplied), or its
// luminance in all four.
func channels(c color.Color, grey bool) [4]uint32 {
	if grey {
		y := uint32(color.Gray16Model.Convert(c).(color.Gray16).Y)
		return [4]uint32{y, y, y, y}
	}
	n := color.NRGBA64Model.Convert(c).(color.NRGBA64)
	return [4]uint32{uint32(n.R), uint32(n.G), uint32(n.B), uint32(n.A)}
}

// LoadPNGFile is LoadPNG of the named file.
func LoadPNGFile(path string, b *scop.Buffer, border int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := LoadPNG(f, b, border); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
