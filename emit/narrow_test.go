package emit

import (
	"testing"

	"github.com/tilefuse/tilefuse/frontend/cparse"
)

// TestStrided8or16: a nest is marked for 256-bit legal vectors exactly
// when its innermost loop reads 8- or 16-bit elements at a stride of 2 to
// 4 along that loop, on an x86-64 CPU.
func TestStrided8or16(t *testing.T) {
	for _, tc := range []struct {
		name, decl, body string
		target           Target
		want             bool
	}{
		{"i16 every second", "int16_t in[128], int16_t out[64]", "for (int i = 0; i < 64; i++) out[i] = in[2 * i + 1];", CPU, true},
		{"u8 every third", "uint8_t in[192], uint8_t out[64]", "for (int i = 0; i < 64; i++) out[i] = in[3 * i];", CPU, true},
		{"descending", "int16_t in[128], int16_t out[64]", "for (int i = 0; i < 64; i++) out[i] = in[127 - 2 * i];", CPU, true},
		{"i16 contiguous", "int16_t in[128], int16_t out[64]", "for (int i = 0; i < 64; i++) out[i] = in[i] + in[i + 1];", CPU, false},
		{"f32 every second", "float in[128], float out[64]", "for (int i = 0; i < 64; i++) out[i] = in[2 * i];", CPU, false},
		{"i16 every eighth", "int16_t in[512], int16_t out[64]", "for (int i = 0; i < 64; i++) out[i] = in[8 * i];", CPU, false},
		{"strided rows only", "int16_t in[16][64], int16_t out[8][64]", "for (int i = 0; i < 8; i++) for (int j = 0; j < 64; j++) out[i][j] = in[2 * i][j];", CPU, false},
		{"strided columns", "int16_t in[8][128], int16_t out[8][64]", "for (int i = 0; i < 8; i++) for (int j = 0; j < 64; j++) out[i][j] = in[i][2 * j];", CPU, true},
		{"GPU", "int16_t in[128], int16_t out[64]", "for (int i = 0; i < 64; i++) out[i] = in[2 * i];", CUDAEmulate, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "void f(" + tc.decl + ") {\n  " + tc.body + "\n}"
			p, err := cparse.ParseFunc("f.c", []byte(src), "f")
			if err != nil {
				t.Fatal(err)
			}
			n := originalAST(t, p)
			e := &emitter{p: p, opts: Options{Target: tc.target, Triple: DefaultTriple}}
			if got := e.strided8or16(n); got != tc.want {
				t.Errorf("strided8or16 = %v, want %v", got, tc.want)
			}
		})
	}
}
