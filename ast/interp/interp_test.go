package interp_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/ast/interp"
	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/frontend/cparse"
	"github.com/tilefuse/tilefuse/pipelines"
	"github.com/tilefuse/tilefuse/polybench"
	"github.com/tilefuse/tilefuse/scheduler"
	"github.com/tilefuse/tilefuse/scheduletree"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/charness"
	"github.com/tilefuse/tilefuse/scop/refexec"
	"github.com/tilefuse/tilefuse/tiling"
)

// TestPolyBench runs the AST of every PolyBench kernel (MINI dataset)
// under several schedules and compares every array with the reference
// executor's, bit for bit (statement bodies are never changed, so no
// reassociation can happen), and the counts with an independent oracle.
func TestPolyBench(t *testing.T) {
	for _, k := range polybench.Kernels() {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			p, err := cparse.ParseFunc(k.Name+".c", []byte(k.Source), k.Func)
			if err != nil {
				t.Fatal(err)
			}
			params := k.Sizes(polybench.Mini)
			// PolyBench declares the arrays at their LARGE extents: fill
			// once, copy for each run.
			in, err := charness.Inputs(p, params)
			if err != nil {
				t.Fatal(err)
			}
			want := clone(in)
			if err := refexec.Run(p, params, want); err != nil {
				t.Fatal(err)
			}
			oracle := countOracle(t, p, params)
			for name, tree := range trees(t, p) {
				n, err := ast.Generate(tree, ast.Options{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := clone(in)
				st, err := interp.Run(p, n, params, got)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, a := range p.Arrays {
					if !bytes.Equal(got[a.Name].Data, want[a.Name].Data) {
						m, err := scop.Compare(got[a.Name], want[a.Name], 0)
						t.Errorf("%s: array %s differs from the reference (NaN payloads included): %v %v", name, a.Name, m, err)
					}
				}
				oracle.check(t, name, st)
			}
		})
	}
}

func clone(bufs map[string]*scop.Buffer) map[string]*scop.Buffer {
	out := make(map[string]*scop.Buffer, len(bufs))
	for name, b := range bufs {
		out[name] = b.Clone()
	}
	return out
}

// trees returns the original schedule, the original with its permutable
// bands tiled by 4, and the scheduler's for each fusion heuristic.
func trees(t *testing.T, p *scop.Program) map[string]scheduletree.Tree {
	t.Helper()
	orig, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]scheduletree.Tree{"original": orig, "original/tiled": tilePermutable(t, orig)}
	g, err := deps.Memory(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []scheduler.Fuse{scheduler.FuseMin, scheduler.FuseSmart, scheduler.FuseMax} {
		tree, err := scheduler.Schedule(p, g, scheduler.Options{Fuse: f})
		if err != nil {
			t.Fatalf("fuse %s: %v", f, err)
		}
		out["fuse "+f.String()] = tree
	}
	return out
}

// tilePermutable tiles the outermost permutable bands by 4 (the tiling
// package's policy).
func tilePermutable(t *testing.T, tree scheduletree.Tree) scheduletree.Tree {
	t.Helper()
	tree, _, err := tiling.Apply(tree, tiling.Policy{Sizes: []int64{4}})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// oracle holds the counts expected of any correct schedule, from the
// program text: instances from presburger's Count of each domain, and for
// bodies without selects or && / || (whose work depends on the data)
// loads, stores and calls as instances times the static numbers.
type oracle struct {
	instances map[string]int64
	static    map[string]refexec.StmtCounts // loads and stores per instance
	calls     map[string]int64
	dynamic   bool // some body has data-dependent work: calls unchecked
}

func countOracle(t *testing.T, p *scop.Program, params map[string]int64) *oracle {
	t.Helper()
	o := &oracle{instances: map[string]int64{}, static: map[string]refexec.StmtCounts{}, calls: map[string]int64{}}
	for _, s := range p.Stmts {
		dom, err := s.Domain.FixParams(params)
		if err != nil {
			t.Fatal(err)
		}
		n, err := dom.Count()
		if err != nil {
			t.Fatal(err)
		}
		o.instances[s.Name] = n
		exprs := append([]scop.Expr{s.Value}, s.Write.Index...)
		if hasDynamic(exprs) {
			o.dynamic = true
			continue
		}
		var reads int64
		for _, e := range exprs {
			reads += int64(len(scop.Reads(e)))
			scop.Walk(e, func(x scop.Expr) bool {
				if c, ok := x.(*scop.Call); ok {
					o.calls[c.Fn] += n
				}
				return true
			})
		}
		o.static[s.Name] = refexec.StmtCounts{Loads: reads, Stores: 1}
	}
	return o
}

func hasDynamic(exprs []scop.Expr) bool {
	found := false
	for _, e := range exprs {
		scop.Walk(e, func(x scop.Expr) bool {
			switch x := x.(type) {
			case *scop.Select:
				found = true
			case *scop.Binary:
				found = found || x.Op.IsLogical()
			}
			return !found
		})
	}
	return found
}

func (o *oracle) check(t *testing.T, name string, st *interp.Stats) {
	t.Helper()
	got := map[string]int64{}
	var loads, stores int64
	for s, c := range st.Stmts {
		got[s] = c.Instances
		loads += c.Loads
		stores += c.Stores
		if per, ok := o.static[s]; ok && (c.Loads != per.Loads*c.Instances || c.Stores != per.Stores*c.Instances) {
			t.Errorf("%s: statement %s: %d loads and %d stores in %d instances, want %d and %d per instance", name, s, c.Loads, c.Stores, c.Instances, per.Loads, per.Stores)
		}
	}
	if diff := cmp.Diff(o.instances, got); diff != "" {
		t.Errorf("%s: instances (-domain count +executed):\n%s", name, diff)
	}
	if loads != st.Loads || stores != st.Stores {
		t.Errorf("%s: totals %d loads, %d stores; the statements sum to %d, %d", name, st.Loads, st.Stores, loads, stores)
	}
	if !o.dynamic {
		if diff := cmp.Diff(o.calls, st.Calls); diff != "" {
			t.Errorf("%s: calls (-want +got):\n%s", name, diff)
		}
	}
	if st.Allocs != 0 || st.PeakLocalBytes != 0 {
		t.Errorf("%s: %d allocations, peak %d bytes; the AST has no Alloc", name, st.Allocs, st.PeakLocalBytes)
	}
}

// locals is a program for tile-local buffers: S0 writes T (i32), S1
// reads it into out, S2 and S3 do the same with F (f32) and fout.
const locals = `
void locals(int N, int T[N], int out[N], float F[N], float fout[N]) {
  for (int i = 0; i < N; i++) T[i] = 10 * i;
  for (int i = 0; i < N; i++) out[i] = T[i] + 1;
  for (int i = 0; i < N; i++) F[i] = 0.5f * i;
  for (int i = 0; i < N; i++) fout[i] = F[i] + 1.0f;
}
`

// AST builders.

func loop(iter string, lo, hi ast.Expr, body ...ast.Node) *ast.For {
	return &ast.For{Iter: iter, Lower: lo, Upper: hi, Stride: 1, Body: &ast.Block{Children: body}}
}

func call(stmt string, args ...ast.Expr) *ast.User { return &ast.User{Stmt: stmt, Args: args} }

func alloc(array string, t scop.ElemType, shape ...ast.Expr) *ast.Alloc {
	return &ast.Alloc{Array: array, Elem: t, Shape: shape}
}

func free(array string) *ast.Free { return &ast.Free{Array: array} }

func block(nodes ...ast.Node) *ast.Block { return &ast.Block{Children: nodes} }

var (
	i, c0, n = ast.Var("i"), ast.Var("c0"), ast.Var("N")
	nMinus1  = ast.Add(n, ast.Int(-1))
	// poisonI32 is the i32 poison value.
	poisonI32 = int64(int32(-0x5A5A5A5B))
)

// TestLocalBuffers runs hand-built ASTs with Alloc and Free on the locals
// program (N = 6): per-tile buffers whose shape depends on the tile,
// shadowing of the program's arrays, poison in unwritten data.
func TestLocalBuffers(t *testing.T) {
	p, err := cparse.ParseFunc("locals.c", []byte(locals), "locals")
	if err != nil {
		t.Fatal(err)
	}
	const size = 6
	params := map[string]int64{"N": size}
	ramp := func(f func(i int64) float64) []float64 {
		out := make([]float64, size)
		for i := range out {
			out[i] = f(int64(i))
		}
		return out
	}
	// An expected array, from the inputs.
	type want func(in map[string]*scop.Buffer) []float64
	fixed := func(f func(i int64) float64) want {
		return func(map[string]*scop.Buffer) []float64 { return ramp(f) }
	}
	written := fixed(func(i int64) float64 { return float64(10*i + 1) })
	writtenF := fixed(func(i int64) float64 { return 0.5*float64(i) + 1 })
	poison := fixed(func(int64) float64 { return float64(poisonI32 + 1) })
	nan := fixed(func(int64) float64 { return math.NaN() })
	plusOne := func(array string) want {
		return func(in map[string]*scop.Buffer) []float64 {
			return ramp(func(i int64) float64 { v := in[array].Load(i); return v.F + float64(v.I) + 1 })
		}
	}
	same := func(array string) want {
		return func(in map[string]*scop.Buffer) []float64 { return values(in[array]) }
	}
	tests := []struct {
		name      string
		n         ast.Node
		out, fout want
		stats     interp.Stats
	}{{
		// Tiles of 2; the buffers grow with the tile: 2*c0+2 elements.
		name: "growing tiles",
		n: loop("c0", ast.Int(0), ast.Add(ast.FloorDiv(n, 2), ast.Int(-1)),
			alloc("T", scop.I32, ast.Add(ast.Mul(2, c0), ast.Int(2))),
			alloc("F", scop.F32, ast.Add(ast.Mul(2, c0), ast.Int(2))),
			loop("i", ast.Mul(2, c0), ast.Add(ast.Mul(2, c0), ast.Int(1)), call("S0", i), call("S2", i)),
			loop("i", ast.Mul(2, c0), ast.Add(ast.Mul(2, c0), ast.Int(1)), call("S1", i), call("S3", i)),
			free("F"), free("T")),
		out: written, fout: writtenF,
		stats: interp.Stats{Allocs: 6, AllocBytes: (2 + 4 + 6) * 8, PeakLocalBytes: size * 8},
	}, {
		name: "poison",
		n: block(alloc("T", scop.I32, n), alloc("F", scop.F32, n),
			loop("i", ast.Int(0), nMinus1, call("S1", i), call("S3", i)),
			free("T"), free("F")),
		out: poison, fout: nan,
		stats: interp.Stats{Allocs: 2, AllocBytes: 8 * size, PeakLocalBytes: 8 * size},
	}, {
		// After the Free, S1 reads the program's T again.
		name: "shadow ends at free",
		n: block(alloc("T", scop.I32, n), loop("i", ast.Int(0), nMinus1, call("S0", i)), free("T"),
			loop("i", ast.Int(0), nMinus1, call("S1", i))),
		out: plusOne("T"), fout: same("fout"),
		stats: interp.Stats{Allocs: 1, AllocBytes: 4 * size, PeakLocalBytes: 4 * size},
	}, {
		// The inner T hides the outer one, which is back after its Free.
		name: "nested",
		n: block(alloc("T", scop.I32, n), loop("i", ast.Int(0), nMinus1, call("S0", i)),
			alloc("T", scop.I32, ast.Int(1)), alloc("X", scop.F64, ast.Int(3), ast.Int(2)), call("S1", ast.Int(0)), free("X"), free("T"),
			loop("i", ast.Int(1), nMinus1, call("S1", i)), free("T"),
			loop("i", ast.Int(0), nMinus1, call("S3", i))),
		out: func(in map[string]*scop.Buffer) []float64 {
			return append([]float64{float64(poisonI32 + 1)}, written(in)[1:]...)
		},
		fout:  plusOne("F"),
		stats: interp.Stats{Allocs: 3, AllocBytes: 4*size + 4 + 48, PeakLocalBytes: 4*size + 4 + 48},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bufs, err := charness.Inputs(p, params)
			if err != nil {
				t.Fatal(err)
			}
			in := map[string]*scop.Buffer{}
			for name, b := range bufs {
				in[name] = b.Clone()
			}
			st, err := interp.Run(p, tc.n, params, bufs)
			if err != nil {
				t.Fatal(err)
			}
			nanEqual := cmp.Comparer(func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })
			if diff := cmp.Diff(tc.out(in), values(bufs["out"]), nanEqual); diff != "" {
				t.Errorf("out (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.fout(in), values(bufs["fout"]), nanEqual); diff != "" {
				t.Errorf("fout (-want +got):\n%s", diff)
			}
			for _, name := range []string{"T", "F"} {
				if m, _ := scop.Compare(bufs[name], in[name], 0); m != nil {
					t.Errorf("the program's %s changed under its local buffer: %s", name, m)
				}
			}
			got := interp.Stats{Allocs: st.Allocs, AllocBytes: st.AllocBytes, PeakLocalBytes: st.PeakLocalBytes}
			if diff := cmp.Diff(tc.stats, got); diff != "" {
				t.Errorf("stats (-want +got):\n%s", diff)
			}
		})
	}
}

// values returns the elements of b as float64s.
func values(b *scop.Buffer) []float64 {
	out := make([]float64, b.Len())
	for i := range out {
		v := b.Load(int64(i))
		out[i] = v.F + float64(v.I)
	}
	return out
}

// TestErrors checks that bad ASTs give clear errors, not panics.
func TestErrors(t *testing.T) {
	p, err := cparse.ParseFunc("locals.c", []byte(locals), "locals")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"N": 4}
	tests := []struct {
		name     string
		n        ast.Node
		want     string
		instance bool // an *refexec.InstanceError
	}{
		{"free without alloc", free("T"), "free of T, which has no live tile-local buffer", false},
		{"never freed", alloc("T", scop.I32, n), "tile-local buffer T is allocated and never freed", false},
		{"element type", block(alloc("T", scop.F32, n), free("T")), "tile-local buffer T of f32 shadows the program's i32 array", false},
		{"bool", block(alloc("B", scop.Bool, n), free("B")), "tile-local buffer B has element type bool", false},
		{"rank", block(alloc("T", scop.I32, n, n), free("T")), "array T is accessed with 1 subscripts, not the buffer's 2", false},
		{"negative shape", block(alloc("T", scop.I32, ast.Int(-1)), free("T")), "negative extent", false},
		{"out of bounds", block(alloc("T", scop.I32, ast.Int(2)), call("S0", ast.Int(3)), free("T")), "write of T[i] out of bounds: element T[3] of shape [2]", true},
		{"global out of bounds", call("S1", ast.Int(4)), "write of out[i] out of bounds: element out[4] of shape [4]", true},
		{"unknown statement", call("S9", ast.Int(0)), "no statement S9", false},
		{"arguments", call("S0"), "statement S0 has 1 iterators, run with 0 values", false},
		{"free iterator", call("S0", i), "i is neither a parameter nor an enclosing iterator", false},
		{"division by zero", call("S0", ast.Expr{Op: ast.OpFloorDiv, Args: []ast.Expr{n}}), "interp: panic: runtime error: integer divide by zero", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := interp.Run(p, tc.n, params, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one with %q", err, tc.want)
			}
			var ie *refexec.InstanceError
			if errors.As(err, &ie) != tc.instance {
				t.Errorf("error %T, instance error wanted: %v", err, tc.instance)
			}
		})
	}
	if _, err := interp.Run(p, nil, map[string]int64{}, nil); err == nil || !strings.Contains(err.Error(), "no value for parameter N") {
		t.Errorf("missing parameter: %v", err)
	}
}

// TestProducerConsumer reproduces the counts of the Halide tutorial on
// multi-stage pipelines (seed 002) for the schedules the AST can express:
// producer.compute_root() (the original schedule), compute_at(consumer,
// x) (recomputing the producer's rows per consumer row) and the 4 x 4
// tiles with the producer computed per tile. Temporary memory differs
// from Halide's: a local buffer is indexed by the array's own subscripts,
// so it has the full array's shape (indexing relative to the tile is
// fusion's job, which rewrites the subscripts).
func TestProducerConsumer(t *testing.T) {
	p, err := pipelines.ProducerConsumer()
	if err != nil {
		t.Fatal(err)
	}
	orig, err := scheduler.Original(p)
	if err != nil {
		t.Fatal(err)
	}
	root, err := ast.Generate(orig, ast.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x, y, r, c := ast.Var("x"), ast.Var("y"), ast.Var("R"), ast.Var("C")
	plus := func(e ast.Expr, k int64) ast.Expr { return ast.Add(e, ast.Int(k)) }
	prod := func() *ast.Alloc { return alloc("producer", scop.F32, plus(r, 1), plus(c, 1)) }
	// for x: producer rows x and x+1; consumer row x.
	computeAtX := loop("x", ast.Int(0), plus(r, -1), prod(),
		loop("px", x, plus(x, 1), loop("py", ast.Int(0), c, call("producer_s0", ast.Var("px"), ast.Var("py")))),
		loop("y", ast.Int(0), plus(c, -1), call("consumer_s0", x, y)),
		free("producer"))
	// 4 x 4 tiles (xo, yo), each computing its 5 x 5 producer tile.
	xo, yo := ast.Var("xo"), ast.Var("yo")
	tiled := loop("xo", ast.Int(0), plus(ast.FloorDiv(r, 4), -1), loop("yo", ast.Int(0), plus(ast.FloorDiv(c, 4), -1), prod(),
		loop("px", ast.Mul(4, xo), plus(ast.Mul(4, xo), 4), loop("py", ast.Mul(4, yo), plus(ast.Mul(4, yo), 4),
			call("producer_s0", ast.Var("px"), ast.Var("py")))),
		loop("x", ast.Mul(4, xo), plus(ast.Mul(4, xo), 3), loop("y", ast.Mul(4, yo), plus(ast.Mul(4, yo), 3), call("consumer_s0", x, y))),
		free("producer")))
	type counts struct{ Sin, Loads, Stores, Producers, PeakLocalBytes int64 }
	tests := []struct {
		name string
		size int64
		n    ast.Node
		want counts
	}{
		// Halide: 25 floats of temporary memory, 64 loads, 41 stores, 25 sins.
		{"compute_root", 4, root, counts{Sin: 25, Loads: 64, Stores: 41, Producers: 25}},
		// Halide: 10 floats, 64 loads, 56 stores, 40 sins.
		{"compute_at x", 4, computeAtX, counts{Sin: 40, Loads: 64, Stores: 56, Producers: 40, PeakLocalBytes: 25 * 4}},
		// Halide (8 x 8 in 4 x 4 tiles): 4 tiles of 25 producers.
		{"tiles", 8, tiled, counts{Sin: 100, Loads: 256, Stores: 164, Producers: 100, PeakLocalBytes: 81 * 4}},
		{"compute_root 8", 8, root, counts{Sin: 81, Loads: 256, Stores: 145, Producers: 81}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			params := map[string]int64{"R": tc.size, "C": tc.size}
			want, err := refexec.Alloc(p, params)
			if err != nil {
				t.Fatal(err)
			}
			if err := refexec.Run(p, params, want); err != nil {
				t.Fatal(err)
			}
			bufs := map[string]*scop.Buffer{}
			st, err := interp.Run(p, tc.n, params, bufs)
			if err != nil {
				t.Fatal(err)
			}
			if m, err := scop.Compare(bufs["consumer"], want["consumer"], 0); err != nil || m != nil {
				t.Errorf("consumer differs from the reference: %v %v", m, err)
			}
			got := counts{Sin: st.Calls["sin"], Loads: st.Loads, Stores: st.Stores, Producers: st.Stmts["producer_s0"].Instances, PeakLocalBytes: st.PeakLocalBytes}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			if got.Sin != got.Producers {
				t.Errorf("%d calls to sin for %d producer instances", got.Sin, got.Producers)
			}
		})
	}
}

// TestCountsMatchAcrossSchedules checks on the pipelines that every
// schedule executes the same instances, loads and calls.
func TestCountsMatchAcrossSchedules(t *testing.T) {
	for _, e := range pipelines.All() {
		t.Run(e.Name, func(t *testing.T) {
			p, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			params := map[string]int64{}
			for k := range e.Defaults {
				params[k] = 16
			}
			var first *interp.Stats
			for name, tree := range trees(t, p) {
				n, err := ast.Generate(tree, ast.Options{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				st, err := interp.Run(p, n, params, nil)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if first == nil {
					first = st
					continue
				}
				if diff := cmp.Diff(first, st); diff != "" {
					t.Errorf("%s: stats differ (-first +this):\n%s", name, diff)
				}
			}
			oracle := countOracle(t, p, params)
			oracle.check(t, e.Name, first)
		})
	}
}
