package dsl_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tilefuse/tilefuse/frontend/dsl"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

func blur() *dsl.Pipeline {
	p := dsl.NewPipeline("blur")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	x, y := p.Var("x"), p.Var("y")
	in := p.Input("in", dsl.F32, R.Add(2), C.Add(2))
	blurx := p.Func("blurx", dsl.F32, x.In(1, R.Add(1)), y.In(0, C.Add(2)))
	blurx.Define(dsl.Add(in.At(x.Sub(1), y), in.At(x, y), in.At(x.Add(1), y)).Div(3))
	out := p.Func("out", dsl.F32, x.In(1, R.Add(1)), y.In(1, C.Add(1)))
	out.Define(dsl.Add(blurx.At(x, y.Sub(1)), blurx.At(x, y), blurx.At(x, y.Add(1))).Div(3))
	p.Output(out)
	return p
}

// smooth copies the border and averages the interior: two cases.
func smooth() *dsl.Pipeline {
	p := dsl.NewPipeline("smooth")
	N := p.Param("N")
	p.Assume(N.Ge(3))
	x, y := p.Var("x"), p.Var("y")
	in := p.Input("in", dsl.U16, N, N)
	out := p.Func("out", dsl.U16, x.In(0, N), y.In(0, N))
	border := dsl.Or(x.Eq(0), y.Eq(0), x.Eq(N.Sub(1)), y.Eq(N.Sub(1)))
	out.Define(dsl.When(border, in.At(x, y)),
		dsl.Add(in.At(x.Sub(1), y), in.At(x.Add(1), y), in.At(x, y.Sub(1)), in.At(x, y.Add(1))).Div(4))
	p.Output(out)
	return p
}

// histCDF is a histogram (data-dependent write) and its prefix sum (a
// recurrence over a reduction domain), declared consumer first.
func histCDF() *dsl.Pipeline {
	p := dsl.NewPipeline("hist")
	R, C := p.Param("R"), p.Param("C")
	p.Assume(R.Ge(1), C.Ge(1))
	i := p.Var("i")
	in := p.Input("in", dsl.U8, R, C)
	cdf := p.Func("cdf", dsl.I32, i.In(0, 256))
	hist := p.Func("hist", dsl.I32, i.In(0, 256))
	unused := p.Func("unused", dsl.I32, i.In(0, 4))
	unused.Define(i)
	r := p.RDom("r", dsl.Range(0, R), dsl.Range(0, C))
	hist.Define(0)
	hist.At(in.At(r.X, r.Y)).Incr(1)
	k := p.RDom("k", dsl.Range(1, 256))
	cdf.Define(hist.At(i))
	cdf.At(k.X).Set(cdf.At(k.X.Sub(1)).Add(hist.At(k.X)))
	p.Output(cdf)
	return p
}

// resample halves then doubles a row: strided and floor-divided reads.
func resample() *dsl.Pipeline {
	p := dsl.NewPipeline("resample")
	N := p.Param("N")
	x := p.Var("x")
	in := p.Input("in", dsl.F32, N.Mul(2))
	down := p.Func("down", dsl.F32, x.In(0, N))
	down.Define(dsl.Add(in.At(x.Mul(2)), in.At(x.Mul(2).Add(1))).Div(2))
	up := p.Func("up", dsl.F32, x.In(0, N.Mul(2)))
	up.Define(down.At(x.Div(2)))
	p.Output(up)
	return p
}

// scan is a recurrence in a pure definition, then a triangular
// reduction and an update over a pure variable.
func scan() *dsl.Pipeline {
	p := dsl.NewPipeline("scan")
	N := p.Param("N")
	p.Assume(N.Ge(1))
	x := p.Var("x")
	in := p.Input("in", dsl.F64, N)
	s := p.Func("s", dsl.F64, x.In(0, N))
	s.Define(dsl.When(x.Eq(0), in.At(0)), s.At(x.Sub(1)).Add(in.At(x)))
	t := p.Func("t", dsl.F64, x.In(0, N))
	t.Define(0)
	r := p.RDom("r", dsl.Range(0, N), dsl.Range(0, N))
	r.Where(r.Y.Le(r.X))
	t.At(r.X).Incr(s.At(r.Y))
	t.At(x).Set(t.At(x).Mul(in.At(x)))
	p.Output(t)
	return p
}

// total is a scalar (a 0-d function) summed by a reduction, then scaled
// by an update with no iterators at all.
func total() *dsl.Pipeline {
	p := dsl.NewPipeline("sum")
	N := p.Param("N")
	in := p.Input("in", dsl.I32, N)
	r := p.RDom("r", dsl.Range(0, N))
	total := p.Func("total", dsl.I32)
	total.Define(0)
	total.At().Incr(in.At(r.X))
	total.At().Set(total.At().Mul(2))
	p.Output(total)
	return p
}

type programWant struct {
	arrays                                        []string
	domains, schedule, reads, mayWrite, mustWrite string
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name string
		p    func() *dsl.Pipeline
		want programWant
	}{
		{"blur", blur, programWant{
			arrays:    []string{"in f32[(R + 2)][(C + 2)] live-in", "blurx f32[R][(C + 2)]", "out f32[R][C] live-out"},
			domains:   "[R, C] -> { blurx_s0[x, y] : 1 <= x <= R and 0 <= y <= C + 1; out_s0[x, y] : 1 <= x <= R and 1 <= y <= C }",
			schedule:  "[R, C] -> { blurx_s0[x, y] -> [0, x, y, 0]; out_s0[x, y] -> [1, x, y, 0] }",
			reads:     "[R, C] -> { blurx_s0[x, y] -> in[a, y] : 1 <= x <= R and 0 <= y <= C + 1 and x - 1 <= a <= x + 1; out_s0[x, y] -> blurx[x - 1, b] : 1 <= x <= R and 1 <= y <= C and y - 1 <= b <= y + 1 }",
			mayWrite:  "[R, C] -> { blurx_s0[x, y] -> blurx[x - 1, y] : 1 <= x <= R and 0 <= y <= C + 1; out_s0[x, y] -> out[x - 1, y - 1] : 1 <= x <= R and 1 <= y <= C }",
			mustWrite: "[R, C] -> { blurx_s0[x, y] -> blurx[x - 1, y] : 1 <= x <= R and 0 <= y <= C + 1; out_s0[x, y] -> out[x - 1, y - 1] : 1 <= x <= R and 1 <= y <= C }",
		}},
		{"cases", smooth, programWant{
			arrays: []string{"in u16[N][N] live-in", "out u16[N][N] live-out"},
			domains: "[N] -> { out_s0_c0[x, y] : 0 <= x < N and 0 <= y < N and (x = 0 or y = 0 or x = N - 1 or y = N - 1); " +
				"out_s0_c1[x, y] : 1 <= x < N - 1 and 1 <= y < N - 1 }",
			schedule: "[N] -> { out_s0_c0[x, y] -> [0, x, y, 0]; out_s0_c1[x, y] -> [0, x, y, 1] }",
			reads: "[N] -> { out_s0_c0[x, y] -> in[x, y] : 0 <= x < N and 0 <= y < N and (x = 0 or y = 0 or x = N - 1 or y = N - 1); " +
				"out_s0_c1[x, y] -> in[a, b] : 1 <= x < N - 1 and 1 <= y < N - 1 and ((a = x and (b = y - 1 or b = y + 1)) or (b = y and (a = x - 1 or a = x + 1))) }",
			mayWrite:  "[N] -> { out_s0_c0[x, y] -> out[x, y] : 0 <= x < N and 0 <= y < N and (x = 0 or y = 0 or x = N - 1 or y = N - 1); out_s0_c1[x, y] -> out[x, y] : 1 <= x < N - 1 and 1 <= y < N - 1 }",
			mustWrite: "[N] -> { out_s0_c0[x, y] -> out[x, y] : 0 <= x < N and 0 <= y < N and (x = 0 or y = 0 or x = N - 1 or y = N - 1); out_s0_c1[x, y] -> out[x, y] : 1 <= x < N - 1 and 1 <= y < N - 1 }",
		}},
		{"reductions", histCDF, programWant{
			arrays:  []string{"in u8[R][C] live-in", "hist i32[256]", "cdf i32[256] live-out"},
			domains: "[R, C] -> { hist_s0[i] : 0 <= i < 256; hist_s1[rx, ry] : 0 <= rx < R and 0 <= ry < C; cdf_s0[i] : 0 <= i < 256; cdf_s1[k] : 1 <= k < 256 }",
			schedule: "[R, C] -> { hist_s0[i] -> [0, i, 0, 0]; hist_s1[rx, ry] -> [1, rx, ry, 0]; " +
				"cdf_s0[i] -> [2, i, 0, 0]; cdf_s1[k] -> [3, k, 0, 0] }",
			reads: "[R, C] -> { hist_s1[rx, ry] -> in[rx, ry] : 0 <= rx < R and 0 <= ry < C; hist_s1[rx, ry] -> hist[h] : 0 <= rx < R and 0 <= ry < C and 0 <= h < 256; " +
				"cdf_s0[i] -> hist[i] : 0 <= i < 256; cdf_s1[k] -> cdf[k - 1] : 1 <= k < 256; cdf_s1[k] -> hist[k] : 1 <= k < 256 }",
			mayWrite: "[R, C] -> { hist_s0[i] -> hist[i] : 0 <= i < 256; hist_s1[rx, ry] -> hist[h] : 0 <= rx < R and 0 <= ry < C and 0 <= h < 256; " +
				"cdf_s0[i] -> cdf[i] : 0 <= i < 256; cdf_s1[k] -> cdf[k] : 1 <= k < 256 }",
			mustWrite: "[R, C] -> { hist_s0[i] -> hist[i] : 0 <= i < 256; cdf_s0[i] -> cdf[i] : 0 <= i < 256; cdf_s1[k] -> cdf[k] : 1 <= k < 256 }",
		}},
		{"sampling", resample, programWant{
			arrays:    []string{"in f32[(2 * N)] live-in", "down f32[N]", "up f32[(2 * N)] live-out"},
			domains:   "[N] -> { down_s0[x] : 0 <= x < N; up_s0[x] : 0 <= x < 2N }",
			schedule:  "[N] -> { down_s0[x] -> [0, x, 0]; up_s0[x] -> [1, x, 0] }",
			reads:     "[N] -> { down_s0[x] -> in[a] : 0 <= x < N and 2x <= a <= 2x + 1; up_s0[x] -> down[floor(x/2)] : 0 <= x < 2N }",
			mayWrite:  "[N] -> { down_s0[x] -> down[x] : 0 <= x < N; up_s0[x] -> up[x] : 0 <= x < 2N }",
			mustWrite: "[N] -> { down_s0[x] -> down[x] : 0 <= x < N; up_s0[x] -> up[x] : 0 <= x < 2N }",
		}},
		{"recurrence", scan, programWant{
			arrays:   []string{"in f64[N] live-in", "s f64[N]", "t f64[N] live-out"},
			domains:  "[N] -> { s_s0_c0[0] : N >= 1; s_s0_c1[x] : 1 <= x < N; t_s0[x] : 0 <= x < N; t_s1[a, b] : 0 <= b <= a < N; t_s2[x] : 0 <= x < N }",
			schedule: "[N] -> { s_s0_c0[x] -> [0, x, 0, 0]; s_s0_c1[x] -> [0, x, 0, 1]; t_s0[x] -> [1, x, 0, 0]; t_s1[a, b] -> [2, a, b, 0]; t_s2[x] -> [3, x, 0, 0] }",
			reads: "[N] -> { s_s0_c0[0] -> in[0] : N >= 1; s_s0_c1[x] -> s[x - 1] : 1 <= x < N; s_s0_c1[x] -> in[x] : 1 <= x < N; " +
				"t_s1[a, b] -> t[a] : 0 <= b <= a < N; t_s1[a, b] -> s[b] : 0 <= b <= a < N; t_s2[x] -> t[x] : 0 <= x < N; t_s2[x] -> in[x] : 0 <= x < N }",
			mayWrite:  "[N] -> { s_s0_c0[0] -> s[0] : N >= 1; s_s0_c1[x] -> s[x] : 1 <= x < N; t_s0[x] -> t[x] : 0 <= x < N; t_s1[a, b] -> t[a] : 0 <= b <= a < N; t_s2[x] -> t[x] : 0 <= x < N }",
			mustWrite: "[N] -> { s_s0_c0[0] -> s[0] : N >= 1; s_s0_c1[x] -> s[x] : 1 <= x < N; t_s0[x] -> t[x] : 0 <= x < N; t_s1[a, b] -> t[a] : 0 <= b <= a < N; t_s2[x] -> t[x] : 0 <= x < N }",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := tc.p().Build()
			if err != nil {
				t.Fatal(err)
			}
			var arrays []string
			for _, a := range prog.Arrays {
				arrays = append(arrays, a.String())
			}
			if diff := cmp.Diff(tc.want.arrays, arrays); diff != "" {
				t.Errorf("arrays (-want +got):\n%s", diff)
			}
			domains, err := prog.Domains()
			if err != nil {
				t.Fatal(err)
			}
			expectSet(t, "domains", domains, tc.want.domains)
			for _, rel := range []struct {
				name string
				get  func() (presburger.UnionMap, error)
				want string
			}{
				{"schedule", prog.Schedule, tc.want.schedule},
				{"reads", prog.ReadRelation, tc.want.reads},
				{"may-writes", prog.MayWriteRelation, tc.want.mayWrite},
				{"must-writes", prog.MustWriteRelation, tc.want.mustWrite},
			} {
				got, err := rel.get()
				if err != nil {
					t.Fatal(err)
				}
				expectMap(t, rel.name, got, rel.want)
			}
		})
	}
}

func expectSet(t *testing.T, what string, got presburger.UnionSet, want string) {
	t.Helper()
	w, err := presburger.ParseUnionSet(want)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if eq, err := got.IsEqual(w); err != nil || !eq {
		t.Errorf("%s = %s\nwant %s (%v)", what, got, w, err)
	}
}

func expectMap(t *testing.T, what string, got presburger.UnionMap, want string) {
	t.Helper()
	w, err := presburger.ParseUnionMap(want)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if eq, err := got.IsEqual(w); err != nil || !eq {
		t.Errorf("%s = %s\nwant %s (%v)", what, got, w, err)
	}
}

// TestStatements checks the names, iterators, context and bodies: the
// typed trees scop receives, casts included.
func TestStatements(t *testing.T) {
	tests := []struct {
		name    string
		p       func() *dsl.Pipeline
		context string
		stmts   []string
	}{
		{"blur", blur, "[R, C] -> { : R >= 1 and C >= 1 }", []string{
			"blurx_s0 [x y] blurx[(x - 1)][y] = (((in[(x - 1)][y] + in[x][y]) + in[(x + 1)][y]) / 3.0f)",
			"out_s0 [x y] out[(x - 1)][(y - 1)] = (((blurx[(x - 1)][(y - 1)] + blurx[(x - 1)][y]) + blurx[(x - 1)][(y + 1)]) / 3.0f)",
		}},
		{"reductions", histCDF, "[R, C] -> { : R >= 1 and C >= 1 }", []string{
			"hist_s0 [i] hist[i] = 0",
			"hist_s1 [r_x r_y] hist[(i32)(in[r_x][r_y])] = (hist[(i32)(in[r_x][r_y])] + 1)",
			"cdf_s0 [i] cdf[i] = hist[i]",
			"cdf_s1 [k_x] cdf[k_x] = (cdf[(k_x - 1)] + hist[k_x])",
		}},
		{"recurrence", scan, "[N] -> { : N >= 1 }", []string{
			"s_s0_c0 [x] s[x] = in[0]",
			"s_s0_c1 [x] s[x] = (s[(x - 1)] + in[x])",
			"t_s0 [x] t[x] = 0.0",
			"t_s1 [r_x r_y] t[r_x] = (t[r_x] + s[r_y])",
			"t_s2 [x] t[x] = (t[x] * in[x])",
		}},
		{"scalar", total, "[N] -> { : true }", []string{
			"total_s0 [] total = 0",
			"total_s1 [r_x] total = (total + in[r_x])",
			"total_s2 [] total = (total * 2)",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog, err := tc.p().Build()
			if err != nil {
				t.Fatal(err)
			}
			ctx, err := presburger.ParseSet(tc.context)
			if err != nil {
				t.Fatal(err)
			}
			if eq, err := prog.Context.IsEqual(ctx); err != nil || !eq {
				t.Errorf("context = %s, want %s", prog.Context, ctx)
			}
			var got []string
			for _, s := range prog.Stmts {
				got = append(got, stmtLine(s))
			}
			if diff := cmp.Diff(tc.stmts, got); diff != "" {
				t.Errorf("statements (-want +got):\n%s", diff)
			}
		})
	}
}

func stmtLine(s *scop.Stmt) string {
	iters := ""
	for i, it := range s.Iters {
		if i > 0 {
			iters += " "
		}
		iters += it
	}
	return s.Name + " [" + iters + "] " + s.Body()
}
