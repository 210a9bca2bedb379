package emit

import (
	"fmt"

	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/gpumap"
	"github.com/tilefuse/tilefuse/scheduletree"
)

// This file generates the host side of the GPU targets: the host-level
// code (see gpu.go) and, for each kernel region, the kernel (through
// gpuDevice) and its launch with sizes computed at run time.

// gpuGen holds one GPU module's generation.
type gpuGen struct {
	e   *emitter // the host function's module
	ke  *emitter // the kernels' module (e itself in the emulation)
	dev gpuDevice
	ts  [maxDims]int64 // threads per block, at most
	bs  [maxDims]int64 // blocks per grid dimension, at most
	// kernels are the kernel functions' names, in order.
	kernels []string
}

func newGPUGen(e, ke *emitter, dev gpuDevice) *gpuGen {
	return &gpuGen{e: e, ke: ke, dev: dev,
		ts: gpumap.Sizes{Threads: e.opts.ThreadSizes}.Threads3(),
		bs: gpumap.Sizes{Blocks: e.opts.BlockSizes}.Blocks3()}
}

// host generates host-level code for n.
func (g *gpuGen) host(fs *fnState, ev *env, n ast.Node) {
	switch n := n.(type) {
	case nil:
		return
	case *ast.Alloc:
		g.dev.hostAlloc(g, fs, ev, n)
		return
	case *ast.Free:
		g.dev.hostFree(g, fs, ev, n)
		return
	}
	if !hasKernel(n) {
		if hasUser(n) {
			g.launch(fs, ev, newRegion(n))
		}
		return
	}
	switch n := n.(type) {
	case *ast.Block:
		// Runs of children without kernels make one kernel each.
		var group []ast.Node
		flush := func() {
			if hasUser(&ast.Block{Children: group}) {
				var root ast.Node = group[0]
				if len(group) > 1 {
					root = &ast.Block{Children: group}
				}
				g.launch(fs, ev, newRegion(root))
			}
			group = nil
		}
		for _, c := range n.Children {
			switch c.(type) {
			case *ast.Alloc, *ast.Free:
				flush()
				g.host(fs, ev, c)
				continue
			}
			if hasKernel(c) {
				flush()
				g.host(fs, ev, c)
				continue
			}
			group = append(group, c)
		}
		flush()
	case *ast.For:
		if n.Parallel && !hasMarks(n) {
			g.launch(fs, ev, parallelRegion(n))
			return
		}
		if n.Stride <= 0 {
			fail("loop over %s with stride %d", n.Iter, n.Stride)
		}
		lo, hi := fs.aexpr(ev, n.Lower), fs.aexpr(ev, n.Upper)
		fs.loop(ev, n.Iter, lo, hi, n.Stride, nil, hintNone, func(inner *env) { g.host(fs, inner, n.Body) })
	case *ast.If:
		fs.branch(ev, n, func(inner *env, c ast.Node) { g.host(fs, inner, c) })
	case *ast.Mark:
		if n.Name == scheduletree.MarkKernel || n.Name == scheduletree.MarkThread {
			g.launch(fs, ev, markRegion(n))
			return
		}
		g.host(fs, ev.clone(), n.Body)
	default:
		fail("unexpected %T at the host level", n)
	}
}

// launch generates region r's kernel and launches it.
func (g *gpuGen) launch(fs *fnState, ev *env, r *kernelRegion) {
	capt := fs.captures(ev, &ast.For{Body: r.root})
	k := &kgen{g: g, r: r, name: fmt.Sprintf("%s_kernel%d", g.e.fn, len(g.kernels))}
	g.kernels = append(g.kernels, k.name)
	g.dev.kernel(k, capt)
	k.body()
	grid, block := g.sizes(fs, ev, r)
	g.dev.launch(g, fs, ev, k, capt, grid, block)
}

// sizes computes the grid and block sizes of r's launch: for each
// dimension, the largest trip count of the loops mapped to it, bounded
// by the options (at least 1). A trip count comes from the loop's
// bounds, as a constant when upper minus lower bound is one, else from
// the range of values the bounds take, computed on the host from the
// ranges of the kernel's outer loops.
func (g *gpuGen) sizes(fs *fnState, ev *env, r *kernelRegion) (grid, block [maxDims]value.Value) {
	for d := 0; d < maxDims; d++ {
		grid[d], block[d] = i64(1), i64(1)
	}
	iv := &intervals{fs: fs, ev: ev, fors: map[string][]*ast.For{}, memo: map[string][2]value.Value{}}
	ast.Walk(r.root, func(x ast.Node) bool {
		if f, ok := x.(*ast.For); ok {
			iv.fors[f.Iter] = append(iv.fors[f.Iter], f)
		}
		return true
	})
	b := func() *irBuilder { return &irBuilder{fs} }
	var both []struct {
		trip value.Value
		dim  int
	}
	for _, f := range r.order {
		m := r.loops[f]
		trip := iv.trip(f)
		switch m.kind {
		case mapBlock:
			grid[m.dim] = b().smax(grid[m.dim], trip)
		case mapThread:
			block[m.dim] = b().smax(block[m.dim], trip)
		case mapBoth:
			block[m.dim] = b().smax(block[m.dim], trip)
			both = append(both, struct {
				trip value.Value
				dim  int
			}{trip, m.dim})
		}
	}
	for d := 0; d < maxDims; d++ {
		block[d] = b().smin(block[d], i64(g.ts[d]))
	}
	for _, x := range both {
		// Enough blocks of block[d] threads for the trip count.
		n := b().ceilDiv(x.trip, block[x.dim])
		grid[x.dim] = b().smax(grid[x.dim], n)
	}
	for d := 0; d < maxDims; d++ {
		grid[d] = b().smin(grid[d], i64(g.bs[d]))
	}
	return grid, block
}

// irBuilder emits small integer computations, folding constants.
type irBuilder struct{ fs *fnState }

func (b *irBuilder) sel(pred enum.IPred, x, y value.Value) value.Value {
	kx, okx := constI64(x)
	ky, oky := constI64(y)
	if okx && oky {
		switch pred {
		case enum.IPredSGT:
			if kx > ky {
				return x
			}
			return y
		case enum.IPredSLT:
			if kx < ky {
				return x
			}
			return y
		}
	}
	c := b.fs.cur
	return c.NewSelect(c.NewICmp(pred, x, y), x, y)
}

func (b *irBuilder) smax(x, y value.Value) value.Value { return b.sel(enum.IPredSGT, x, y) }
func (b *irBuilder) smin(x, y value.Value) value.Value { return b.sel(enum.IPredSLT, x, y) }

// ceilDiv is ceil(x / y) for y > 0 (at least 0 for x <= 0 is not
// needed: the callers clamp).
func (b *irBuilder) ceilDiv(x, y value.Value) value.Value {
	kx, okx := constI64(x)
	ky, oky := constI64(y)
	if okx && oky {
		return i64(floorDiv(kx+ky-1, ky))
	}
	c := b.fs.cur
	return c.NewSDiv(subNSW(c, addNSW(c, x, y), i64(1)), y)
}

// intervals evaluates AST expressions to ranges [lo, hi] on the host,
// where the kernel's loop iterators range over their loops' bounds.
type intervals struct {
	fs   *fnState
	ev   *env
	fors map[string][]*ast.For // the region's loops by iterator
	memo map[string][2]value.Value
}

// trip bounds f's trip count from above (it may be below 1).
func (iv *intervals) trip(f *ast.For) value.Value {
	c := iv.fs.cur
	_, hi := iv.eval(f.Upper)
	lo, _ := iv.eval(f.Lower)
	span := subNSW(c, hi, lo)
	if f.Stride != 1 {
		if k, ok := constI64(span); ok {
			span = i64(floorDiv(k, f.Stride))
		} else {
			span = c.NewSDiv(span, i64(f.Stride))
		}
	}
	t := addNSW(c, span, i64(1))
	if k, ok := constTrip(f); ok {
		t = (&irBuilder{iv.fs}).smin(t, i64(k))
	}
	return t
}

func (iv *intervals) eval(e ast.Expr) (lo, hi value.Value) {
	fs := iv.fs
	b := &irBuilder{fs}
	switch e.Op {
	case ast.OpInt:
		return i64(e.Val), i64(e.Val)
	case ast.OpVar:
		if v := iv.ev.iters[e.Name]; v != nil {
			return v, v
		}
		if v := iv.ev.params[e.Name]; v != nil {
			return v, v
		}
		if r, ok := iv.memo[e.Name]; ok {
			return r[0], r[1]
		}
		fors := iv.fors[e.Name]
		if len(fors) == 0 {
			fail("unknown name %s in %s", e.Name, e)
		}
		for i, f := range fors {
			l, _ := iv.eval(f.Lower)
			_, h := iv.eval(f.Upper)
			if i == 0 {
				lo, hi = l, h
			} else {
				lo, hi = b.smin(lo, l), b.smax(hi, h)
			}
		}
		iv.memo[e.Name] = [2]value.Value{lo, hi}
		return lo, hi
	case ast.OpAdd:
		lo, hi = i64(0), i64(0)
		for _, a := range e.Args {
			l, h := iv.eval(a)
			lo, hi = addNSW(fs.cur, lo, l), addNSW(fs.cur, hi, h)
		}
		return lo, hi
	case ast.OpMul:
		l, h := iv.eval(e.Args[0])
		l, h = mulNSW(fs.cur, l, i64(e.Val)), mulNSW(fs.cur, h, i64(e.Val))
		if e.Val < 0 {
			l, h = h, l
		}
		return l, h
	case ast.OpFloorDiv, ast.OpCeilDiv, ast.OpDiv:
		l, h := iv.eval(e.Args[0])
		x := ast.Expr{Op: e.Op, Val: e.Val, Args: []ast.Expr{ast.Var("x")}}
		one := func(v value.Value) value.Value {
			if k, ok := constI64(v); ok {
				r, err := x.Eval(map[string]int64{"x": k})
				if err == nil {
					return i64(r)
				}
			}
			inner := iv.ev.clone()
			inner.iters["x"] = v
			return fs.aexpr(inner, x)
		}
		return one(l), one(h)
	case ast.OpMod:
		return i64(0), i64(e.Val - 1)
	case ast.OpMin, ast.OpMax:
		for i, a := range e.Args {
			l, h := iv.eval(a)
			switch {
			case i == 0:
				lo, hi = l, h
			case e.Op == ast.OpMin:
				lo, hi = b.smin(lo, l), b.smin(hi, h)
			default:
				lo, hi = b.smax(lo, l), b.smax(hi, h)
			}
		}
		return lo, hi
	case ast.OpEq, ast.OpLe, ast.OpLt, ast.OpGe, ast.OpGt, ast.OpAnd, ast.OpOr:
		return i64(0), i64(1)
	}
	fail("cannot bound AST expression %s (%s)", e, e.Op)
	return nil, nil
}

// hostArrays lists the bindings of ev's arrays in the program's order.
func (g *gpuGen) hostArrays(ev *env) []*binding {
	var out []*binding
	for _, a := range g.e.p.Arrays {
		if b := ev.arrays[a.Name]; b != nil {
			out = append(out, b)
		}
	}
	return out
}

// bytesOf is the size in bytes of binding b's elements (at least 1).
func bytesOf(fs *fnState, b *binding) value.Value {
	n := value.Value(i64(int64(b.elem.Size())))
	for _, d := range b.dims {
		n = mulNSW(fs.cur, n, d)
	}
	return (&irBuilder{fs}).smax(n, i64(1))
}

// i8p converts a pointer to i8*.
func i8p(fs *fnState, v value.Value) value.Value {
	if v.Type().Equal(types.I8Ptr) {
		return v
	}
	return fs.cur.NewBitCast(v, types.I8Ptr)
}
