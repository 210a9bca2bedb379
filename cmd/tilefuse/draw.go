package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/draw"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/tiling"
)

const drawHelp = `
Draws pictures as SVG (written to -o FILE, or standard output).

'draw tiles' draws a tiled stage of SOURCE and what its tiles need: the
stage's iteration points coloured by tile (parallelogram tiles for a
skewed band), and for one tile (--tile-at, default an interior one: a
full tile near the middle) the instances of each producer fused into its
tiles, from the exact extension map of post-tiling fusion at the sizes
drawn; the instances a neighbouring tile needs too (the recomputation)
are shaded. --stage picks the tiled statement (default: the one with the
most fused producers); a stage of more than two dimensions is drawn as a
2-D slice: --dims ROW,COL (default: the two dimensions a skewed tile
member mixes, else the two innermost), the others fixed with --at
NAME=V,... (default: their first value). Sizes: --size NAME=V,...; by
default PolyBench's MINI dataset for polybench/ kernels, a PolyMage
pipeline's small test size for polymage/ ones, and 32 for every other
parameter. --tile T,... are the tile sizes (default 8 for every
member); --fuse the strategy (default post).

'draw tree' draws the schedule tree of SOURCE (as 'tilefuse tree' prints
it, with --fuse and --tile) or of --tree FILE (JSON or isl YAML): node
kinds in different shapes and colours, band schedules with their
permutable and coincident flags, filters, extension maps and marks as
labels; long sets are abbreviated, with the full text in a tooltip
(the SVG title of the node). --format dot writes Graphviz DOT instead.
` + sourceHelp

func runDraw(e *env, args []string) int {
	cmd := lookup("draw")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		commandUsage(e.stdout, cmd, drawHelp)
		return exitOK
	}
	if len(args) == 0 || (args[0] != "tiles" && args[0] != "tree") {
		fmt.Fprintf(e.stderr, "tilefuse draw: want tiles or tree; usage: tilefuse draw %s\n", cmd.args)
		return exitUsage
	}
	what := args[0]
	fs := flag.NewFlagSet("draw "+what, flag.ContinueOnError)
	out := fs.String("o", "", "the output file (default: standard output)")
	fn := fs.String("func", "", "the C function, when SOURCE has several")
	tile := fs.String("tile", "", "tile sizes T,... (draw tiles: default 8 for every member)")
	var fuse, stage, size, tileAt, dims, at, treeFile, format *string
	if what == "tiles" {
		fuse = fs.String("fuse", "post", "fusion strategy: "+compiler.StrategyChoices())
		stage = fs.String("stage", "", "the tiled statement to draw")
		size = fs.String("size", "", "parameter values NAME=V,...")
		tileAt = fs.String("tile-at", "", "the tile whose footprints are drawn, by its tile coordinates T0,T1,...")
		dims = fs.String("dims", "", "the two dimensions drawn, ROW,COL")
		at = fs.String("at", "", "values NAME=V,... of the dimensions not drawn")
	} else {
		fuse = fs.String("fuse", compiler.DefaultStrategy.String(), "fusion strategy: "+compiler.StrategyChoices())
		treeFile = fs.String("tree", "", "draw this schedule tree (JSON or isl YAML) instead of SOURCE's")
		format = fs.String("format", "svg", "svg or dot")
	}
	pos, err := parseInterspersed(fs, e, cmd, drawHelp, args[1:])
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse draw %s: "+format+"\n", append([]any{what}, args...)...)
		return exitUsage
	}
	var data string
	if what == "tree" {
		if *format != "svg" && *format != "dot" {
			return fail("unknown format %q (svg or dot)", *format)
		}
		title := ""
		tree, err := func() (scheduletree.Tree, error) {
			if *treeFile != "" {
				if len(pos) != 0 {
					return scheduletree.Tree{}, fmt.Errorf("give SOURCE or --tree, not both")
				}
				title = *treeFile
				return readTree(*treeFile)
			}
			if len(pos) != 1 {
				return scheduletree.Tree{}, fmt.Errorf("want one SOURCE (or --tree FILE)")
			}
			strategy, err := parseStrategy("draw", *fuse)
			if err != nil {
				return scheduletree.Tree{}, err
			}
			sizes, err := parseTile("draw", *tile)
			if err != nil {
				return scheduletree.Tree{}, err
			}
			p, err := loadOne("draw", pos[0], *fn)
			if err != nil {
				return scheduletree.Tree{}, err
			}
			r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: strategy, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageFuse})
			if err != nil {
				return scheduletree.Tree{}, fmt.Errorf("%s: %v", pos[0], oneLine(err))
			}
			title = fmt.Sprintf("%s, --fuse %s", pos[0], strategy)
			if len(sizes) > 0 {
				title += ", --tile " + tiling.FormatSizes(sizes)
			}
			return r.Tree(), nil
		}()
		if err != nil {
			return fail("%v", err)
		}
		if *format == "dot" {
			data = draw.TreeDOT(tree, title)
		} else {
			data = draw.TreeSVG(tree, title)
		}
	} else {
		if len(pos) != 1 {
			return fail("want one SOURCE; usage: tilefuse draw %s", cmd.args)
		}
		strategy, err := parseStrategy("draw", *fuse)
		if err != nil {
			return fail("%v", err)
		}
		sizes, err := parseTile("draw", *tile)
		if err != nil {
			return fail("%v", err)
		}
		if sizes == nil {
			sizes = []int64{8}
		}
		p, err := loadOne("draw", pos[0], *fn)
		if err != nil {
			return fail("%v", err)
		}
		params, label, err := drawSizes(pos[0], p, *size)
		if err != nil {
			return fail("%v", err)
		}
		opts := draw.TilesOptions{Stage: *stage, Params: params}
		if *tileAt != "" {
			for _, f := range strings.Split(*tileAt, ",") {
				v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
				if err != nil {
					return fail("--tile-at %s: want integers T0,T1,...", *tileAt)
				}
				opts.Tile = append(opts.Tile, v)
			}
		}
		if *dims != "" {
			opts.Dims = strings.Split(*dims, ",")
			for i := range opts.Dims {
				opts.Dims[i] = strings.TrimSpace(opts.Dims[i])
			}
		}
		if *at != "" {
			if opts.At, err = nameValues("--at", *at); err != nil {
				return fail("%v", err)
			}
		}
		r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: strategy, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageFuse})
		if err != nil {
			return fail("%s: %v", pos[0], oneLine(err))
		}
		opts.Title, opts.Sizes = fmt.Sprintf("%s, --fuse %s, %s", pos[0], strategy, label), sizes
		if data, err = draw.Tiles(r, opts); err != nil {
			return fail("%s: %v", pos[0], oneLine(err))
		}
	}
	if *out == "" {
		fmt.Fprint(e.stdout, data)
		return exitOK
	}
	if err := writeWhole(*out, []byte(data)); err != nil {
		return fail("%v", fileError(err))
	}
	return exitOK
}

// drawSizes gives every parameter a small value: --size, else the MINI
// dataset of a PolyBench kernel, else 32.
func drawSizes(source string, p *scop.Program, size string) (map[string]int64, string, error) {
	params := map[string]int64{}
	if name, ok := strings.CutPrefix(source, "polybench/"); ok {
		if k, ok := polybench.Lookup(name); ok {
			params = k.Sizes(polybench.Mini)
		}
	}
	if name, ok := strings.CutPrefix(source, "polymage/"); ok {
		if en, ok := polymage.Lookup(name); ok {
			params = en.Small
		}
	}
	given := map[string]int64{}
	if size != "" {
		var err error
		if given, err = nameValues("--size", size); err != nil {
			return nil, "", err
		}
	}
	var label []string
	for k, v := range given {
		if !slices.Contains(p.Params, k) {
			return nil, "", fmt.Errorf("--size: %s has no parameter %q (parameters: %s)", source, k, strings.Join(p.Params, ", "))
		}
		params[k] = v
	}
	for _, name := range p.Params {
		if _, ok := params[name]; !ok {
			params[name] = 32
		}
		label = append(label, fmt.Sprintf("%s=%d", name, params[name]))
	}
	if err := p.CheckParams(params); err != nil {
		return nil, "", fmt.Errorf("%s: %v (give sizes with --size)", source, err)
	}
	return params, strings.Join(label, " "), nil
}

// nameValues reads NAME=V,...
func nameValues(flagName, s string) (map[string]int64, error) {
	out := map[string]int64{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s %s: %q is not NAME=INTEGER", flagName, s, kv)
		}
		out[strings.TrimSpace(k)] = n
	}
	return out, nil
}
