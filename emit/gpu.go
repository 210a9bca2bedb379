package emit

import (
	"fmt"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// This file holds what the two GPU targets share: the mapping of the AST's
// loops to blocks and threads, read from the AST itself (the AST is what
// Emit receives; the schedule tree's decisions reach it as Mark nodes and
// For flags), and the sizes of the launches.
//
// A kernel region is a subtree the host launches as one kernel:
//
//   - a Mark "kernel": the For loops directly below it (a perfect nest,
//     through Ifs without else; up to three, the innermost on x) are
//     mapped to blocks, and below them every Mark "thread" not inside a
//     thread loop maps the For loops directly below it to threads the same
//     way. A Block or an If with else directly below either mark has each
//     child's or branch's nest mapped. The nest stops at any other node, a
//     Mark included: gpumap.Map puts a Mark "serial" below every band it maps,
//     so that a degenerate member (no loop) never lets the next band's
//     loops in. Code that a mapped loop of some grid or block dimension
//     does not enclose runs only where that index is 0. A mapped loop
//     gives its iteration of value v to index floor(v/stride) modulo the
//     blocks (threads) of its dimension, in every loop alike, so that the
//     loops of one band's sequence run each band value in one place.
//   - a Mark "thread" outside any kernel: a kernel of one block.
//   - without marks, a For with Parallel set (the AST's outermost
//     coincident loops) outside any kernel: its iterations are spread over
//     all the threads of all the blocks (one dimension, x).
//   - any other code of the host level that runs statements: a kernel of
//     one thread (the host never touches the arrays: on CUDA they live in
//     device memory for the whole call).
//
// The host level (loops, conditions, marks and blocks that contain
// kernels, and the buffers allocated there) runs on the host.

// maxDims is the number of grid and block dimensions (x, y, z).
const maxDims = gpumap.Dims

// checkSizes validates Options.ThreadSizes and BlockSizes.
func checkSizes(opts Options) error {
	err := gpumap.Sizes{Threads: opts.ThreadSizes, Blocks: opts.BlockSizes}.Check(opts.Target == CUDA)
	if err != nil {
		return fmt.Errorf("emit: %v", err)
	}
	return nil
}

// mapKind says how a loop is mapped.
type mapKind uint8

const (
	mapBlock  mapKind = iota + 1 // iterations spread over the blocks
	mapThread                    // over the threads of a block
	mapBoth                      // over all threads of all blocks
)

// loopMap is a mapped loop's kind and dimension (0 is x).
type loopMap struct {
	kind mapKind
	dim  int
}

// kernelRegion is one kernel: the node it runs and its mapped loops.
type kernelRegion struct {
	root  ast.Node
	loops map[*ast.For]loopMap
	// threads is set when some loop is mapped to threads: blocks may then
	// have several threads, which statements outside thread loops must
	// not all run and which synchronize between phases.
	threads bool
	// order lists the mapped loops in the order of the AST, so that the
	// generated code does not depend on map iteration.
	order []*ast.For
	// gridDims and threadDims are the dimensions loops are mapped to
	// (the others have size 1).
	gridDims, threadDims [maxDims]bool
}

func newRegion(root ast.Node) *kernelRegion {
	return &kernelRegion{root: root, loops: map[*ast.For]loopMap{}}
}

// markRegion is the kernel of a "kernel" or "thread" mark.
func markRegion(m *ast.Mark) *kernelRegion {
	r := newRegion(m)
	if m.Name == scheduletree.MarkKernel {
		r.mapNests(m.Body, mapBlock)
	}
	r.findThreads(m)
	return r
}

// parallelRegion is the kernel of a parallel loop outside marks.
func parallelRegion(f *ast.For) *kernelRegion {
	r := newRegion(f)
	r.add(f, loopMap{mapBoth, 0})
	return r
}

func (r *kernelRegion) add(f *ast.For, m loopMap) {
	r.loops[f] = m
	r.order = append(r.order, f)
	if m.kind != mapThread {
		r.gridDims[m.dim] = true
	}
	if m.kind != mapBlock {
		r.threads = true
		r.threadDims[m.dim] = true
	}
}

// findThreads maps the nests below the thread marks of block-level code.
func (r *kernelRegion) findThreads(n ast.Node) {
	ast.Walk(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.For:
			if m, ok := r.loops[x]; ok && m.kind != mapBlock {
				return false
			}
		case *ast.Mark:
			if x.Name == scheduletree.MarkThread {
				r.mapNests(x.Body, mapThread)
			}
		}
		return true
	})
}

// mapNests maps the nest at n, or at each child of a Block or branch of
// an If.
func (r *kernelRegion) mapNests(n ast.Node, kind mapKind) {
	switch x := n.(type) {
	case *ast.Block:
		for _, c := range x.Children {
			r.mapNests(c, kind)
		}
		return
	case *ast.If:
		if x.Else != nil {
			r.mapNests(x.Then, kind)
			r.mapNests(x.Else, kind)
			return
		}
	}
	var fors []*ast.For
loop:
	for x := n; len(fors) < maxDims; {
		switch y := x.(type) {
		case *ast.For:
			if _, done := r.loops[y]; done {
				break loop
			}
			fors = append(fors, y)
			x = y.Body
		case *ast.If:
			if y.Else != nil {
				break loop
			}
			x = y.Then
		default:
			break loop
		}
	}
	for i, f := range fors {
		r.add(f, loopMap{kind, len(fors) - 1 - i})
	}
}

// threadLoop reports whether f is mapped to threads.
func (r *kernelRegion) threadLoop(f *ast.For) bool {
	m, ok := r.loops[f]
	return ok && m.kind != mapBlock
}

// hasThreadLoop reports whether n contains a loop mapped to threads.
func (r *kernelRegion) hasThreadLoop(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if f, ok := x.(*ast.For); ok && r.threadLoop(f) {
			found = true
		}
		return !found
	})
	return found
}

// hasMapped reports whether n contains a mapped loop.
func (r *kernelRegion) hasMapped(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if f, ok := x.(*ast.For); ok && r.loops[f].kind != 0 {
			found = true
		}
		return !found
	})
	return found
}

// hasKernel reports whether n holds a mapped kernel: a kernel or thread
// mark, or a parallel loop.
func hasKernel(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Mark:
			found = found || x.Name == scheduletree.MarkKernel || x.Name == scheduletree.MarkThread
		case *ast.For:
			found = found || x.Parallel
		}
		return !found
	})
	return found
}

// hasMarks reports whether n holds a kernel or thread mark.
func hasMarks(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if m, ok := x.(*ast.Mark); ok && (m.Name == scheduletree.MarkKernel || m.Name == scheduletree.MarkThread) {
			found = true
		}
		return !found
	})
	return found
}

// hasUser reports whether n runs a statement.
func hasUser(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if _, ok := x.(*ast.User); ok {
			found = true
		}
		return !found
	})
	return found
}

// linear is an affine form over atoms (iterators, parameters, and
// non-affine subexpressions by their text) plus a constant.
type linear struct {
	c     int64
	terms map[string]int64
}

func linearize(e ast.Expr) linear {
	l := linear{terms: map[string]int64{}}
	l.addScaled(e, 1)
	return l
}

func (l *linear) addScaled(e ast.Expr, k int64) {
	switch e.Op {
	case ast.OpInt:
		l.c += k * e.Val
	case ast.OpVar:
		l.terms[e.Name] += k
	case ast.OpAdd:
		for _, a := range e.Args {
			l.addScaled(a, k)
		}
	case ast.OpMul:
		l.addScaled(e.Args[0], k*e.Val)
	default:
		l.terms["("+e.String()+")"] += k
	}
}

// constDiff returns u - l when it is a constant.
func constDiff(u, l ast.Expr) (int64, bool) {
	lu, ll := linearize(u), linearize(l)
	for k, v := range ll.terms {
		lu.terms[k] -= v
	}
	for _, v := range lu.terms {
		if v != 0 {
			return 0, false
		}
	}
	return lu.c - ll.c, true
}

// constTrip bounds the trip count of f by a constant when some upper
// bound minus some lower bound is one (a tile's point loop: from 4*c0 to
// min(n - 1, 4*c0 + 3)).
func constTrip(f *ast.For) (int64, bool) {
	los, ups := []ast.Expr{f.Lower}, []ast.Expr{f.Upper}
	if f.Lower.Op == ast.OpMax {
		los = f.Lower.Args
	}
	if f.Upper.Op == ast.OpMin {
		ups = f.Upper.Args
	}
	best, ok := int64(0), false
	for _, u := range ups {
		for _, l := range los {
			d, good := constDiff(u, l)
			if !good {
				continue
			}
			trip := int64(0)
			if d >= 0 {
				trip = d/f.Stride + 1
			}
			if !ok || trip < best {
				best, ok = trip, true
			}
		}
	}
	return best, ok
}

// constUpper bounds e from above by a constant, with variables unbounded.
func constUpper(e ast.Expr) (int64, bool) {
	lo, hi, okLo, okHi := constRange(e)
	_, _ = lo, okLo
	return hi, okHi
}

// constRange bounds e by constants where it can.
func constRange(e ast.Expr) (lo, hi int64, okLo, okHi bool) {
	switch e.Op {
	case ast.OpInt:
		return e.Val, e.Val, true, true
	case ast.OpAdd:
		okLo, okHi = true, true
		for _, a := range e.Args {
			l, h, ol, oh := constRange(a)
			lo, hi = lo+l, hi+h
			okLo, okHi = okLo && ol, okHi && oh
		}
		return
	case ast.OpMul:
		l, h, ol, oh := constRange(e.Args[0])
		if e.Val >= 0 {
			return e.Val * l, e.Val * h, ol, oh
		}
		return e.Val * h, e.Val * l, oh, ol
	case ast.OpFloorDiv, ast.OpCeilDiv, ast.OpDiv:
		l, h, ol, oh := constRange(e.Args[0])
		lo, hi = floorDiv(l, e.Val), floorDiv(h, e.Val)
		if e.Op == ast.OpCeilDiv {
			lo, hi = floorDiv(l+e.Val-1, e.Val), floorDiv(h+e.Val-1, e.Val)
		}
		return lo, hi, ol, oh
	case ast.OpMod:
		return 0, e.Val - 1, true, true
	case ast.OpMin, ast.OpMax:
		// min: below when all are, above when one is; max the reverse.
		all, any := true, false
		var allV, anyV int64
		for i, a := range e.Args {
			l, h, ol, oh := constRange(a)
			x, ok := l, ol // the side all args must bound
			y, oy := h, oh // the side one arg suffices for
			if e.Op == ast.OpMax {
				x, ok, y, oy = h, oh, l, ol
			}
			all = all && ok
			if ok && (i == 0 || (e.Op == ast.OpMin) == (x < allV)) {
				allV = x
			}
			if oy && (!any || (e.Op == ast.OpMin) == (y < anyV)) {
				anyV, any = y, true
			}
		}
		if e.Op == ast.OpMin {
			return allV, anyV, all, any
		}
		return anyV, allV, any, all
	case ast.OpEq, ast.OpLe, ast.OpLt, ast.OpGe, ast.OpGt, ast.OpAnd, ast.OpOr:
		return 0, 1, true, true
	}
	return 0, 0, false, false
}

func floorDiv(a, d int64) int64 {
	q := a / d
	if a%d != 0 && (a < 0) != (d < 0) {
		q--
	}
	return q
}
