package draw

import (
	"fmt"
	"math"
	"strings"

	"github.com/tilefuse/tilefuse/scheduletree"
)

// tnode is a schedule tree node as drawn: a heading, a few short lines,
// the full text (the tooltip) and its children (leaves left out).
type tnode struct {
	kind     scheduletree.Kind
	class    string // CSS class: the kind, and "skipped" for that mark
	head     string
	lines    []string
	full     string
	children []*tnode

	w, h    float64 // the box
	subW    float64 // the subtree's width
	x, y    float64 // the box's top left corner
	id      int
	pathStr string
}

const (
	treeFont   = 11.0
	treeCharW  = 6.9 // the advance of a character of the monospace font at treeFont
	treeLineH  = 14.0
	treeMaxCh  = 58
	treeMaxLn  = 4
	treeHGap   = 16.0
	treeVGap   = 26.0
	treePad    = 7.0
	treeMargin = 16.0
)

// treeStyle gives each kind its fill and stroke.
var treeStyle = map[string][2]string{
	"domain":    {"#e8eaf6", "#3949ab"},
	"context":   {"#eceff1", "#607d8b"},
	"band":      {"#fff3e0", "#e65100"},
	"sequence":  {"#e0f2f1", "#00796b"},
	"set":       {"#e0f2f1", "#00796b"},
	"filter":    {"#f1f8e9", "#558b2f"},
	"extension": {"#fce4ec", "#ad1457"},
	"expansion": {"#fce4ec", "#ad1457"},
	"mark":      {"#f3e5f5", "#6a1b9a"},
	"skipped":   {"#f5f5f5", "#9e9e9e"},
	"guard":     {"#fffde7", "#f9a825"},
}

// stripParams drops a leading parameter tuple "[R, C] -> " of an isl
// string (the tooltip keeps it).
func stripParams(s string) string {
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "] -> "); i >= 0 && !strings.Contains(s[:i], "{") {
			return s[i+5:]
		}
	}
	return s
}

// pieces splits "{ A; B }" into its parts "A", "B" (at the top level).
func pieces(s string) []string {
	s = strings.TrimSpace(stripParams(s))
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return []string{s}
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	var out []string
	depth, start := 0, 0
	for i, r := range body {
		switch r {
		case '[', '(', '{':
			depth++
		case ']', ')', '}':
			depth--
		case ';':
			if depth == 0 {
				out = append(out, strings.TrimSpace(body[start:i]))
				start = i + 1
			}
		}
	}
	out = append(out, strings.TrimSpace(body[start:]))
	if len(out) == 1 && out[0] == "" {
		return []string{"{ }"}
	}
	return out
}

// shortLines abbreviates a set or map to at most treeMaxLn lines.
func shortLines(s string) []string {
	ps := pieces(s)
	var out []string
	for i, p := range ps {
		if i == treeMaxLn-1 && len(ps) > treeMaxLn {
			out = append(out, fmt.Sprintf("… and %d more", len(ps)-i))
			break
		}
		out = append(out, abbreviate(p, treeMaxCh))
	}
	return out
}

func bandFlags(b scheduletree.Band) string {
	var flags []string
	if b.Permutable {
		flags = append(flags, "permutable")
	}
	if len(b.Coincident) > 0 {
		coin := make([]string, len(b.Coincident))
		for i, c := range b.Coincident {
			coin[i] = "0"
			if c {
				coin[i] = "1"
			}
		}
		flags = append(flags, "coincident ["+strings.Join(coin, ",")+"]")
	}
	for i, o := range b.Options {
		if o != scheduletree.OptionDefault {
			flags = append(flags, fmt.Sprintf("%s[%d]", o, i))
		}
	}
	return strings.Join(flags, ", ")
}

// build converts the tree below n.
func build(n *scheduletree.Node, path scheduletree.Path, next *int) *tnode {
	if n == nil || n.Kind() == scheduletree.KindLeaf {
		return nil
	}
	t := &tnode{kind: n.Kind(), class: n.Kind().String(), head: n.Kind().String(), id: *next, pathStr: path.String()}
	*next++
	switch n.Kind() {
	case scheduletree.KindDomain:
		t.lines, t.full = shortLines(n.Domain().String()), "domain "+n.Domain().String()
	case scheduletree.KindFilter:
		t.lines, t.full = shortLines(n.Filter().String()), "filter "+n.Filter().String()
	case scheduletree.KindContext:
		// A context is a parameter set: its parameters are the point.
		t.lines, t.full = []string{abbreviate(n.Context().String(), treeMaxCh)}, "context "+n.Context().String()
	case scheduletree.KindGuard:
		t.lines, t.full = shortLines(n.Guard().String()), "guard "+n.Guard().String()
	case scheduletree.KindExtension:
		t.lines, t.full = shortLines(n.Extension().String()), "extension "+n.Extension().String()
	case scheduletree.KindExpansion:
		t.lines = shortLines(n.Expansion().String())
		t.full = "expansion " + n.Expansion().String() + " contraction " + n.Contraction().String()
	case scheduletree.KindMark:
		t.head = "mark " + n.Mark()
		t.full = t.head
		if n.Mark() == scheduletree.MarkSkipped {
			t.class = "skipped"
		}
	case scheduletree.KindBand:
		b := n.Band()
		flags := bandFlags(b)
		t.head = "band"
		if flags != "" {
			t.head += "  (" + flags + ")"
		}
		t.lines = shortLines(b.Schedule.String())
		t.full = "band " + b.Schedule.String()
		if flags != "" {
			t.full += "  (" + flags + ")"
		}
	default:
		t.full = t.head
	}
	for i, c := range n.Children() {
		if ct := build(c, path.Child(i), next); ct != nil {
			t.children = append(t.children, ct)
		}
	}
	return t
}

// measure sizes the boxes and subtrees.
func (t *tnode) measure() {
	chars := len([]rune(t.head))
	for _, l := range t.lines {
		chars = max(chars, len([]rune(l)))
	}
	t.w = float64(chars)*treeCharW + 2*treePad
	t.h = float64(1+len(t.lines))*treeLineH + treePad
	sum := 0.0
	for i, c := range t.children {
		c.measure()
		if i > 0 {
			sum += treeHGap
		}
		sum += c.subW
	}
	t.subW = math.Max(t.w, sum)
}

// place positions the subtree in [x, x+subW) from y down.
func (t *tnode) place(x, y float64) {
	t.y = y
	t.x = x + (t.subW-t.w)/2
	sum := -treeHGap
	for _, c := range t.children {
		sum += c.subW + treeHGap
	}
	cx := x + (t.subW-sum)/2
	for _, c := range t.children {
		c.place(cx, y+t.h+treeVGap)
		cx += c.subW + treeHGap
	}
}

func (t *tnode) walk(fn func(*tnode)) {
	fn(t)
	for _, c := range t.children {
		c.walk(fn)
	}
}

// TreeSVG draws t top-down: one box a node (leaves left out), styled by
// kind (classes "node band", "node filter", ..., "node skipped" for a
// skipped mark), with the node's sets abbreviated and the full text as
// the box's tooltip (an SVG title).
func TreeSVG(t scheduletree.Tree, title string) string {
	next := 0
	root := build(t.Root(), nil, &next)
	var s svg
	if root == nil {
		s.open(200, 60)
		s.text(treeMargin, 30, 13, "start", "title", title)
		return s.close()
	}
	root.measure()
	top := treeMargin
	if title != "" {
		top += 26
	}
	root.place(treeMargin, top)
	bottom := 0.0
	root.walk(func(n *tnode) { bottom = math.Max(bottom, n.y+n.h) })
	W := math.Max(root.subW+2*treeMargin, float64(len([]rune(title)))*8+2*treeMargin)
	H := bottom + treeMargin
	s.open(W, H)
	if title != "" {
		s.text(treeMargin, treeMargin+12, 14, "start", "title", title, `font-weight="bold"`)
	}
	// Edges first, under the boxes.
	s.raw(`<g class="edges" fill="none" stroke="#78909c" stroke-width="1.2">` + "\n")
	root.walk(func(n *tnode) {
		for _, c := range n.children {
			x1, y1 := n.x+n.w/2, n.y+n.h
			x2, y2 := c.x+c.w/2, c.y
			my := y1 + treeVGap/2
			s.raw(`<path class="edge" d="M%s %sV%sH%sV%s"/>`+"\n", num(x1), num(y1), num(my), num(x2), num(y2))
		}
	})
	s.raw("</g>\n")
	root.walk(func(n *tnode) {
		st := treeStyle[n.class]
		dash := ""
		if n.kind == scheduletree.KindMark {
			dash = ` stroke-dasharray="5 3"`
		}
		rx := "4"
		if n.kind == scheduletree.KindSequence || n.kind == scheduletree.KindSet {
			rx = num(n.h / 2)
		}
		s.raw(`<g class="node %s" id="node%d" data-path="%s">`+"\n", n.class, n.id, esc(n.pathStr))
		s.raw("<title>%s</title>\n", esc(n.full))
		s.raw(`<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="%s" stroke="%s" stroke-width="1.5"%s/>`+"\n",
			num(n.x), num(n.y), num(n.w), num(n.h), rx, st[0], st[1], dash)
		s.text(n.x+treePad, n.y+treeLineH, treeFont, "start", "head", n.head,
			`font-weight="bold"`, fmt.Sprintf(`fill="%s"`, st[1]), `font-family="DejaVu Sans Mono, Liberation Mono, monospace"`)
		for i, l := range n.lines {
			s.text(n.x+treePad, n.y+float64(i+2)*treeLineH, treeFont, "start", "label", l,
				`font-family="DejaVu Sans Mono, Liberation Mono, monospace"`)
		}
		s.raw("</g>\n")
	})
	return s.close()
}

// TreeDOT writes t as a Graphviz digraph: one node a tree node (leaves
// left out), shaped and coloured by kind, with the abbreviated label and
// the full text as its tooltip.
func TreeDOT(t scheduletree.Tree, title string) string {
	next := 0
	root := build(t.Root(), nil, &next)
	var b strings.Builder
	b.WriteString("digraph schedule {\n")
	if title != "" {
		fmt.Fprintf(&b, "  label=%s;\n  labelloc=t;\n", dotString(title))
	}
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\", fontsize=10];\n")
	b.WriteString("  edge [color=\"#78909c\"];\n")
	if root == nil {
		b.WriteString("}\n")
		return b.String()
	}
	root.walk(func(n *tnode) {
		st := treeStyle[n.class]
		label := n.head + `\l`
		for _, l := range n.lines {
			label += dotEscape(l) + `\l`
		}
		style := "rounded,filled"
		shape := "box"
		switch {
		case n.kind == scheduletree.KindMark:
			style = "rounded,filled,dashed"
		case n.kind == scheduletree.KindSequence || n.kind == scheduletree.KindSet:
			shape = "ellipse"
			style = "filled"
		}
		fmt.Fprintf(&b, "  n%d [class=%s, shape=%s, style=%s, fillcolor=%s, color=%s, label=\"%s\", tooltip=%s];\n",
			n.id, dotString(n.class), shape, dotString(style), dotString(st[0]), dotString(st[1]), label, dotString(n.full))
		for _, c := range n.children {
			fmt.Fprintf(&b, "  n%d -> n%d;\n", n.id, c.id)
		}
	})
	b.WriteString("}\n")
	return b.String()
}

func dotEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, `"`, `\"`)
}

func dotString(s string) string { return `"` + dotEscape(s) + `"` }
