package cparse

import (
	"github.com/tilefuse/tilefuse/scop"
)

// Parse reads a C file and returns one program per function definition,
// in order. The first problem is returned as a *scop.Error.
func Parse(filename string, src []byte) (progs []*scop.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			progs, err = nil, internalError(filename, r)
		}
	}()
	return parseAll(filename, src)
}

// parseAll is Parse without the last-resort recover, for the fuzz test.
func parseAll(filename string, src []byte) (progs []*scop.Program, err error) {
	u, err := parseUnit(filename, src)
	if err != nil {
		return nil, err
	}
	for _, f := range u.funcs {
		p, err := buildFunc(filename, u, f)
		if err != nil {
			return nil, err
		}
		progs = append(progs, p)
	}
	return progs, nil
}

// ParseFunc reads a C file and returns the program of the function called
// name. Only that function is parsed in full: the rest of the file is
// split at the top level and skipped (see ParseFile), apart from the
// typedefs and globals of the subset declared before the function.
// ParseFunc does not run the preprocessor; ParseFile does.
func ParseFunc(filename string, src []byte, name string) (prog *scop.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, internalError(filename, r)
		}
	}()
	toks, end, err := lexAll(filename, src, nil)
	if err != nil {
		return nil, err
	}
	sc := &scanned{file: filename, items: scanTop(toks), end: end}
	progs, err := sc.parseFuncs(func(it topItem) bool { return it.fn == name })
	if err != nil {
		return nil, err
	}
	if len(progs) == 0 {
		return nil, errorf(scop.Pos{File: filename}, "no function %s", name)
	}
	return progs[0], nil
}

func parseUnit(filename string, src []byte) (*unit, error) {
	p := newParser(filename, src)
	u := p.parseUnit()
	if p.errs.err != nil {
		return nil, p.errs.err
	}
	seen := map[string]bool{}
	for _, f := range u.funcs {
		if seen[f.name] {
			return nil, errorf(f.at, "redefinition of function %s", f.name)
		}
		seen[f.name] = true
	}
	return u, nil
}
