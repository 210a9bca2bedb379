// Package inline substitutes cheap pointwise stages into their consumers,
// as PolyMage's inlining pass and Halide's compute_inline do, before a
// program is scheduled.
//
// A stage is inlined when it is the only writer of a temporary array, its
// write subscripts are a permutation of its iterators plus constants (so
// each element read names exactly one instance), every element its
// consumers read was written by it, all the arrays it reads are final
// before it runs and its consumers run after it (the original schedule
// puts each in its own place of the outermost sequence), no consumer uses
// its values as subscripts (an index array stays a load), and its body
// costs little next to how many times its consumers read each element
// (Options.MaxCost: a read at a constant channel evaluates only the
// branch of a per-channel selection it picks), unless a single consumer
// reads each element once. The consumer then evaluates the stage's expression,
// with the stage's iterators replaced by the read's subscripts, instead of
// loading the element: the same operations on the same values, so the
// result is bit for bit the original's. The stage and its array disappear,
// which removes a pass over a tile and a tile-local buffer under
// post-tiling fusion.
package inline
