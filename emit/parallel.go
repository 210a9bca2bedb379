package emit

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file outlines parallel loops as GCC does for "#pragma omp
// parallel for": the loop becomes a function of one pointer, to a
// context holding the loop's bounds and every value its body uses from
// outside, and GOMP_parallel runs it on a team of threads. Each thread
// takes one contiguous block of iterations (static schedule) or asks for
// iterations one at a time (dynamic schedule). Shared data stays shared:
// the context holds pointers to arrays and scalars, not copies.

// parallelFor stores the context, then runs the outlined loop on the
// team unless the loop is empty.
func (fs *fnState) parallelFor(ev *env, n *ast.For) {
	e := fs.e
	lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
	capt := fs.captures(ev, n)
	st := types.NewStruct(append([]types.Type{types.I64, types.I64}, capt.fields()...)...)
	ctx := fs.pack(st, "omp.ctx", append([]value.Value{lo, hi}, capt.values()...))
	fn := fs.outline(n, capt, st)
	run, done := fs.newBlock("omp.run"), fs.newBlock("omp.done")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredSLE, lo, hi), run, done)
	fs.start(run)
	gomp := e.declare("GOMP_parallel", types.Void, types.NewPointer(types.NewFunc(types.Void, types.I8Ptr)), types.I8Ptr, types.I32, types.I32)
	fs.cur.NewCall(gomp, fn, fs.cur.NewBitCast(ctx, types.I8Ptr), constant.NewInt(types.I32, 0), constant.NewInt(types.I32, 0))
	fs.cur.NewBr(done)
	fs.start(done)
}

// outline makes the function a thread runs: it loads the context in the
// order parallelFor stored it and runs its share of the iterations.
func (fs *fnState) outline(n *ast.For, capt capture, st *types.StructType) *ir.Func {
	e := fs.e
	ctxParam := ir.NewParam("ctx", types.I8Ptr)
	f := e.newFunc(fmt.Sprintf("%s.omp_fn.%d", e.fn, e.nOut), true, ctxParam)
	e.nOut++
	g := newFnState(e, f)
	g.parallel = true
	g.nests = e.wantsNestOutlining(n.Body)
	load := g.ctxLoader(st, ctxParam)
	lo, hi := load("lo"), load("hi")
	ev := capt.load(load)
	group := e.def(true)
	body := func(inner *env) { g.node(inner, n.Body) }
	if e.opts.Dynamic {
		g.dynamicShare(ev, n, lo, hi, group, body)
	} else {
		g.staticShare(ev, n, lo, hi, group, body)
	}
	g.freeOnce()
	g.cur.NewRet(nil)
	g.finish()
	return f
}

// staticShare runs this thread's block of the trip count: the first
// trip % threads threads take one iteration more, as libgomp's static
// schedule without chunks does. The trip count is 0 for an empty range
// (hi < lo), whatever the stride.
func (fs *fnState) staticShare(ev *env, n *ast.For, lo, hi value.Value, group *metadata.Tuple, body func(*env)) {
	e := fs.e
	b := fs.cur
	s := i64(n.Stride)
	nth := b.NewSExt(b.NewCall(e.declare("omp_get_num_threads", types.I32)), types.I64)
	tid := b.NewSExt(b.NewCall(e.declare("omp_get_thread_num", types.I32)), types.I64)
	span := subNSW(b, hi, lo)
	trip := span
	if n.Stride != 1 {
		trip = b.NewSDiv(span, s)
	}
	// No iteration when hi < lo: sdiv truncates towards zero, so
	// (hi - lo) / s + 1 would be 1 for hi - lo in (-s, 0).
	trip = b.NewSelect(b.NewICmp(enum.IPredSLT, span, i64(0)), i64(0), addNSW(b, trip, i64(1)))
	q, r := b.NewSDiv(trip, nth), b.NewSRem(trip, nth)
	extra := b.NewICmp(enum.IPredSLT, tid, r)
	count := addNSW(b, q, b.NewZExt(extra, types.I64))
	first := addNSW(b, mulNSW(b, tid, q), b.NewSelect(extra, tid, r))
	begin := addNSW(b, lo, mulNSW(b, first, s))
	last := addNSW(b, begin, mulNSW(b, subNSW(b, count, i64(1)), s))
	fs.loop(ev, n.Iter, begin, last, n.Stride, group, fs.e.hint(n), body)
}

// dynamicShare asks libgomp for one iteration at a time until none is
// left; the chunks are [istart, iend) in the loop's own values.
func (fs *fnState) dynamicShare(ev *env, n *ast.For, lo, hi value.Value, group *metadata.Tuple, body func(*env)) {
	e := fs.e
	i64p := types.NewPointer(types.I64)
	istart, iend := fs.alloca(types.I64, "omp.istart"), fs.alloca(types.I64, "omp.iend")
	// libgomp's bool results are read as bytes (the ABI clears the rest).
	startFn := e.declare("GOMP_loop_dynamic_start", types.I8, types.I64, types.I64, types.I64, types.I64, i64p, i64p)
	nextFn := e.declare("GOMP_loop_dynamic_next", types.I8, i64p, i64p)
	endFn := e.declare("GOMP_loop_end_nowait", types.Void)
	ok := fs.cur.NewCall(startFn, lo, addNSW(fs.cur, hi, i64(1)), i64(n.Stride), i64(1), istart, iend)
	chunk, done := fs.newBlock("omp.chunk"), fs.newBlock("omp.end")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredNE, ok, constant.NewInt(types.I8, 0)), chunk, done)
	fs.start(chunk)
	begin := fs.cur.NewLoad(types.I64, istart)
	end := fs.cur.NewLoad(types.I64, iend)
	last := subNSW(fs.cur, end, i64(1))
	fs.loop(ev, n.Iter, begin, last, n.Stride, group, fs.e.hint(n), body)
	more := fs.cur.NewCall(nextFn, istart, iend)
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredNE, more, constant.NewInt(types.I8, 0)), chunk, done)
	fs.start(done)
	fs.cur.NewCall(endFn)
}
