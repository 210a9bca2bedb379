package cparse

import (
	"maps"

	"github.com/tilefuse/tilefuse/scop"
)

// The top-level scanner lets a program be taken from a real C file (a
// PolyBench source after the preprocessor, with glibc's headers in it)
// without parsing the whole file: it splits the tokens into function
// definitions, found by the shape "name ( ... ) {", and declarations
// ending at ';', skipping balanced brackets. Only the chosen function is
// parsed in full; typedefs of scalar types and global variables of the
// subset are taken from the declarations that parse, and everything else
// (other functions, prototypes, structs, attributes, asm labels, GNU
// builtins) is skipped.

// topItem is a function definition (fn set) or a declaration.
type topItem struct {
	fn   string // the function's name; "" for a declaration
	at   scop.Pos
	toks []token
	scop bool // the function body holds #pragma scop
}

// lexAll lexes src into tokens; end is the position of the end of file.
// With macros set, it collects the object-like macros that #define lines
// define.
func lexAll(file string, src []byte, macros map[string]string) (toks []token, end scop.Pos, err error) {
	errs := &first{}
	lx := newLexer(file, src, errs)
	lx.macros = macros
	for {
		t := lx.next()
		if t.kind == tEOF {
			if errs.err != nil {
				return nil, t.at, errs.err
			}
			return toks, t.at, nil
		}
		toks = append(toks, t)
	}
}

func isPunct(t token, s string) bool { return t.kind == tPunct && t.text == s }

// skipBalanced returns the index after the bracket that closes toks[i],
// or len(toks) when none does.
func skipBalanced(toks []token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		if toks[i].kind != tPunct {
			continue
		}
		switch toks[i].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(toks)
}

// scanTop splits a file's tokens into top-level items. Scop pragmas
// outside functions and a trailing declaration without ';' are dropped.
func scanTop(toks []token) []topItem {
	var items []topItem
	start := 0
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.kind == tPragmaScop || t.kind == tPragmaEndscop || t.kind == tPragmaTilefuse:
			if start == i {
				start++
			}
			i++
		case isPunct(t, ";"):
			if i > start {
				items = append(items, topItem{at: toks[start].at, toks: toks[start : i+1]})
			}
			i++
			start = i
		case isPunct(t, "(") || isPunct(t, "["):
			i = skipBalanced(toks, i)
		case isPunct(t, "{"):
			j := skipBalanced(toks, i)
			if name, at, ok := funcHead(stripGNU(toks[start:i])); ok {
				f := topItem{fn: name, at: at, toks: toks[start:j]}
				for _, x := range toks[i:j] {
					if x.kind == tPragmaScop {
						f.scop = true
					}
				}
				items = append(items, f)
				start = j
			}
			i = j
		default:
			i++
		}
	}
	return items
}

// funcHead reports whether head, the tokens before a '{' at the top
// level, ends a function declarator "name ( ... )", and returns the name.
// A '{' after ')' at the top level always opens a function body; the name
// is "" for declarators this does not read (functions returning function
// pointers).
func funcHead(head []token) (string, scop.Pos, bool) {
	n := len(head)
	if n == 0 || !isPunct(head[n-1], ")") {
		return "", scop.Pos{}, false
	}
	depth := 0
	for i := n - 1; i >= 0; i-- {
		if head[i].kind != tPunct {
			continue
		}
		switch head[i].text {
		case ")", "]":
			depth++
		case "(", "[":
			depth--
		}
		if depth == 0 {
			if i > 0 && head[i-1].kind == tIdent && !keywords[head[i-1].text] {
				return head[i-1].text, head[i-1].at, true
			}
			return "", head[n-1].at, true
		}
	}
	return "", head[n-1].at, true
}

// gnuWords are GNU extensions that carry no meaning for a scop:
// __extension__ and the inline spellings are dropped; __attribute__,
// asm labels and __declspec are dropped with their parenthesised part.
var gnuWords = map[string]bool{
	"__extension__": true, "__inline": true, "__inline__": true, "_Noreturn": true,
}

var gnuWithArgs = map[string]bool{
	"__attribute__": true, "__attribute": true, "__asm__": true, "__asm": true, "asm": true,
	"__declspec": true, "_Alignas": true,
}

// stripGNU returns toks without GNU attributes, asm labels and
// __extension__.
func stripGNU(toks []token) []token {
	var out []token
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.kind == tIdent && gnuWords[t.text]:
			i++
			continue
		case t.kind == tIdent && gnuWithArgs[t.text]:
			j := i + 1
			for j < len(toks) && toks[j].kind == tIdent && (toks[j].text == "volatile" || toks[j].text == "__volatile__" || toks[j].text == "goto") {
				j++
			}
			if j < len(toks) && isPunct(toks[j], "(") {
				i = skipBalanced(toks, j)
				continue
			}
		}
		if out == nil {
			out = make([]token, 0, len(toks))
		}
		out = append(out, t)
		i++
	}
	return out
}

// scanned is a file split by scanTop, with the typedefs and globals its
// declarations give.
type scanned struct {
	file   string
	items  []topItem
	end    scop.Pos
	macros map[string]string // object-like macros, for #pragma tilefuse
}

// functions lists the names of the functions defined in the file itself
// (not in the headers it includes).
func (sc *scanned) functions() []string {
	var names []string
	for _, it := range sc.items {
		if it.fn != "" && it.at.File == sc.file {
			names = append(names, it.fn)
		}
	}
	return names
}

// parseFuncs parses the functions that pick selects, each with the
// typedefs and globals declared before it. It returns no programs and
// no error when pick selects nothing.
func (sc *scanned) parseFuncs(pick func(topItem) bool) ([]*scop.Program, error) {
	typedefs := maps.Clone(builtinTypedefs)
	var globals []*declarator
	var progs []*scop.Program
	seen := map[string]scop.Pos{}
	for _, it := range sc.items {
		if it.fn == "" {
			globals = sc.declaration(it, typedefs, globals)
			continue
		}
		if !pick(it) {
			continue
		}
		if at, ok := seen[it.fn]; ok {
			return nil, errorf(it.at, "redefinition of function %s (first defined at %s)", it.fn, at)
		}
		seen[it.fn] = it.at
		p := newListParser(stripGNU(it.toks), sc.end, typedefs)
		p.macros = sc.macros
		u := &unit{globals: append([]*declarator(nil), globals...)}
		p.external(u)
		if p.errs.err == nil && p.tok.kind != tEOF {
			p.expected("the end of function " + it.fn)
		}
		if p.errs.err != nil {
			return nil, p.errs.err
		}
		if len(u.funcs) != 1 {
			return nil, errorf(it.at, "cannot read the definition of function %s", it.fn)
		}
		prog, err := buildFunc(sc.file, u, u.funcs[0])
		if err != nil {
			return nil, err
		}
		progs = append(progs, prog)
	}
	return progs, nil
}

// declaration reads a declaration that the subset can read: a typedef
// of a scalar type (from any file), or global variables (from the file
// itself). Others are skipped.
func (sc *scanned) declaration(it topItem, typedefs map[string]scop.ElemType, globals []*declarator) []*declarator {
	toks := stripGNU(it.toks)
	if len(toks) == 0 {
		return globals
	}
	if toks[0].kind == tIdent && toks[0].text == "typedef" {
		try := maps.Clone(typedefs)
		p := newListParser(toks, sc.end, try)
		p.typedef()
		if p.errs.err == nil && p.tok.kind == tEOF {
			maps.Copy(typedefs, try)
		}
		return globals
	}
	if it.at.File != sc.file {
		return globals
	}
	p := newListParser(toks, sc.end, typedefs)
	u := &unit{}
	p.external(u)
	if p.errs.err == nil && p.tok.kind == tEOF {
		globals = append(globals, u.globals...)
	}
	return globals
}
