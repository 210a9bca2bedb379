package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/value"

	"tilefuse/ast"
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
	lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
	var group *metadata.Tuple
	if n.Vector {
		group = fs.e.def(true)
	}
	fs.loop(ev, n.Iter, lo, hi, n.Stride, group, n.Vector, func(inner *env) { fs.node(inner, n.Body) })
}

// loop generates "for (iter = lo; iter <= hi; iter += stride) body" in
// rotated form: a guard, then the body with the test at its end, which
// is the shape LLVM's loop passes expect. A non-nil group puts the
// body's accesses in that access group and declares it parallel.
func (fs *fnState) loop(ev *env, iter string, lo, hi value.Value, stride int64, group *metadata.Tuple, vectorize bool, body func(*env)) {
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
	if group != nil || vectorize {
		br.Metadata = append(br.Metadata, &metadata.Attachment{Name: "llvm.loop", Node: fs.loopID(group, vectorize)})
	}
	fs.start(exit)
}

// loopID is the self-referential loop metadata: parallel accesses of the
// group (no loop-carried dependence among them), vectorization enabled.
func (fs *fnState) loopID(group *metadata.Tuple, vectorize bool) *metadata.Tuple {
	id := fs.e.def(true)
	id.Fields = []metadata.Field{id}
	if group != nil {
		id.Fields = append(id.Fields, fs.e.def(false, &metadata.String{Value: "llvm.loop.parallel_accesses"}, group))
	}
	if vectorize {
		id.Fields = append(id.Fields, fs.e.def(false, &metadata.String{Value: "llvm.loop.vectorize.enable"}, constant.True))
	}
	return id
}
