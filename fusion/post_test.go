package fusion_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/compiler"
	"github.com/tilefuse/tilefuse/emit"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polymage"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
	"github.com/tilefuse/tilefuse/tiling"
)

func load(t *testing.T, name string) *scop.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := cparse.ParseFunc(name+".c", src, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// post compiles p with post-tiling fusion to its AST, executes it in the
// interpreter and compares every array with the reference executor's.
// The recomputation bound is off: the algorithm's cases use tiles so
// small that their stencil borders would exceed it. So is inlining: the
// cases are the fusion algorithm's, on stages cheap enough to inline.
func post(t *testing.T, p *scop.Program, target emit.Target, sizes []int64, params map[string]int64) (*compiler.Result, *interp.Stats) {
	t.Helper()
	return postWith(t, p, target, sizes, params, compiler.Options{MaxRecompute: -1, NoInline: true})
}

// postBound is post with the recomputation bound maxRecompute.
func postBound(t *testing.T, p *scop.Program, target emit.Target, sizes []int64, params map[string]int64, maxRecompute float64) (*compiler.Result, *interp.Stats) {
	t.Helper()
	return postWith(t, p, target, sizes, params, compiler.Options{MaxRecompute: maxRecompute, NoInline: true})
}

// postWith is post with opts' recomputation bound and inlining; the
// compiled program (inlined or not) runs against the original's reference.
func postWith(t *testing.T, p *scop.Program, target emit.Target, sizes []int64, params map[string]int64, opts compiler.Options) (*compiler.Result, *interp.Stats) {
	t.Helper()
	r, err := compiler.Compile(context.Background(), p, compiler.Options{
		Strategy: compiler.Post, Target: target, Tile: tiling.Policy{Sizes: sizes}, Stop: compiler.StageAST,
		MaxRecompute: opts.MaxRecompute, NoInline: opts.NoInline,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r, runChecked(t, p, r, params, interp.Options{})
}

// runChecked runs r's AST in the interpreter and compares every live-out
// array with the reference executor's run of the original p, bit for
// bit.
func runChecked(t *testing.T, p *scop.Program, r *compiler.Result, params map[string]int64, opts interp.Options) *interp.Stats {
	t.Helper()
	in, err := charness.Inputs(p, params)
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[string]*scop.Buffer{}, map[string]*scop.Buffer{}
	for name, b := range in {
		want[name], got[name] = b.Clone(), b.Clone()
	}
	if err := refexec.Run(p, params, want); err != nil {
		t.Fatal(err)
	}
	st, err := interp.RunWith(r.Program, r.AST, params, got, opts)
	if err != nil {
		t.Fatal(err)
	}
	for name, a := range want {
		if arr := p.Array(name); arr != nil && arr.LiveOut && !bytes.Equal(a.Data, got[name].Data) {
			t.Errorf("%s: array %s differs from the reference executor's", p.Name, name)
		}
	}
	return st
}

// decisions summarises each space: "fused into [2]" or "tiled".
func decisions(r *compiler.Result) []string {
	var out []string
	for _, s := range r.Fusion.Spaces {
		if s.Fused() {
			out = append(out, fmt.Sprintf("fused into %v", s.FusedInto))
		} else {
			out = append(out, "tiled")
		}
	}
	return out
}

// tileCount counts the instances an extension gives tile o at params.
func tileCount(t *testing.T, ext presburger.UnionMap, o []int64, params map[string]int64) int64 {
	t.Helper()
	coords := make([]string, len(o))
	for i, v := range o {
		coords[i] = fmt.Sprint(v)
	}
	tile, err := presburger.ParseUnionSet("{ [" + strings.Join(coords, ", ") + "] }")
	if err != nil {
		t.Fatal(err)
	}
	img, err := tile.Apply(ext)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, s := range img.Sets() {
		fixed, err := s.FixParams(params)
		if err != nil {
			t.Fatal(err)
		}
		c, err := fixed.Count()
		if err != nil {
			t.Fatal(err)
		}
		n += c
	}
	return n
}

// TestPostCases: the algorithm's cases on small programs, each executed
// and compared with the reference executor, with tile sizes that divide
// the extents and that do not.
func TestPostCases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target emit.Target
		params map[string]int64
		want   []string
		// reason is a part of the first space's reason when it is tiled.
		reason string
	}{
		// A chain: every producer is fused into the output's tiles.
		{"chain", emit.CPU, map[string]int64{"n": 40}, []string{"fused into [2]", "fused into [2]", "tiled"}, ""},
		// m vs n: q's band has one leading coincident member (j carries
		// the writes to q[i]): fused on the CPU (m = 1), not for a GPU
		// mapping (m = 2).
		{"rowlast", emit.CPU, map[string]int64{"n": 19, "m": 21}, []string{"fused into [1]", "tiled"}, ""},
		{"rowlast", emit.CUDAEmulate, map[string]int64{"n": 19, "m": 21}, []string{"tiled", "tiled"}, "m > n"},
		// Two live-outs reading disjoint parts of an intermediate: fused
		// into both; overlapping parts: kept as its own tiled space.
		{"shared", emit.CPU, map[string]int64{"n": 20}, []string{"fused into [1 2]", "tiled", "tiled"}, ""},
		{"overlap", emit.CPU, map[string]int64{"n": 20}, []string{"tiled", "tiled", "tiled"}, "overlapping"},
		// A producer whose values are also live-out is not fused.
		{"liveout", emit.CPU, map[string]int64{"n": 20}, []string{"tiled", "tiled"}, "live after the program"},
		{"dead", emit.CPU, map[string]int64{"n": 20}, []string{"fused into [1]", "tiled"}, ""},
		// An update (t[i] += 1, reading the first loop's t[i]) is not
		// recomputed: overlapping tiles would apply it twice (found by
		// the random-program campaign, seed 100653). The first loop, whose
		// values the update reads in place, stays too.
		{"update", emit.CPU, map[string]int64{"n": 20}, []string{"tiled", "tiled", "tiled"}, "writes t in between"},
		// Weights every tile reads whole are computed once, not per tile.
		{"weights", emit.CPU, map[string]int64{"n": 20}, []string{"tiled", "tiled"}, "computed once"},
	} {
		for _, sizes := range [][]int64{{4}, {8}, {13}} {
			p := load(t, tc.name)
			r, _ := post(t, p, tc.target, sizes, tc.params)
			if diff := cmp.Diff(tc.want, decisions(r)); diff != "" {
				t.Errorf("%s %v %v: decisions (-want +got)\n%s", tc.name, tc.target, sizes, diff)
			}
			if s := r.Fusion.Spaces[0]; tc.reason != "" && !strings.Contains(s.Reason, tc.reason) {
				t.Errorf("%s %v: reason %q lacks %q", tc.name, tc.target, s.Reason, tc.reason)
			}
		}
	}
}

// TestUpdateNotRecomputed: the update's own reason names it.
func TestUpdateNotRecomputed(t *testing.T) {
	r, _ := post(t, load(t, "update"), emit.CPU, []int64{4}, map[string]int64{"n": 20})
	if s := r.Fusion.Spaces[1]; s.Fused() || !strings.Contains(s.Reason, "reads elements of t it writes") {
		t.Errorf("the update: fused %v, reason %q", s.Fused(), s.Reason)
	}
}

// TestChainOverlap: in a chain of 3-point stencils, an interior tile of
// size T recomputes T + 2 instances of the last producer and T + 4 of
// the first: the overlap is the stencil radius per stage.
func TestChainOverlap(t *testing.T) {
	p := load(t, "chain")
	params := map[string]int64{"n": 100}
	for _, size := range []int64{8, 13} {
		r, _ := post(t, p, emit.CPU, []int64{size}, params)
		a, b := r.Fusion.Spaces[0], r.Fusion.Spaces[1]
		if got := tileCount(t, b.Extension[0], []int64{2}, params); got != size+2 {
			t.Errorf("tile %d: %d instances of b, want %d", size, got, size+2)
		}
		if got := tileCount(t, a.Extension[0], []int64{2}, params); got != size+4 {
			t.Errorf("tile %d: %d instances of a, want %d", size, got, size+4)
		}
	}
}

// TestDeadInstances: the instances of t that no tile reads are never
// executed (its original loop is hidden).
func TestDeadInstances(t *testing.T) {
	p := load(t, "dead")
	_, st := post(t, p, emit.CPU, []int64{8}, map[string]int64{"n": 20})
	if got := st.Stmts["S0"].Instances; got != 20 {
		t.Errorf("S0 ran %d times, want 20 (of 40 in the program)", got)
	}
}

// TestDeadSpaces: the zero ring of b and the last element of a's ring,
// which no stage reads, are never executed; b then has only fused
// writers and becomes a tile-local buffer. a[0] is read by b[1]: kept,
// it keeps a in memory.
func TestDeadSpaces(t *testing.T) {
	p := load(t, "ring")
	for _, size := range []int64{4, 7} {
		r, st := post(t, p, emit.CPU, []int64{size}, map[string]int64{"n": 20})
		var dead []string
		for _, s := range r.Fusion.Spaces {
			if s.Dead {
				dead = append(dead, strings.Join(s.Stmts, ","))
			}
		}
		if diff := cmp.Diff([]string{"S2", "S3", "S5"}, dead); diff != "" {
			t.Errorf("tile %d: dead spaces (-want +got)\n%s", size, diff)
		}
		for _, s := range dead {
			if n := st.Stmts[s].Instances; n != 0 {
				t.Errorf("tile %d: dead %s ran %d times", size, s, n)
			}
		}
		var bufs []string
		for _, b := range r.Fusion.Buffers {
			bufs = append(bufs, b.Array)
		}
		if diff := cmp.Diff([]string{"b"}, bufs); diff != "" {
			t.Errorf("tile %d: buffers (-want +got)\n%s", size, diff)
		}
	}
}

// TestPolyMageDecisions: every intermediate of Harris and unsharp mask
// is fused into the output's tiles (each pipeline's values are checked
// on the interpreter at its small size; TestBenchPolymageAll in
// cmd/tilefuse runs every pipeline's compiled code).
func TestPolyMageDecisions(t *testing.T) {
	for _, name := range []string{"harris", "unsharp_mask"} {
		en, _ := polymage.Lookup(name)
		p, err := en.Build()
		if err != nil {
			t.Fatal(err)
		}
		for _, noInline := range []bool{true, false} {
			r, _ := postWith(t, p, emit.CPU, []int64{8, 13}, en.Small, compiler.Options{MaxRecompute: -1, NoInline: noInline})
			sp := r.Fusion.Spaces
			for _, s := range sp[:len(sp)-1] {
				if !s.Fused() {
					t.Errorf("%s (noInline %v): %v not fused: %s", name, noInline, s.Stmts, s.Reason)
				}
			}
			if last := sp[len(sp)-1]; !last.Tiled || !last.LiveOut {
				t.Errorf("%s (noInline %v): the output space is not a tiled live-out", name, noInline)
			}
		}
	}
}

// TestBuffers: the intermediates of a chain become tile-local buffers of
// the tile size plus the overlap, at the tile's origin minus the halo,
// and the code computes the same values through them.
func TestBuffers(t *testing.T) {
	p := load(t, "chain")
	for _, size := range []int64{8, 13} {
		r, st := post(t, p, emit.CPU, []int64{size}, map[string]int64{"n": 40})
		var got []string
		for _, b := range r.Fusion.Buffers {
			got = append(got, fmt.Sprintf("%s%v from %d+%v", b.Array, b.Extent, b.Origin[0].Const, b.Origin[0].Tile))
		}
		want := []string{
			fmt.Sprintf("a[%d] from 0+[%d]", size+4, size),
			fmt.Sprintf("b[%d] from 0+[%d]", size+2, size),
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tile %d: buffers (-want +got)\n%s", size, diff)
		}
		if want := 4 * (2*size + 6); st.PeakLocalBytes != want {
			t.Errorf("tile %d: peak tile-local bytes %d, want %d", size, st.PeakLocalBytes, want)
		}
	}
	// Harris: every one of its ten intermediate images is tile-local.
	en, _ := polymage.Lookup("harris")
	h, err := en.Build()
	if err != nil {
		t.Fatal(err)
	}
	r, _ := post(t, h, emit.CPU, []int64{8, 16}, en.Small)
	if n := len(r.Fusion.Buffers); n != 10 {
		t.Errorf("harris: %d tile-local buffers, want 10", n)
	}
}

// TestRecomputeBound: a coarse level read by an up-sampling stage costs
// each tile of the fine output its own box of coarse values. With tiles
// of 64, a tile runs 17 coarse instances for its share of 16 (1.06x,
// fused); with tiles of 4, 2 for its share of 1 (2x, above the default
// bound of 1.5: the level keeps its own tiles); without a bound, fused.
// Every variant computes the reference's values.
func TestRecomputeBound(t *testing.T) {
	p := load(t, "upsample")
	params := map[string]int64{"n": 37}
	for _, tc := range []struct {
		size  int64
		bound float64
		want  []string
		ratio float64
	}{
		{64, 0, []string{"fused into [1]", "tiled"}, 17.0 / 16},
		{4, 0, []string{"tiled", "tiled"}, 2},
		{4, -1, []string{"fused into [1]", "tiled"}, 2},
	} {
		r, _ := postBound(t, p, emit.CPU, []int64{tc.size}, params, tc.bound)
		if diff := cmp.Diff(tc.want, decisions(r)); diff != "" {
			t.Errorf("tile %d, bound %v: decisions (-want +got)\n%s", tc.size, tc.bound, diff)
		}
		c := r.Fusion.Spaces[0]
		if math.Abs(c.Recompute-tc.ratio) > 0.01 {
			t.Errorf("tile %d: estimated recomputation %.3f, want %.3f", tc.size, c.Recompute, tc.ratio)
		}
		if !c.Fused() && !strings.Contains(c.Reason, "would compute its instances 2.0 times") {
			t.Errorf("tile %d: reason %q", tc.size, c.Reason)
		}
	}
}

// TestWholeChannels: by default the three colour channels of the output
// share a tile (a constant extent of at most 8 is not split), so the
// luminance all of them read is fused and computed once per tile; with
// tiles of one channel each it would be computed three times, above the
// recomputation bound, and keeps its own tiles.
func TestWholeChannels(t *testing.T) {
	p := load(t, "channels")
	params := map[string]int64{"h": 37, "w": 300}
	for _, tc := range []struct {
		sizes []int64
		want  []string
	}{
		{nil, []string{"fused into [1]", "tiled"}},
		{[]int64{1, 32, 256}, []string{"tiled", "tiled"}},
	} {
		r, _ := postBound(t, p, emit.CPU, tc.sizes, params, 0)
		if diff := cmp.Diff(tc.want, decisions(r)); diff != "" {
			t.Errorf("sizes %v: decisions (-want +got)\n%s", tc.sizes, diff)
		}
	}
}

// TestParallelHistogram: the bins of a histogram are blocks of 8 x 8
// inputs, so the band carries dependences, but tiles whose rows are
// multiples of 8 never share a bin: their loop is parallel, as is the
// squares' before it. With rows of 12 they do, and only the squares' is.
func TestParallelHistogram(t *testing.T) {
	p := load(t, "hist")
	params := map[string]int64{"n": 5, "m": 3}
	for _, tc := range []struct {
		sizes []int64
		want  int
	}{{[]int64{32, 16}, 2}, {[]int64{12, 16}, 1}} {
		r, _ := post(t, p, emit.CPU, tc.sizes, params)
		rp, err := compiler.Compile(context.Background(), p, compiler.Options{
			Strategy: compiler.Post, Tile: tiling.Policy{Sizes: tc.sizes}, Parallel: true, Stop: compiler.StageAST, NoInline: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		ast.Walk(rp.AST, func(n ast.Node) bool {
			if f, ok := n.(*ast.For); ok && f.Parallel {
				got++
			}
			return true
		})
		if got != tc.want {
			t.Errorf("tiles %v: %d parallel loops, want %d\n%s", tc.sizes, got, tc.want, ast.PrintC(rp.AST, ast.PrintOptions{}))
		}
		if !r.Fusion.Spaces[1].Tiled {
			t.Errorf("tiles %v: the histogram is not tiled", tc.sizes)
		}
	}
}

// ringPipeline up-samples a level with a zero ring at 0 and at
// floor(N/2) + 1, the shape of every pyramid stage: the ring that the
// output's last tile needs lies at a floor of the parameter, so the
// instances a tile needs have no box of constant size.
func ringPipeline(t *testing.T) *scop.Program {
	t.Helper()
	p := dsl.NewPipeline("ringup")
	N := p.Param("N")
	p.Assume(N.Ge(2))
	x := p.Var("x")
	half := N.Div(2)
	in := p.Input("in", dsl.F32, half.Add(2))
	u := p.Func("u", dsl.F32, x.In(0, half.Add(2)))
	u.Define(dsl.When(dsl.Or(x.Eq(0), x.Eq(half.Add(1))), 0.0), in.At(x).Mul(2.0))
	out := p.Func("out", dsl.F32, x.In(0, N))
	out.Define(dsl.Add(u.At(x.Add(1).Div(2)), u.At(x.Add(2).Div(2))))
	p.Output(out)
	prog, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestRingFused: the ring is fused by the box of what the tiles read of
// u (readBox), so that u, written only inside the tiles, becomes a
// tile-local buffer; the values are the reference's at both parities of
// N, with tiles that divide N and that do not. (An odd tile would start
// its window of u at ceil(7o/2), not an affine origin: nothing is fused.)
func TestRingFused(t *testing.T) {
	p := ringPipeline(t)
	for _, n := range []int64{20, 21} {
		for _, size := range []int64{4, 6} {
			r, _ := post(t, p, emit.CPU, []int64{size}, map[string]int64{"N": n})
			if diff := cmp.Diff([]string{"fused into [2]", "fused into [2]", "tiled"}, decisions(r)); diff != "" {
				t.Errorf("N=%d tile %d: decisions (-want +got)\n%s", n, size, diff)
			}
			if len(r.Fusion.Buffers) != 1 || r.Fusion.Buffers[0].Array != "u" {
				t.Errorf("N=%d tile %d: buffers %v, want u", n, size, r.Fusion.Buffers)
			}
		}
	}
}

// TestExtensionWithoutLocals: a producer read at 2i-1..2i+1 is needed at
// the points of an existential (exists i: ...); its extension keeps no
// existential variable (dropLocals), so its loops test no floor division
// per point, and the values are the reference's.
func TestExtensionWithoutLocals(t *testing.T) {
	p := load(t, "down")
	for _, size := range []int64{8, 13} {
		r, _ := post(t, p, emit.CPU, []int64{size}, map[string]int64{"n": 40})
		a := r.Fusion.Spaces[0]
		if !a.Fused() {
			t.Fatalf("tile %d: a not fused: %s", size, a.Reason)
		}
		for _, m := range a.Extension[0].Maps() {
			for _, c := range m.Constraints() {
				if c.NLocal > 0 {
					t.Errorf("tile %d: the extension keeps %d existentials: %s", size, c.NLocal, a.Extension[0])
				}
			}
		}
	}
}

// pcPipeline is the Halide tutorial's producer and consumer with
// producer(x, y) = f(x * y): a one-row, one-column border per tile.
func pcPipeline(t *testing.T, f func(any) dsl.Expr) *scop.Program {
	t.Helper()
	p := dsl.NewPipeline("pc")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	x, y := p.Var("x"), p.Var("y")
	producer := p.Func("producer", dsl.F32, x.In(0, R.Add(1)), y.In(0, C.Add(1)))
	producer.Define(f(dsl.Cast(dsl.F32, x.Mul(y))))
	consumer := p.Func("consumer", dsl.F32, x.In(0, R), y.In(0, C))
	consumer.Define(dsl.Add(producer.At(x, y), producer.At(x, y.Add(1)), producer.At(x.Add(1), y), producer.At(x.Add(1), y.Add(1))))
	p.Output(consumer)
	prog, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestTallerRows: with the default sizes, a fused producer that calls the
// C library gets tiles tall enough that it recomputes at most 2% of its
// instances (64 rows for a one-row border: 65/64); a cheap producer, or
// sizes the user gave, keep their rows.
func TestTallerRows(t *testing.T) {
	params := map[string]int64{"R": 70, "C": 50}
	for _, tc := range []struct {
		name      string
		f         func(any) dsl.Expr
		sizes     []int64
		wantInner []int64
		taller    bool
	}{
		{"sin", dsl.Sin, nil, []int64{64, 1024}, true},
		{"exp", dsl.Exp, nil, []int64{64, 1024}, true},
		{"sqrt", dsl.Sqrt, nil, []int64{16, 1024}, false},
		{"sin, sizes given", dsl.Sin, []int64{16, 1024}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := postBound(t, pcPipeline(t, tc.f), emit.CPU, tc.sizes, params, 0)
			if diff := cmp.Diff([]string{"fused into [1]", "tiled"}, decisions(r)); diff != "" {
				t.Errorf("decisions (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantInner, r.Fusion.Inner); tc.sizes == nil && diff != "" {
				t.Errorf("inner sizes (-want +got)\n%s", diff)
			}
			if got := r.Fusion.Taller != ""; got != tc.taller || (got && !strings.Contains(r.Fusion.Taller, "calls the C library and 16 rows would compute its instances 1.06 times")) {
				t.Errorf("taller: %q", r.Fusion.Taller)
			}
			if rc := r.Fusion.Spaces[0].Recompute; tc.taller && rc > 1.02 {
				t.Errorf("estimated recomputation %.3f", rc)
			}
		})
	}
}

// TestNarrowerTiles: with the default sizes, harris's tiles (174
// operations a point, two gradient buffers of 148 KB a tile at 1024
// columns) narrow to 256 columns, where the buffers fit L1; blur's (12
// operations a point, streaming) keep their long rows though they would
// fit at 512, as do tiles of sizes the user gave.
func TestNarrowerTiles(t *testing.T) {
	blur, err := pipelines.Blur()
	if err != nil {
		t.Fatal(err)
	}
	en, _ := polymage.Lookup("harris")
	harris, err := en.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		p         *scop.Program
		params    map[string]int64
		sizes     []int64
		wantInner []int64
		narrower  string
	}{
		{"harris", harris, en.Small, nil, []int64{16, 256}, "compute 174 operations a point and their buffers take 147744 bytes at 1024 columns, 37152 at 256"},
		{"harris, sizes given", harris, en.Small, []int64{16, 1024}, nil, ""},
		{"blur", blur, map[string]int64{"R": 40, "C": 50}, nil, []int64{16, 1024}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := postWith(t, tc.p, emit.CPU, tc.sizes, tc.params, compiler.Options{})
			if diff := cmp.Diff(tc.wantInner, r.Fusion.Inner); tc.sizes == nil && diff != "" {
				t.Errorf("inner sizes (-want +got)\n%s", diff)
			}
			if got := r.Fusion.Narrower; (tc.narrower == "") != (got == "") || !strings.Contains(got, tc.narrower) {
				t.Errorf("narrower: %q, want %q", got, tc.narrower)
			}
		})
	}
}
