package draw

import (
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
)

// svgSize reads the root's width and height in CSS pixels (pt at 96
// dpi, as rsvg-convert renders them).
func svgSize(t *testing.T, root elem) (int, int) {
	t.Helper()
	px := func(s string) int {
		scale := 1.0
		if v, ok := strings.CutSuffix(s, "pt"); ok {
			s, scale = v, 96.0/72
		}
		s = strings.TrimSuffix(s, "px")
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("svg size %q: %v", s, err)
		}
		return int(math.Ceil(v*scale - 1e-6))
	}
	return px(root.attr("width")), px(root.attr("height"))
}

// TestRender converts every kind of picture to PNG with a real SVG
// renderer (rsvg-convert, Debian's librsvg2-bin; skipped without it)
// and checks the image: the SVG's size, and not blank.
func TestRender(t *testing.T) {
	rsvg, err := exec.LookPath("rsvg-convert")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("rsvg-convert (librsvg2-bin) is not installed; CI must run this test")
		}
		t.Skip("rsvg-convert (librsvg2-bin) is not installed")
	}
	blurR := compile(t, blur(t), compiler.Post, 8, 8)
	tiles, err := Tiles(blurR, TilesOptions{Title: "blur", Params: map[string]int64{"R": 24, "C": 24}})
	if err != nil {
		t.Fatal(err)
	}
	jac, err := Tiles(compile(t, polybenchProgram(t, "jacobi-2d"), compiler.Post, 8), TilesOptions{Title: "jacobi-2d", Params: map[string]int64{"tsteps": 12, "n": 20}})
	if err != nil {
		t.Fatal(err)
	}
	chart, err := BenchSVG(readTestBench(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, svg := range map[string]string{"tiles": tiles, "jacobi": jac, "tree": TreeSVG(blurR.Tree(), "blur"), "chart": chart} {
		t.Run(name, func(t *testing.T) {
			w, h := svgSize(t, parseSVG(t, svg))
			in, out := filepath.Join(dir, name+".svg"), filepath.Join(dir, name+".png")
			if err := os.WriteFile(in, []byte(svg), 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command(rsvg, "-o", out, in).CombinedOutput(); err != nil {
				t.Fatalf("rsvg-convert: %v\n%s", err, msg)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
				t.Errorf("PNG %dx%d, want the SVG's %dx%d", b.Dx(), b.Dy(), w, h)
			}
			checkNotBlank(t, img)
		})
	}
}

// checkNotBlank wants a tenth of the pixels coloured other than the
// background and several colours.
func checkNotBlank(t *testing.T, img image.Image) {
	t.Helper()
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	colours := map[[4]uint32]bool{}
	other := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bb, a := c.RGBA()
			colours[[4]uint32{r, g, bb, a}] = true
			if c != bg {
				other++
			}
		}
	}
	if frac := float64(other) / float64(b.Dx()*b.Dy()); frac < 0.05 || len(colours) < 4 {
		t.Errorf("the image looks blank: %.1f%% of pixels drawn, %d colours", 100*frac, len(colours))
	}
}
