package draw

import (
	"slices"
	"strconv"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
)

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("attribute %q is not an integer", s)
	}
	return v
}

// distinct returns the sorted distinct values of attribute name.
func distinct(t *testing.T, es []elem, name string) []int64 {
	var out []int64
	for _, e := range es {
		v := atoi(t, e.attr(name))
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// TestTilesBlur: the two-stage blur with 8x8 tiles. An interior tile of
// out has 64 points; it needs a 10-column by 8-row block of blurx (the
// 3-point stencil along y), 2 columns of which its right-hand neighbour
// needs too. Every number is counted from the SVG's elements.
func TestTilesBlur(t *testing.T) {
	r := compile(t, blur(t), compiler.Post, 8, 8)
	svg, err := Tiles(r, TilesOptions{Title: "pipelines/blur", Sizes: []int64{8, 8}, Params: map[string]int64{"R": 24, "C": 24}})
	if err != nil {
		t.Fatal(err)
	}
	root := parseSVG(t, svg)
	live := root.find("rect", "pt", "live")
	if len(live) != 24*24 {
		t.Errorf("%d live-out points, want %d", len(live), 24*24)
	}
	chosen := root.find("rect", "pt", "live", "chosen")
	if len(chosen) != 64 {
		t.Errorf("the chosen tile has %d points, want 64", len(chosen))
	}
	if rows, cols := distinct(t, chosen, "data-r"), distinct(t, chosen, "data-c"); len(rows) != 8 || len(cols) != 8 {
		t.Errorf("the chosen tile spans %d rows and %d columns, want 8 and 8", len(rows), len(cols))
	}
	neighbour := root.find("rect", "pt", "live", "neighbour")
	if len(neighbour) != 64 {
		t.Errorf("the neighbouring tile has %d points, want 64", len(neighbour))
	}
	tiles := map[string]int{}
	for _, e := range live {
		tiles[e.attr("data-tile")]++
	}
	if len(tiles) != 16 { // rows and columns 1..24: tiles 0..3 each way
		t.Errorf("%d tiles, want 16", len(tiles))
	}
	fp := root.find("rect", "pt", "fp")
	if len(fp) != 80 {
		t.Errorf("the footprint in blurx has %d points, want 80", len(fp))
	}
	fpRows, fpCols := distinct(t, fp, "data-r"), distinct(t, fp, "data-c")
	if len(fpRows) != 8 || len(fpCols) != 10 {
		t.Errorf("the footprint spans %d rows and %d columns, want 8 and 10", len(fpRows), len(fpCols))
	}
	// The footprint is the tile's columns widened by one on each side.
	cols := distinct(t, chosen, "data-c")
	if fpCols[0] != cols[0]-1 || fpCols[len(fpCols)-1] != cols[len(cols)-1]+1 {
		t.Errorf("footprint columns %d..%d, want %d..%d", fpCols[0], fpCols[len(fpCols)-1], cols[0]-1, cols[len(cols)-1]+1)
	}
	overlap := root.find("rect", "pt", "fp", "overlap")
	if len(overlap) != 16 {
		t.Errorf("%d overlapping points, want 16", len(overlap))
	}
	if oc := distinct(t, overlap, "data-c"); len(oc) != 2 || oc[0] != fpCols[len(fpCols)-2] {
		t.Errorf("overlap columns %v, want the footprint's last two %v", oc, fpCols[len(fpCols)-2:])
	}
	if n := len(root.find("g", "points", "producer")); n != 1 {
		t.Errorf("%d producer panels, want 1", n)
	}
	checkGolden(t, "blur_tiles.svg", svg)
}

// TestTilesJacobi2D: jacobi-2d's band is skewed (t, 2t + i, 2t + j): in
// the (t, i) slice its tiles are parallelograms, each row of a full tile
// shifted two columns left of the row above.
func TestTilesJacobi2D(t *testing.T) {
	r := compile(t, polybenchProgram(t, "jacobi-2d"), compiler.Post, 8, 8, 64)
	svg, err := Tiles(r, TilesOptions{Title: "polybench/jacobi-2d", Params: map[string]int64{"tsteps": 20, "n": 30}})
	if err != nil {
		t.Fatal(err)
	}
	root := parseSVG(t, svg)
	chosen := root.find("rect", "pt", "live", "chosen")
	if len(chosen) != 64 {
		t.Fatalf("the chosen tile has %d points, want 64", len(chosen))
	}
	first := map[int64]int64{}
	count := map[int64]int{}
	for _, e := range chosen {
		r, c := atoi(t, e.attr("data-r")), atoi(t, e.attr("data-c"))
		if f, ok := first[r]; !ok || c < f {
			first[r] = c
		}
		count[r]++
	}
	rows := distinct(t, chosen, "data-r")
	if len(rows) != 8 {
		t.Fatalf("the chosen tile spans %d rows (t), want 8", len(rows))
	}
	for i, r := range rows {
		if count[r] != 8 {
			t.Errorf("row t = %d of the chosen tile has %d points, want 8", r, count[r])
		}
		if i > 0 && first[r] != first[rows[i-1]]-2 {
			t.Errorf("row t = %d starts at i = %d, want %d (a parallelogram)", r, first[r], first[rows[i-1]]-2)
		}
	}
	if len(root.find("g", "points", "producer")) != 0 {
		t.Errorf("jacobi-2d has no fused producer, but producer panels are drawn")
	}
	checkGolden(t, "jacobi2d_tiles.svg", svg)
}

func TestTilesErrors(t *testing.T) {
	r := compile(t, blur(t), compiler.Post, 8, 8)
	params := map[string]int64{"R": 16, "C": 16}
	for _, o := range []TilesOptions{
		{Stage: "nosuch", Params: params},
		{Stage: "blurx", Params: params}, // fused: draw out instead
		{Tile: []int64{99, 99}, Params: params},
		{Dims: []string{"x", "x"}, Params: params},
		{Params: map[string]int64{"R": 16}},
	} {
		if _, err := Tiles(r, o); err == nil {
			t.Errorf("Tiles(%+v): no error", o)
		}
	}
	// Without tiling there are no tiles to draw.
	if _, err := Tiles(compile(t, blur(t), compiler.Min), TilesOptions{Params: params}); err == nil {
		t.Errorf("an untiled tree: no error")
	}
}
