package draw

import (
	"context"
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/internal/golden"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

// elem is an XML element with its attributes and children.
type elem struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []elem     `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (e elem) attr(name string) string {
	for _, a := range e.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (e elem) hasClass(classes ...string) bool {
	have := strings.Fields(e.attr("class"))
	for _, c := range classes {
		found := false
		for _, h := range have {
			found = found || h == c
		}
		if !found {
			return false
		}
	}
	return true
}

// find returns the elements below e (e included) named name with all
// the classes.
func (e elem) find(name string, classes ...string) []elem {
	var out []elem
	var walk func(x elem)
	walk = func(x elem) {
		if x.XMLName.Local == name && x.hasClass(classes...) {
			out = append(out, x)
		}
		for _, c := range x.Children {
			walk(c)
		}
	}
	walk(e)
	return out
}

// parseSVG checks that s is well-formed XML with an svg root.
func parseSVG(t *testing.T, s string) elem {
	t.Helper()
	var root elem
	if err := xml.Unmarshal([]byte(s), &root); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element %q, want svg", root.XMLName.Local)
	}
	return root
}

// golden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func compile(t *testing.T, p *scop.Program, s compiler.Strategy, sizes ...int64) *compiler.Result {
	t.Helper()
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: s, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageFuse})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func blur(t *testing.T) *scop.Program {
	t.Helper()
	p, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func polybenchProgram(t *testing.T, name string) *scop.Program {
	t.Helper()
	k, ok := polybench.Lookup(name)
	if !ok {
		t.Fatalf("no kernel %s", name)
	}
	p, err := cparse.ParseFunc(name+".c", []byte(k.Source), k.Func)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
