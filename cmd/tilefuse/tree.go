package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/jscop"
	"github.com/tilefuse/tilefuse/openscop"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

const treeHelp = `
Prints the schedule tree of SOURCE. --fuse none gives the original program
order; min, smart and max run the Pluto-style scheduler with that fusion
heuristic (min: every strongly connected component apart; smart: fuse
where no parallel member is lost; max: fuse wherever legal); post is
post-tiling fusion (live-out spaces tiled, the producers their tiles need
fused in with extension nodes). --tile T,... tiles the tree as 'tilefuse
compile --tile' does (for post: the tiled spaces' bands; default 16,1024
on their innermost members, 32,256 for a GPU target or a program with no
intermediate space).

--format text is an outline for reading; json is the inspection format
documented in package scheduletree (it round-trips, and check-tree reads
it back); yaml is isl's format (isl_schedule_read_from_str reads it);
jscop is Polly's JSCoP with the tree's schedule as each statement's
schedule map, in tilefuse's names (statements S0, S1, ..., the C array
names). --polly FILE,... instead writes the tree's schedule into the
JSCoP files Polly exported for SOURCE, in Polly's names, as FILE.tilefuse
each: what 'opt -polly-import-jscop -polly-import-jscop-postfix=tilefuse'
reads.
` + jscopHelp + limitsHelp + sourceHelp

const checkTreeHelp = `
Checks that the schedule tree in TREE (JSON as printed by 'tilefuse tree
--format json', or isl YAML when the file name ends in .yaml or .yml)
schedules exactly the statement instances of SOURCE and respects all of
its dependences, and that the flags of its bands hold, as code
generation trusts them: a member marked coincident (a parallel loop)
carries no dependence that the outer bands and sequences leave, and no
such dependence goes backwards in any member of a band marked permutable
(a band that may be tiled). A tree with extension nodes or "skipped"
subtrees (as 'tree --fuse post' prints) is checked by dataflow: every
read must run after an execution of the instance whose value it reads,
in the same tile for a "promote[A]" array (its flags are not checked).
Prints "legal" (exit 0), or each violated dependence or false flag with
one concrete pair of instances that shows it (exit 1). 'tilefuse ast
--tree TREE --c SOURCE' makes the same check before it generates code.
` + sourceHelp

func runTree(e *env, args []string) int {
	cmd := lookup("tree")
	fs := flag.NewFlagSet("tree", flag.ContinueOnError)
	fuse := fs.String("fuse", compiler.DefaultStrategy.String(), "fusion strategy: "+compiler.StrategyChoices())
	format := fs.String("format", "text", "text, json, yaml, jscop or openscop")
	jscopIn := addJSCoP(fs)
	polly := &jscopFiles{}
	fs.Var(polly, "polly", "write the tree's schedule into these JSCoP files of Polly's, as FILE.tilefuse (repeatable or FILE,FILE)")
	unchecked := fs.Bool("unchecked", false, "with --jscop: print the schedule even if it is illegal for SOURCE")
	tile := fs.String("tile", "", "tile sizes T,... (of the outermost permutable bands; of the live-out spaces with --fuse post)")
	fn := fs.String("func", "", "the C function to compile, when SOURCE has several")
	inline := addInline(fs)
	keepScalars := addKeepScalars(fs)
	keepLayout := addKeepLayout(fs)
	limits := addLimitFlags(fs, true)
	if err := parseFlags(fs, e, cmd, treeHelp, args); err != nil {
		return exitUsageOr(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "tilefuse tree: want one SOURCE; usage: tilefuse tree %s\n", cmd.args)
		return exitUsage
	}
	if !slices.Contains([]string{"text", "json", "yaml", "jscop", "openscop"}, *format) {
		fmt.Fprintf(e.stderr, "tilefuse tree: unknown format %q (text, json, yaml, jscop or openscop)\n", *format)
		return exitUsage
	}
	scheduling := false
	fs.Visit(func(fl *flag.Flag) { scheduling = scheduling || fl.Name == "fuse" || fl.Name == "tile" })
	switch {
	case len(*jscopIn) > 0 && scheduling:
		fmt.Fprintln(e.stderr, "tilefuse tree: --fuse and --tile schedule SOURCE; they do not apply to --jscop")
		return exitUsage
	case *unchecked && len(*jscopIn) == 0:
		fmt.Fprintln(e.stderr, "tilefuse tree: --unchecked applies to --jscop")
		return exitUsage
	case len(*polly) > 0 && *format != "text":
		fmt.Fprintln(e.stderr, "tilefuse tree: --polly writes JSCoP files; --format does not apply")
		return exitUsage
	}
	strategy, err := parseStrategy("tree", *fuse)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	sizes, err := parseTile("tree", *tile)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	p, err := loadOne("tree", fs.Arg(0), *fn)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	var t scheduletree.Tree
	prog := p
	if len(*jscopIn) > 0 {
		var status int
		var done bool
		if t, status, done = jscopTree(e, "tree", p, *jscopIn, *unchecked); done {
			return status
		}
	} else {
		opts := compiler.Options{Strategy: strategy, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageFuse, NoInline: !*inline, KeepScalars: *keepScalars, KeepLayout: *keepLayout}
		if len(*polly) > 0 || *format == "jscop" || *format == "openscop" {
			// JSCoP and OpenScop describe the program as written: no inlining,
			// scalar mapping or transposed copies.
			opts.NoInline, opts.KeepScalars, opts.KeepLayout = true, true, true
		}
		if err := limits.apply("tree", &opts); err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitUsage
		}
		r, err := compileIn(context.Background(), *limits.timeout, p, opts)
		if err != nil {
			fmt.Fprintf(e.stderr, "tilefuse tree: %s: %v\n", fs.Arg(0), err)
			return exitUsage
		}
		t, prog = r.Tree(), r.Program
	}
	if len(*polly) > 0 {
		log, err := writeJSCoPs(prog, *polly, t)
		if err != nil {
			fmt.Fprintf(e.stderr, "tilefuse tree: %s\n", oneLine(err))
			return exitUsage
		}
		fmt.Fprint(e.stdout, log)
		return exitOK
	}
	var out []byte
	switch *format {
	case "json":
		out, err = scheduletree.Marshal(t)
		out = append(out, '\n')
	case "yaml":
		out, err = scheduletree.MarshalYAML(t)
	case "jscop":
		var s *jscop.Scop
		if s, err = jscop.FromTree(prog, t); err == nil {
			out, err = s.Marshal()
		}
	case "openscop":
		var text string
		text, err = openscop.WriteTree(prog, t)
		out = []byte(text)
	default:
		out = []byte(t.Text())
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse tree: %v\n", err)
		return exitUsage
	}
	e.stdout.Write(out)
	return exitOK
}

// loadOne resolves SOURCE to exactly one program.
func loadOne(cmd, source, fn string) (*scop.Program, error) {
	progs, err := loadPrograms(source, fn)
	if err != nil {
		return nil, err
	}
	if len(progs) != 1 {
		var names []string
		for _, p := range progs {
			names = append(names, p.Name)
		}
		return nil, fmt.Errorf("tilefuse %s: %s has %d programs (%s); pick one with --func", cmd, source, len(progs), strings.Join(names, ", "))
	}
	return progs[0], nil
}

func runCheckTree(e *env, args []string) int {
	cmd := lookup("check-tree")
	fs := flag.NewFlagSet("check-tree", flag.ContinueOnError)
	fn := fs.String("func", "", "the C function, when SOURCE has several")
	if err := parseFlags(fs, e, cmd, checkTreeHelp, args); err != nil {
		return exitUsageOr(err)
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(e.stderr, "tilefuse check-tree: want SOURCE and TREE; usage: tilefuse check-tree %s\n", cmd.args)
		return exitUsage
	}
	p, err := loadOne("check-tree", fs.Arg(0), *fn)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	t, err := readTree(fs.Arg(1))
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	if err := compiler.CheckTree(p, t); err != nil {
		fmt.Fprintf(e.stderr, "%s: %s\n", fs.Arg(1), oneLine(err))
		return exitCheck
	}
	vs, err := checkTree(p, t)
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse check-tree: %v\n", err)
		return exitUsage
	}
	var out bytes.Buffer
	for _, v := range vs {
		fmt.Fprintln(&out, v)
	}
	if len(vs) == 0 {
		fmt.Fprintln(&out, "legal")
	}
	e.stdout.Write(out.Bytes())
	if len(vs) > 0 {
		return exitCheck
	}
	return exitOK
}

func readTree(name string) (scheduletree.Tree, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return scheduletree.Tree{}, err
	}
	var t scheduletree.Tree
	if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
		t, err = scheduletree.UnmarshalYAML(data)
	} else {
		t, err = scheduletree.Unmarshal(data)
	}
	if err != nil {
		return t, fmt.Errorf("%s: %v", name, err)
	}
	return t, nil
}

// checkTree checks t against p's dependences: by dataflow when extension
// nodes or skipped subtrees make instances run several times or not at
// all (post-tiling fusion's trees), by the memory dependences otherwise.
func checkTree(p *scop.Program, t scheduletree.Tree) ([]scheduler.Violation, error) {
	recomputes := false
	t.Walk(func(_ scheduletree.Path, n *scheduletree.Node) bool {
		recomputes = recomputes || n.Kind() == scheduletree.KindExtension ||
			n.Kind() == scheduletree.KindMark && n.Mark() == scheduletree.MarkSkipped
		return !recomputes
	})
	if recomputes {
		f, err := deps.Dataflow(p)
		if err != nil {
			return nil, err
		}
		return scheduler.CheckFlow(t, p, f)
	}
	g, err := deps.Memory(p)
	if err != nil {
		return nil, err
	}
	return scheduler.Check(t, g)
}
