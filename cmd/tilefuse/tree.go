package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/deps"
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
it back); yaml is isl's format (isl_schedule_read_from_str reads it).
` + limitsHelp + sourceHelp

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
	format := fs.String("format", "text", "text, json or yaml")
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
	if *format != "text" && *format != "json" && *format != "yaml" {
		fmt.Fprintf(e.stderr, "tilefuse tree: unknown format %q (text, json or yaml)\n", *format)
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
	opts := compiler.Options{Strategy: strategy, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageFuse, NoInline: !*inline, KeepScalars: *keepScalars, KeepLayout: *keepLayout}
	if err := limits.apply("tree", &opts); err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	r, err := compileIn(context.Background(), *limits.timeout, p, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "tilefuse tree: %s: %v\n", fs.Arg(0), err)
		return exitUsage
	}
	t := r.Tree()
	var out []byte
	switch *format {
	case "json":
		out, err = scheduletree.Marshal(t)
		out = append(out, '\n')
	case "yaml":
		out, err = scheduletree.MarshalYAML(t)
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
