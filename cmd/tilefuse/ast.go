package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

const astHelp = `
Generates the loops of SOURCE's schedule tree (see 'tilefuse tree' for
--fuse) and prints them as C statements in which each statement instance
is a call in isl's style, S0(c0, c1 + 1): the statement's iterators as
expressions of the loop iterators c0, c1, ... and the parameters. --c
prints instead a complete C function (named after the program, or --name)
with each statement's body in place, compilable together with PolyBench's
data, and --parallel marks the outermost coincident loops with
"#pragma omp parallel for".

--tree TREE generates the code of a schedule tree file instead: JSON as
printed by 'tilefuse tree --format json', or isl's YAML (as 'tilefuse tree
--format yaml' or isl_schedule_to_str print it; the format is read from
the file's contents), rooted at its domain. With --tree no SOURCE is
needed, unless --c is given: then the tree must schedule exactly SOURCE's
statement instances, respect its dependences and have true band flags (a
member marked coincident carries no dependence, a band marked permutable
is permutable), as 'tilefuse check-tree' checks. An illegal tree is
refused with exit status 1 and a pair of instances that shows it, unless
--unchecked is given. Without SOURCE the dependences are not known and
the tree is taken as it is.

--tile N tiles every permutable band of two or more members by N in
each member (a tile band above a point band); --separate sets isl's
separate option on every band directly above another band, splitting its
loops into full and partial tiles. --context SET assumes a parameter set
("[n] -> { : n >= 10 }"): conditions it implies are not tested.

--stats runs the code in the interpreter with SOURCE's statement bodies
on deterministic inputs, at the sizes of --dataset (PolyBench, default
MINI), the pipeline's defaults, or --size NAME=V,..., and prints instead
of the code what it executed: per statement the instances, array loads
and stores, the calls of each math function, and the tile-local buffers'
bytes (the measurements of the Halide tutorial's schedules).

-o FILE writes the code to FILE (only when it is complete) instead of
standard output.
` + limitsHelp + sourceHelp

func runAST(e *env, args []string) (status int) {
	defer func() {
		// As in calc: a panic is a bug, but the contract is one line on
		// stderr; TILEFUSE_PANIC=1 shows the trace.
		if r := recover(); r != nil {
			if os.Getenv("TILEFUSE_PANIC") != "" {
				panic(r)
			}
			fmt.Fprintf(e.stderr, "tilefuse ast: internal error (a bug in tilefuse, please report it): %v\n", r)
			status = exitUsage
		}
	}()
	cmd := lookup("ast")
	fs := flag.NewFlagSet("ast", flag.ContinueOnError)
	fuse := fs.String("fuse", compiler.DefaultStrategy.String(), "fusion strategy: "+compiler.StrategyChoices())
	fn := fs.String("func", "", "the C function to compile, when SOURCE has several")
	treeFile := fs.String("tree", "", "generate the code of this schedule tree file (JSON or isl YAML)")
	unchecked := fs.Bool("unchecked", false, "with --tree and SOURCE: generate the code even if the tree is illegal for SOURCE")
	asC := fs.Bool("c", false, "print a complete C function with the statements' bodies")
	name := fs.String("name", "", "the name of the C function printed by --c (default: the program's)")
	parallel := fs.Bool("parallel", false, "mark the outermost coincident loops parallel")
	tile := fs.String("tile", "", "tile sizes T,... of the outermost permutable bands")
	separate := fs.Bool("separate", false, "separate full and partial tiles of bands above bands")
	assume := fs.String("context", "", "a parameter set to assume")
	outFile := fs.String("o", "", "write the code to this file")
	inline := addInline(fs)
	keepScalars := addKeepScalars(fs)
	keepLayout := addKeepLayout(fs)
	stats := fs.Bool("stats", false, "run the code in the interpreter and print what it executed instead of the code")
	dataset := fs.String("dataset", "", "with --stats: the PolyBench dataset (default MINI)")
	size := fs.String("size", "", "with --stats: parameter values NAME=V,...")
	limits := addLimitFlags(fs, true)
	if err := parseFlags(fs, e, cmd, astHelp, args); err != nil {
		return exitUsageOr(err)
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse ast: "+format+"\n", args...)
		return exitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case *treeFile == "" && fs.NArg() != 1:
		return fail("want one SOURCE (or --tree TREE); usage: tilefuse ast %s", cmd.args)
	case *treeFile != "" && fs.NArg() > 1, *treeFile != "" && fs.NArg() == 1 && !*asC:
		return fail("--tree takes no SOURCE, except with --c")
	case *treeFile != "" && fs.NArg() == 0 && *asC:
		return fail("--c needs the SOURCE that --tree schedules")
	case *treeFile != "" && set["fuse"]:
		return fail("--fuse schedules a SOURCE; it does not apply to --tree")
	case *unchecked && *treeFile == "":
		return fail("--unchecked applies to a --tree TREE")
	case *stats && fs.NArg() != 1:
		return fail("--stats runs a SOURCE's statements: give the SOURCE")
	case (*dataset != "" || *size != "") && !*stats:
		return fail("--dataset and --size apply to --stats")
	}
	strategy, err := parseStrategy("ast", *fuse)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	sizes, err := parseTile("ast", *tile)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	opts := compiler.Options{Strategy: strategy, Parallel: *parallel, Stop: compiler.StageAST,
		Tile: tiling.Policy{Sizes: sizes, Separate: *separate}, NoInline: !*inline, KeepScalars: *keepScalars, KeepLayout: *keepLayout}
	if err := limits.apply("ast", &opts); err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	if *assume != "" {
		ctx, err := presburger.ParseSet(*assume)
		if err != nil {
			return fail("--context: %v", err)
		}
		if !ctx.Space().IsParams {
			return fail("--context: %s is not a parameter set", *assume)
		}
		opts.Context = ctx
	}

	var p *scop.Program
	if fs.NArg() == 1 {
		var err error
		if p, err = loadOne("ast", fs.Arg(0), *fn); err != nil {
			fmt.Fprintln(e.stderr, fileError(err))
			return exitUsage
		}
	}
	if *treeFile != "" {
		t, err := readTreeFile(*treeFile)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitUsage
		}
		if err := scheduletree.Validate(t); err != nil {
			fmt.Fprintf(e.stderr, "%s: invalid tree: %s\n", *treeFile, oneLine(err))
			return exitUsage
		}
		if p, err = compiler.ProgramForTree(p, t); err != nil {
			return fail("%s: %v", *treeFile, oneLine(err))
		}
		if err := compiler.CheckTree(p, t); err != nil {
			return fail("%s: %v", *treeFile, oneLine(err))
		}
		if p != nil && !*unchecked {
			if status, refused := refuseIllegal(e, "ast", *treeFile, p, t); refused {
				return status
			}
		}
		opts.Tree = &t
	}
	r, err := compileIn(context.Background(), *limits.timeout, p, opts)
	if err != nil {
		where := ""
		if r.Done < compiler.StageSchedule && p != nil {
			where = fs.Arg(0) + ": "
		}
		return fail("%s%v", where, oneLine(err))
	}
	n := r.AST
	var code string
	if *stats {
		params, label, err := runSizes("ast", &compileJob{source: fs.Arg(0), p: p}, *dataset, *size)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitUsage
		}
		var b bytes.Buffer
		if err := printStats(&b, r.Program, n, params, label); err != nil {
			return fail("%v", oneLine(err))
		}
		code = b.String()
	} else if *asC {
		fname := *name
		if fname == "" {
			fname = cIdent(p.Name)
		}
		if code, err = ast.PrintProgram(r.Program, n, fname); err != nil {
			return fail("%v", oneLine(err))
		}
	} else {
		code = ast.PrintC(n, ast.PrintOptions{})
	}
	if *outFile == "" {
		io.WriteString(e.stdout, code)
		return exitOK
	}
	if err := writeWhole(*outFile, []byte(code)); err != nil {
		return fail("%v", err)
	}
	return exitOK
}

// cIdent turns a program name such as "jacobi-2d" into a C identifier.
func cIdent(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "kernel"
	}
	return string(b)
}

// fileError writes a file system error as "FILE: message", the form of
// the other errors about a file.
func fileError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// readTreeFile reads a schedule tree in JSON or isl YAML, telling them
// apart by the contents: JSON is an object whose first key is quoted
// (isl's flow-style YAML also starts with '{', but with a bare key).
// Errors are one "FILE:LINE:COL: message" line.
func readTreeFile(name string) (scheduletree.Tree, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return scheduletree.Tree{}, fileError(err)
	}
	if isJSON(data) {
		t, err := scheduletree.Unmarshal(data)
		if err != nil {
			return t, jsonError(name, data, err)
		}
		return t, nil
	}
	t, err := scheduletree.UnmarshalYAML(data)
	if err != nil {
		return t, yamlError(name, err)
	}
	return t, nil
}

func isJSON(data []byte) bool {
	s := bytes.TrimLeft(data, " \t\r\n")
	if len(s) == 0 || s[0] != '{' {
		return false
	}
	s = bytes.TrimLeft(s[1:], " \t\r\n")
	return len(s) == 0 || s[0] == '"' || s[0] == '}'
}

// innerPos matches an error inside a set or map literal: "LINE:COL: msg"
// relative to the literal.
var innerPos = regexp.MustCompile(`^(\d+):(\d+): (.*)$`)

// yamlError positions a YAML error in the file: the reader reports the
// node's position, and errors inside a one-line set literal are moved to
// their column there (the literal starts after the quote at Col).
func yamlError(name string, err error) error {
	var ye *scheduletree.YAMLError
	if !errors.As(err, &ye) {
		return fmt.Errorf("%s:1:1: %s", name, strings.TrimPrefix(oneLine(err), "scheduletree: "))
	}
	line, col, msg := ye.Line, ye.Col, ye.Msg
	if m := innerPos.FindStringSubmatch(msg); m != nil && m[1] == "1" {
		c, _ := strconv.Atoi(m[2])
		col, msg = col+c, m[3]
	}
	return fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
}

// unknownField matches encoding/json's error for a key no node has.
var unknownField = regexp.MustCompile(`^json: unknown field "(.*)"$`)

// jsonNodeErr matches the JSON reader's errors about one node.
var jsonNodeErr = regexp.MustCompile(`^scheduletree: JSON node (\S+): (.*)$`)

// jsonError positions a JSON error: syntax errors at their offset, errors
// about a node at the node (or at the set literal that does not parse).
func jsonError(name string, data []byte, err error) error {
	at := func(off int, msg string) error {
		line, col := lineCol(data, off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
	}
	msg := strings.TrimPrefix(oneLine(err), "scheduletree: ")
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return at(int(se.Offset)-1, se.Error())
	case errors.As(err, &te):
		return at(int(te.Offset)-1, te.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return at(len(data), "unexpected end of the tree")
	}
	nodes, keys := scanJSONNodes(data)
	if m := unknownField.FindStringSubmatch(msg); m != nil {
		for _, k := range keys {
			if k.text == m[1] {
				return at(k.off, msg)
			}
		}
	}
	m := jsonNodeErr.FindStringSubmatch(oneLine(err))
	if m == nil {
		return at(nodes["/"].off, msg)
	}
	node, ok := nodes[m[1]]
	if !ok {
		return at(0, m[2])
	}
	if im := innerPos.FindStringSubmatch(m[2]); im != nil {
		// Find the literal that fails with the same message.
		for _, f := range []string{"domain", "context", "schedule", "filter", "extension", "contraction", "expansion", "guard"} {
			v, ok := node.fields[f]
			if !ok || parseLiteral(f, v.text) == nil || oneLine(parseLiteral(f, v.text)) != m[2] {
				continue
			}
			if c, _ := strconv.Atoi(im[2]); im[1] == "1" && v.off+c < len(data) && !bytes.ContainsRune(data[v.off:v.off+c], '\\') {
				return at(v.off+c, im[3])
			}
			return at(v.off, m[2])
		}
	}
	return at(node.off, m[2])
}

// parseLiteral parses the value of a tree field as the reader does.
func parseLiteral(field, text string) error {
	var err error
	switch field {
	case "domain", "filter":
		_, err = presburger.ParseUnionSet(text)
	case "context", "guard":
		_, err = presburger.ParseSet(text)
	default:
		_, err = presburger.ParseUnionMap(text)
	}
	return err
}

// jsonNode is where a node of a JSON tree and its string fields start.
type jsonNode struct {
	off    int
	fields map[string]jsonString
}

type jsonString struct {
	off  int // of the opening quote
	text string
}

// scanJSONNodes finds the nodes of a JSON tree by their path ("/",
// "/0", "/0/1", as scheduletree.Path prints them), and every key in
// order. It stops quietly at malformed input: it only serves to position
// errors.
func scanJSONNodes(data []byte) (map[string]jsonNode, []jsonString) {
	nodes := map[string]jsonNode{}
	var keys []jsonString
	dec := json.NewDecoder(bytes.NewReader(data))
	next := func() int {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n:,", data[off]) >= 0 {
			off++
		}
		return off
	}
	var node func(path string) bool
	node = func(path string) bool {
		off := next()
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return false
		}
		n := jsonNode{off: off, fields: map[string]jsonString{}}
		nodes[path] = n
		child := func(i int) string {
			if path == "/" {
				return "/" + strconv.Itoa(i)
			}
			return path + "/" + strconv.Itoa(i)
		}
		for dec.More() {
			off := next()
			tok, err := dec.Token()
			key, ok := tok.(string)
			if err != nil || !ok {
				return false
			}
			keys = append(keys, jsonString{off: off, text: key})
			switch key {
			case "child":
				if !node(child(0)) {
					return false
				}
			case "children":
				if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
					return false
				}
				for i := 0; dec.More(); i++ {
					if !node(child(i)) {
						return false
					}
				}
				if _, err := dec.Token(); err != nil {
					return false
				}
			default:
				off := next()
				var v any
				if err := dec.Decode(&v); err != nil {
					return false
				}
				if s, ok := v.(string); ok {
					n.fields[key] = jsonString{off: off, text: s}
				}
			}
		}
		_, err := dec.Token()
		return err == nil
	}
	node("/")
	return nodes, keys
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(data[:off], '\n')
}
