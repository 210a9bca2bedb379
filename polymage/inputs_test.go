package polymage

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/tilefuse/tilefuse/scop"
)

func newBuf(t *testing.T, et scop.ElemType, shape ...int64) *scop.Buffer {
	t.Helper()
	b, err := scop.NewBuffer(et, shape)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSyntheticRange(t *testing.T) {
	f := newBuf(t, scop.F32, 3, 40, 50)
	Synthetic(f, 1)
	distinct := map[float64]bool{}
	for i := range f.Len() {
		v := f.Load(i).F
		if v < 0 || v > 1 {
			t.Fatalf("element %d = %v, outside [0, 1]", i, v)
		}
		// 8-bit samples: v*255 is a whole number, up to f32 rounding.
		if s := v * 255; s-float64(int64(s+0.5)) > 1e-4 || float64(int64(s+0.5))-s > 1e-4 {
			t.Fatalf("element %d = %v is not an 8-bit sample", i, v)
		}
		distinct[v] = true
	}
	if len(distinct) < 64 {
		t.Errorf("only %d distinct values", len(distinct))
	}
	u := newBuf(t, scop.U16, 30, 30)
	SyntheticRange(u, 1, 1023)
	hi := int64(0)
	for i := range u.Len() {
		hi = max(hi, u.Load(i).I)
	}
	if hi > 1023 || hi < 256 {
		t.Errorf("u16 samples up to %d, want a spread within [0, 1023]", hi)
	}
	// An i8 cannot hold 1000: the range is clipped to 127.
	i8 := newBuf(t, scop.I8, 30, 30)
	SyntheticRange(i8, 1, 1000)
	for i := range i8.Len() {
		if v := i8.Load(i).I; v < 0 || v > 127 {
			t.Fatalf("i8 element %d = %d", i, v)
		}
	}
}

// TestSyntheticExtends checks that a picture does not depend on the
// buffer's size: a larger buffer holds a smaller one's picture in its
// corner, so tests at small sizes see the start of the default input.
func TestSyntheticExtends(t *testing.T) {
	small, large := newBuf(t, scop.F32, 2, 9, 11), newBuf(t, scop.F32, 2, 20, 30)
	Synthetic(small, 5)
	Synthetic(large, 5)
	for p := range int64(2) {
		for r := range int64(9) {
			for c := range int64(11) {
				if s, l := small.Load((p*9+r)*11+c).F, large.Load((p*20+r)*30+c).F; s != l {
					t.Fatalf("plane %d (%d, %d): %v in the small buffer, %v in the large", p, r, c, s, l)
				}
			}
		}
	}
}

func TestBayer(t *testing.T) {
	b := newBuf(t, scop.U16, 64, 64)
	Bayer(b, 3, 511)
	// Colour sites differ on average from green ones: the planes are
	// distinct pictures.
	var sum [2][2]int64
	for r := range int64(64) {
		for c := range int64(64) {
			v := b.Load(r*64 + c).I
			if v < 0 || v > 511 {
				t.Fatalf("(%d, %d) = %d", r, c, v)
			}
			sum[r%2][c%2] += v
		}
	}
	if sum[0][1] == sum[1][0] || sum[0][0] == sum[0][1] {
		t.Errorf("site sums %v: the planes look alike", sum)
	}
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadPNGColour(t *testing.T) {
	// A 6 x 5 (rows x columns) 8-bit image: pixel (i, j) is
	// (10i+j, 100+j, 200, 255).
	img := image.NewNRGBA(image.Rect(0, 0, 5, 6))
	for i := range 6 {
		for j := range 5 {
			img.SetNRGBA(j, i, color.NRGBA{uint8(10*i + j), uint8(100 + j), 200, 255})
		}
	}
	data := encodePNG(t, img)

	// Floats: s/255; a 1-pixel border around the centre 4 x 3 pixels.
	f := newBuf(t, scop.F32, 3, 6, 5)
	f.Fill(1) // LoadPNG clears what was there
	if err := LoadPNG(bytes.NewReader(data), f, 1); err != nil {
		t.Fatal(err)
	}
	at := func(k, i, j int64) float64 { return f.Load((k*6+i)*5 + j).F }
	for i := range int64(6) {
		for j := range int64(5) {
			inside := i >= 1 && i < 5 && j >= 1 && j < 4
			for k := range int64(3) {
				want := 0.0
				if inside {
					// The centre 4 x 3 of 6 x 5 starts at image (1, 1).
					want = float64(float32([3]float64{float64(10*i + j), float64(100 + j), 200}[k] / 255))
				}
				if got := at(k, i, j); got != want {
					t.Errorf("channel %d (%d, %d) = %v, want %v", k, i, j, got, want)
				}
			}
		}
	}

	// Integers: the samples themselves.
	u := newBuf(t, scop.U8, 4, 2, 2)
	if err := LoadPNG(bytes.NewReader(data), u, 0); err != nil {
		t.Fatal(err)
	}
	// The centre 2 x 2 of 6 x 5 starts at image (2, 1).
	want := []int64{21, 22, 31, 32, 101, 102, 101, 102, 200, 200, 200, 200, 255, 255, 255, 255}
	for i, w := range want {
		if got := u.Load(int64(i)).I; got != w {
			t.Errorf("element %d = %d, want %d", i, got, w)
		}
	}
}

func TestLoadPNGGrey16(t *testing.T) {
	img := image.NewGray16(image.Rect(0, 0, 4, 3))
	for i := range 3 {
		for j := range 4 {
			img.SetGray16(j, i, color.Gray16{Y: uint16(1000*i + j)})
		}
	}
	data := encodePNG(t, img)
	// A raw camera image keeps its 16-bit samples.
	b := newBuf(t, scop.U16, 3, 4)
	if err := LoadPNG(bytes.NewReader(data), b, 0); err != nil {
		t.Fatal(err)
	}
	for i := range int64(3) {
		for j := range int64(4) {
			if got := b.Load(i*4 + j).I; got != 1000*i+j {
				t.Errorf("(%d, %d) = %d, want %d", i, j, got, 1000*i+j)
			}
		}
	}
	f := newBuf(t, scop.F64, 3, 4)
	if err := LoadPNG(bytes.NewReader(data), f, 0); err != nil {
		t.Fatal(err)
	}
	if got, want := f.Load(5).F, 1001.0/65535; got != want {
		t.Errorf("f64 (1, 1) = %v, want %v", got, want)
	}
}

func TestLoadPNGErrors(t *testing.T) {
	data := encodePNG(t, image.NewGray(image.Rect(0, 0, 4, 3)))
	for _, tc := range []struct {
		shape  []int64
		border int64
	}{
		{[]int64{4, 4}, 0},    // more rows than the image
		{[]int64{5, 6}, 1},    // 3 x 4 inside the border: fits; 5 x 6 would not
		{[]int64{5, 2, 2}, 0}, // five channels
		{[]int64{12}, 0},      // rank 1
	} {
		b := newBuf(t, scop.F32, tc.shape...)
		err := LoadPNG(bytes.NewReader(data), b, tc.border)
		if fits := tc.shape[0] == 5 && len(tc.shape) == 2; fits != (err == nil) {
			t.Errorf("shape %v border %d: error %v", tc.shape, tc.border, err)
		}
	}
	if err := LoadPNG(bytes.NewReader([]byte("not a png")), newBuf(t, scop.F32, 1, 1), 0); err == nil {
		t.Error("garbage decoded")
	}
}
