// Package fusion owns post-tiling fusion on schedule trees (seed 004,
// Zhao and Di, MICRO 2020; ../shared/DESIGN.md §6).
//
// Post starts from the conservative tree (each computation space, a child
// of the outermost sequence, with its own band: the scheduler's min
// fusion) and decides, space by space from the last to the first:
//
//   - A space that no later space reads and that writes nothing living
//     after the program is dead (a pyramid level's border ring that no
//     finer level reads): hidden under a "skipped" mark, never executed,
//     and no obstacle to its array becoming a tile-local buffer; its
//     producers no longer count it as a consumer.
//   - A live-out space (it writes data that lives after the program) or
//     one that cannot be fused (below) is tiled: its band, when
//     permutable, becomes a tile band over a point band (package tiling's
//     primitive, Options.Sizes).
//   - An intermediate space S is fused when every space reading its
//     values is tiled or fused itself: for each group (a tiled space and
//     what is fused into it) that needs S, the extension schedule E_S maps
//     the group's tile coordinates to the instances of S its tiles read,
//     followed transitively through chains of producers (what the tiled
//     space reads from S, and what the fused consumers of S read from it
//     in each tile). Neighbouring tiles' images overlap at stencil borders:
//     that overlap is the recomputation that keeps the tile loop parallel.
//     Each E_S is over-approximated by the simple hull of each statement's
//     part within its domain, so that deep pyramids of up- and
//     down-sampling do not multiply pieces; the extra instances are valid
//     and read values the hull of their own producers provides. A hull
//     that keeps existential variables (a producer read at 2y-1..2y+1)
//     is replaced by its convex hull when that still fits a constant box
//     per tile, so that the producer's loops test no floor division per
//     point.
//   - Boxes: fusing S needs a box of constant size around the instances
//     each tile needs (the tile's recomputation must not grow with the
//     image). A border ring (x = 0 and x = floor(C/2) + 1 of a pyramid
//     level) needed only by edge tiles has none; E_S is then the ring
//     instances that write within the box of the elements the group's
//     tiles read of S's arrays (readBox), a constant window.
//   - The parallelism check (m vs n): with m = Options.Parallel, the
//     parallel tile dimensions to keep (1 for the CPU, 2 for a GPU), and n
//     the leading coincident members of S's band, S is not fused when
//     m > n; it is then tiled as its own live-out.
//   - Shared intermediates (Algorithm 3): S needed by several groups is
//     fused into all of them only when their extension images are
//     disjoint (no instance computed twice); otherwise it is tiled itself.
//   - The recomputation bound (a cost rule the paper leaves out): the
//     instances S's extensions run over all tiles, estimated at the
//     parameter values Options.Estimate gives (2048 otherwise) from each
//     tile's box clipped to the domain, against S's own instances; above
//     Options.MaxRecompute (DefaultMaxRecompute, 1.5) S is tiled itself.
//     Stencil borders stay below it; a coarse pyramid level read by the
//     tiles of a fine one, or a luminance image read by each channel's
//     tiles, does not.
//   - Taller tiles for library calls: with the default sizes, a fused S
//     that calls the C library (sinf, expf: tens of cycles an instance)
//     and would recompute more than 2% of its instances doubles the tile
//     rows, up to 64, and the decisions are made again (Result.Taller).
//     A group of at least 32 operations a point whose buffers overflow
//     L1 (48 KiB) narrows to 512 or 256 columns where they fit it
//     (Result.Narrower): harris at 256.
//   - S is not moved past another space that writes what S reads or
//     touches what S writes (other than a consumer fused along).
//   - Recomputation must give the same values: S is not fused when its
//     instances read values S itself computes (dataflow within S), nor
//     when it reads elements it writes, whoever computed them (an update,
//     A[i] += ...: an overlapping tile would apply it again).
//
// The tree surgery: under a tiled space's tile band, an extension node
// with the union of its fused spaces' E_S, then a sequence of their
// filters (each with its original subtree, in program order) and last the
// tiled space's filter with its point band. A fused space's original
// subtree is hidden under a "skipped" mark; its instances that no
// extension needs are never executed (dead-instance elimination).
//
// Every Space records its decision (fused into which groups with which
// extension, or tiled and why) for `tilefuse explain`.
//
// Intermediates produced and consumed within one tile become tile-local
// buffers ("promote[A]" marks, Result.Buffers).
//
// # Call schedules
//
// Scheduled builds the tree of a Halide-style call schedule written with
// a Go DSL pipeline (scop.CallSchedule: compute and store levels, split,
// tile, reorder, parallel, vectorize, unroll, fold_storage) with the
// same machinery: compute_at(g, v) is an extension under g's band at v's
// member, mapping the loop prefix to the instances of the producer that
// the executions below need (E_S again, followed through the functions
// computed inside the loop), the original hidden under "skipped";
// store_at above the computation over serial loops subtracts what
// earlier iterations computed (the sliding window: E minus E composed
// with the lexicographically earlier prefixes); a store level inside a
// loop is a tile-local buffer holding the box each iteration writes
// (extents may grow with the parameters: a row of C columns).
//
// Storage folds (Buffer.Fold) where the elements one iteration touches
// in a dimension lie within a window of at most F consecutive elements
// whose lowest element never decreases over the iterations between the
// store and the compute level; both are checked exactly (the window's
// deltas, the lexmin of each iteration's window against every later
// one's). Then an element written at iteration q and read at q' >= q is
// never overwritten in between: anything written between lies in a
// window that also holds it, and distinct elements of a window of F
// consecutive ones differ mod F. A sliding window folds by itself, to
// the next power of two above its span (a mask, as Halide folds).
//
// Splits keep the variable's value for the inner loop and divide it for
// the outer (floor(x/8), then x), so blocks need no guard at a partial
// end, and nested splits compose (floor(x/32) over floor(x/8) over x).
// Parallel and vector loops are checked: the function must not read its
// own values, nothing may be computed inside a vector loop, and what is
// computed inside a parallel loop must be stored inside it. The tree is
// then checked like post's (scheduler.CheckFlow).
package fusion
