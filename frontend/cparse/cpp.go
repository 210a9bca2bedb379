package cparse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/tilefuse/tilefuse/scop"
)

// Options say how ParseFile reads a C file.
type Options struct {
	// Func is the function to compile; "" takes every function of the
	// file, or, when the file went through the preprocessor, the
	// functions of the file itself that hold #pragma scop (all of them
	// when none does).
	Func string
	// Includes (-I) and Defines (-D, NAME or NAME=VALUE) are given to
	// the C preprocessor.
	Includes, Defines []string
	// CPP is the preprocessor command, its arguments included; nil finds
	// cpp, or else gcc -E, on PATH.
	CPP []string
}

// ParseFile reads a C file as a user gives it. A file with preprocessor
// directives other than #pragma, or any Includes or Defines, goes
// through the C preprocessor first, whose line markers keep positions in
// the user's files. Then only the chosen function is parsed; the rest of
// the file (other functions, prototypes, struct declarations, GNU
// extensions of system headers) is skipped, apart from typedefs of scalar
// types and global variables of the subset. A file without directives and
// with no Func is read as Parse reads it.
func ParseFile(filename string, src []byte, opt Options) (progs []*scop.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			progs, err = nil, internalError(filename, r)
		}
		err = macroHint(err)
	}()
	pre := len(opt.Includes) > 0 || len(opt.Defines) > 0 || hasDirectives(src)
	if !pre && opt.Func == "" {
		return parseAll(filename, src)
	}
	text := src
	if pre {
		if text, err = preprocess(filename, opt); err != nil {
			return nil, err
		}
	}
	macros := map[string]string{}
	toks, end, err := lexAll(filename, text, macros)
	if err != nil {
		return nil, err
	}
	if pre {
		alignColumns(toks, filename, src)
	}
	sc := &scanned{file: filename, items: scanTop(toks), end: end, macros: macros}
	if opt.Func != "" {
		progs, err = sc.parseFuncs(func(it topItem) bool { return it.fn == opt.Func })
		if err == nil && len(progs) == 0 {
			return nil, noFunction(filename, opt.Func, sc.functions())
		}
		return progs, err
	}
	withScop := false
	for _, it := range sc.items {
		withScop = withScop || it.fn != "" && it.at.File == filename && it.scop
	}
	progs, err = sc.parseFuncs(func(it topItem) bool {
		return it.fn != "" && it.at.File == filename && (it.scop || !withScop)
	})
	if err == nil && len(progs) == 0 {
		return nil, errorf(scop.Pos{File: filename}, "no function definitions")
	}
	return progs, err
}

// noFunction is the error for a --func the file does not define.
func noFunction(filename, name string, found []string) error {
	if len(found) == 0 {
		return &scop.Error{Msg: fmt.Sprintf("%s has no function %q (it defines no functions)", filename, name)}
	}
	return &scop.Error{Msg: fmt.Sprintf("%s has no function %q (functions: %s)", filename, name, strings.Join(found, ", "))}
}

// hasDirectives reports whether src has a preprocessor directive other
// than #pragma (and the null directive).
func hasDirectives(src []byte) bool {
	for _, line := range bytes.Split(src, []byte("\n")) {
		line = bytes.TrimLeft(line, " \t\f\v")
		if len(line) == 0 || line[0] != '#' {
			continue
		}
		f := strings.Fields(string(line[1:]))
		if len(f) > 0 && f[0] != "pragma" {
			return true
		}
	}
	return false
}

// cppCommand finds the C preprocessor.
func cppCommand(filename string, opt Options) ([]string, error) {
	if len(opt.CPP) > 0 {
		return opt.CPP, nil
	}
	if path, err := exec.LookPath("cpp"); err == nil {
		return []string{path}, nil
	}
	for _, cc := range []string{"gcc", "cc"} {
		if path, err := exec.LookPath(cc); err == nil {
			return []string{path, "-E"}, nil
		}
	}
	return nil, &scop.Error{Msg: fmt.Sprintf("%s needs the C preprocessor (it has #include or #define lines, or -I/-D were given), but neither cpp nor gcc is on PATH: install gcc's cpp (Debian: apt-get install cpp), or give the file after gcc -E -P", filename)}
}

// cppTimeout bounds the preprocessor's run.
const cppTimeout = 2 * time.Minute

// preprocess runs the C preprocessor on the file, with line markers.
func preprocess(filename string, opt Options) ([]byte, error) {
	argv, err := cppCommand(filename, opt)
	if err != nil {
		return nil, err
	}
	// -dD keeps the #define lines, whose constants #pragma tilefuse
	// may use.
	args := append(append([]string(nil), argv[1:]...), "-dD")
	for _, d := range opt.Includes {
		args = append(args, "-I"+d)
	}
	for _, d := range opt.Defines {
		args = append(args, "-D"+d)
	}
	name := filename
	if strings.HasPrefix(name, "-") {
		name = "./" + name
	}
	args = append(args, name)
	ctx, cancel := context.WithTimeout(context.Background(), cppTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, &scop.Error{Pos: scop.Pos{File: filename}, Msg: fmt.Sprintf("the C preprocessor did not finish in %v", cppTimeout)}
		}
		if msg := cppError(stderr.String()); msg != nil {
			return nil, msg
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, &scop.Error{Pos: scop.Pos{File: filename}, Msg: fmt.Sprintf("cannot run the C preprocessor %s: %v", argv[0], err)}
		}
		return nil, &scop.Error{Pos: scop.Pos{File: filename}, Msg: fmt.Sprintf("the C preprocessor failed (%v): %s", err, strings.TrimSpace(stderr.String()))}
	}
	return stdout.Bytes(), nil
}

// cppError turns the first error in the preprocessor's messages
// ("file:line:col: fatal error: text") into an error at that position.
func cppError(stderr string) *scop.Error {
	for _, line := range strings.Split(stderr, "\n") {
		i := strings.Index(line, " error: ")
		if i < 0 {
			continue
		}
		msg := "cpp: " + strings.TrimSpace(line[i+1:])
		head := strings.TrimSuffix(strings.TrimSpace(line[:i+1]), ":")
		if strings.HasSuffix(head, " fatal") {
			head = strings.TrimSuffix(strings.TrimSuffix(head, " fatal"), ":")
			msg = "cpp: fatal " + strings.TrimSpace(line[i+1:])
		}
		// head is file:line:col, file:line or a name such as
		// <command-line>.
		f := strings.Split(head, ":")
		var pos scop.Pos
		nums := 0
		for nums < 2 && len(f)-nums > 1 {
			if _, err := strconv.Atoi(f[len(f)-1-nums]); err != nil {
				break
			}
			nums++
		}
		pos.File = strings.Join(f[:len(f)-nums], ":")
		if nums >= 1 {
			pos.Line, _ = strconv.Atoi(f[len(f)-nums])
		}
		if nums == 2 {
			pos.Col, _ = strconv.Atoi(f[len(f)-1])
		}
		return &scop.Error{Pos: pos, Msg: msg}
	}
	return nil
}

// alignColumns puts the tokens of the user's file at their columns in
// the source: the preprocessor keeps lines but not spacing. A token
// that a macro expansion made takes the column of the macro's name.
func alignColumns(toks []token, file string, src []byte) {
	lines := bytes.Split(src, []byte("\n"))
	for i := 0; i < len(toks); {
		at := toks[i].at
		j := i
		for j < len(toks) && toks[j].at.File == at.File && toks[j].at.Line == at.Line {
			j++
		}
		if at.File == file && at.Line >= 1 && at.Line <= len(lines) {
			alignLine(toks[i:j], lines[at.Line-1])
		}
		i = j
	}
}

func alignLine(toks []token, orig []byte) {
	cur := 0
	for k := range toks {
		t := &toks[k]
		if t.kind == tPragmaScop || t.kind == tPragmaEndscop || t.kind == tPragmaTilefuse {
			continue
		}
		for cur < len(orig) && (orig[cur] == ' ' || orig[cur] == '\t' || orig[cur] == '\r') {
			cur++
		}
		at := cur
		if !tokenAt(orig, cur, t.text) {
			at = -1
			for x := cur + 1; x+len(t.text) <= len(orig); x++ {
				if tokenAt(orig, x, t.text) {
					at = x
					break
				}
			}
		}
		if at < 0 { // from a macro expansion
			t.at.Col = cur + 1
			continue
		}
		t.at.Col = at + 1
		cur = at + len(t.text)
	}
}

// tokenAt reports whether text is a whole token at orig[i:].
func tokenAt(orig []byte, i int, text string) bool {
	if text == "" || !bytes.HasPrefix(orig[i:], []byte(text)) {
		return false
	}
	word := func(c byte) bool { return isIdentStart(c) || isDigit(c) }
	if word(text[0]) && i > 0 && word(orig[i-1]) {
		return false
	}
	e := i + len(text)
	return !word(text[len(text)-1]) || e >= len(orig) || !word(orig[e])
}

// macroHint adds to "unknown identifier N" that N may be a macro the
// command line should define.
func macroHint(err error) error {
	var se *scop.Error
	if !errors.As(err, &se) {
		return err
	}
	name, ok := strings.CutPrefix(se.Msg, "unknown identifier ")
	if !ok || strings.ContainsAny(name, " (") {
		return err
	}
	return &scop.Error{Pos: se.Pos, Msg: fmt.Sprintf("%s (if it is a macro, define it: -D %s=VALUE)", se.Msg, name)}
}
