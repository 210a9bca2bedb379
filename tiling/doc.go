// Package tiling owns tilefuse's tiling decisions on schedule trees: which
// bands are tiled, with which sizes per member, and whether full tiles
// are separated from partial ones. The primitives it uses (TileBand,
// SplitBand, PermuteBand) stay in package scheduletree, as in isl.
//
// There is one policy (Policy, applied by Apply): the outermost
// permutable band of every subtree (a permutable band with no permutable
// band above it), whatever its number of members, becomes a tile band
// over a point band; member k gets Sizes[k], the last size repeating.
// Permutability makes every such tiling legal. Nested permutable bands
// are left alone: their loops already run inside a tile. With Separate,
// every band directly above another band (the tile bands among them)
// gets isl's separate option, so AST generation splits its loops into
// full and partial tiles. `tilefuse ast --tile`, `compile --tile` and
// `bench --tile` all mean this.
//
// Strategy auto, where post-tiling fusion fuses nothing (package
// compiler), narrows the policy: MinMembers 2 passes over one-member
// bands to the outermost permutable bands of two or more members below
// them (strip-mining a single loop reuses nothing; Polly tiles no
// one-dimensional band either), and NoNestedWavefront leaves untiled a
// band that needs a wavefront (below) inside a sequential loop, where
// every iteration of that loop would fill the wavefront's pipeline and
// pay its barriers again. OnlyReuse then keeps, of the bands left, those
// that need a wavefront, those whose last member chains dependent
// instances with an earlier member coincident (a reduction or recurrence
// per row: tiles cut the chains short enough for the out-of-order core
// to overlap several; adi 6.8 -> 5.1 s at LARGE), and those where tiling
// brings reuse (Reuses): an access that reuses data (the same element,
// its cache line, or another access's element) across the iterations of
// a member other than the last, over a footprint of one such iteration
// that is a plane of the array or a column. The rest stream as well
// untiled, and their tiles only cut the hardware prefetcher's streams
// short: a two-pass 3x3 blur at 3000^2 ran 15.5 ms tiled 32 and 6.1 ms
// untiled (gcc 5.8 ms); gemm's C[i][j] *= beta and 2mm's, 3mm's,
// covariance's initialisations lose their tiles at no cost (within 3%
// either way at LARGE), gramschmidt's update of A 6% slower.
//
// # Wavefronts of time-skewed tiles
//
// A time-iterated stencil (jacobi-1d/2d, heat-3d, fdtd-2d, seidel-2d)
// is scheduled as one permutable band skewed in time, (t, 2t + i, 2t + j)
// for jacobi-2d, with no coincident member: every member carries a
// dependence, and its tiles (parallelograms in the original iteration
// space) have no parallel loop. Unless Policy.NoWavefront, a tiled band
// of two or more members whose first two members are both not coincident
// gets a wavefront (scheduletree's Tree.Wavefront): tile members
// (T0, T1, T2, ...) become a band (T0 + T1) over a band (T1, T2, ...),
// above the point band. Permutability makes every dependence the band
// does not leave to outer bands go forward or nowhere in each tile
// member, so a dependence between two tiles of one wavefront (equal
// T0 + T1) has T0 and T1 both equal: T1 is coincident, the tiles of one
// wavefront run in parallel, and the code is a sequential loop around a
// parallel loop (one OpenMP team with a barrier per wavefront in package
// emit). The other flags are those the tile band had. Only the first two
// members are summed: one parallel tile loop is what the CPU needs, and
// package gpumap maps the leading coincident members to blocks. A band
// whose first or second member is coincident is left alone: its outer
// tile loop, or the next one inside a sequential outer one, is parallel
// already. Under strategy smart this gives the time-skewed stencils
// above, and cholesky, lu and trisolv, their parallel tile loop.
//
// The point loops: in jacobi-2d's point band (t, 2t + i, 2t + j) over the
// sequence of its two statements, the innermost member carries the
// dependence of the second statement on the first one's previous
// iteration, so it is not coincident, and LLVM cannot vectorize the loop
// either (the distance between rows of one array is not a constant).
// With Policy.Check (package compiler sets it on the CPU, to
// scheduler.Check against the program's dependences) the innermost
// member of a point band over a sequence, inside a parallel tile loop,
// is split off and sunk into each filter (scheduletree's SinkBand),
// marked coincident under a "vector" mark: at each outer point time all
// instances of the first statement run, then all of the second, each in
// a loop without dependences that the AST marks Vector. The check
// decides on the whole tree, exactly (the order of every dependence, and
// the new flags): the stencils (jacobi-1d/2d, heat-3d, fdtd-2d) pass it,
// seidel-2d (one statement, its inner loop truly sequential) has nothing
// to distribute. Elsewhere the point loops are the band's, unless
// Policy.LocalPoints (strategy auto sets it): inside a parallel tile
// loop, the point member that walks the arrays best goes innermost
// (points.go). The scheduler keeps a band's only coincident member out
// of the innermost place, for the parallel loop's sake; tiled, the tile
// loop is the parallel one and the points are free. Measured at LARGE
// (2 threads, warm, rounds interleaved): bicg 3.54 -> 2.32 ms, atax
// 3.52 -> 2.27 ms, mvt 3.60 -> 2.31 ms, gemver 4.81 -> 3.42 ms, doitgen
// 166 -> 86 ms, gramschmidt 755 -> 489 ms, trmm 144 -> 61 ms.
//
// Wavefront rather than diamond tiling: diamond tiles (Bandishti et al.,
// SC 2012) start concurrently along a whole tile face and need no
// pipeline fill, but they need other tiling hyperplanes (t + i and t - i
// for jacobi-1d, which the scheduler would have to find under a
// concurrent-start constraint: a change to package scheduler, not a
// tiling decision) and exist only where such hyperplanes do, the
// stencils. The wavefront is a change of basis on the tile band the
// scheduler already built, legal for every permutable band (the
// triangular solvers included) by the argument above, and leaves the
// point band's schedule alone; its pipeline fill (about tsteps/T0
// wavefronts with less parallelism than the others) is small beside the
// number of wavefronts at PolyBench's sizes on a few cores.
//
// Measured (bench polybench LARGE, --tile 32, 2 threads, strategy smart
// against gcc -O3 -fopenmp in the same run, on a shared machine at load
// 7-12 before and 12 falling to 1 after): fdtd-2d 3.69x -> 8.44x,
// heat-3d 0.76x -> 1.72x, jacobi-2d 2.33x -> 3.79x, seidel-2d 1.31x ->
// 2.11x (jacobi-1d, about a millisecond, is noise at that load).
//
// Strategy post tiles a program of one computation space through Apply
// too (package fusion), so its stencils get the wavefront as well (there
// without Check: no distribution of the point loops).
//
// The live-out tiling of post-tiling fusion (tile the live-out spaces
// first, then derive each intermediate space's tiles from the data a
// tile needs) and tile-size choice (cost model and autotuning) are the
// next things this package will own; the GPU mapping's strip-mining of a
// block band by the thread sizes is a mapping decision and lives in
// package gpumap.
package tiling
