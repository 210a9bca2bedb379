package draw

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// TestTreeSVG: one box a node of the blur's post tree (leaves left
// out), each with its kind as class and its full text as tooltip.
func TestTreeSVG(t *testing.T) {
	r := compile(t, blur(t), compiler.Post, 8, 8)
	tree := r.Tree()
	svg := TreeSVG(tree, "pipelines/blur, --fuse post, --tile 8,8")
	root := parseSVG(t, svg)
	kinds := map[string]int{}
	var ext string
	tree.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		switch {
		case n.Kind() == scheduletree.KindLeaf:
		case n.Kind() == scheduletree.KindMark && n.Mark() == scheduletree.MarkSkipped:
			kinds["skipped"]++
		default:
			kinds[n.Kind().String()]++
		}
		if n.Kind() == scheduletree.KindExtension {
			ext = n.Extension().String()
		}
		return true
	})
	nodes := root.find("g", "node")
	total := 0
	for k, n := range kinds {
		total += n
		if got := len(root.find("g", "node", k)); got != n {
			t.Errorf("%d %s nodes drawn, want %d", got, k, n)
		}
	}
	if len(nodes) != total {
		t.Errorf("%d nodes drawn, want %d", len(nodes), total)
	}
	if kinds["extension"] != 1 || kinds["skipped"] != 1 {
		t.Fatalf("the blur's post tree: %v", kinds)
	}
	e := root.find("g", "node", "extension")[0]
	titles := e.find("title")
	if len(titles) != 1 || strings.TrimSpace(titles[0].Text) != "extension "+ext {
		t.Errorf("the extension's tooltip is %q, want %q", titles, "extension "+ext)
	}
	if edges := root.find("path", "edge"); len(edges) != total-1 {
		t.Errorf("%d edges, want %d", len(edges), total-1)
	}
	// Bands show their flags.
	for _, b := range root.find("g", "node", "band") {
		if !strings.Contains(b.find("text", "head")[0].Text, "permutable") {
			t.Errorf("a band's heading lacks its flags: %q", b.find("text", "head")[0].Text)
		}
	}
	checkGolden(t, "blur_tree.svg", svg)

	dot := TreeDOT(tree, "blur")
	edgeLine := regexp.MustCompile(`(?m)^  n\d+ -> n\d+;$`)
	if !strings.HasPrefix(dot, "digraph schedule {") || len(edgeLine.FindAllString(dot, -1)) != total-1 || strings.Count(dot, "tooltip=") != total {
		t.Errorf("DOT output:\n%s", dot)
	}
	checkGolden(t, "blur_tree.dot", dot)
}

func TestAbbreviate(t *testing.T) {
	long := "[R, C] -> { A[i] : 0 <= i < R; B[i, j] : 0 <= i < R and 0 <= j < C and i + j <= 1000000000000000000; C[i]; D[i]; E[i] }"
	lines := shortLines(long)
	if len(lines) != treeMaxLn || lines[0] != "A[i] : 0 <= i < R" || !strings.HasSuffix(lines[1], "…") || lines[3] != "… and 2 more" {
		t.Errorf("shortLines = %q", lines)
	}
	for _, l := range lines {
		if len([]rune(l)) > treeMaxCh {
			t.Errorf("line %q longer than %d", l, treeMaxCh)
		}
	}
}
