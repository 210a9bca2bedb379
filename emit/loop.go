package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// forLoop generates a loop: outlined into a parallel region when it is
// parallel and Options.Parallel asks for it, else in place. A vector
// loop's accesses form an access group its metadata declares parallel,
// with vectorization enabled.
func (fs *fnState) forLoop(ev *env, n *ast.For) {
	if n.Stride <= 0 {
		fail("loop over %s with stride %d", n.Iter, n.Stride)
	}
	if n.Parallel && fs.e.opts.Parallel {
		fs.parallelFor(ev, n)
		return
	}
	if fs.teamable(ev, n) {
		fs.teamLoop(ev, n)
		return
	}
	lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
	var group *metadata.Tuple
	if n.Vector {
		group = fs.e.def(true)
	}
	hint := fs.e.hint(n)
	if hint != hintCold {
		if k := fs.stripLength(n); k > 1 {
			fs.stripLoop(ev, n, lo, hi, k, group, hint)
			return
		}
		if n.Stride > 1 && fs.strideDivides(n) {
			fs.stridedLoop(ev, n, lo, hi, group, hint)
			return
		}
	}
	if u, ok := fs.accumulates(ev, n); ok {
		fs.accumulatedLoop(ev, n, u, lo, hi, group, hint)
		return
	}
	fs.loop(ev, n.Iter, lo, hi, n.Stride, group, hint, func(inner *env) { fs.node(inner, n.Body) })
}

// loopHint is what a loop's metadata asks of LLVM's loop optimizers.
type loopHint int

const (
	hintNone loopHint = iota
	// hintVector: vectorize (a loop marked Vector).
	hintVector
	// hintCold: neither vectorize nor unroll (a loop of cold statements).
	hintCold
)

// hint is the metadata hint of loop n: vector for a Vector loop, cold
// when every statement it runs is one Options.Cold names.
func (e *emitter) hint(n *ast.For) loopHint {
	switch {
	case n.Vector:
		return hintVector
	case len(e.opts.Cold) > 0 && onlyCold(n.Body, e.opts.Cold):
		return hintCold
	}
	return hintNone
}

// onlyCold reports whether every statement n runs is in cold (and n runs
// at least one) and n tests no condition: a loop that tests one at each
// iteration (an image's border scanned row by row) costs its iterations,
// not its statements' instances, and stays vectorized.
func onlyCold(n ast.Node, cold map[string]bool) bool {
	some, all := false, true
	ast.Walk(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.User:
			some = true
			all = all && cold[m.Stmt]
		case *ast.If:
			all = false
		}
		return all
	})
	return some && all
}

// loop generates "for (iter = lo; iter <= hi; iter += stride) body" in
// rotated form: a guard, then the body with the test at its end, which
// is the shape LLVM's loop passes expect. A non-nil group puts the
// body's accesses in that access group and declares it parallel.
func (fs *fnState) loop(ev *env, iter string, lo, hi value.Value, stride int64, group *metadata.Tuple, hint loopHint, body func(*env)) {
	pre := fs.cur
	head, exit := fs.newBlock(iter+".body"), fs.newBlock(iter+".exit")
	pre.NewCondBr(pre.NewICmp(enum.IPredSLE, lo, hi), head, exit)
	fs.start(head)
	iv := head.NewPhi(ir.NewIncoming(lo, pre))
	iv.SetName(fs.uniq(iter))
	inner := ev.clone()
	inner.iters[iter] = iv
	if group != nil {
		fs.pushGroup(group)
	}
	body(inner)
	if group != nil {
		fs.popGroup()
	}
	latch := fs.cur
	next := nsw(latch.NewAdd(iv, i64(stride)))
	br := latch.NewCondBr(latch.NewICmp(enum.IPredSLE, next, hi), head, exit)
	iv.Incs = append(iv.Incs, ir.NewIncoming(next, latch))
	if group != nil || hint != hintNone {
		br.Metadata = append(br.Metadata, &metadata.Attachment{Name: "llvm.loop", Node: fs.loopID(group, hint)})
	}
	fs.start(exit)
}

// loopID is the self-referential loop metadata: parallel accesses of the
// group (no loop-carried dependence among them); vectorization enabled
// for hintVector; for hintCold, vector width and interleaving 1 and no
// unrolling, which spares opt and llc most of their work on the loop.
func (fs *fnState) loopID(group *metadata.Tuple, hint loopHint) *metadata.Tuple {
	e := fs.e
	id := e.def(true)
	id.Fields = []metadata.Field{id}
	if group != nil {
		id.Fields = append(id.Fields, e.def(false, &metadata.String{Value: "llvm.loop.parallel_accesses"}, group))
	}
	switch hint {
	case hintVector:
		id.Fields = append(id.Fields, e.def(false, &metadata.String{Value: "llvm.loop.vectorize.enable"}, constant.True))
	case hintCold:
		one := constant.NewInt(types.I32, 1)
		id.Fields = append(id.Fields,
			e.def(false, &metadata.String{Value: "llvm.loop.vectorize.width"}, one),
			e.def(false, &metadata.String{Value: "llvm.loop.interleave.count"}, one),
			e.def(false, &metadata.String{Value: "llvm.loop.unroll.disable"}))
	}
	return id
}
