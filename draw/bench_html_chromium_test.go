package draw

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// chromiumFlags run Debian's chromium headless without a display, a
// sandbox (root in CI), a GPU, or any network use of its own.
var chromiumFlags = []string{
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--hide-scrollbars", "--force-color-profile=srgb",
}

// TestBenchHTMLChromium renders the page of 'bench --html' in headless
// Chromium (Debian's chromium; skipped without it, a failure under CI)
// and checks the screenshot: not blank, more than one colour, and the
// inline chart drawn, its bars in their columns' colours.
func TestBenchHTMLChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed (apt-get install chromium); CI must run this test")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	page, err := BenchHTML(readTestBench(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	html, shot := filepath.Join(dir, "bench.html"), filepath.Join(dir, "shot.png")
	if err := os.WriteFile(html, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	const w, h = 900, 900
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append(append([]string{}, chromiumFlags...),
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot, "--window-size=900,900", "file://"+html)
	cmd := exec.CommandContext(ctx, browser, args...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("screenshot %v, want %dx%d", b, w, h)
	}
	colours, ink := map[color.RGBA]int{}, 0
	for y := range h {
		for x := range w {
			c := rgba(img, x, y)
			colours[c]++
			if c.R < 0xf0 || c.G < 0xf0 || c.B < 0xf0 {
				ink++
			}
		}
	}
	if ink < w*h/100 {
		t.Errorf("the screenshot is blank: %d of %d pixels not white", ink, w*h)
	}
	if len(colours) < 2 {
		t.Errorf("the screenshot has %d colours", len(colours))
	}
	// The bars of none and post (blur: 1.5x and 3x; the geomean) are
	// solid fills of the first two colours.
	for j, name := range []string{"none", "post"} {
		want := chartColours[j]
		if colours[want] < 50 {
			t.Errorf("%s's bars (colour %v) missing: %d pixels of it", name, want, colours[want])
		}
	}
}

func rgba(img image.Image, x, y int) color.RGBA {
	r, g, b, a := img.At(x, y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
