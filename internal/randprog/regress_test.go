package randprog

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tilefuse/tilefuse/runner"
)

// TestRegress checks the programs of testdata/regress under every
// combination, as the campaign does (the AST interpreter, and natively
// the first combination when the toolchain is there). Each file is a
// program the campaign found wrong, minimized, or a shape worth keeping;
// its first line gives the parameters, "/* regress: n=4 T=2 */", and a
// line "/* known bug: ... */" skips it until the bug is fixed. The
// function is the first one defined; the combination a failure was
// found under is best named in the file's comment; lines
// "/* combos: PREFIX */" keep only the combinations so named.
func TestRegress(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "regress", "*.c"))
	if err != nil {
		t.Fatal(err)
	}
	tc, _ := runner.FindToolchain()
	for _, name := range names {
		name := name
		t.Run(strings.TrimSuffix(filepath.Base(name), ".c"), func(t *testing.T) {
			p, bug, err := readRegress(name)
			if err != nil {
				t.Fatal(err)
			}
			if bug != "" {
				t.Skip("known bug: " + bug)
			}
			c := &Checker{Toolchain: tc, Native: func(_ *Program, i int) bool { return i == 0 }, Combos: regressCombos(p.Source)}
			if len(c.Combos) == 0 {
				t.Fatal("no combination matches the file's /* combos: ... */ lines")
			}
			fs, _ := c.Check(p)
			for _, f := range fs {
				t.Errorf("%v", f)
			}
		})
	}
}

var (
	regressParams = regexp.MustCompile(`^/\* regress:((?:\s+\w+=\d+)*)\s*\*/`)
	regressBug    = regexp.MustCompile(`(?m)^/\* known bug: (.*?)\s*\*/`)
	regressFunc   = regexp.MustCompile(`(?m)^void (\w+)\(`)
	regressCombo  = regexp.MustCompile(`(?m)^/\* combos: (.*?)\s*\*/`)
)

// regressCombos is every combination, or where the source has lines
// "/* combos: PREFIX */" those whose name starts with one of the
// prefixes (such as "strategy max, tile 3,5"): a program slow to compile
// under all 72 is kept where it failed.
func regressCombos(src string) []Combo {
	ms := regressCombo.FindAllStringSubmatch(src, -1)
	if ms == nil {
		return Combos()
	}
	var out []Combo
	for _, c := range Combos() {
		for _, m := range ms {
			if strings.HasPrefix(c.String(), m[1]) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// readRegress reads a regression program and its known bug ("" for
// none).
func readRegress(name string) (*Program, string, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, "", err
	}
	m := regressParams.FindSubmatch(src)
	if m == nil {
		return nil, "", fmt.Errorf("%s: the first line is not /* regress: NAME=VALUE ... */", name)
	}
	p := &Program{Source: string(src), Params: map[string]int64{}}
	for _, kv := range strings.Fields(string(m[1])) {
		k, v, _ := strings.Cut(kv, "=")
		if p.Params[k], err = strconv.ParseInt(v, 10, 64); err != nil {
			return nil, "", fmt.Errorf("%s: %v", name, err)
		}
	}
	f := regressFunc.FindSubmatch(src)
	if f == nil {
		return nil, "", fmt.Errorf("%s: no function definition at the start of a line", name)
	}
	p.Func = string(f[1])
	bug := ""
	if b := regressBug.FindSubmatch(src); b != nil {
		bug = string(b[1])
	}
	return p, bug, nil
}
