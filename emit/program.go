package emit

import (
	"sort"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

// program generates the function: the signature of ast.PrintProgram
// (parameters as int, arrays as pointers to their elements, scalars by
// value), the program's other arrays as zeroed locals, then the AST.
func (e *emitter) program(n ast.Node) {
	p := e.p
	var params []*ir.Param
	var arrays []*scop.Array // array arguments, in params order
	var arrayParams []*ir.Param
	seen := map[string]bool{}
	for _, name := range p.ArgNames() {
		if seen[name] {
			fail("argument %s appears twice", name)
		}
		seen[name] = true
		if isParam(p, name) {
			params = append(params, ir.NewParam(name, types.I32))
			continue
		}
		a := p.Array(name)
		if a == nil {
			fail("argument %s is neither a parameter nor an array", name)
		}
		if !validType(a.Type) {
			fail("array %s has element type %s", name, a.Type)
		}
		var prm *ir.Param
		if a.Rank() == 0 {
			// By value: narrow integers are extended by the caller, as
			// the x86-64 C ABI (and clang) have it.
			prm = ir.NewParam(name, llType(a.Type))
			switch {
			case a.Type == scop.Bool || a.Type == scop.U8 || a.Type == scop.U16:
				prm.Attrs = append(prm.Attrs, enum.ParamAttrZeroExt)
			case a.Type == scop.I8 || a.Type == scop.I16:
				prm.Attrs = append(prm.Attrs, enum.ParamAttrSignExt)
			}
		} else {
			// Distinct arrays: the callee may assume no overlap, which
			// spares the vectorizer its runtime checks.
			prm = ir.NewParam(name, types.NewPointer(memType(a.Type)))
			prm.Attrs = append(prm.Attrs, enum.ParamAttrNoAlias)
		}
		params = append(params, prm)
		arrays = append(arrays, a)
		arrayParams = append(arrayParams, prm)
	}
	f := e.newFunc(e.fn, false, params...)
	fs := newFnState(e, f)
	fs.nests = e.wantsNestOutlining(n)
	ev := &env{iters: map[string]value.Value{}, params: map[string]value.Value{}, arrays: map[string]*binding{}}
	for _, prm := range params {
		if prm.Typ == types.I32 && isParam(p, prm.Name()) {
			ev.params[prm.Name()] = fs.cur.NewSExt(prm, types.I64)
		}
	}
	for _, name := range p.Params {
		if ev.params[name] == nil {
			fail("parameter %s is not an argument of the function", name)
		}
	}
	for i, a := range arrays {
		b := &binding{name: a.Name, elem: a.Type, dims: fs.extents(ev, a)}
		if a.Rank() == 0 {
			slot := fs.alloca(memType(a.Type), a.Name+".addr")
			fs.cur.NewStore(toMem(fs.cur, arrayParams[i], a.Type), slot)
			b.ptr = slot
		} else {
			b.ptr = arrayParams[i]
		}
		ev.arrays[a.Name] = b
	}
	// The other arrays are zeroed, as the reference executor's
	// temporaries and PrintProgram's locals are; those that only
	// tile-local buffers hold (every access inside an Alloc of the array)
	// get no memory at all.
	used := globalAccesses(p, n)
	var kept map[ast.Node]*keptNode
	if e.opts.KeepTables && e.opts.Target == CPU {
		kept, fs.keptResets = e.keptFlags(keptNodes(p, n, used))
		for a := range fs.keptResets {
			e.kept = append(e.kept, a)
		}
		sort.Strings(e.kept)
	}
	var locals []value.Value
	for _, a := range p.Arrays {
		if seen[a.Name] {
			continue
		}
		if !validType(a.Type) {
			fail("array %s has element type %s", a.Name, a.Type)
		}
		b := &binding{name: a.Name, elem: a.Type, dims: fs.extents(ev, a)}
		switch {
		case a.Rank() == 0:
			slot := fs.alloca(memType(a.Type), a.Name)
			fs.cur.NewStore(zero(memType(a.Type)), slot)
			b.ptr = slot
		case !used[a.Name]:
			b.ptr = constant.NewNull(types.NewPointer(memType(a.Type)))
		default:
			n := fs.elements(b)
			var raw value.Value
			if e.opts.Target == CPU {
				raw = fs.workspace(a, n)
			} else {
				calloc := e.declare("calloc", types.I8Ptr, types.I64, types.I64)
				raw = fs.cur.NewCall(calloc, n, i64(int64(a.Type.Size())))
				locals = append(locals, raw)
			}
			b.ptr = fs.cur.NewBitCast(raw, types.NewPointer(memType(a.Type)))
		}
		ev.arrays[a.Name] = b
	}
	switch root, isBlock := n.(*ast.Block); {
	case e.body != nil:
		e.body(fs, ev, n)
	case len(kept) == 0:
		fs.node(ev, n)
	case isBlock:
		for _, c := range root.Children {
			if k := kept[c]; k != nil {
				fs.keptChild(ev, c, k)
			} else {
				fs.child(ev, c)
			}
		}
	default:
		fs.keptChild(ev, n, kept[n])
	}
	for _, raw := range locals {
		fs.cur.NewCall(e.declare("free", types.Void, types.I8Ptr), raw)
	}
	fs.freeOnce()
	fs.cur.NewRet(nil)
	fs.finish()
}

func isParam(p *scop.Program, name string) bool {
	for _, x := range p.Params {
		if x == name {
			return true
		}
	}
	return false
}

// extents evaluates the extents of a as i64 values.
func (fs *fnState) extents(ev *env, a *scop.Array) []value.Value {
	if a.Rank() == 0 {
		return nil
	}
	c := &stmtCtx{fs: fs, env: ev, what: "extent of " + a.Name}
	out := make([]value.Value, len(a.Extent))
	for i, x := range a.Extent {
		if !x.Type().IsInt() {
			fail("extent %s of %s has type %s", x, a.Name, x.Type())
		}
		out[i] = c.toI64(c.val(x), x.Type())
	}
	return out
}

// zero is the zero value of t.
func zero(t types.Type) constant.Constant {
	switch t := t.(type) {
	case *types.IntType:
		return constant.NewInt(t, 0)
	case *types.FloatType:
		return constant.NewFloat(t, 0)
	}
	fail("no zero of type %s", t)
	return nil
}

// globalAccesses returns the arrays that some statement of n accesses
// outside every Alloc of the array (in the array's own memory).
func globalAccesses(p *scop.Program, n ast.Node) map[string]bool {
	used := map[string]bool{}
	var walk func(n ast.Node, local map[string]int)
	walk = func(n ast.Node, local map[string]int) {
		switch n := n.(type) {
		case *ast.Block:
			// An Alloc covers the rest of its block, up to its Free.
			inner := map[string]int{}
			for k, v := range local {
				inner[k] = v
			}
			for _, c := range n.Children {
				switch c := c.(type) {
				case *ast.Alloc:
					inner[c.Array]++
				case *ast.Free:
					inner[c.Array]--
				default:
					walk(c, inner)
				}
			}
		case *ast.For:
			walk(n.Body, local)
		case *ast.If:
			walk(n.Then, local)
			if n.Else != nil {
				walk(n.Else, local)
			}
		case *ast.Mark:
			walk(n.Body, local)
		case *ast.User:
			s := p.Stmt(n.Stmt)
			if s == nil {
				return
			}
			stmtArrays(s, func(a string) {
				if local[a] <= 0 {
					used[a] = true
				}
			})
		}
	}
	if n != nil {
		walk(n, map[string]int{})
	}
	return used
}

// workspace returns the memory of the program's temporary array a of n
// elements: a buffer kept from the calling thread's last call when it is
// large enough, else a fresh one that replaces it. Temporaries are thus
// allocated once per function and thread, not per call: on the machines
// tilefuse is measured on, each first-touched page costs about 12 µs,
// which for whole-image temporaries costs more than computing them. A
// buffer of hugeMin bytes or more is aligned to 2 MiB and advised to
// huge pages (madvise MADV_HUGEPAGE), so its first touch faults once per
// 2 MiB and its accesses need fewer TLB entries. The buffer is zeroed at
// each call unless Options.Initialized says every read of a finds a
// write before it. The buffers live until the thread ends.
func (fs *fnState) workspace(a *scop.Array, n value.Value) value.Value {
	e := fs.e
	name := e.fn + ".ws." + a.Name
	slot := e.m.NewGlobalDef(name, constant.NewNull(types.I8Ptr))
	have := e.m.NewGlobalDef(name+".bytes", constant.NewInt(types.I64, 0))
	for _, g := range []*ir.Global{slot, have} {
		g.Linkage = enum.LinkageInternal
		g.TLSModel = enum.TLSModelGeneric
	}
	e.ws = append(e.ws, a.Name)
	// A kept table is zeroed where its node runs (keptChild), not here:
	// a reused buffer holds the table.
	resets := fs.keptResets[a.Name]
	zeroed := !e.opts.Initialized[a.Name] && resets == nil
	bytes := mulNSW(fs.cur, n, i64(int64(a.Type.Size())))
	old := fs.cur.NewLoad(types.I8Ptr, slot)
	size := fs.cur.NewLoad(types.I64, have)
	fits := fs.cur.NewAnd(fs.cur.NewICmp(enum.IPredUGE, size, bytes), fs.cur.NewICmp(enum.IPredNE, size, i64(0)))
	reuse, fresh, join := fs.newBlock("ws.reuse"), fs.newBlock("ws.fresh"), fs.newBlock("ws.join")
	fs.cur.NewCondBr(fits, reuse, fresh)
	fs.start(reuse)
	if zeroed {
		fs.zeroBytes(old, bytes)
	}
	fs.cur.NewBr(join)
	fs.start(fresh)
	fs.cur.NewCall(e.declare("free", types.Void, types.I8Ptr), old)
	// align = big ? 2 MiB : 64; rounded = bytes rounded up to align.
	big := fs.cur.NewICmp(enum.IPredUGE, bytes, i64(hugeMin))
	align := fs.cur.NewSelect(big, i64(hugePage), i64(64))
	mask := fs.cur.NewSub(align, i64(1))
	rounded := fs.cur.NewAnd(fs.cur.NewAdd(bytes, mask), fs.cur.NewXor(mask, i64(-1)))
	buf := fs.cur.NewCall(e.declare("aligned_alloc", types.I8Ptr, types.I64, types.I64), align, rounded)
	advised := fs.cur.NewSelect(big, rounded, i64(0))
	fs.cur.NewCall(e.declare("madvise", types.I32, types.I8Ptr, types.I64, types.I32), buf, advised, constant.NewInt(types.I32, madvHugePage))
	if zeroed {
		fs.zeroBytes(buf, bytes)
	}
	fs.cur.NewStore(buf, slot)
	fs.cur.NewStore(bytes, have)
	for _, flag := range resets {
		fs.cur.NewStore(constant.NewInt(types.I8, 0), flag)
	}
	fs.cur.NewBr(join)
	fs.start(join)
	return fs.cur.NewPhi(ir.NewIncoming(old, reuse), ir.NewIncoming(buf, fresh))
}

// elements is the number of elements of array b, at run time.
func (fs *fnState) elements(b *binding) value.Value {
	n := b.dims[0]
	for _, d := range b.dims[1:] {
		n = mulNSW(fs.cur, n, d)
	}
	return n
}

// zeroBytes sets bytes bytes from the i8 pointer p to zero (memset).
func (fs *fnState) zeroBytes(p, bytes value.Value) {
	memset := fs.e.declare("memset", types.I8Ptr, types.I8Ptr, types.I32, types.I64)
	fs.cur.NewCall(memset, p, constant.NewInt(types.I32, 0), bytes)
}

// Huge pages for large workspace buffers: Linux's transparent huge pages
// (MADV_HUGEPAGE, 14) of 2 MiB, for buffers of at least hugeMin bytes
// (smaller ones would each fault in a whole huge page).
const (
	hugePage     = 2 << 20
	hugeMin      = 4 << 20
	madvHugePage = 14
)

// stmtArrays calls fn with every array statement s accesses: the one it
// writes, those its value reads and those its write subscripts read.
func stmtArrays(s *scop.Stmt, fn func(array string)) {
	fn(s.Write.Array)
	for _, r := range scop.Reads(s.Value) {
		fn(r.Array)
	}
	for _, i := range s.Write.Index {
		for _, r := range scop.Reads(i) {
			fn(r.Array)
		}
	}
}
