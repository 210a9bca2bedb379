package emit

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file is the CUDAEmulate target: the kernels of the CUDA target,
// run on the host. A launch loops over the grid's blocks (z, y, x) and
// runs each block on an OpenMP team of blockDim.x*y*z threads
// (GOMP_parallel with that many threads): the thread index comes from
// omp_get_thread_num (x fastest), the barrier is GOMP_barrier, and the
// block's shared memory is one buffer the launch allocates before the
// teams start (the blocks run one after the other, so they take turns
// with it). The host code and the arrays are those of the CPU target.

type emulator struct{}

// The context of a team: the captured values, then the block index, the
// grid and block sizes, and the shared area.
const emuExtra = 3*maxDims + 1

func (emulator) kernel(k *kgen, capt capture) {
	e := k.g.e
	// The field types follow the captured values; the launch builds the
	// same struct from the host's values.
	fields := capt.fields()
	for i := 0; i < 3*maxDims; i++ {
		fields = append(fields, types.I64)
	}
	fields = append(fields, types.I8Ptr)
	st := types.NewStruct(fields...)
	k.ctx = st
	ctxParam := ir.NewParam("ctx", types.I8Ptr)
	f := e.newFunc(k.name, true, ctxParam)
	k.fn = f
	fs := newFnState(e, f)
	k.fs = fs
	load := fs.ctxLoader(st, ctxParam)
	ev := capt.load(load)
	xyz := "xyz"
	for d := 0; d < maxDims; d++ {
		k.ctaid[d] = load("ctaid." + xyz[d:d+1])
	}
	for d := 0; d < maxDims; d++ {
		k.nctaid[d] = load("nctaid." + xyz[d:d+1])
	}
	for d := 0; d < maxDims; d++ {
		k.ntid[d] = load("ntid." + xyz[d:d+1])
	}
	k.sharedBase = load("shared")
	k.ev = ev
	// The team must have the block's size: libgomp may give fewer
	// threads (OMP_THREAD_LIMIT), which would skip iterations.
	b := fs.cur
	want := mulNSW(b, mulNSW(b, k.ntid[0], k.ntid[1]), k.ntid[2])
	got := b.NewSExt(b.NewCall(e.declare("omp_get_num_threads", types.I32)), types.I64)
	bad, ok := fs.newBlock("team.bad"), fs.newBlock("team.ok")
	b.NewCondBr(b.NewICmp(enum.IPredNE, got, want), bad, ok)
	fs.start(bad)
	dprintf(e, fs, "tilefuse: %s: kernel %s: the OpenMP team has %ld threads, the block needs %ld (raise OMP_THREAD_LIMIT or lower the thread sizes)\n",
		cstr(e, e.fn), cstr(e, k.name), got, want)
	fs.cur.NewCall(e.declare("abort", types.Void))
	fs.cur.NewUnreachable()
	fs.start(ok)
	b = fs.cur
	t := b.NewSExt(b.NewCall(e.declare("omp_get_thread_num", types.I32)), types.I64)
	k.tid[0] = b.NewSRem(t, k.ntid[0])
	q := b.NewSDiv(t, k.ntid[0])
	k.tid[1] = b.NewSRem(q, k.ntid[1])
	k.tid[2] = b.NewSDiv(q, k.ntid[1])
}

func (emulator) barrier(k *kgen) {
	k.fs.cur.NewCall(k.g.e.declare("GOMP_barrier", types.Void))
}

// shared places the buffer in the block's area, 16-byte aligned.
func (emulator) shared(k *kgen, name string, t types.Type, size, count int64) value.Value {
	off := (k.sharedBytes + 15) &^ 15
	k.sharedBytes = off + size*count
	gep := k.fs.cur.NewGetElementPtr(types.I8, k.sharedBase, i64(off))
	gep.InBounds = true
	return gep
}

func (emulator) launch(g *gpuGen, fs *fnState, ev *env, k *kgen, capt capture, grid, block [maxDims]value.Value) {
	e := g.e
	vals := capt.values()
	st := k.ctx
	ctx := fs.pack(st, "team.ctx", vals)
	n := len(vals)
	for d := 0; d < maxDims; d++ {
		fs.cur.NewStore(grid[d], fs.field(st, ctx, n+maxDims+d))
		fs.cur.NewStore(block[d], fs.field(st, ctx, n+2*maxDims+d))
	}
	var shared value.Value = constant.NewNull(types.I8Ptr)
	if k.sharedBytes > 0 {
		shared = fs.cur.NewCall(e.declare("malloc", types.I8Ptr, types.I64), i64(k.sharedBytes))
	}
	fs.cur.NewStore(shared, fs.field(st, ctx, n+3*maxDims))
	b := fs.cur
	threads := b.NewTrunc(mulNSW(b, mulNSW(b, block[0], block[1]), block[2]), types.I32)
	gomp := e.declare("GOMP_parallel", types.Void, types.NewPointer(types.NewFunc(types.Void, types.I8Ptr)), types.I8Ptr, types.I32, types.I32)
	var blocks func(d int, inner *env)
	blocks = func(d int, inner *env) {
		if d < 0 {
			fs.cur.NewCall(gomp, k.fn, fs.cur.NewBitCast(ctx, types.I8Ptr), threads, constant.NewInt(types.I32, 0))
			return
		}
		iter := fmt.Sprintf("block.%c", "xyz"[d])
		fs.loop(inner, iter, i64(0), subNSW(fs.cur, grid[d], i64(1)), 1, nil, hintNone, func(in *env) {
			fs.cur.NewStore(in.iters[iter], fs.field(st, ctx, n+d))
			blocks(d-1, in)
		})
	}
	blocks(maxDims-1, ev.clone())
	if k.sharedBytes > 0 {
		fs.cur.NewCall(e.declare("free", types.Void, types.I8Ptr), shared)
	}
}

func (emulator) hostAlloc(g *gpuGen, fs *fnState, ev *env, n *ast.Alloc) { fs.alloc(ev, n) }
func (emulator) hostFree(g *gpuGen, fs *fnState, ev *env, n *ast.Free)   { fs.free(ev, n) }

// cstr is a pointer to a private NUL-terminated string constant of the
// module, one per distinct text.
func cstr(e *emitter, s string) value.Value {
	if e.strs == nil {
		e.strs = map[string]*ir.Global{}
	}
	g, ok := e.strs[s]
	if !ok {
		init := constant.NewCharArrayFromString(s + "\x00")
		g = e.m.NewGlobalDef(fmt.Sprintf(".str.%d", len(e.strs)), init)
		g.Linkage = enum.LinkagePrivate
		g.UnnamedAddr = enum.UnnamedAddrUnnamedAddr
		g.Immutable = true
		e.strs[s] = g
	}
	zero := constant.NewInt(types.I64, 0)
	gep := constant.NewGetElementPtr(g.ContentType, g, zero, zero)
	gep.InBounds = true
	return gep
}

// dprintf writes to the standard error (file descriptor 2).
func dprintf(e *emitter, fs *fnState, format string, args ...value.Value) {
	f, ok := e.decls["dprintf"]
	if !ok {
		f = e.m.NewFunc("dprintf", types.I32, ir.NewParam("", types.I32), ir.NewParam("", types.I8Ptr))
		f.Sig.Variadic = true
		e.decls["dprintf"] = f
	}
	all := append([]value.Value{constant.NewInt(types.I32, 2), cstr(e, format)}, args...)
	fs.cur.NewCall(f, all...)
}
