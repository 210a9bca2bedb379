// Package tune chooses tile sizes for post-tiling fusion: a cost model
// that ranks candidate sizes without running them, and the records of
// the autotuner (`tilefuse tune`) that runs them, cached per source,
// strategy and machine for `--tile tuned`.
//
// Candidates are the sizes of the innermost tile members (the rows and
// columns of an image): every combination of Values per member (8, 16,
// ..., 512, the protocol of Mullapudi et al. 2016, seed 003). Outer
// members (an image's channels) keep post-tiling fusion's defaults.
//
// The model follows seed 003's cost: per tile, the arithmetic and memory
// accesses of every fused stage, counting the recomputation of
// overlapped tiles, with a load cost that grows when the working set of
// a thread (its tile-local buffers and the tiles of the arrays it reads
// and writes) leaves a cache level; times the tiles per thread, rounded
// up, so that too few tiles leave threads idle. It is derived from one
// compilation at the default sizes: each tile-local buffer's extent per
// dimension is affine in the tile size (Buffer.Origin says which tile
// coordinate moves it and by how much), so the halo a stage's tile
// needs, its recomputation and its buffer bytes follow for any size by
// interval arithmetic, without compiling the candidate. The cache sizes
// are the operating system's (sysfs).
//
// The model is linear in its constants (Costs: the load cost per cache
// level, the cost of a tile and of a row): a candidate's cost is the dot
// product of its Features with them. Calibration (`tilefuse tune
// --calibrate`) times a fixed set of runs and fits the constants by least
// squares (Fit, with gonum), kept per machine in the user's cache
// directory (LoadCosts); without it the model uses DefaultCosts. The
// trials of the programs tuned on the machine (Records) join the fit at
// their own sizes: fitted on harris's 49 trials at 6400 x 6400 alone, the
// model picks unsharp_mask's tuned best at 2048 x 2048, and the other
// way round, where the 1024 x 1024 micro-benchmark alone picked sizes
// 1.14-1.16x slower than the best.
package tune
