package emit

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

// This file outlines the loop nests of a large tile body into functions
// of their own. A post-tiling fusion tile runs dozens of producer nests
// one after the other (local_laplacian's output tile: 35 statements); as
// one function, opt and llc spend seconds on it alone (loop strength
// reduction and register allocation grow faster than linearly with the
// loops and values of a function), and llvm-split cannot share it among
// the cores. One noinline function per nest, taking what it uses as
// arguments, costs one call per nest and tile, and the pieces build in
// parallel.

// outlineMinStmts is the number of statements from which a function's
// nests are outlined: below it, one function builds fast enough. (A
// variable for the tests.)
var outlineMinStmts = 16

// wantsNestOutlining reports whether the nests inside region's loops go
// into functions of their own: on the CPU, when region runs many
// statements.
func (e *emitter) wantsNestOutlining(region ast.Node) bool {
	if e.opts.Target != CPU {
		return false
	}
	users := 0
	ast.Walk(region, func(x ast.Node) bool {
		if _, ok := x.(*ast.User); ok {
			users++
		}
		return users < outlineMinStmts
	})
	return users >= outlineMinStmts
}

// outlinable reports whether n, a child of a block, is called as a
// function of its own, with what it uses from ev: a loop nest (or a
// guard around one) inside a loop of a function that outlines nests,
// which allocates no buffer and uses no scalar stack slot from outside
// (the callee would keep it in memory rather than in a register).
func (fs *fnState) outlinable(ev *env, n ast.Node) (capture, bool) {
	if len(ev.iters) == 0 || ev.strip != nil {
		return capture{}, false
	}
	switch n.(type) {
	case *ast.For, *ast.If:
	default:
		return capture{}, false
	}
	if !fs.nests && !fs.e.callsLibmX86(n) {
		return capture{}, false
	}
	loop, ok := false, true
	ast.Walk(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.For:
			loop = true
			if x.Parallel && fs.e.opts.Parallel {
				ok = false
			}
		case *ast.Alloc, *ast.Free:
			ok = false
		}
		return ok
	})
	if !loop || !ok {
		return capture{}, false
	}
	capt := fs.capturesOf(ev, n, "")
	for _, s := range capt.slots {
		if s.kind == slotArray && s.b.slot {
			return capture{}, false
		}
	}
	return capt, true
}

// callsLibmX86 reports whether the statements of n call a C math library
// function (sinf, expf, ...: not an LLVM intrinsic) on an x86-64 CPU.
// Such a nest is outlined too, in a function of any size: when the
// function also runs vector code, llc's vzeroupper pass finds the loop
// around the call entered with dirty upper vector registers and puts a
// vzeroupper before the call in the loop, on every iteration (slow on
// AMD Zen: producer_consumer's sinf loop ran 10% slower). In a function
// of its own the loop starts clean, and the one vzeroupper goes before
// the nest's call.
func (e *emitter) callsLibmX86(n ast.Node) bool {
	if e.opts.Target != CPU || !e.hostLibm() {
		return false
	}
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		if u, ok := x.(*ast.User); ok {
			if s := e.p.Stmt(u.Stmt); s != nil && scop.CallsLibrary(s.Value) {
				found = true
			}
		}
		return !found
	})
	return found
}

// callNest outlines n into an internal noinline function and calls it.
// What n uses from the caller (capt) travels as arguments, not in a context struct, so
// that the array pointers keep what the caller knows of them: distinct
// arrays (noalias, as the program's own arguments) and, for a tile-local
// buffer of constant size, its size (dereferenceable; an argument array's
// caller may pass less than its declared extents), which lets LLVM speculate
// the loads of a select's operands as it does on the caller's stack
// buffers, and so vectorize the loop.
func (fs *fnState) callNest(n ast.Node, capt capture) {
	e := fs.e
	capt = capt.inlineConstants()
	params, slots := capt.params()
	for i, s := range slots {
		if s.kind == slotArray {
			prm := params[i]
			prm.Attrs = append(prm.Attrs, enum.ParamAttrNoAlias)
			if size, ok := constSize(s.b); ok && s.b.heap {
				prm.Attrs = append(prm.Attrs, ir.Dereferenceable{N: uint64(size)})
			}
		}
	}
	f := e.newFunc(fmt.Sprintf("%s.nest.%d", e.fn, e.nOut), true, params...)
	e.nOut++
	// Kept out of line: the point is a function opt and llc build apart.
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoInline)
	if e.strided8or16(n) {
		f.FuncAttrs = append(f.FuncAttrs, narrowWidthAttr)
	}
	g := newFnState(e, f)
	k := 0
	g.node(capt.load(func(string) value.Value {
		k++
		return params[k-1]
	}), n)
	g.freeOnce()
	g.cur.NewRet(nil)
	g.finish()

	fs.cur.NewCall(f, capt.values()...)
}

// constSize is the size in bytes of b's memory when its extents are
// constants (a tile-local buffer of constant shape).
func constSize(b *binding) (int64, bool) {
	size := int64(b.elem.Size())
	for _, d := range b.dims {
		c, ok := d.(*constant.Int)
		if !ok || !c.X.IsInt64() || c.X.Int64() <= 0 || c.X.Int64() > 1<<40/size {
			return 0, false
		}
		size *= c.X.Int64()
	}
	return size, size > 0
}
