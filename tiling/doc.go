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
// The live-out tiling of post-tiling fusion (tile the live-out spaces
// first, then derive each intermediate space's tiles from the data a
// tile needs) and tile-size choice (cost model and autotuning) are the
// next things this package will own; the GPU mapping's strip-mining of a
// block band by the thread sizes is a mapping decision and lives in
// package gpumap.
package tiling
