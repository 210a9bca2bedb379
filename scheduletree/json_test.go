package scheduletree

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/internal/golden"
)

// goldenTrees are the fixtures and a few edited trees.
func goldenTrees(t *testing.T) map[string]Tree {
	trees := fixtures(t)
	tiled, err := trees["fused"].TileBand(Path{0}, []int64{32, 16})
	if err != nil {
		t.Fatal(err)
	}
	trees["tiled"] = tiled
	grafted, _, err := trees["sequence"].GraftBefore(Path{0, 1, 0},
		NewDomain(uset(t, "[N] -> { U[i] : 0 <= i < N }"), NewBand(band(t, "{ U[i] -> [i] }", false), nil)))
	if err != nil {
		t.Fatal(err)
	}
	trees["grafted"] = grafted
	trees["expansion"] = tree(t, NewDomain(uset(t, "{ C[c] : 0 <= c < 4 }"),
		NewBand(band(t, "{ C[c] -> [c] }", false),
			NewExpansion(umap(t, "{ S[i] -> C[floor(i/2)] }"), umap(t, "{ C[c] -> S[i] : 2c <= i <= 2c + 1 }"),
				NewBand(band(t, "{ S[i] -> [i] }", false), nil)))))
	return trees
}

func checkGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", file), string(got))
}

func sortedNames(m map[string]Tree) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestJSONGoldenAndRoundTrip(t *testing.T) {
	trees := goldenTrees(t)
	for _, name := range sortedNames(trees) {
		t.Run(name, func(t *testing.T) {
			tr := trees[name]
			data, err := Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name+".json", data)
			back, err := Unmarshal(data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if eq, err := back.Equal(tr); err != nil || !eq {
				t.Errorf("Unmarshal(Marshal(t)) differs from t (%v)", err)
			}
			again, err := Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, data) {
				t.Errorf("Marshal(Unmarshal(Marshal(t))) differs:\n%s\nwant\n%s", again, data)
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"kind": "domain"}`, `JSON node /: a domain node needs key "domain"`},
		{`{"kind": "tree", "domain": "{ S[i] }"}`, `unknown kind "tree"`},
		{`{"kind": "domain", "domain": "{ S[i] }", "colour": 1}`, `unknown field "colour"`},
		{`{"kind": "domain", "domain": "{ S[i] }", "child": {"kind": "mark", "mark": "x", "filter": "{ }"}}`, `JSON node /0: a mark node has no key "filter"`},
		{`{"kind": "domain", "domain": "{ S[i }"}`, `JSON node /:`},
		{`{"kind": "domain", "domain": "{ S[i] }", "child": {"kind": "band", "schedule": "{ S[i] -> [i] }", "coincident": [true, false]}}`, `1 members but 2 coincident flags`},
		{`{"kind": "domain", "domain": "{ S[i] }", "child": {"kind": "band", "schedule": "{ S[i] -> [i] }", "options": ["fast"]}}`, `unknown option "fast"`},
		{`{"kind": "domain", "domain": "{ S[i] }", "children": []}`, `cannot have that key`},
		{`{"kind": "filter", "filter": "{ S[i] }"}`, `root of a tree must be a domain`},
		{`{"kind": "domain", "domain": "{ S[i] }"} {}`, `data after the tree`},
		// Bands the writers cannot write: no member, pieces of different
		// members, named tuples, relations and unbound names.
		{`{"kind": "domain", "domain": "{ S[i] }", "child": {"kind": "band", "schedule": "{ S[i] -> [] }"}}`, `a band needs at least one member`},
		{`{"kind": "domain", "domain": "{ S[i]; T[i] }", "child": {"kind": "band", "schedule": "{ S[i] -> [i]; T[i] -> [] }"}}`, `does not map to an unnamed tuple of 1 members`},
		{`{"kind": "domain", "domain": "{ S[i] }", "child": {"kind": "band", "schedule": "{ S[i] -> A[i] }"}}`, `does not map to an unnamed tuple`},
		{`{"kind": "domain", "domain": "{ B[i] : 0 <= i < 4 }", "child": {"kind": "band", "schedule": "{ B[i] -> [j] : j >= i }"}}`, `is not a function: it gives several values to { B[i] }`},
		{`{"kind": "domain", "domain": "{ B[i] : 0 <= i < 4 }", "child": {"kind": "band", "schedule": "{ B[i] -> [U] }"}}`, `is not a function`},
		{`{"kind": "domain", "domain": "{ A[c] : c = 0 }", "child": {"kind": "expansion", "contraction": "{ A[0] -> A[a] }", "expansion": "{ }"}}`, `contraction { A[0] -> A[a] } is not a function`},
	} {
		_, err := Unmarshal([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Unmarshal(%s): error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestJSONLeafAndDefaults reads the short forms: no child is a leaf, a
// band without flags has none set.
func TestJSONLeafAndDefaults(t *testing.T) {
	tr, err := Unmarshal([]byte(`{"kind": "domain", "domain": "{ S[i] : 0 <= i < 4 }", "child": {"kind": "band", "schedule": "{ S[i] -> [i] }", "child": {"kind": "leaf"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tr.At(Path{0})
	if band := b.Band(); band.Permutable || len(band.Coincident) != 1 || band.Coincident[0] || band.Options[0] != OptionDefault {
		t.Errorf("band defaults: %+v", band)
	}
	if l, _ := tr.At(Path{0, 0}); l.Kind() != KindLeaf {
		t.Errorf("child is %s", l.Kind())
	}
}

// docBlock returns the code block of doc.go that starts after the line
// containing marker.
func docBlock(t *testing.T, marker string) string {
	data, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []string
	for i := range lines {
		if !strings.Contains(lines[i], marker) {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(lines[j], "//\t") {
			j++
		}
		for ; j < len(lines) && strings.HasPrefix(lines[j], "//\t"); j++ {
			out = append(out, strings.TrimPrefix(lines[j], "//\t"))
		}
		return strings.Join(out, "\n") + "\n"
	}
	t.Fatalf("no %q in doc.go", marker)
	return ""
}

// TestDocExample keeps the package documentation's example true.
func TestDocExample(t *testing.T) {
	example := docBlock(t, "A complete example")
	tr, err := Unmarshal([]byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(tr); err != nil {
		t.Error(err)
	}
	data, err := Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != example {
		t.Errorf("Marshal differs from the documented example:\n%s", data)
	}
	m, err := tr.Map()
	if err != nil {
		t.Fatal(err)
	}
	mapEqual(t, "documented map", m, docBlock(t, "Its schedule map"))
}
