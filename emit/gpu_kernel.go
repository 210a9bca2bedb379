package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file generates a kernel's body, the same for CUDA and for the
// emulation; the targets differ in where the special registers come from,
// in the barrier and in shared memory (gpuDevice).
//
// Code outside the thread loops (block level) runs in every thread of a
// block with the same values: its loop bounds and conditions use only
// parameters, the host's iterators, and block-level iterators, so every
// thread takes the same path and may meet at a barrier. There:
//
//   - a loop mapped to blocks runs lower + blockIdx*stride, stepping by
//     gridDim*stride; one mapped to threads lower + threadIdx*stride,
//     stepping by blockDim*stride; one mapped to both uses the global
//     thread index blockIdx*blockDim + threadIdx and steps by
//     gridDim*blockDim*stride. Any grid and block size is correct.
//   - a subtree without thread loops (a statement, a serial loop nest) is
//     run by thread 0 alone when blocks have several threads, and a loop
//     nest mapped to threads by the threads whose index is 0 in the
//     dimensions its loops do not use; either runs only in the blocks
//     whose index is 0 in the grid dimensions no loop around it spreads
//     (a statement before the loops over blocks, a nest whose band had a
//     degenerate member): each instance runs once;
//   - a buffer allocated at block level is shared by the block (shared
//     memory, a per-block buffer in the emulation);
//   - these phases (thread loops and thread-0 subtrees) are separated by
//     barriers: one before a phase when another ran since the last
//     barrier, and one at the end of each iteration of a serial
//     block-level loop that holds a phase, or of a loop over blocks that
//     allocates a shared buffer. This is conservative: threads of a block
//     may communicate through global memory as well as through shared
//     buffers (a sequence of a producer and a consumer loop mapped to
//     threads), and a block-level loop's next iteration may overwrite
//     what threads still read. (Iterations of a loop over blocks are
//     independent, but reuse the block's shared memory.)
//
// Code inside a thread loop runs per thread as on the CPU (loops serial,
// buffers private).

// gpuDevice is what a GPU target provides.
type gpuDevice interface {
	// kernel starts the kernel function of r, taking capt: it sets k.fs,
	// k.ev and the special registers.
	kernel(k *kgen, capt capture)
	// barrier synchronizes the threads of a block.
	barrier(k *kgen)
	// shared returns an i8* to count elements of type t shared by the
	// threads of a block, allocated for the whole kernel.
	shared(k *kgen, name string, t types.Type, size, count int64) value.Value
	// launch runs the generated kernel k from the host.
	launch(g *gpuGen, fs *fnState, ev *env, k *kgen, capt capture, grid, block [maxDims]value.Value)
	// hostAlloc and hostFree make and release a buffer the host allocates
	// (an Alloc outside kernels), visible to the kernels.
	hostAlloc(g *gpuGen, fs *fnState, ev *env, n *ast.Alloc)
	hostFree(g *gpuGen, fs *fnState, ev *env, n *ast.Free)
}

// kgen generates one kernel.
type kgen struct {
	g    *gpuGen
	r    *kernelRegion
	name string
	fs   *fnState
	ev   *env
	fn   *ir.Func
	// The special registers as i64: thread index, block size, block
	// index, grid size.
	tid, ntid, ctaid, nctaid [maxDims]value.Value
	// pending: a phase ran since the last barrier.
	pending bool
	// covered: the grid dimensions the enclosing loops spread.
	covered [maxDims]bool
	// sharedBytes is the size of the emulation's per-block area; ctx
	// its context type (emulation).
	sharedBytes int64
	sharedBase  value.Value
	ctx         *types.StructType
	nShared     int
	// barriers counts the barriers (CUDA), arrayParams are the kernel's
	// array arguments (CUDA).
	barriers    int
	arrayParams []*ir.Param
}

// body generates the region's code and closes the function.
func (k *kgen) body() {
	k.block(k.ev, k.r.root)
	k.fs.cur.NewRet(nil)
	k.fs.finish()
}

// sync puts a barrier when a phase ran since the last one.
func (k *kgen) sync() {
	if k.pending {
		k.g.dev.barrier(k)
		k.pending = false
	}
}

// block generates block-level code.
func (k *kgen) block(ev *env, n ast.Node) {
	fs := k.fs
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, c := range n.Children {
			k.block(ev, c)
		}
	case *ast.Mark:
		k.block(ev.clone(), n.Body)
	case *ast.Alloc:
		k.alloc(ev, n)
	case *ast.Free:
		k.free(ev, n)
	case *ast.For:
		m, mapped := k.r.loops[n]
		switch {
		case mapped && m.kind != mapBlock:
			// A thread phase: blocks and threads whose index is not
			// spread by its loops must not repeat it.
			var nest [maxDims]bool
			ast.Walk(n, func(x ast.Node) bool {
				if f, ok := x.(*ast.For); ok && k.r.threadLoop(f) {
					nest[k.r.loops[f].dim] = true
				}
				return true
			})
			if m.kind == mapBoth {
				k.covered[m.dim] = true
				defer func() { k.covered[m.dim] = false }()
			}
			k.sync()
			k.guarded(k.only(nest), func() {
				k.mappedLoop(ev, n, m, func(inner *env) { k.thread(inner, n.Body) })
			})
			k.pending = true
		case !mapped && !k.r.hasMapped(n):
			k.phase(ev, n)
		default:
			// A loop (serial, or over blocks) around phases: barriers
			// before it and after each iteration (none when blocks have
			// one thread). The iterations of a loop over blocks are
			// independent: they need the barrier only when they reuse
			// a shared buffer.
			k.sync()
			end := !mapped || hasAlloc(n.Body)
			body := func(inner *env) {
				k.block(inner, n.Body)
				if end {
					k.sync()
				}
			}
			if mapped {
				k.covered[m.dim] = true
				k.mappedLoop(ev, n, m, body)
				k.covered[m.dim] = false
			} else {
				lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
				fs.loop(ev, n.Iter, lo, hi, n.Stride, nil, hintNone, body)
			}
		}
	case *ast.If:
		if !k.r.hasMapped(n) {
			k.phase(ev, n)
			return
		}
		cond := fs.acond(ev, n.Cond)
		then, end := fs.newBlock("if.then"), fs.newBlock("if.end")
		els := end
		if n.Else != nil {
			els = fs.newBlock("if.else")
		}
		fs.cur.NewCondBr(cond, then, els)
		before := k.pending
		fs.start(then)
		k.block(ev.clone(), n.Then)
		fs.cur.NewBr(end)
		after := k.pending
		k.pending = before
		if n.Else != nil {
			fs.start(els)
			k.block(ev.clone(), n.Else)
			fs.cur.NewBr(end)
		}
		k.pending = k.pending || after
		fs.start(end)
	case *ast.User:
		k.phase(ev, n)
	default:
		fail("unknown AST node %T", n)
	}
}

// thread generates thread-level code: as on the CPU, but for the inner
// loops of a nest mapped to threads.
func (k *kgen) thread(ev *env, n ast.Node) {
	fs := k.fs
	switch x := n.(type) {
	case *ast.For:
		if m, ok := k.r.loops[x]; ok {
			k.mappedLoop(ev, x, m, func(inner *env) { k.thread(inner, x.Body) })
			return
		}
	case *ast.If:
		if x.Else == nil && k.r.hasThreadLoop(x) {
			cond := fs.acond(ev, x.Cond)
			then, end := fs.newBlock("if.then"), fs.newBlock("if.end")
			fs.cur.NewCondBr(cond, then, end)
			fs.start(then)
			k.thread(ev.clone(), x.Then)
			fs.cur.NewBr(end)
			fs.start(end)
			return
		}
	}
	fs.node(ev, n)
}

// hasAlloc reports whether n allocates a buffer.
func hasAlloc(n ast.Node) bool {
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if _, ok := x.(*ast.Alloc); ok {
			found = true
		}
		return !found
	})
	return found
}

// phase runs n, which has no thread loop, in thread 0 alone (in every
// thread when blocks have one).
func (k *kgen) phase(ev *env, n ast.Node) {
	fs := k.fs
	if !k.r.threads {
		k.guarded(k.only([maxDims]bool{}), func() { fs.node(ev, n) })
		return
	}
	k.sync()
	k.guarded(k.only([maxDims]bool{}), func() { fs.node(ev.clone(), n) })
	k.pending = true
}

// only is the condition that selects one block and one thread for code
// whose iterations the mapped loops around it do not spread: index 0 in
// each grid dimension no enclosing loop covers (blocks are independent
// copies otherwise) and in each block dimension not in threads (the
// thread loops of the code itself). Dimensions of size 1 are left out.
func (k *kgen) only(threads [maxDims]bool) value.Value {
	b := k.fs.cur
	var idx value.Value
	or := func(v value.Value) {
		if idx == nil {
			idx = v
		} else {
			idx = b.NewOr(idx, v)
		}
	}
	for d := 0; d < maxDims; d++ {
		if k.r.gridDims[d] && !k.covered[d] {
			or(k.ctaid[d])
		}
		if k.r.threadDims[d] && !threads[d] {
			or(k.tid[d])
		}
	}
	if idx == nil {
		return nil
	}
	return b.NewICmp(enum.IPredEQ, idx, i64(0))
}

// guarded runs gen's code where cond holds (always for a nil cond).
func (k *kgen) guarded(cond value.Value, gen func()) {
	fs := k.fs
	if cond == nil {
		gen()
		return
	}
	then, end := fs.newBlock("only"), fs.newBlock("only.end")
	fs.cur.NewCondBr(cond, then, end)
	fs.start(then)
	gen()
	fs.cur.NewBr(end)
	fs.start(end)
}

// thread0 runs gen's code in thread 0 of the block only.
func (k *kgen) thread0(gen func()) {
	fs := k.fs
	b := fs.cur
	c := b.NewICmp(enum.IPredEQ, b.NewOr(b.NewOr(k.tid[0], k.tid[1]), k.tid[2]), i64(0))
	then, end := fs.newBlock("thread0"), fs.newBlock("thread0.end")
	b.NewCondBr(c, then, end)
	fs.start(then)
	gen()
	fs.cur.NewBr(end)
	fs.start(end)
}

// mappedLoop runs this block's or thread's iterations of f.
func (k *kgen) mappedLoop(ev *env, f *ast.For, m loopMap, body func(*env)) {
	fs := k.fs
	b := fs.cur
	if f.Stride <= 0 {
		fail("loop over %s with stride %d", f.Iter, f.Stride)
	}
	lo, hi := fs.aexpr(ev, f.Lower), fs.aexpr(ev, f.Upper)
	var idx, cnt value.Value
	d := m.dim
	switch m.kind {
	case mapBlock:
		idx, cnt = k.ctaid[d], k.nctaid[d]
	case mapThread:
		idx, cnt = k.tid[d], k.ntid[d]
	default:
		idx = addNSW(b, mulNSW(b, k.ctaid[d], k.ntid[d]), k.tid[d])
		cnt = mulNSW(b, k.nctaid[d], k.ntid[d])
	}
	// The iteration of value v goes to index floor(v/stride) mod cnt, the
	// same in every loop over the same values: the loops of one block
	// (thread) band's sequence run the instances of one band value in
	// one block (thread), in order. Counting from each loop's own lower
	// bound gave one value to different blocks in sibling loops of
	// different bounds (campaign seed 106034: a read after the write
	// that the sequence puts after it).
	s := i64(f.Stride)
	j0 := modPos(b, subNSW(b, idx, fs.floorDivConst(lo, f.Stride)), cnt)
	start := addNSW(b, lo, mulNSW(b, j0, s))
	step := mulNSW(b, cnt, s)
	k.stepLoop(ev, f.Iter, start, hi, step, body)
}

// modPos is x mod m in [0, m) for a run-time m > 0.
func modPos(b *ir.Block, x, m value.Value) value.Value {
	r := b.NewSRem(x, m)
	return nsw(b.NewAdd(r, b.NewSelect(b.NewICmp(enum.IPredSLT, r, i64(0)), m, i64(0))))
}

// stepLoop is "for (iter = lo; iter <= hi; iter += step) body" with a
// step known only at run time, in rotated form.
func (k *kgen) stepLoop(ev *env, iter string, lo, hi, step value.Value, body func(*env)) {
	fs := k.fs
	pre := fs.cur
	head, exit := fs.newBlock(iter+".body"), fs.newBlock(iter+".exit")
	pre.NewCondBr(pre.NewICmp(enum.IPredSLE, lo, hi), head, exit)
	fs.start(head)
	iv := head.NewPhi(ir.NewIncoming(lo, pre))
	iv.SetName(fs.uniq(iter))
	inner := ev.clone()
	inner.iters[iter] = iv
	body(inner)
	latch := fs.cur
	next := nsw(latch.NewAdd(iv, step))
	latch.NewCondBr(latch.NewICmp(enum.IPredSLE, next, hi), head, exit)
	iv.Incs = append(iv.Incs, ir.NewIncoming(next, latch))
	fs.start(exit)
}

// alloc makes a block-level buffer: shared by the block when blocks have
// several threads (a fixed area when the shape has a constant bound,
// else allocated by thread 0), private otherwise.
func (k *kgen) alloc(ev *env, n *ast.Alloc) {
	fs := k.fs
	if !k.r.threads {
		fs.alloc(ev, n)
		return
	}
	if !validType(n.Elem) {
		fail("buffer %s has element type %s", n.Array, n.Elem)
	}
	b := &binding{name: n.Array, elem: n.Elem, heap: true, prev: ev.arrays[n.Array], origin: fs.origin(ev, n), fold: allocFold(n)}
	count, bounded := int64(1), true
	for _, s := range n.Shape {
		b.dims = append(b.dims, fs.aexpr(ev, s))
		hi, ok := constUpper(s)
		if !ok || hi < 0 {
			bounded = false
			continue
		}
		count *= hi
	}
	t := memType(n.Elem)
	pt := types.NewPointer(t)
	size := int64(n.Elem.Size())
	k.nShared++
	if bounded && count*size <= 1<<20 {
		raw := k.g.dev.shared(k, n.Array, t, size, max(count, 1))
		b.ptr = fs.cur.NewBitCast(raw, pt)
		ev.arrays[n.Array] = b
		return
	}
	// Thread 0 allocates; the others find the pointer in a shared cell
	// after a barrier.
	cell := fs.cur.NewBitCast(k.g.dev.shared(k, n.Array+".cell", types.I8Ptr, 8, 1), types.NewPointer(types.I8Ptr))
	bytes := value.Value(i64(size))
	for _, d := range b.dims {
		bytes = mulNSW(fs.cur, bytes, d)
	}
	k.sync()
	k.thread0(func() {
		raw := fs.cur.NewCall(fs.e.declare("malloc", types.I8Ptr, types.I64), bytes)
		fs.cur.NewStore(raw, cell)
	})
	k.g.dev.barrier(k)
	raw := fs.cur.NewLoad(types.I8Ptr, cell)
	b.raw = raw
	b.ptr = fs.cur.NewBitCast(raw, pt)
	ev.arrays[n.Array] = b
}

// free releases a block-level buffer.
func (k *kgen) free(ev *env, n *ast.Free) {
	fs := k.fs
	if !k.r.threads {
		fs.free(ev, n)
		return
	}
	b := ev.arrays[n.Array]
	if b == nil || !b.heap {
		fail("free of %s, which no Alloc before it in its block allocated", n.Array)
	}
	if b.raw != nil {
		k.sync()
		raw := b.raw
		k.thread0(func() { fs.cur.NewCall(fs.e.declare("free", types.Void, types.I8Ptr), raw) })
	}
	if b.prev != nil {
		ev.arrays[n.Array] = b.prev
	} else {
		delete(ev.arrays, n.Array)
	}
}
