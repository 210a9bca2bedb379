package emit

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"

	"github.com/tilefuse/tilefuse/ast"
)

// This file runs a sequential loop around parallel loops in one parallel
// region (a team), as "#pragma omp parallel" around the loop with "#pragma
// omp for" inside would: every thread walks the sequential loops and
// guards itself (their bounds and conditions are the same for all), takes
// its static block of each parallel loop, and waits at a barrier after
// it; the code between the parallel loops runs on thread 0, then a
// barrier. A time loop of a thousand steps then costs a thousand barriers
// instead of a thousand fork/joins of GOMP_parallel (jacobi-1d, adi,
// durbin), and the team's threads keep their caches.

// teamable reports whether the sequential loop n runs in a team: on the
// CPU with parallel loops and the static schedule, outside any parallel
// region, around at least one parallel loop, and with no tile-local
// buffer allocated outside its parallel loops (the team would share it).
func (fs *fnState) teamable(ev *env, n *ast.For) bool {
	o := fs.e.opts
	if o.Target != CPU || !o.Parallel || o.Dynamic || fs.parallel || ev.strip != nil || n.Parallel {
		return false
	}
	return fs.e.hasParallel(n.Body) && !allocOutsideParallel(n.Body)
}

// hasParallel reports whether n contains a loop forLoop outlines into a
// parallel region.
func (e *emitter) hasParallel(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if f, ok := x.(*ast.For); ok && f.Parallel && e.opts.Parallel {
			found = true
		}
		return !found
	})
	return found
}

// allocOutsideParallel reports whether n allocates or frees a buffer
// outside its parallel loops.
func allocOutsideParallel(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.For:
			return !x.Parallel && !found
		case *ast.Alloc, *ast.Free:
			found = true
		}
		return !found
	})
	return found
}

// teamLoop runs the sequential loop n on a team of threads: its outlined
// function, given what n uses from ev, is the team's code.
func (fs *fnState) teamLoop(ev *env, n *ast.For) {
	e := fs.e
	capt := fs.capturesOf(ev, n, "")
	st := types.NewStruct(capt.fields()...)
	ctx := fs.pack(st, "omp.ctx", capt.values())
	ctxParam := ir.NewParam("ctx", types.I8Ptr)
	f := e.newFunc(fmt.Sprintf("%s.omp_team.%d", e.fn, e.nOut), true, ctxParam)
	e.nOut++
	g := newFnState(e, f)
	g.parallel = true
	g.nests = e.wantsNestOutlining(n)
	g.teamNode(capt.load(g.ctxLoader(st, ctxParam)), n)
	g.freeOnce()
	g.cur.NewRet(nil)
	g.finish()

	gomp := e.declare("GOMP_parallel", types.Void, types.NewPointer(types.NewFunc(types.Void, types.I8Ptr)), types.I8Ptr, types.I32, types.I32)
	fs.cur.NewCall(gomp, f, fs.cur.NewBitCast(ctx, types.I8Ptr), constant.NewInt(types.I32, 0), constant.NewInt(types.I32, 0))
}

// teamNode emits n as every thread of a team runs it.
func (fs *fnState) teamNode(ev *env, n ast.Node) {
	if !fs.e.hasParallel(n) {
		fs.single(ev, []ast.Node{n})
		return
	}
	switch n := n.(type) {
	case *ast.Block:
		var run []ast.Node
		flush := func() {
			if len(run) > 0 {
				fs.single(ev, run)
				run = nil
			}
		}
		for _, c := range n.Children {
			if fs.e.hasParallel(c) {
				flush()
				fs.teamNode(ev, c)
			} else {
				run = append(run, c)
			}
		}
		flush()
	case *ast.For:
		if n.Stride <= 0 {
			fail("loop over %s with stride %d", n.Iter, n.Stride)
		}
		lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
		if n.Parallel {
			body := func(inner *env) { fs.node(inner, n.Body) }
			fs.staticShare(ev, n, lo, hi, fs.e.def(true), body)
			fs.barrier()
			return
		}
		fs.loop(ev, n.Iter, lo, hi, n.Stride, nil, hintNone, func(inner *env) { fs.teamNode(inner, n.Body) })
	case *ast.If:
		fs.branch(ev, n, fs.teamNode)
	case *ast.Mark:
		fs.teamNode(ev.clone(), n.Body)
	default:
		fail("AST node %T around a parallel loop", n)
	}
}

// single runs nodes on thread 0 of the team, then waits for it at a
// barrier: what they write is then seen by every thread.
func (fs *fnState) single(ev *env, nodes []ast.Node) {
	tid := fs.cur.NewCall(fs.e.declare("omp_get_thread_num", types.I32))
	run, done := fs.newBlock("omp.single"), fs.newBlock("omp.single.end")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredEQ, tid, constant.NewInt(types.I32, 0)), run, done)
	fs.start(run)
	fs.node(ev.clone(), &ast.Block{Children: nodes})
	fs.cur.NewBr(done)
	fs.start(done)
	fs.barrier()
}

// barrier waits until every thread of the team has arrived.
func (fs *fnState) barrier() {
	fs.cur.NewCall(fs.e.declare("GOMP_barrier", types.Void))
}
