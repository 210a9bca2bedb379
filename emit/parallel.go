package emit

import (
	"fmt"
	"sort"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"tilefuse/ast"
	"tilefuse/scop"
)

// This file outlines parallel loops as GCC does for "#pragma omp
// parallel for": the loop becomes a function of one pointer, to a
// context holding the loop's bounds and every value its body uses from
// outside, and GOMP_parallel runs it on a team of threads. Each thread
// takes one contiguous block of iterations (static schedule) or asks for
// iterations one at a time (dynamic schedule). Shared data stays shared:
// the context holds pointers to arrays and scalars, not copies.

// capture lists what the body of a parallel loop uses from ev.
type capture struct {
	params []string
	iters  []string
	arrays []*binding
}

// ctxLoader returns a function that loads the fields of the context
// struct st behind ctxParam one after the other, naming each.
func (fs *fnState) ctxLoader(st *types.StructType, ctxParam value.Value) func(name string) value.Value {
	ctx := fs.cur.NewBitCast(ctxParam, types.NewPointer(st))
	k := 0
	return func(name string) value.Value {
		ld := fs.cur.NewLoad(st.Fields[k], fs.field(st, ctx, k))
		ld.SetName(fs.uniq(name))
		k++
		return ld
	}
}

// load rebuilds the captured values inside an outlined function, in the
// order the context struct stores them: parameters, iterators, then each
// array's pointer and extents.
func (c capture) load(load func(name string) value.Value) *env {
	ev := &env{iters: map[string]value.Value{}, params: map[string]value.Value{}, arrays: map[string]*binding{}}
	for _, name := range c.params {
		ev.params[name] = load(name)
	}
	for _, name := range c.iters {
		ev.iters[name] = load(name)
	}
	for _, b := range c.arrays {
		nb := &binding{name: b.name, elem: b.elem, ptr: load(b.name)}
		for range b.dims {
			nb.dims = append(nb.dims, load(b.name+".dim"))
		}
		ev.arrays[b.name] = nb
	}
	return ev
}

func (fs *fnState) captures(ev *env, n *ast.For) capture {
	var c capture
	// Every parameter: statements read them, and there are few.
	for name := range ev.params {
		c.params = append(c.params, name)
	}
	sort.Strings(c.params)
	seenIter := map[string]bool{n.Iter: true}
	seenArray := map[string]bool{}
	useExpr := func(e ast.Expr) {
		for _, name := range e.Vars() {
			if !seenIter[name] && ev.iters[name] != nil {
				seenIter[name] = true
				c.iters = append(c.iters, name)
			}
		}
	}
	useArray := func(name string) {
		if b := ev.arrays[name]; b != nil && !seenArray[name] {
			seenArray[name] = true
			c.arrays = append(c.arrays, b)
		}
	}
	ast.Walk(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.For:
			useExpr(x.Lower)
			useExpr(x.Upper)
		case *ast.If:
			useExpr(x.Cond)
		case *ast.Alloc:
			for _, s := range x.Shape {
				useExpr(s)
			}
		case *ast.Free:
			useArray(x.Array)
		case *ast.User:
			for _, a := range x.Args {
				useExpr(a)
			}
			if s := fs.e.p.Stmt(x.Stmt); s != nil {
				useArray(s.Write.Array)
				for _, r := range scop.Reads(s.Value) {
					useArray(r.Array)
				}
				for _, i := range s.Write.Index {
					for _, r := range scop.Reads(i) {
						useArray(r.Array)
					}
				}
			}
		}
		return true
	})
	return c
}

// parallelFor stores the context, then runs the outlined loop on the
// team unless the loop is empty.
func (fs *fnState) parallelFor(ev *env, n *ast.For) {
	e := fs.e
	lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
	capt := fs.captures(ev, n)
	vals := []value.Value{lo, hi}
	for _, name := range capt.params {
		vals = append(vals, ev.params[name])
	}
	for _, name := range capt.iters {
		vals = append(vals, ev.iters[name])
	}
	for _, b := range capt.arrays {
		vals = append(vals, b.ptr)
		vals = append(vals, b.dims...)
	}
	fields := make([]types.Type, len(vals))
	for i, v := range vals {
		fields[i] = v.Type()
	}
	st := types.NewStruct(fields...)
	ctx := fs.alloca(st, "omp.ctx")
	for i, v := range vals {
		fs.cur.NewStore(v, fs.field(st, ctx, i))
	}
	fn := fs.outline(n, capt, st)
	run, done := fs.newBlock("omp.run"), fs.newBlock("omp.done")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredSLE, lo, hi), run, done)
	fs.start(run)
	gomp := e.declare("GOMP_parallel", types.Void, types.NewPointer(types.NewFunc(types.Void, types.I8Ptr)), types.I8Ptr, types.I32, types.I32)
	fs.cur.NewCall(gomp, fn, fs.cur.NewBitCast(ctx, types.I8Ptr), constant.NewInt(types.I32, 0), constant.NewInt(types.I32, 0))
	fs.cur.NewBr(done)
	fs.start(done)
}

// field is the address of field i of the context.
func (fs *fnState) field(st *types.StructType, ctx value.Value, i int) value.Value {
	gep := fs.cur.NewGetElementPtr(st, ctx, constant.NewInt(types.I32, 0), constant.NewInt(types.I32, int64(i)))
	gep.InBounds = true
	return gep
}

// outline makes the function a thread runs: it loads the context in the
// order parallelFor stored it and runs its share of the iterations.
func (fs *fnState) outline(n *ast.For, capt capture, st *types.StructType) *ir.Func {
	e := fs.e
	ctxParam := ir.NewParam("ctx", types.I8Ptr)
	f := e.newFunc(fmt.Sprintf("%s.omp_fn.%d", e.fn, e.nOut), true, ctxParam)
	e.nOut++
	g := newFnState(e, f)
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
	g.cur.NewRet(nil)
	g.finish()
	return f
}

// staticShare runs this thread's block of the trip count: the first
// trip % threads threads take one iteration more, as libgomp's static
// schedule without chunks does.
func (fs *fnState) staticShare(ev *env, n *ast.For, lo, hi value.Value, group *metadata.Tuple, body func(*env)) {
	e := fs.e
	b := fs.cur
	s := i64(n.Stride)
	nth := b.NewSExt(b.NewCall(e.declare("omp_get_num_threads", types.I32)), types.I64)
	tid := b.NewSExt(b.NewCall(e.declare("omp_get_thread_num", types.I32)), types.I64)
	span := subNSW(b, hi, lo)
	if n.Stride != 1 {
		span = b.NewSDiv(span, s)
	}
	trip := addNSW(b, span, i64(1))
	q, r := b.NewSDiv(trip, nth), b.NewSRem(trip, nth)
	extra := b.NewICmp(enum.IPredSLT, tid, r)
	count := addNSW(b, q, b.NewZExt(extra, types.I64))
	first := addNSW(b, mulNSW(b, tid, q), b.NewSelect(extra, tid, r))
	begin := addNSW(b, lo, mulNSW(b, first, s))
	last := addNSW(b, begin, mulNSW(b, subNSW(b, count, i64(1)), s))
	fs.loop(ev, n.Iter, begin, last, n.Stride, group, n.Vector, body)
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
	fs.loop(ev, n.Iter, begin, last, n.Stride, group, n.Vector, body)
	more := fs.cur.NewCall(nextFn, istart, iend)
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredNE, more, constant.NewInt(types.I8, 0)), chunk, done)
	fs.start(done)
	fs.cur.NewCall(endFn)
}
