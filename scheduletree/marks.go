package scheduletree

import "strings"

// The mark names that carry meaning across packages. A mark is a plain
// name on the tree; these are the ones the scheduler, the legality
// checker, the GPU mapping, AST generation and emission agree on.
const (
	// MarkSkipped hides its subtree: nothing is generated below it (the
	// original of a producer fused elsewhere by post-tiling fusion). The
	// legality checker counts the instances below as executed where
	// extensions execute them.
	MarkSkipped = "skipped"
	// MarkParallel makes the outermost coincident loops below it parallel.
	MarkParallel = "parallel"
	// MarkVector (or its alias MarkSIMD) asks for the innermost loops
	// below it to be vectorized.
	MarkVector = "vector"
	MarkSIMD   = "simd"
	// MarkKernel maps the loops directly below it to GPU blocks.
	MarkKernel = "kernel"
	// MarkThread maps the loops directly below it to GPU threads.
	MarkThread = "thread"
	// MarkSerial ends the loops a kernel or thread mark maps; the loops
	// below it run serially (in every block, or in every thread).
	MarkSerial = "serial"
)

// PromoteMark is the mark "promote[A]": array A is a tile-local buffer
// allocated around the mark's subtree.
func PromoteMark(array string) string { return "promote[" + array + "]" }

// PromotedArray returns A for a mark "promote[A]".
func PromotedArray(mark string) (string, bool) {
	a, ok := strings.CutPrefix(mark, "promote[")
	if !ok || !strings.HasSuffix(a, "]") || len(a) < 2 {
		return "", false
	}
	return a[:len(a)-1], true
}
