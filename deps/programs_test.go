package deps

import "github.com/tilefuse/tilefuse/scop"

// jacobi1d is the time-iterated 3-point stencil with two statements.
var jacobi1d = prog{
	name: "jacobi1d", params: []string{"T", "N"}, context: "[T, N] -> { : T >= 1 and N >= 3 }",
	arrays: []arr{
		{name: "A", typ: scop.F64, extent: []string{"N"}, in: true, out: true},
		{name: "B", typ: scop.F64, extent: []string{"N"}, in: true, out: true},
	},
	stmts: []stm{
		{name: "S0", domain: "[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }",
			sched: "[T, N] -> { S0[t, i] -> [0, t, 0, i, 0] }",
			write: "B[i]", reads: []string{"A[i - 1]", "A[i]", "A[i + 1]"}},
		{name: "S1", domain: "[T, N] -> { S1[t, i] : 0 <= t < T and 1 <= i < N - 1 }",
			sched: "[T, N] -> { S1[t, i] -> [0, t, 1, i, 0] }",
			write: "A[i]", reads: []string{"B[i - 1]", "B[i]", "B[i + 1]"}},
	},
}

// sum is a scalar reduction: s = 0; for i: s += x[i]; out = s.
var sum = prog{
	name: "sum", params: []string{"N"}, context: "[N] -> { : N >= 1 }",
	arrays: []arr{
		{name: "x", typ: scop.F64, extent: []string{"N"}, in: true},
		{name: "s", typ: scop.F64},
		{name: "out", typ: scop.F64, out: true},
	},
	stmts: []stm{
		{name: "S0", domain: "{ S0[] }", sched: "{ S0[] -> [0, 0, 0] }", write: "s[]"},
		{name: "S1", domain: "[N] -> { S1[i] : 0 <= i < N }", sched: "{ S1[i] -> [1, i, 0] }",
			write: "s[]", reads: []string{"s[]", "x[i]"}},
		{name: "S2", domain: "{ S2[] }", sched: "{ S2[] -> [2, 0, 0] }", write: "out[]", reads: []string{"s[]"}},
	},
}

// histogram clears 16 bins, counts an image into them with a
// data-dependent subscript (a may-write), and copies the bins out.
var histogram = prog{
	name: "histogram", params: []string{"N"}, context: "[N] -> { : N >= 1 }",
	arrays: []arr{
		{name: "img", typ: scop.I32, extent: []string{"N"}, in: true},
		{name: "hist", typ: scop.I32, extent: []string{"16"}},
		{name: "out", typ: scop.I32, extent: []string{"16"}, out: true},
	},
	stmts: []stm{
		{name: "S0", domain: "{ S0[b] : 0 <= b < 16 }", sched: "{ S0[b] -> [0, b] }", write: "hist[b]"},
		{name: "S1", domain: "[N] -> { S1[i] : 0 <= i < N }", sched: "{ S1[i] -> [1, i] }",
			write: "hist[@img[i]]", reads: []string{"hist[@img[i]]"}},
		{name: "S2", domain: "{ S2[b] : 0 <= b < 16 }", sched: "{ S2[b] -> [2, b] }", write: "out[b]", reads: []string{"hist[b]"}},
	},
}

// blur2 is a two-stage 1-D blur: P produces tmp, C consumes it.
var blur2 = prog{
	name: "blur2", params: []string{"N"}, context: "[N] -> { : N >= 1 }",
	arrays: []arr{
		{name: "in", typ: scop.F32, extent: []string{"N + 4"}, in: true},
		{name: "tmp", typ: scop.F32, extent: []string{"N + 2"}},
		{name: "out", typ: scop.F32, extent: []string{"N"}, out: true},
	},
	stmts: []stm{
		{name: "P", domain: "[N] -> { P[i] : 0 <= i < N + 2 }", sched: "{ P[i] -> [0, i] }",
			write: "tmp[i]", reads: []string{"in[i]", "in[i + 1]", "in[i + 2]"}},
		{name: "C", domain: "[N] -> { C[i] : 0 <= i < N }", sched: "{ C[i] -> [1, i] }",
			write: "out[i]", reads: []string{"tmp[i]", "tmp[i + 1]", "tmp[i + 2]"}},
	},
}

// stencil3 is a three-statement 2-D pipeline for the benchmark: a blur in
// x, a blur in y, and a pointwise sum with the input.
var stencil3 = prog{
	name: "stencil3", params: []string{"N", "M"}, context: "[N, M] -> { : N >= 4 and M >= 4 }",
	arrays: []arr{
		{name: "in", typ: scop.F32, extent: []string{"N", "M"}, in: true},
		{name: "bx", typ: scop.F32, extent: []string{"N", "M"}},
		{name: "by", typ: scop.F32, extent: []string{"N", "M"}},
		{name: "out", typ: scop.F32, extent: []string{"N", "M"}, out: true},
	},
	stmts: []stm{
		{name: "X", domain: "[N, M] -> { X[i, j] : 0 <= i < N and 1 <= j < M - 1 }", sched: "{ X[i, j] -> [0, i, 0, j, 0] }",
			write: "bx[i, j]", reads: []string{"in[i, j - 1]", "in[i, j]", "in[i, j + 1]"}},
		{name: "Y", domain: "[N, M] -> { Y[i, j] : 1 <= i < N - 1 and 1 <= j < M - 1 }", sched: "{ Y[i, j] -> [1, i, 0, j, 0] }",
			write: "by[i, j]", reads: []string{"bx[i - 1, j]", "bx[i, j]", "bx[i + 1, j]"}},
		{name: "Z", domain: "[N, M] -> { Z[i, j] : 1 <= i < N - 1 and 1 <= j < M - 1 }", sched: "{ Z[i, j] -> [2, i, 0, j, 0] }",
			write: "out[i, j]", reads: []string{"by[i, j]", "in[i, j]", "out[i, j]"}},
	},
}
