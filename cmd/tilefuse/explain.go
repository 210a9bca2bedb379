package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/fusion"
	"github.com/tilefuse/tilefuse/inline"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/tiling"
)

const explainHelp = `
Explains what post-tiling fusion (--fuse post, the only strategy it
explains) does with SOURCE: for each computation space (a child of the
conservative schedule's outer sequence), in program order, whether it is
tiled (a live-out, or why it could not be fused), removed (dead: nothing
reads its values and none lives after the program) or fused into the tiles
of which tiled space, with its overlap: the instances the tiles execute
against the space's own instances (above 1: recomputation at tile
borders; below 1: instances no tile needs are never executed), counted
at the sizes of --dataset, the pipeline's defaults or --size. --tile,
--max-recompute and --target are those of 'tilefuse compile' (a GPU
target keeps two parallel tile dimensions: m = 2). --format json prints
the same for tools.
` + sourceHelp

// explainSpace is one space of the JSON output.
// explainJSON is explain's JSON form: the inlined stages, then the
// computation spaces of what remains.
type explainJSON struct {
	Auto    string   `json:"auto,omitempty"`
	Scalars []string `json:"scalars,omitempty"`
	// Transposed are the transposed copies of read-only arrays.
	Transposed []string `json:"transposed,omitempty"`
	// Widened are the small-integer tables stored as i32.
	Widened []string `json:"widened,omitempty"`
	// Kept are the constant tables computed on a thread's first call.
	Kept []string `json:"kept,omitempty"`
	// Taller says why post's default tile rows were raised.
	Taller string `json:"taller_rows,omitempty"`
	// Narrower says why post's default tile columns were narrowed.
	Narrower string `json:"narrower_columns,omitempty"`
	// Tiling are the tiling's decisions on bands, where auto picked a
	// strategy other than post.
	Tiling  []string         `json:"tiling,omitempty"`
	Inlined []explainInlined `json:"inlined"`
	Spaces  []explainSpace   `json:"spaces"`
}

// explainInlined is one stage substituted into its consumers.
type explainInlined struct {
	Statement string   `json:"statement"`
	Array     string   `json:"array"`
	Into      []string `json:"into"`
}

func inlinedJSON(stages []inline.Stage) []explainInlined {
	out := []explainInlined{}
	for _, st := range stages {
		out = append(out, explainInlined{Statement: st.Stmt, Array: st.Array, Into: st.Into})
	}
	return out
}

// writeJSON writes r's explanation with the spaces' decisions as JSON
// (the tiling's decisions are there where auto picked another strategy).
func (e *env) writeJSON(r *compiler.Result, spaces []explainSpace, fail func(string, ...any) int) int {
	var taller, narrower string
	if r.Fusion != nil {
		taller, narrower = r.Fusion.Taller, r.Fusion.Narrower
	}
	data, err := json.MarshalIndent(explainJSON{Auto: r.Auto, Taller: taller, Narrower: narrower, Scalars: stringsOf(r.Scalars), Transposed: stringsOf(r.Transposed),
		Widened: r.Widened, Kept: r.Kept, Tiling: r.TileNotes, Inlined: inlinedJSON(r.Inlined), Spaces: spaces}, "", "  ")
	if err != nil {
		return fail("%v", err)
	}
	e.stdout.Write(append(data, '\n'))
	return exitOK
}

// rewriteLines says, a line each, which temporary scalars live in array
// elements now, which read-only arrays got transposed copies and which
// tables were widened.
func rewriteLines(r *compiler.Result) string {
	var b strings.Builder
	for _, m := range r.Scalars {
		fmt.Fprintf(&b, "mapped scalar %s\n", m)
	}
	for _, c := range r.Transposed {
		fmt.Fprintf(&b, "transposed copy %s\n", c)
	}
	for _, a := range r.Widened {
		fmt.Fprintf(&b, "widened table %s to i32 (read through data-dependent subscripts: vector gathers load 32-bit lanes)\n", a)
	}
	for _, a := range r.Kept {
		fmt.Fprintf(&b, "kept table %s: computed on a calling thread's first call and kept for its later calls (it reads no input and no parameter)\n", a)
	}
	return b.String()
}

// stringsOf is xs as their String methods word them, or nil.
func stringsOf[T fmt.Stringer](xs []T) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.String())
	}
	return out
}

type explainSpace struct {
	Index      int      `json:"index"`
	Statements []string `json:"statements"`
	LiveOut    bool     `json:"live_out"`
	Decision   string   `json:"decision"` // "tiled", "fused" or "removed" (dead)
	FusedInto  []int    `json:"fused_into,omitempty"`
	Extension  []string `json:"extension,omitempty"`
	Executed   int64    `json:"executed_instances"`
	Original   int64    `json:"original_instances"`
	Overlap    float64  `json:"overlap"`
	// Uncounted says why the instances were not counted (Executed and
	// Overlap are then zero).
	Uncounted  string `json:"uncounted,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Coincident int    `json:"coincident"`
	// Estimated is the recomputation the fusion decision estimated (the
	// --max-recompute rule), 0 when none was made.
	Estimated float64 `json:"estimated_recompute,omitempty"`
}

func runExplain(e *env, args []string) int {
	cmd := lookup("explain")
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fuse := fs.String("fuse", "post", "the strategy to explain: post")
	tile := fs.String("tile", "", "tile sizes T,... of the tiled spaces (default 16,1024 on the innermost members; 32,256 for a GPU target or with no intermediate space)")
	target := fs.String("target", "cpu", "cpu, cuda or cuda-emulate")
	dataset := fs.String("dataset", "", "PolyBench dataset for the counts (default MINI)")
	size := fs.String("size", "", "parameter values NAME=V,... for the counts")
	format := fs.String("format", "text", "text or json")
	fn := fs.String("func", "", "the C function, when SOURCE has several")
	maxRecompute := addMaxRecompute(fs)
	inline := addInline(fs)
	keepScalars := addKeepScalars(fs)
	keepLayout := addKeepLayout(fs)
	pos, err := parseInterspersed(fs, e, cmd, explainHelp, args)
	if err != nil {
		return exitUsageOr(err)
	}
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "tilefuse explain: "+format+"\n", args...)
		return exitUsage
	}
	switch {
	case len(pos) != 1:
		return fail("want one SOURCE; usage: tilefuse explain %s", cmd.args)
	case *fuse != compiler.Post.String() && *fuse != compiler.Auto.String():
		return fail("--fuse %s: only post-tiling fusion (post, or auto where it picks post) is explained", *fuse)
	case *format != "text" && *format != "json":
		return fail("unknown format %q (text or json)", *format)
	}
	tgt, err := emit.ParseTarget(*target)
	if err != nil {
		return fail("%v", err)
	}
	sizes, err := parseTile("explain", *tile)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	p, err := loadOne("explain", pos[0], *fn)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	params, label, err := runSizes("explain", &compileJob{source: pos[0], p: p}, *dataset, *size)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	strategy := compiler.Post
	if *fuse == compiler.Auto.String() {
		strategy = compiler.Auto
	}
	// Through the AST: which constant tables the CPU code keeps between
	// calls depends on it.
	r, err := compiler.Compile(context.Background(), p, compiler.Options{Strategy: strategy, Target: tgt, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageAST,
		MaxRecompute: recomputeOption(*maxRecompute), NoInline: !*inline, KeepScalars: *keepScalars, KeepLayout: *keepLayout})
	if err != nil {
		return fail("%s: %v", pos[0], oneLine(err))
	}
	if r.Options.Strategy != compiler.Post {
		// Auto picked another strategy: that, the program's rewrites and
		// the tiling's decisions are the whole explanation.
		if *format == "json" {
			return e.writeJSON(r, []explainSpace{}, fail)
		}
		fmt.Fprintf(e.stdout, "%s %s: %s\n%s", pos[0], label, r.Auto, rewriteLines(r))
		for _, n := range r.TileNotes {
			fmt.Fprintln(e.stdout, n)
		}
		return exitOK
	}
	// Counts are a courtesy: each gets a small budget, so that a space
	// whose extension is hard to count says so instead of holding up the
	// explanation.
	old := presburger.CurrentLimits()
	presburger.SetLimits(presburger.Limits{MaxOps: 200_000, MaxPieces: old.MaxPieces})
	defer presburger.SetLimits(old)
	out, err := explainAll(r.Fusion.Spaces, params)
	if err != nil {
		return fail("%s: %v", pos[0], oneLine(err))
	}
	if *format == "json" {
		return e.writeJSON(r, out, fail)
	}
	tiles := tiling.FormatSizes(sizes)
	switch {
	case len(r.Options.InnerTile) > 0:
		tiles = tiling.FormatSizes(r.Options.InnerTile) + " for the innermost members"
	case len(sizes) == 0:
		inner := fusion.DefaultSizes
		if r.Fusion != nil && len(r.Fusion.Inner) > 0 {
			inner = r.Fusion.Inner
		}
		tiles = "default (" + tiling.FormatSizes(inner) + " for the innermost members; further out, a constant extent up to 8 whole, others 1)"
	}
	m := 1
	if tgt.GPU() {
		m = 2
	}
	var b strings.Builder
	bound := fmt.Sprintf("recomputation bound %gx", *maxRecompute)
	if *maxRecompute <= 0 {
		bound = "no recomputation bound"
	}
	if r.Auto != "" {
		fmt.Fprintf(&b, "%s\n", r.Auto)
	}
	fmt.Fprintf(&b, "%s %s: post-tiling fusion, tiles %s, m = %d parallel tile %s, %s\n", pos[0], label, tiles, m, plural(m, "dimension", "dimensions"), bound)
	if r.Fusion != nil && r.Fusion.Taller != "" {
		fmt.Fprintf(&b, "taller tiles: %s\n", r.Fusion.Taller)
	}
	if r.Fusion != nil && r.Fusion.Narrower != "" {
		fmt.Fprintf(&b, "narrower tiles: %s\n", r.Fusion.Narrower)
	}
	b.WriteString(rewriteLines(r))
	for _, st := range r.Inlined {
		fmt.Fprintf(&b, "inlined %s (%s) into %s\n", st.Stmt, st.Array, strings.Join(st.Into, ", "))
	}
	if len(out) == 0 {
		fmt.Fprintf(&b, "one computation space (no outer sequence): tiled as a whole\n")
	}
	names := func(i int) string { return strings.Join(out[i].Statements, ", ") }
	for _, x := range out {
		kind := "intermediate"
		if x.LiveOut {
			kind = "live-out"
		}
		fmt.Fprintf(&b, "space %d (%s), %s: ", x.Index, names(x.Index), kind)
		if x.Decision == "removed" {
			fmt.Fprintf(&b, "removed, 0 instances executed for %d: %s\n", x.Original, x.Reason)
			continue
		}
		if x.Decision == "fused" {
			var into []string
			for _, g := range x.FusedInto {
				into = append(into, fmt.Sprintf("space %d (%s)", g, names(g)))
			}
			fmt.Fprintf(&b, "fused into the tiles of %s; ", strings.Join(into, " and "))
			if x.Uncounted != "" {
				fmt.Fprintf(&b, "instances not counted (%s)\n", x.Uncounted)
			} else {
				fmt.Fprintf(&b, "%d instances executed for %d (overlap %.3fx)\n", x.Executed, x.Original, x.Overlap)
			}
			continue
		}
		fused := 0
		for _, y := range out {
			for _, g := range y.FusedInto {
				if g == x.Index {
					fused++
				}
			}
		}
		fmt.Fprintf(&b, "tiled, with %d %s fused into its tiles", fused, plural(fused, "space", "spaces"))
		if x.Reason != "" {
			fmt.Fprintf(&b, "; not fused: %s", x.Reason)
		}
		b.WriteString("\n")
	}
	e.stdout.Write([]byte(b.String()))
	return exitOK
}

// explainAll describes every space, counting on every core (counting
// the instances of a deep pyramid's extensions takes most of the time).
func explainAll(spaces []*fusion.Space, params map[string]int64) ([]explainSpace, error) {
	out := make([]explainSpace, len(spaces))
	errs := make([]error, len(spaces))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(spaces)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = explainOne(spaces[i], params)
			}
		}()
	}
	for i := range spaces {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// explainOne describes one space, counting instances at params.
func explainOne(s *fusion.Space, params map[string]int64) (x explainSpace, err error) {
	x = explainSpace{Index: s.Index, Statements: s.Stmts, LiveOut: s.LiveOut, Decision: "tiled", Reason: s.Reason, Coincident: s.Coincident, Estimated: s.Recompute}
	switch {
	case s.Dead:
		x.Decision = "removed"
	case s.Fused():
		x.Decision, x.FusedInto = "fused", s.FusedInto
		for _, e := range s.Extension {
			x.Extension = append(x.Extension, e.String())
		}
	}
	count := func(u presburger.UnionSet) (int64, error) {
		var n int64
		for _, set := range u.Sets() {
			f, err := set.FixParams(params)
			if err != nil {
				return 0, err
			}
			c, err := f.Count()
			if err != nil {
				return 0, err
			}
			n += c
		}
		return n, nil
	}
	defer func() {
		// Counting an extension with deep floor divisions can exceed the
		// operation budget: say so rather than fail the explanation.
		if errors.Is(err, presburger.ErrBudget) {
			x.Executed, x.Overlap, x.Uncounted, err = 0, 0, "counting exceeded the operation budget", nil
		}
	}()
	if x.Original, err = count(s.Domain()); err != nil {
		return x, err
	}
	x.Executed = x.Original
	if s.Dead {
		x.Executed = 0
	}
	if s.Fused() {
		x.Executed = 0
		for _, e := range s.Extension {
			w, err := e.Wrap()
			if err != nil {
				return x, err
			}
			n, err := count(w)
			if err != nil {
				return x, err
			}
			x.Executed += n
		}
	}
	if err != nil {
		return x, err
	}
	if x.Original > 0 {
		x.Overlap = float64(x.Executed) / float64(x.Original)
	}
	return x, nil
}
