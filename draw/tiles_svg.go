package draw

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// The colours of the tile picture.
var tilePalette = []string{"#c6dbef", "#c7e9c0", "#fdd0a2", "#dadaeb", "#fcbba1", "#d9f0a3", "#d4b9da", "#fee391"}

const (
	colDom       = "#ececec"
	colFP        = "#6baed6"
	colOverlap   = "#e6550d"
	colNFP       = "#fdd0a2"
	colChosen    = "#08306b"
	colNeighbour = "#d94801"
	colEdge      = "#636363"
)

// tileColour gives neighbouring tiles different colours: the parities
// of the last three tile coordinates.
func tileColour(t []int64) string { return tilePalette[tileClass(t)] }

// tileClass is the index of a tile's colour.
func tileClass(t []int64) int {
	idx := 0
	for k := 0; k < 3 && k < len(t); k++ {
		v := t[len(t)-1-k]
		idx |= int(((v%2)+2)%2) << k
	}
	return idx
}

func tileText(t []int64) string { return "(" + strings.Join(strings.Split(key(t), ","), ", ") + ")" }

// frame is a panel's grid: its rows and columns of cells.
type frame struct {
	r0, r1, c0, c1 int64
}

func frameOf(pts []cell) frame {
	f := frame{math.MaxInt64, math.MinInt64, math.MaxInt64, math.MinInt64}
	for _, p := range pts {
		f.r0, f.r1, f.c0, f.c1 = min(f.r0, p.r), max(f.r1, p.r), min(f.c0, p.c), max(f.c1, p.c)
	}
	if len(pts) == 0 {
		f = frame{}
	}
	return f
}

func (f frame) rows() int64 { return f.r1 - f.r0 + 1 }
func (f frame) cols() int64 { return f.c1 - f.c0 + 1 }

type panelLayout struct {
	x, y, w, h float64 // the panel's box
	gx, gy     float64 // the grid's top left corner
	f          frame
	caption    []string
}

const (
	padLeft   = 40.0
	padRight  = 14.0
	padTop    = 20.0 // column labels
	padBottom = 10.0
	captionH  = 15.0
	minPanelW = 300.0
)

func (pic *tilesPicture) render() string {
	cs := 14.0
	maxExt := int64(1)
	frames := []frame{frameOf(pic.live.pts)}
	for _, pp := range pic.producers {
		frames = append(frames, frameOf(pp.pts))
	}
	for _, f := range frames {
		maxExt = max(maxExt, f.rows(), f.cols())
	}
	cs = math.Max(5, math.Min(16, math.Floor(340/float64(maxExt))))
	captions := [][]string{pic.liveLines()}
	for i := range pic.producers {
		captions = append(captions, pic.producerLines(i))
	}
	nLines := 0
	for _, c := range captions {
		nLines = max(nLines, len(c))
	}
	// Panels on a grid of at most three columns, each cell as large as
	// the largest panel.
	pw, ph := minPanelW, 0.0
	for _, f := range frames {
		pw = math.Max(pw, padLeft+float64(f.cols())*cs+padRight)
		ph = math.Max(ph, float64(nLines)*captionH+padTop+float64(f.rows())*cs+padBottom)
	}
	ncol := min(3, len(frames))
	nrow := (len(frames) + ncol - 1) / ncol
	const margin, titleH = 16.0, 34.0
	W := margin*2 + float64(ncol)*pw
	W = math.Max(W, margin*2+float64(len([]rune(pic.title)))*8.6)
	nItems := len(pic.legendItems())
	legendH := float64((nItems+legendPerRow(W-2*margin)-1)/legendPerRow(W-2*margin))*20 + 16
	H := titleH + float64(nrow)*(ph+12) + legendH
	var s svg
	s.open(W, H)
	var css strings.Builder
	for i, c := range tilePalette {
		fmt.Fprintf(&css, ".t%d{fill:%s}", i, c)
	}
	fmt.Fprintf(&css, ".dom{fill:%s}.fp{fill:%s}.overlap{fill:%s}.nfp{fill:%s}", colDom, colFP, colOverlap, colNFP)
	s.raw("<style>%s</style>\n", css.String())
	s.text(margin, 22, 15, "start", "title", pic.title, `font-weight="bold"`)
	for i, f := range frames {
		x := margin + float64(i%ncol)*pw
		y := titleH + float64(i/ncol)*(ph+12)
		pl := panelLayout{x: x, y: y, w: pw, h: ph, f: f, caption: captions[i]}
		pl.gx = x + padLeft
		pl.gy = y + float64(nLines)*captionH + padTop
		if i == 0 {
			pic.renderLive(&s, pl, cs)
		} else {
			pic.renderProducer(&s, pl, cs, &pic.producers[i-1])
		}
	}
	pic.renderLegend(&s, margin, H-legendH+8, W-2*margin)
	return s.close()
}

func sliceLine(sl slicer) string {
	s := ""
	if sl.row >= 0 {
		s = "rows " + sl.rowName() + ", columns " + sl.colName()
	} else {
		s = "columns " + sl.colName()
	}
	if ft := sl.fixedText(); ft != "" {
		s += "; " + ft
	}
	return s
}

func (pic *tilesPicture) liveLines() []string {
	lp := &pic.live
	n := 0
	for i := range lp.pts {
		if key(lp.tiles[lp.tile[i]]) == key(pic.chosen) {
			n++
		}
	}
	role := "tiled"
	if pic.liveOut {
		role = "live-out, tiled"
	}
	lines := []string{
		fmt.Sprintf("%s (%s): %d tiles drawn", lp.stage, role, len(lp.tiles)),
		fmt.Sprintf("tile %s: %d points", tileText(pic.chosen), n),
	}
	if pic.neighbour != nil {
		lines[1] += fmt.Sprintf("; neighbour %s dashed", tileText(pic.neighbour))
	}
	return append(lines, sliceLine(lp.sl))
}

func (pic *tilesPicture) producerLines(i int) []string {
	pp := &pic.producers[i]
	fpf := frameOf(keys(pp.fp))
	lines := []string{
		fmt.Sprintf("%s (fused): tile %s needs %d", pp.stage, tileText(pic.chosen), pp.fpAll),
	}
	if len(pp.fp) > 0 {
		lines = append(lines, fmt.Sprintf("drawn: %d (%d columns × %d rows)", len(pp.fp), fpf.cols(), fpf.rows()))
	} else {
		lines = append(lines, "none of them in this slice")
	}
	if pic.neighbour != nil {
		lines = append(lines, fmt.Sprintf("recomputed by %s too: %d", tileText(pic.neighbour), pp.overlapAll))
	}
	if ft := pp.sl.fixedText(); ft != "" {
		lines = append(lines, ft)
	}
	return lines
}

func keys(m map[cell]bool) []cell {
	out := make([]cell, 0, len(m))
	for c, ok := range m {
		if ok {
			out = append(out, c)
		}
	}
	return out
}

func (pl panelLayout) cellXY(c cell, cs float64) (float64, float64) {
	return pl.gx + float64(c.c-pl.f.c0)*cs, pl.gy + float64(c.r-pl.f.r0)*cs
}

func (pl panelLayout) header(s *svg, cs float64, sl slicer) {
	for i, line := range pl.caption {
		cls := "caption"
		weight := ""
		if i == 0 {
			weight = `font-weight="bold"`
		}
		s.text(pl.x+8, pl.y+13+float64(i)*captionH, 11.5, "start", cls, line, weight)
	}
	// Axis labels: the first and last column and row.
	ty := pl.gy - 5
	s.text(pl.gx+cs/2, ty, 9, "middle", "axis", fmt.Sprint(pl.f.c0))
	if pl.f.c1 != pl.f.c0 {
		s.text(pl.gx+(float64(pl.f.cols())-0.5)*cs, ty, 9, "middle", "axis", fmt.Sprint(pl.f.c1))
	}
	if pl.f.cols() > 6 {
		s.text(pl.gx+float64(pl.f.cols())*cs/2, ty, 10, "middle", "axis-name", sl.colName()+" →", `font-style="italic"`)
	}
	if sl.row >= 0 {
		s.text(pl.gx-4, pl.gy+cs/2+3, 9, "end", "axis", fmt.Sprint(pl.f.r0))
		if pl.f.r1 != pl.f.r0 {
			s.text(pl.gx-4, pl.gy+(float64(pl.f.rows())-0.5)*cs+3, 9, "end", "axis", fmt.Sprint(pl.f.r1))
		}
		if pl.f.rows() > 6 {
			mx, my := pl.gx-22, pl.gy+float64(pl.f.rows())*cs/2
			s.text(mx, my, 10, "middle", "axis-name", sl.rowName()+" →", `font-style="italic"`,
				fmt.Sprintf(`transform="rotate(90 %s %s)"`, num(mx), num(my)))
		}
	}
}

// edges draws, as one path, the sides of the cells in group whose
// neighbour across the side is not in the group.
func edges(s *svg, pl panelLayout, cs float64, in func(cell) bool, cells []cell, class, stroke string, width float64, dash string) {
	var d strings.Builder
	for _, c := range cells {
		if !in(c) {
			continue
		}
		x, y := pl.cellXY(c, cs)
		if !in(cell{c.r - 1, c.c}) {
			fmt.Fprintf(&d, "M%s %sh%s", num(x), num(y), num(cs))
		}
		if !in(cell{c.r + 1, c.c}) {
			fmt.Fprintf(&d, "M%s %sh%s", num(x), num(y+cs), num(cs))
		}
		if !in(cell{c.r, c.c - 1}) {
			fmt.Fprintf(&d, "M%s %sv%s", num(x), num(y), num(cs))
		}
		if !in(cell{c.r, c.c + 1}) {
			fmt.Fprintf(&d, "M%s %sv%s", num(x+cs), num(y), num(cs))
		}
	}
	if d.Len() == 0 {
		return
	}
	extra := ""
	if dash != "" {
		extra = fmt.Sprintf(` stroke-dasharray="%s"`, dash)
	}
	s.raw(`<path class="%s" d="%s" fill="none" stroke="%s" stroke-width="%s" stroke-linecap="square"%s/>`+"\n", class, d.String(), stroke, num(width), extra)
}

func (pic *tilesPicture) renderLive(s *svg, pl panelLayout, cs float64) {
	lp := &pic.live
	pl.header(s, cs, lp.sl)
	ck, nk := key(pic.chosen), ""
	if pic.neighbour != nil {
		nk = key(pic.neighbour)
	}
	tileAt := map[cell]int{}
	for i, p := range lp.pts {
		tileAt[p] = lp.tile[i]
	}
	s.raw(`<g class="points live" stroke="white" stroke-width="0.6">` + "\n")
	for i, p := range lp.pts {
		t := lp.tiles[lp.tile[i]]
		cls := "pt live"
		switch key(t) {
		case ck:
			cls += " chosen"
		case nk:
			cls += " neighbour"
		}
		x, y := pl.cellXY(p, cs)
		s.raw(`<rect class="%s t%d" x="%s" y="%s" width="%s" height="%s" data-r="%d" data-c="%d" data-tile="%s"/>`+"\n",
			cls, tileClass(t), num(x), num(y), num(cs), num(cs), p.r, p.c, key(t))
	}
	s.raw("</g>\n")
	// Tile boundaries: a side between two tiles, or at the edge.
	var d strings.Builder
	for _, p := range lp.pts {
		t := tileAt[p]
		x, y := pl.cellXY(p, cs)
		if u, ok := tileAt[cell{p.r - 1, p.c}]; !ok || u != t {
			fmt.Fprintf(&d, "M%s %sh%s", num(x), num(y), num(cs))
		}
		if _, ok := tileAt[cell{p.r + 1, p.c}]; !ok {
			fmt.Fprintf(&d, "M%s %sh%s", num(x), num(y+cs), num(cs))
		}
		if u, ok := tileAt[cell{p.r, p.c - 1}]; !ok || u != t {
			fmt.Fprintf(&d, "M%s %sv%s", num(x), num(y), num(cs))
		}
		if _, ok := tileAt[cell{p.r, p.c + 1}]; !ok {
			fmt.Fprintf(&d, "M%s %sv%s", num(x+cs), num(y), num(cs))
		}
	}
	s.raw(`<path class="tile-edges" d="%s" fill="none" stroke="%s" stroke-width="1" stroke-linecap="square"/>`+"\n", d.String(), colEdge)
	inTile := func(k string) func(cell) bool {
		return func(c cell) bool {
			t, ok := tileAt[c]
			return ok && key(lp.tiles[t]) == k
		}
	}
	if nk != "" {
		edges(s, pl, cs, inTile(nk), lp.pts, "neighbour-edge", colNeighbour, 2, "4 3")
	}
	edges(s, pl, cs, inTile(ck), lp.pts, "chosen-edge", colChosen, 2.5, "")
}

func (pic *tilesPicture) renderProducer(s *svg, pl panelLayout, cs float64, pp *producerPanel) {
	pl.header(s, cs, pp.sl)
	// The producer's other points as runs along rows (one element a
	// run keeps the file small); the footprint's points one by one.
	s.raw(`<g class="points producer" data-stage="%s">`+"\n", esc(pp.stage))
	runs := func(class string, in func(cell) bool) {
		rows := map[int64][]int64{}
		for _, p := range pp.pts {
			if in(p) {
				rows[p.r] = append(rows[p.r], p.c)
			}
		}
		var rs []int64
		for r := range rows {
			rs = append(rs, r)
		}
		slices.Sort(rs)
		for _, r := range rs {
			cs0 := rows[r]
			slices.Sort(cs0)
			for i := 0; i < len(cs0); {
				j := i
				for j+1 < len(cs0) && cs0[j+1] == cs0[j]+1 {
					j++
				}
				x, y := pl.cellXY(cell{r, cs0[i]}, cs)
				s.raw(`<rect class="%s" x="%s" y="%s" width="%s" height="%s" data-r="%d" data-c0="%d" data-c1="%d"/>`+"\n",
					class, num(x), num(y), num(float64(j-i+1)*cs), num(cs), r, cs0[i], cs0[j])
				i = j + 1
			}
		}
	}
	runs("run dom", func(c cell) bool { return !pp.fp[c] && !pp.nfp[c] })
	runs("run nfp", func(c cell) bool { return !pp.fp[c] && pp.nfp[c] })
	s.raw(`<g stroke="white" stroke-width="0.6">` + "\n")
	for _, p := range pp.pts {
		if !pp.fp[p] {
			continue
		}
		cls := "pt fp"
		if pp.nfp[p] {
			cls = "pt fp overlap"
		}
		x, y := pl.cellXY(p, cs)
		s.raw(`<rect class="%s" x="%s" y="%s" width="%s" height="%s" data-r="%d" data-c="%d"/>`+"\n",
			cls, num(x), num(y), num(cs), num(cs), p.r, p.c)
	}
	s.raw("</g>\n</g>\n")
	edges(s, pl, cs, func(c cell) bool { return pp.nfp[c] }, pp.pts, "neighbour-edge", colNeighbour, 2, "4 3")
	edges(s, pl, cs, func(c cell) bool { return pp.fp[c] }, pp.pts, "footprint-edge", colChosen, 2.5, "")
}

// legendItems are the legend's entries: the producers' only when
// there are producers.
func (pic *tilesPicture) legendItems() []legendItem {
	its := ""
	if len(pic.producers) > 0 {
		its = " and its footprints"
	}
	items := []legendItem{
		{tilePalette[0], colEdge, "", "a tile of the tiled stage (one colour per tile)"},
		{"white", colChosen, "", "the chosen tile" + its},
	}
	if pic.neighbour != nil {
		items = append(items, legendItem{"white", colNeighbour, "4 3", "the neighbouring tile" + its})
	}
	if len(pic.producers) > 0 {
		items = append(items,
			legendItem{colFP, "white", "", "producer instances the chosen tile computes"},
			legendItem{colOverlap, "white", "", "needed by both tiles: recomputed"},
			legendItem{colNFP, "white", "", "needed by the neighbour only"},
			legendItem{colDom, "white", "", "other instances of the producer"})
	}
	return items
}

type legendItem struct{ fill, stroke, dash, text string }

const legendColW = 330.0

func legendPerRow(w float64) int { return max(1, int(w/legendColW)) }

func (pic *tilesPicture) renderLegend(s *svg, x, y, w float64) {
	items := pic.legendItems()
	s.raw(`<g class="legend">` + "\n")
	perRow := legendPerRow(w)
	for i, it := range items {
		ix := x + float64(i%perRow)*legendColW
		iy := y + float64(i/perRow)*20
		dash := ""
		if it.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s"`, it.dash)
		}
		s.raw(`<rect x="%s" y="%s" width="14" height="14" fill="%s" stroke="%s" stroke-width="2"%s/>`+"\n", num(ix), num(iy), it.fill, it.stroke, dash)
		s.text(ix+20, iy+11, 11, "start", "legend-text", it.text)
	}
	s.raw("</g>\n")
}
