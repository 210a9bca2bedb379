package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/jscop"
	"github.com/tilefuse/tilefuse/openscop"
	"github.com/tilefuse/tilefuse/presburger"
)

const scopHelp = `
Prints the polyhedral program model of SOURCE: parameters and context,
arrays, and for every statement its iteration domain, original schedule,
body and access relations in isl notation. --format json prints the same
as one JSON object per program (a list when SOURCE has several).
--format jscop prints Polly's JSCoP of the program (one program: pick it
with --func) in tilefuse's names: statements S0, S1, ..., the C array
names, the original schedule; 'tilefuse tree --jscop' reads it back.
--format openscop prints the program as OpenScop (one program), the
format of Clan, Candl, Pluto and Clint: context, per statement its
domain, scattering (the original schedule) and access relations, with
the <strings>, <arrays> and <body> extensions.
` + sourceHelp

func runScop(e *env, args []string) int {
	cmd := lookup("scop")
	fs := flag.NewFlagSet("scop", flag.ContinueOnError)
	format := fs.String("format", "text", "output format: text, json, jscop or openscop")
	fn := fs.String("func", "", "only the program of this C function")
	list := fs.Bool("list", false, "list the built-in sources")
	if err := parseFlags(fs, e, cmd, scopHelp, args); err != nil {
		return exitUsageOr(err)
	}
	if *list {
		fmt.Fprintln(e.stdout, strings.Join(builtinNames(), "\n"))
		return exitOK
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "tilefuse scop: want one SOURCE; usage: tilefuse scop %s\n", cmd.args)
		return exitUsage
	}
	if !slices.Contains([]string{"text", "json", "jscop", "openscop"}, *format) {
		fmt.Fprintf(e.stderr, "tilefuse scop: unknown format %q (text, json, jscop or openscop)\n", *format)
		return exitUsage
	}
	progs, err := loadPrograms(fs.Arg(0), *fn)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	// Everything is rendered before anything is written: no partial output.
	var out bytes.Buffer
	switch {
	case (*format == "jscop" || *format == "openscop") && len(progs) != 1:
		fmt.Fprintf(e.stderr, "tilefuse scop: %s has %d programs; a %s file holds one (pick it with --func)\n", fs.Arg(0), len(progs), map[string]string{"jscop": "JSCoP", "openscop": "OpenScop"}[*format])
		return exitUsage
	case *format == "openscop":
		text, err := openscop.Write(progs[0], presburger.UnionMap{})
		if err != nil {
			fmt.Fprintf(e.stderr, "tilefuse scop: %v\n", err)
			return exitUsage
		}
		out.WriteString(text)
	case *format == "jscop":
		s, err := jscop.FromProgram(progs[0], presburger.UnionMap{})
		var data []byte
		if err == nil {
			data, err = s.Marshal()
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "tilefuse scop: %v\n", err)
			return exitUsage
		}
		out.Write(data)
	case *format == "json":
		var v any = progs
		if len(progs) == 1 {
			v = progs[0]
		}
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(e.stderr, "tilefuse scop: %v\n", err)
			return exitUsage
		}
	default:
		for i, p := range progs {
			if i > 0 {
				out.WriteString("\n")
			}
			out.WriteString(p.String())
		}
	}
	e.stdout.Write(out.Bytes())
	return exitOK
}
