package emit

import (
	"fmt"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file is the CUDA target: the kernels as an NVPTX module, and the
// host function that runs them through the CUDA driver API.
//
// The kernel module (Module.KernelIR) targets nvptx64-nvidia-cuda: one
// function per kernel, declared a kernel entry in !nvvm.annotations,
// taking the parameters and host iterators it uses as i64 and the arrays
// as (device) pointers with their extents; thread and block indices and
// sizes come from the llvm.nvvm.read.ptx.sreg intrinsics, barriers are
// llvm.nvvm.barrier0, shared buffers addrspace(3) globals. Math functions
// without an LLVM intrinsic NVPTX can select (sqrt, fabs, floor, ceil,
// round, fmin and fmax have one) call libdevice's __nv_ functions
// (__nv_exp, __nv_powf, ...): a module that uses them needs libdevice
// linked in (llvm-link with libdevice.10.bc) before llc, or the driver
// refuses the PTX for its unresolved functions.
//
// The host module (Module.IR) has the CPU function's signature. On each
// call it opens the driver (dlopen("libcuda.so.1") and dlsym, once),
// creates a context on device 0 and loads the PTX (once), copies every
// array to device memory (the program's temporaries too, zeroed), runs
// the host-level code launching the kernels in order (cuLaunchKernel),
// synchronizes, copies the written array arguments back and frees the
// device memory. Any failing driver call prints the call, the error
// number and its name to stderr and aborts; a failed PTX load prints the
// JIT log too. The PTX is an external constant (Module.PTXSymbol), which
// Module.EmbedPTX defines.

// The target of the kernel module.
const (
	NVPTXTriple     = "nvptx64-nvidia-cuda"
	NVPTXDataLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
)

// cuAPI lists the driver functions the host code calls, with their C
// signatures (CUresult is an int; handles are pointers, CUdeviceptr a
// 64-bit integer).
var cuAPI = []struct {
	name     string
	params   []types.Type
	optional bool
}{
	{"cuInit", []types.Type{types.I32}, false},
	{"cuDeviceGet", []types.Type{types.NewPointer(types.I32), types.I32}, false},
	{"cuCtxCreate_v2", []types.Type{types.NewPointer(types.I8Ptr), types.I32, types.I32}, false},
	{"cuCtxSetCurrent", []types.Type{types.I8Ptr}, false},
	{"cuModuleLoadDataEx", []types.Type{types.NewPointer(types.I8Ptr), types.I8Ptr, types.I32, types.NewPointer(types.I32), types.NewPointer(types.I8Ptr)}, false},
	{"cuModuleGetFunction", []types.Type{types.NewPointer(types.I8Ptr), types.I8Ptr, types.I8Ptr}, false},
	{"cuMemAlloc_v2", []types.Type{types.NewPointer(types.I64), types.I64}, false},
	{"cuMemFree_v2", []types.Type{types.I64}, false},
	{"cuMemcpyHtoD_v2", []types.Type{types.I64, types.I8Ptr, types.I64}, false},
	{"cuMemcpyDtoH_v2", []types.Type{types.I8Ptr, types.I64, types.I64}, false},
	{"cuLaunchKernel", []types.Type{types.I8Ptr, types.I32, types.I32, types.I32, types.I32, types.I32, types.I32, types.I32, types.I8Ptr, types.NewPointer(types.I8Ptr), types.NewPointer(types.I8Ptr)}, false},
	{"cuCtxSynchronize", nil, false},
	{"cuGetErrorName", []types.Type{types.I32, types.NewPointer(types.I8Ptr)}, true},
}

func cuIndex(name string) int {
	for i, a := range cuAPI {
		if a.name == name {
			return i
		}
	}
	panic("emit: no driver function " + name)
}

// cudaDev generates the CUDA target's kernels and host code.
type cudaDev struct {
	g      *gpuGen
	e, ke  *emitter
	api    *ir.Global // [len(cuAPI) x i8*]: the driver's functions
	ready  *ir.Global // i32: initialized
	ctx    *ir.Global // i8*: the context
	ptx    *ir.Global // the PTX text (external)
	kfuncs []*ir.Global
	annot  []metadata.Node
	// The runtime's functions.
	init, enter, check, alloc, free, htod, dtoh, launchFn, sync *ir.Func
}

func newCUDA(e *emitter) *cudaDev {
	ke := &emitter{p: e.p, opts: e.opts, fn: e.fn, m: ir.NewModule(), decls: map[string]*ir.Func{}, libm: "__nv_"}
	ke.m.TargetTriple = NVPTXTriple
	ke.m.DataLayout = NVPTXDataLayout
	ke.m.SourceFilename = e.p.Name
	c := &cudaDev{e: e, ke: ke}
	name := func(s string) string { return e.fn + ".cuda." + s }
	m := e.m
	c.api = m.NewGlobalDef(name("api"), constant.NewZeroInitializer(types.NewArray(uint64(len(cuAPI)), types.I8Ptr)))
	c.ready = m.NewGlobalDef(name("ready"), constant.NewInt(types.I32, 0))
	c.ctx = m.NewGlobalDef(name("ctx"), constant.NewNull(types.I8Ptr))
	for _, g := range []*ir.Global{c.api, c.ready, c.ctx} {
		g.Linkage = enum.LinkageInternal
	}
	c.ptx = m.NewGlobal(e.fn+".ptx", types.I8)
	c.ptx.Immutable = true
	c.ptx.Linkage = enum.LinkageExternal
	fn := func(s string, ret types.Type, params ...*ir.Param) *ir.Func {
		f := e.newFunc(name(s), true, params...)
		f.Sig.RetType = ret
		return f
	}
	c.init = fn("init", types.Void)
	c.enter = fn("enter", types.Void)
	c.check = fn("check", types.Void, ir.NewParam("res", types.I32), ir.NewParam("what", types.I8Ptr))
	c.alloc = fn("alloc", types.I64, ir.NewParam("bytes", types.I64))
	c.free = fn("free", types.Void, ir.NewParam("d", types.I64))
	c.htod = fn("htod", types.Void, ir.NewParam("d", types.I64), ir.NewParam("h", types.I8Ptr), ir.NewParam("bytes", types.I64))
	c.dtoh = fn("dtoh", types.Void, ir.NewParam("h", types.I8Ptr), ir.NewParam("d", types.I64), ir.NewParam("bytes", types.I64))
	c.launchFn = fn("launch", types.Void, ir.NewParam("f", types.I8Ptr),
		ir.NewParam("gx", types.I64), ir.NewParam("gy", types.I64), ir.NewParam("gz", types.I64),
		ir.NewParam("bx", types.I64), ir.NewParam("by", types.I64), ir.NewParam("bz", types.I64),
		ir.NewParam("args", types.NewPointer(types.I8Ptr)), ir.NewParam("what", types.I8Ptr))
	c.sync = fn("sync", types.Void)
	return c
}

// cu calls driver function name through the table, returning its result.
func (c *cudaDev) cu(fs *fnState, name string, args ...value.Value) value.Value {
	i := cuIndex(name)
	sig := types.NewFunc(types.I32, cuAPI[i].params...)
	fp := fs.cur.NewLoad(types.I8Ptr, c.apiSlot(fs, i))
	return fs.cur.NewCall(fs.cur.NewBitCast(fp, types.NewPointer(sig)), args...)
}

func (c *cudaDev) apiSlot(fs *fnState, i int) value.Value {
	gep := fs.cur.NewGetElementPtr(c.api.ContentType, c.api, i64(0), i64(int64(i)))
	gep.InBounds = true
	return gep
}

// checked calls a driver function and aborts on failure.
func (c *cudaDev) checked(fs *fnState, what, name string, args ...value.Value) {
	res := c.cu(fs, name, args...)
	fs.cur.NewCall(c.check, res, cstr(c.e, what))
}

// abort prints the message and aborts.
func (c *cudaDev) abort(fs *fnState, format string, args ...value.Value) {
	dprintf(c.e, fs, format, append([]value.Value{cstr(c.e, c.e.fn)}, args...)...)
	fs.cur.NewCall(c.e.declare("abort", types.Void))
	fs.cur.NewUnreachable()
}

// body is the host function's body: device buffers for every array
// around the host-level code.
func (c *cudaDev) body(fs *fnState, ev *env, n ast.Node) {
	g := c.g
	p := g.e.p
	fs.cur.NewCall(c.enter)
	written := map[string]bool{}
	for _, s := range p.Stmts {
		written[s.Write.Array] = true
	}
	isArg := map[string]bool{}
	for _, name := range p.ArgNames() {
		isArg[name] = true
	}
	dev := ev.clone()
	type buf struct {
		host, d, bytes value.Value
		back           bool
	}
	var bufs []buf
	for _, b := range g.hostArrays(ev) {
		bytes := bytesOf(fs, b)
		d := fs.cur.NewCall(c.alloc, bytes)
		h := i8p(fs, b.ptr)
		fs.cur.NewCall(c.htod, d, h, bytes)
		dev.arrays[b.name] = &binding{name: b.name, elem: b.elem, dims: b.dims, ptr: fs.cur.NewIntToPtr(d, b.ptr.Type())}
		back := written[b.name] && isArg[b.name] && len(b.dims) > 0
		bufs = append(bufs, buf{h, d, bytes, back})
	}
	g.host(fs, dev, n)
	fs.cur.NewCall(c.sync)
	for _, b := range bufs {
		if b.back {
			fs.cur.NewCall(c.dtoh, b.host, b.d, b.bytes)
		}
	}
	for _, b := range bufs {
		fs.cur.NewCall(c.free, b.d)
	}
}

func (c *cudaDev) kernel(k *kgen, capt capture) {
	ke := c.ke
	params, slots := capt.params()
	for i, s := range slots {
		if s.kind == slotArray {
			k.arrayParams = append(k.arrayParams, params[i])
		}
	}
	f := ke.newFunc(k.name, false, params...)
	k.fn = f
	c.annot = append(c.annot, ke.def(false, f, &metadata.String{Value: "kernel"}, constant.NewInt(types.I32, 1)))
	fs := newFnState(ke, f)
	k.fs = fs
	i := 0
	ev := capt.load(func(string) value.Value {
		i++
		return params[i-1]
	})
	k.ev = ev
	sreg := func(reg string, d int) value.Value {
		name := fmt.Sprintf("llvm.nvvm.read.ptx.sreg.%s.%c", reg, "xyz"[d])
		v := fs.cur.NewCall(ke.declare(name, types.I32))
		return fs.cur.NewZExt(v, types.I64)
	}
	for d := 0; d < maxDims; d++ {
		k.tid[d], k.ntid[d] = sreg("tid", d), sreg("ntid", d)
		k.ctaid[d], k.nctaid[d] = sreg("ctaid", d), sreg("nctaid", d)
	}
	// The host's handle of the loaded kernel.
	kg := c.e.m.NewGlobalDef(c.e.fn+".cuda.kernel."+k.name, constant.NewNull(types.I8Ptr))
	kg.Linkage = enum.LinkageInternal
	c.kfuncs = append(c.kfuncs, kg)
}

func (c *cudaDev) barrier(k *kgen) {
	k.fs.cur.NewCall(c.ke.declare("llvm.nvvm.barrier0", types.Void))
	k.barriers++
}

// shared is a block's static shared array: an addrspace(3) global (llir
// caches a global's pointer type, which must be reset after its address
// space changes).
func (c *cudaDev) shared(k *kgen, name string, t types.Type, size, count int64) value.Value {
	clean := strings.Map(func(r rune) rune {
		if r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '_'
	}, name)
	g := c.ke.m.NewGlobalDef(fmt.Sprintf("%s_shared_%s_%d", k.name, clean, k.nShared), constant.NewUndef(types.NewArray(uint64(count), t)))
	g.Linkage = enum.LinkageInternal
	g.AddrSpace = 3
	g.Typ = nil
	g.Align = 16
	p3 := types.NewPointer(types.I8)
	p3.AddrSpace = 3
	return constant.NewAddrSpaceCast(constant.NewBitCast(g, p3), types.I8Ptr)
}

func (c *cudaDev) launch(g *gpuGen, fs *fnState, ev *env, k *kgen, capt capture, grid, block [maxDims]value.Value) {
	// Distinct arrays never overlap, but a noalias argument also tells
	// LLVM that a barrier cannot change its memory, so that loads could
	// move above it: only kernels without barriers get the attribute.
	if k.barriers == 0 {
		for _, prm := range k.arrayParams {
			prm.Attrs = append(prm.Attrs, enum.ParamAttrNoAlias)
		}
	}
	vals := capt.values()
	var argv value.Value = constant.NewNull(types.NewPointer(types.I8Ptr))
	if len(vals) > 0 {
		at := types.NewArray(uint64(len(vals)), types.I8Ptr)
		arr := fs.alloca(at, "kernel.args")
		for i, v := range vals {
			slot := fs.alloca(v.Type(), "kernel.arg")
			fs.cur.NewStore(v, slot)
			gep := fs.cur.NewGetElementPtr(at, arr, i64(0), i64(int64(i)))
			gep.InBounds = true
			fs.cur.NewStore(fs.cur.NewBitCast(slot, types.I8Ptr), gep)
		}
		gep := fs.cur.NewGetElementPtr(at, arr, i64(0), i64(0))
		gep.InBounds = true
		argv = gep
	}
	f := fs.cur.NewLoad(types.I8Ptr, c.kfuncs[len(c.kfuncs)-1])
	fs.cur.NewCall(c.launchFn, f, grid[0], grid[1], grid[2], block[0], block[1], block[2], argv,
		cstr(c.e, "cuLaunchKernel("+k.name+")"))
}

func (c *cudaDev) hostAlloc(g *gpuGen, fs *fnState, ev *env, n *ast.Alloc) {
	if !validType(n.Elem) {
		fail("buffer %s has element type %s", n.Array, n.Elem)
	}
	b := &binding{name: n.Array, elem: n.Elem, heap: true, prev: ev.arrays[n.Array]}
	for _, s := range n.Shape {
		b.dims = append(b.dims, fs.aexpr(ev, s))
	}
	b.origin, b.fold = fs.origin(ev, n), allocFold(n)
	d := fs.cur.NewCall(c.alloc, bytesOf(fs, b))
	b.raw = d
	b.ptr = fs.cur.NewIntToPtr(d, types.NewPointer(memType(n.Elem)))
	ev.arrays[n.Array] = b
}

func (c *cudaDev) hostFree(g *gpuGen, fs *fnState, ev *env, n *ast.Free) {
	b := ev.arrays[n.Array]
	if b == nil || !b.heap {
		fail("free of %s, which no Alloc before it in its block allocated", n.Array)
	}
	fs.cur.NewCall(c.free, b.raw)
	if b.prev != nil {
		ev.arrays[n.Array] = b.prev
	} else {
		delete(ev.arrays, n.Array)
	}
}

// finish writes the runtime's functions (the kernels are known now) and
// the kernel module's annotations.
func (c *cudaDev) finish() {
	c.finishInit()
	c.finishRuntime()
	if len(c.annot) > 0 {
		c.ke.m.NamedMetadataDefs["nvvm.annotations"] = &metadata.NamedDef{Name: "nvvm.annotations", Nodes: c.annot}
	}
}

func (c *cudaDev) finishInit() {
	e := c.e
	fs := newFnState(e, c.init)
	b := fs.cur
	load, done := fs.newBlock("load"), fs.newBlock("done")
	b.NewCondBr(b.NewICmp(enum.IPredNE, b.NewLoad(types.I32, c.ready), constant.NewInt(types.I32, 0)), done, load)
	fs.start(load)
	lib := fs.cur.NewCall(e.declare("dlopen", types.I8Ptr, types.I8Ptr, types.I32), cstr(e, "libcuda.so.1"), constant.NewInt(types.I32, 2))
	nolib, syms := fs.newBlock("nolib"), fs.newBlock("syms")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredEQ, lib, constant.NewNull(types.I8Ptr)), nolib, syms)
	fs.start(nolib)
	c.abort(fs, "tilefuse: %s: cannot load the CUDA driver libcuda.so.1 (%s)\n", fs.cur.NewCall(e.declare("dlerror", types.I8Ptr)))
	fs.start(syms)
	dlsym := e.declare("dlsym", types.I8Ptr, types.I8Ptr, types.I8Ptr)
	for i, a := range cuAPI {
		p := fs.cur.NewCall(dlsym, lib, cstr(e, a.name))
		if !a.optional {
			bad, ok := fs.newBlock("nosym"), fs.newBlock("sym")
			fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredEQ, p, constant.NewNull(types.I8Ptr)), bad, ok)
			fs.start(bad)
			c.abort(fs, "tilefuse: %s: the CUDA driver libcuda.so.1 has no function %s\n", cstr(e, a.name))
			fs.start(ok)
		}
		fs.cur.NewStore(p, c.apiSlot(fs, i))
	}
	c.checked(fs, "cuInit", "cuInit", constant.NewInt(types.I32, 0))
	dev := fs.alloca(types.I32, "dev")
	c.checked(fs, "cuDeviceGet", "cuDeviceGet", dev, constant.NewInt(types.I32, 0))
	ctx := fs.alloca(types.I8Ptr, "ctx")
	c.checked(fs, "cuCtxCreate_v2", "cuCtxCreate_v2", ctx, constant.NewInt(types.I32, 0), fs.cur.NewLoad(types.I32, dev))
	fs.cur.NewStore(fs.cur.NewLoad(types.I8Ptr, ctx), c.ctx)
	// The module, with the JIT's error log (CU_JIT_ERROR_LOG_BUFFER = 5
	// and its size, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6).
	const logSize = 16384
	logT := types.NewArray(logSize, types.I8)
	logBuf := fs.alloca(logT, "jit.log")
	logPtr := fs.cur.NewGetElementPtr(logT, logBuf, i64(0), i64(0))
	fs.cur.NewStore(constant.NewInt(types.I8, 0), logPtr)
	optT := types.NewArray(2, types.I32)
	opts := fs.alloca(optT, "jit.opts")
	valT := types.NewArray(2, types.I8Ptr)
	vals := fs.alloca(valT, "jit.vals")
	fs.cur.NewStore(constant.NewInt(types.I32, 5), fs.cur.NewGetElementPtr(optT, opts, i64(0), i64(0)))
	fs.cur.NewStore(constant.NewInt(types.I32, 6), fs.cur.NewGetElementPtr(optT, opts, i64(0), i64(1)))
	fs.cur.NewStore(logPtr, fs.cur.NewGetElementPtr(valT, vals, i64(0), i64(0)))
	fs.cur.NewStore(constant.NewIntToPtr(i64(logSize), types.I8Ptr), fs.cur.NewGetElementPtr(valT, vals, i64(0), i64(1)))
	mod := fs.alloca(types.I8Ptr, "module")
	res := c.cu(fs, "cuModuleLoadDataEx", mod, c.ptx, constant.NewInt(types.I32, 2),
		fs.cur.NewGetElementPtr(optT, opts, i64(0), i64(0)), fs.cur.NewGetElementPtr(valT, vals, i64(0), i64(0)))
	jitBad, loaded := fs.newBlock("jit.bad"), fs.newBlock("loaded")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredNE, res, constant.NewInt(types.I32, 0)), jitBad, loaded)
	fs.start(jitBad)
	dprintf(e, fs, "tilefuse: %s: the CUDA driver cannot load the kernels' PTX (nvptx64, sm_80):\n%s\n", cstr(e, e.fn), logPtr)
	fs.cur.NewCall(c.check, res, cstr(e, "cuModuleLoadDataEx"))
	fs.cur.NewBr(loaded)
	fs.start(loaded)
	m := fs.cur.NewLoad(types.I8Ptr, mod)
	for i, name := range c.g.kernels {
		slot := fs.alloca(types.I8Ptr, "kernel")
		c.checked(fs, "cuModuleGetFunction("+name+")", "cuModuleGetFunction", slot, m, cstr(e, name))
		fs.cur.NewStore(fs.cur.NewLoad(types.I8Ptr, slot), c.kfuncs[i])
	}
	fs.cur.NewStore(constant.NewInt(types.I32, 1), c.ready)
	fs.cur.NewBr(done)
	fs.start(done)
	fs.cur.NewRet(nil)
	fs.finish()
}

func (c *cudaDev) finishRuntime() {
	e := c.e
	// check: aborts with the call, the error number and its name.
	fs := newFnState(e, c.check)
	res, what := c.check.Params[0], c.check.Params[1]
	bad, ok := fs.newBlock("bad"), fs.newBlock("ok")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredEQ, res, constant.NewInt(types.I32, 0)), ok, bad)
	fs.start(ok)
	fs.cur.NewRet(nil)
	fs.start(bad)
	name := fs.alloca(types.I8Ptr, "name")
	fs.cur.NewStore(cstr(e, "unknown"), name)
	fp := fs.cur.NewLoad(types.I8Ptr, c.apiSlot(fs, cuIndex("cuGetErrorName")))
	ask, print := fs.newBlock("ask"), fs.newBlock("print")
	fs.cur.NewCondBr(fs.cur.NewICmp(enum.IPredNE, fp, constant.NewNull(types.I8Ptr)), ask, print)
	fs.start(ask)
	c.cu(fs, "cuGetErrorName", res, name)
	fs.cur.NewBr(print)
	fs.start(print)
	c.abort(fs, "tilefuse: %s: %s failed: CUDA error %d (%s)\n", what, res, fs.cur.NewLoad(types.I8Ptr, name))
	fs.finish()

	fs = newFnState(e, c.enter)
	fs.cur.NewCall(c.init)
	c.checked(fs, "cuCtxSetCurrent", "cuCtxSetCurrent", fs.cur.NewLoad(types.I8Ptr, c.ctx))
	fs.cur.NewRet(nil)
	fs.finish()

	fs = newFnState(e, c.alloc)
	slot := fs.alloca(types.I64, "d")
	c.checked(fs, "cuMemAlloc_v2", "cuMemAlloc_v2", slot, c.alloc.Params[0])
	fs.cur.NewRet(fs.cur.NewLoad(types.I64, slot))
	fs.finish()

	fs = newFnState(e, c.free)
	c.checked(fs, "cuMemFree_v2", "cuMemFree_v2", c.free.Params[0])
	fs.cur.NewRet(nil)
	fs.finish()

	fs = newFnState(e, c.htod)
	c.checked(fs, "cuMemcpyHtoD_v2", "cuMemcpyHtoD_v2", c.htod.Params[0], c.htod.Params[1], c.htod.Params[2])
	fs.cur.NewRet(nil)
	fs.finish()

	fs = newFnState(e, c.dtoh)
	c.checked(fs, "cuMemcpyDtoH_v2", "cuMemcpyDtoH_v2", c.dtoh.Params[0], c.dtoh.Params[1], c.dtoh.Params[2])
	fs.cur.NewRet(nil)
	fs.finish()

	fs = newFnState(e, c.launchFn)
	ps := c.launchFn.Params
	args := []value.Value{ps[0]}
	for _, p := range ps[1:7] {
		args = append(args, fs.cur.NewTrunc(p, types.I32))
	}
	args = append(args, constant.NewInt(types.I32, 0), constant.NewNull(types.I8Ptr), ps[7], constant.NewNull(types.NewPointer(types.I8Ptr)))
	r := c.cu(fs, "cuLaunchKernel", args...)
	fs.cur.NewCall(c.check, r, ps[8])
	fs.cur.NewRet(nil)
	fs.finish()

	fs = newFnState(e, c.sync)
	c.checked(fs, "cuCtxSynchronize (running the kernels)", "cuCtxSynchronize")
	fs.cur.NewRet(nil)
	fs.finish()
}

// EmbedPTX returns the host module of a CUDA module with the kernels'
// PTX (llc's output for Module.KernelIR) defined in it, ready to build
// like the CPU target's IR.
func (m *Module) EmbedPTX(ptx string) (string, error) {
	if m.PTXSymbol == "" {
		return "", fmt.Errorf("emit: module %s has no kernels to embed PTX for", m.Func)
	}
	if strings.Count(m.IR, m.ptxDecl) != 1 {
		return "", fmt.Errorf("emit: the host module of %s does not declare %s once", m.Func, m.PTXSymbol)
	}
	tmp := ir.NewModule()
	text := tmp.NewGlobalDef(m.PTXSymbol+".text", constant.NewCharArrayFromString(ptx+"\x00"))
	text.Linkage = enum.LinkagePrivate
	text.Immutable = true
	zero := constant.NewInt(types.I64, 0)
	gep := constant.NewGetElementPtr(text.ContentType, text, zero, zero)
	gep.InBounds = true
	alias := tmp.NewAlias(m.PTXSymbol, gep)
	alias.Linkage = enum.LinkageInternal
	def := text.LLString() + "\n" + alias.LLString()
	return strings.Replace(m.IR, m.ptxDecl, def, 1), nil
}
