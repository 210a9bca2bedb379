// Package corpus holds the benchmark inputs shared by tilefuse's Presburger
// benchmarks and the side-by-side isl benchmarks: sets and relations shaped
// like the compiler's own work (tiled stencil domains, tiling maps with floor
// division, stencil dependences, halo footprints).
package corpus

// Case is one benchmark input: A and B are isl-notation objects of the same
// space (B may be empty when an operation is unary). Project is the number of
// trailing set dimensions to project out of A for the projection benchmark.
type Case struct {
	Name    string
	A, B    string
	Project int
}

// Cases is the corpus.
var Cases = []Case{
	{
		Name:    "tiled-2d-domain",
		A:       "[N, M] -> { S[o0, o1, i, j] : 32o0 <= i <= 32o0 + 31 and 32o1 <= j <= 32o1 + 31 and 0 <= i < N and 0 <= j < M }",
		B:       "[N, M] -> { S[o0, o1, i, j] : 0 <= o0 <= 3 and 0 <= o1 <= 3 and i >= 1 and j >= 1 and i <= N - 2 and j <= M - 2 }",
		Project: 2,
	},
	{
		Name:    "stencil-halo",
		A:       "[N] -> { S[i, j] : 0 <= i < N and 0 <= j < N }",
		B:       "[N] -> { S[i, j] : 1 <= i < N - 1 and 1 <= j < N - 1 }",
		Project: 1,
	},
	{
		Name:    "blur-footprint",
		A:       "[N] -> { S[t, i] : exists (e = floor(i/64): 64e <= i <= 64e + 63 and t = e) and 0 <= i < N }",
		B:       "[N] -> { S[t, i] : 64t - 1 <= i <= 64t + 64 and 0 <= i < N }",
		Project: 1,
	},
	{
		Name:    "strided-downsample",
		A:       "[N] -> { S[i, j] : i mod 2 = 0 and j mod 2 = 0 and 0 <= i < N and 0 <= j < N }",
		B:       "[N] -> { S[i, j] : exists (a, b: i = 4a and j = 4b) and 0 <= i < N and 0 <= j < N }",
		Project: 1,
	},
	{
		Name:    "jacobi-dependence",
		A:       "[T, N] -> { S[t, i, t2, i2] : t2 = t + 1 and i - 1 <= i2 <= i + 1 and 0 <= t < T and 1 <= i < N - 1 and 1 <= i2 < N - 1 }",
		B:       "[T, N] -> { S[t, i, t2, i2] : t2 > t and 0 <= t < T and 0 <= t2 < T and 0 <= i < N and 0 <= i2 < N }",
		Project: 2,
	},
	{
		Name:    "skewed-tile",
		A:       "[T, N] -> { S[o0, o1, t, i] : 32o0 <= t <= 32o0 + 31 and 32o1 <= t + i <= 32o1 + 31 and 0 <= t < T and 1 <= i < N - 1 }",
		B:       "[T, N] -> { S[o0, o1, t, i] : o0 >= 0 and o1 >= o0 and 2t + i >= 5 }",
		Project: 2,
	},
	{
		Name:    "gemm-tile-3d",
		A:       "[NI, NJ, NK] -> { S[a, b, c, i, j, k] : 32a <= i <= 32a + 31 and 32b <= j <= 32b + 31 and 32c <= k <= 32c + 31 and 0 <= i < NI and 0 <= j < NJ and 0 <= k < NK }",
		B:       "[NI, NJ, NK] -> { S[a, b, c, i, j, k] : i <= j and k >= 1 }",
		Project: 3,
	},
	{
		Name:    "upsample-interp",
		A:       "[N] -> { S[x, y] : exists (e = floor(x/2), f = floor(y/2): 0 <= e < N and 0 <= f < N) and 0 <= x < 2N and 0 <= y < 2N }",
		B:       "[N] -> { S[x, y] : x mod 2 = 1 or y mod 2 = 1 }",
		Project: 1,
	},
}
