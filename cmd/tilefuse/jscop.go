package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tilefuse/tilefuse/jscop"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
)

const jscopHelp = `
--jscop FILE (repeatable, or FILE,FILE: Polly makes one file per static
control part, as 2mm's two loop nests) reads JSCoP files that Polly
exported (opt -polly-export-jscop) from clang's IR of SOURCE, or that
'scop --format jscop' wrote, and uses their schedule instead of
scheduling SOURCE. Polly's statements (Stmt_<block>) are paired with
SOURCE's by what they write; the schedule is then checked like a --tree
file.
`

// jscopFiles is --jscop: a repeatable flag, each value a comma list.
type jscopFiles []string

func (f *jscopFiles) String() string { return strings.Join(*f, ",") }

func (f *jscopFiles) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name == "" {
			return fmt.Errorf("an empty file name in %q", v)
		}
		*f = append(*f, name)
	}
	return nil
}

// addJSCoP registers --jscop.
func addJSCoP(fs *flag.FlagSet) *jscopFiles {
	f := &jscopFiles{}
	fs.Var(f, "jscop", "use the schedule of these JSCoP files (Polly's; repeatable or FILE,FILE for several static control parts)")
	return f
}

// readJSCoPs parses the files; an error is one "FILE:WHERE: message".
func readJSCoPs(files []string) ([]*jscop.Scop, error) {
	var out []*jscop.Scop
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fileError(err)
		}
		s, err := jscop.Parse(data)
		if err != nil {
			var je *jscop.Error
			if errors.As(err, &je) {
				return nil, fmt.Errorf("%s:%s: %s", name, je.Where, oneLine(errors.New(je.Msg)))
			}
			return nil, fmt.Errorf("%s: %s", name, oneLine(err))
		}
		out = append(out, s)
	}
	return out, nil
}

// jscopMapping reads the files and pairs them with p.
func jscopMapping(p *scop.Program, files []string) (*jscop.Mapping, error) {
	scops, err := readJSCoPs(files)
	if err != nil {
		return nil, err
	}
	m, err := jscop.Match(p, scops...)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", strings.Join(files, ","), oneLine(err))
	}
	return m, nil
}

// jscopTree is the schedule of the JSCoP files as a tree of p, checked
// like a user's tree (unless unchecked): status exitCheck when it is illegal, exitUsage for
// bad input; done reports that the command must end with status.
func jscopTree(e *env, cmd string, p *scop.Program, files []string, unchecked bool) (t scheduletree.Tree, status int, done bool) {
	m, err := jscopMapping(p, files)
	if err == nil {
		t, err = m.Tree()
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse %s: %s\n", cmd, oneLine(err))
		return t, exitUsage, true
	}
	if unchecked {
		return t, exitOK, false
	}
	if status, refused := refuseIllegal(e, cmd, strings.Join(files, ","), p, t); refused {
		return t, status, true
	}
	return t, exitOK, false
}

// writeJSCoPs renders the tree's schedule into the Polly JSCoPs files
// (for tree --polly): each goes to FILE.tilefuse, all rendered before
// any is written; the lines to print name them.
func writeJSCoPs(p *scop.Program, files []string, t scheduletree.Tree) (string, error) {
	m, err := jscopMapping(p, files)
	if err != nil {
		return "", err
	}
	out, err := m.Export(t)
	if err != nil {
		return "", fmt.Errorf("%s: %s", strings.Join(files, ","), oneLine(err))
	}
	datas := make([][]byte, len(out))
	for i, s := range out {
		if datas[i], err = s.Marshal(); err != nil {
			return "", err
		}
	}
	var log strings.Builder
	for i, name := range files {
		if err := os.WriteFile(name+".tilefuse", datas[i], 0o644); err != nil {
			return "", fileError(err)
		}
		fmt.Fprintf(&log, "wrote %s.tilefuse\n", name)
	}
	return log.String(), nil
}
