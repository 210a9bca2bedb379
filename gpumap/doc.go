// Package gpumap maps a schedule tree to a GPU as a tree transformation:
// it puts "kernel", "thread" and "serial" marks (scheduletree.MarkKernel,
// MarkThread, MarkSerial) into the tree, splitting bands so that the
// leading coincident members of a nest go to blocks and the next ones, or
// the point members of tiles, to threads, strip-mining a block band that
// has no thread band below it, and turning permutable bands without a
// parallel member into wavefronts. It also owns the launch sizes: the
// default and the largest threads per block and blocks per grid.
//
// The marks are what package emit reads from the AST to generate CUDA
// kernels (or their CPU emulation); a tree that already carries marks
// (a user's, or Halide-style schedules) keeps them.
package gpumap
