package ast

import "fmt"

// DefaultMaxNodes is the node limit when Options.MaxNodes is zero: far
// above the code of any PolyBench kernel or PolyMage pipeline under any
// strategy, tiling and unrolling (thousands of nodes), and low enough that
// a tree whose code would not fit in memory (unrolling nested members,
// isolating or separating many pieces) stops within seconds and some
// hundreds of megabytes.
const DefaultMaxNodes = 50_000

// LimitError is Generate's error when the code would exceed
// Options.MaxNodes.
type LimitError struct {
	// Limit is the limit that was reached.
	Limit int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("ast: the generated code needs more than %d nodes (loop bodies, unrolled copies and statements; the AST size limit, Options.MaxNodes)", e.Limit)
}

// tooLarge is the panic that unwinds Generate at the limit.
type tooLarge struct{}

// maxNodes is the limit in force (negative: none).
func (o Options) maxNodes() int {
	switch {
	case o.MaxNodes < 0:
		return int(^uint(0) >> 1)
	case o.MaxNodes == 0:
		return DefaultMaxNodes
	}
	return o.MaxNodes
}

// grow counts a node about to be generated (a loop body, an unrolled copy,
// a statement) and stops the generation past the limit.
func (g *gen) grow() {
	if g.nodes.Add(1) > int64(g.opts.maxNodes()) {
		panic(tooLarge{})
	}
}
