package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/scop"
)

// sourceHelp describes the SOURCE argument every compiling command takes.
const sourceHelp = `
SOURCE is a C file holding static control parts (one program per function;
--func picks one), or a built-in benchmark: polybench/NAME (e.g.
polybench/gemm), polymage/NAME (a PolyMage benchmark pipeline, e.g.
polymage/harris) or pipelines/NAME (e.g. pipelines/blur). 'tilefuse scop
--list' lists the built-ins.

A C file with #include or #define lines goes through the C preprocessor
(cpp or gcc -E, from PATH) first; -I DIR and -D NAME[=VALUE] (both
repeatable, also written -IDIR and -DNAME) are given to it, e.g.
'-DLARGE_DATASET -I utilities' for a PolyBench source as distributed.
Only the --func function is parsed: other functions, prototypes, typedefs
and declarations of the file and its headers are skipped. Without --func,
the preprocessed file gives the functions that hold #pragma scop.
`

// sourceFlags are the preprocessor options of a C SOURCE: -I DIR and
// -D NAME[=VALUE], repeatable.
type sourceFlags struct {
	includes, defines listFlag
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }

func (l *listFlag) Set(v string) error {
	if v == "" {
		return errors.New("empty value")
	}
	*l = append(*l, v)
	return nil
}

// cppFlags holds -I and -D of the command being run. parseFlags sets
// it anew for each command line (registering -I and -D on every command
// that reads a C file, the commands with --func), and loadPrograms reads
// it: the command files need no change to pass them on. One command runs
// at a time (run is not called concurrently).
var cppFlags = &sourceFlags{}

// prepareSourceFlags is parseFlags' first step: it resets cppFlags, and
// for a command with --func registers -I and -D on fs and rewrites the
// cc-style spellings -IDIR and -DNAME[=V] into -I=DIR and -D=NAME[=V],
// which package flag reads.
func prepareSourceFlags(fs *flag.FlagSet, args []string) []string {
	cppFlags = &sourceFlags{}
	if fs.Lookup("func") == nil || fs.Lookup("I") != nil || fs.Lookup("D") != nil {
		return args
	}
	fs.Var(&cppFlags.includes, "I", "add DIR to the C preprocessor's include path")
	fs.Var(&cppFlags.defines, "D", "define NAME[=VALUE] for the C preprocessor")
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		if a == "--" {
			break
		}
		if len(a) > 2 && (a[:2] == "-I" || a[:2] == "-D") && a[2] != '=' && fs.Lookup(a[1:]) == nil {
			out[i] = a[:2] + "=" + a[2:]
		}
	}
	return out
}

// loadPrograms resolves SOURCE to its programs, keeping only function fn
// when fn is set.
func loadPrograms(source, fn string) ([]*scop.Program, error) {
	var progs []*scop.Program
	cpp := cppFlags
	if len(cpp.includes) > 0 || len(cpp.defines) > 0 {
		for _, prefix := range []string{"polybench/", "polymage/", "pipelines/"} {
			if strings.HasPrefix(source, prefix) {
				return nil, fmt.Errorf("-I and -D apply to C files, not to the built-in %s", source)
			}
		}
	}
	switch {
	case strings.HasPrefix(source, "polybench/"):
		name := strings.TrimPrefix(source, "polybench/")
		k, ok := polybench.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown PolyBench kernel %q (see 'tilefuse scop --list')", name)
		}
		p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
		if err != nil {
			return nil, err
		}
		p.Name = k.Name
		progs = []*scop.Program{p}
	case strings.HasPrefix(source, "polymage/"):
		name := strings.TrimPrefix(source, "polymage/")
		e, ok := polymage.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown PolyMage pipeline %q (see 'tilefuse scop --list')", name)
		}
		p, err := e.Build()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", source, err)
		}
		progs = []*scop.Program{p}
	case strings.HasPrefix(source, "pipelines/"):
		name := strings.TrimPrefix(source, "pipelines/")
		p, err := builtinPipeline(name)
		if err != nil {
			return nil, err
		}
		progs = []*scop.Program{p}
	default:
		src, err := os.ReadFile(source)
		if err != nil {
			return nil, err
		}
		// With fn set, the file is read for that function alone: the
		// rest of the file need not be in the subset.
		return cparse.ParseFile(source, src, cparse.Options{Func: fn, Includes: cpp.includes, Defines: cpp.defines})
	}
	if fn == "" {
		return progs, nil
	}
	for _, p := range progs {
		if p.Name == fn {
			return []*scop.Program{p}, nil
		}
	}
	return nil, fmt.Errorf("%s has no function %q", source, fn)
}

// builtinNames lists every built-in SOURCE.
func builtinNames() []string {
	var names []string
	for _, k := range polybench.Kernels() {
		names = append(names, "polybench/"+k.Name)
	}
	for _, e := range polymage.All() {
		names = append(names, "polymage/"+e.Name)
	}
	for _, n := range pipelineNames() {
		names = append(names, "pipelines/"+n)
	}
	sort.Strings(names)
	return names
}

// polymageSeed seeds the inputs of PolyMage pipelines (run and bench use
// the same pictures).
const polymageSeed = 1

// sourceInputs returns the input contents a built-in benchmark brings
// (a PolyMage pipeline's pictures, whose values some stages index by),
// or nil when the generated ones serve.
func sourceInputs(source string, p *scop.Program, params map[string]int64) (map[string]*scop.Buffer, error) {
	name, ok := strings.CutPrefix(source, "polymage/")
	if !ok {
		return nil, nil
	}
	e, ok := polymage.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown PolyMage pipeline %q", name)
	}
	return e.Inputs(p, params, polymageSeed)
}
