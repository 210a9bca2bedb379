package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"tilefuse/ast"
)

// node generates n. A block's children share ev, so that an Alloc binds
// its array for the nodes after it; loops, branches and marks bind names
// of their own in a copy.
func (fs *fnState) node(ev *env, n ast.Node) {
	switch n := n.(type) {
	case nil:
	case *ast.Block:
		for _, c := range n.Children {
			if capt, ok := fs.outlinable(ev, c); ok {
				fs.callNest(c, capt)
			} else {
				fs.node(ev, c)
			}
		}
	case *ast.For:
		fs.forLoop(ev, n)
	case *ast.If:
		fs.ifNode(ev, n)
	case *ast.User:
		fs.user(ev, n)
	case *ast.Mark:
		fs.node(ev.clone(), n.Body)
	case *ast.Alloc:
		fs.alloc(ev, n)
	case *ast.Free:
		fs.free(ev, n)
	default:
		fail("unknown AST node %T", n)
	}
}

func (fs *fnState) ifNode(ev *env, n *ast.If) {
	cond := fs.acond(ev, n.Cond)
	then, end := fs.newBlock("if.then"), fs.newBlock("if.end")
	els := end
	if n.Else != nil {
		els = fs.newBlock("if.else")
	}
	fs.cur.NewCondBr(cond, then, els)
	fs.start(then)
	fs.node(ev.clone(), n.Then)
	fs.cur.NewBr(end)
	if n.Else != nil {
		fs.start(els)
		fs.node(ev.clone(), n.Else)
		fs.cur.NewBr(end)
	}
	fs.start(end)
}

// user runs one statement instance: its value, stored to its element.
func (fs *fnState) user(ev *env, u *ast.User) {
	s := fs.e.p.Stmt(u.Stmt)
	if s == nil {
		fail("program %s has no statement %s", fs.e.p.Name, u.Stmt)
	}
	if len(u.Args) != len(s.Iters) {
		fail("statement %s has %d iterators, the AST gives %d", s.Name, len(s.Iters), len(u.Args))
	}
	c := &stmtCtx{fs: fs, env: ev, what: "statement " + s.Name}
	for _, a := range u.Args {
		c.args = append(c.args, fs.aexpr(ev, a))
	}
	if ev.strip != nil {
		c.stripArgs(u)
	}
	v := c.val(s.Value)
	b, addr := c.addr(s.Write)
	if t := s.Value.Type(); t != b.elem {
		fail("statement %s: %s value stored into %s array %s", s.Name, t, b.elem, b.name)
	}
	st := fs.cur.NewStore(toMem(fs.cur, v, b.elem), addr)
	st.Align = ir.Align(b.elem.Size())
	fs.access(&st.Metadata, b)
}

// alloc allocates a tile-local buffer where the AST says, so once per
// iteration (per thread) inside a parallel loop; the array's statements
// use it, with its shape, until the Free.
func (fs *fnState) alloc(ev *env, n *ast.Alloc) {
	if !validType(n.Elem) {
		fail("buffer %s has element type %s", n.Array, n.Elem)
	}
	b := &binding{name: n.Array, elem: n.Elem, heap: true, prev: ev.arrays[n.Array]}
	for _, s := range n.Shape {
		b.dims = append(b.dims, fs.aexpr(ev, s))
	}
	b.origin = fs.origin(ev, n)
	if count, ok := constCount(n.Shape); len(b.dims) == 0 {
		b.ptr = fs.alloca(memType(n.Elem), n.Array)
		b.slot = true
	} else if size := count * int64(n.Elem.Size()); ok && fs.stackBytes+size <= maxStackBuffers {
		fs.stackBytes += size
		// A buffer of constant size lives in the function's frame: one
		// per thread in an outlined parallel loop, reused by every tile
		// it runs, with nothing to allocate per tile.
		a := fs.alloca(types.NewArray(uint64(count), memType(n.Elem)), n.Array)
		b.ptr = fs.cur.NewBitCast(a, types.NewPointer(memType(n.Elem)))
	} else if ok {
		// Too large for the frame but of constant size: allocated once
		// per call of the function (per thread in an outlined parallel
		// loop) in its entry block and freed before it returns, so that
		// the tiles do not malloc and free megabytes each (glibc then
		// returns the memory to the system and every tile faults its
		// pages in again).
		malloc := ir.NewCall(fs.e.declare("malloc", types.I8Ptr, types.I64), i64(size))
		fs.allocas.Insts = append(fs.allocas.Insts, malloc)
		fs.once = append(fs.once, malloc)
		b.ptr = ir.NewBitCast(malloc, types.NewPointer(memType(n.Elem)))
		fs.allocas.Insts = append(fs.allocas.Insts, b.ptr.(*ir.InstBitCast))
	} else {
		size := value.Value(i64(int64(n.Elem.Size())))
		for _, d := range b.dims {
			size = mulNSW(fs.cur, size, d)
		}
		b.raw = fs.cur.NewCall(fs.e.declare("malloc", types.I8Ptr, types.I64), size)
		b.ptr = fs.cur.NewBitCast(b.raw, types.NewPointer(memType(n.Elem)))
	}
	ev.arrays[n.Array] = b
}

// free releases the buffer and uncovers the binding it shadowed.
func (fs *fnState) free(ev *env, n *ast.Free) {
	b := ev.arrays[n.Array]
	if b == nil || !b.heap {
		fail("free of %s, which no Alloc before it in its block allocated", n.Array)
	}
	if b.raw != nil {
		fs.cur.NewCall(fs.e.declare("free", types.Void, types.I8Ptr), b.raw)
	}
	if b.prev != nil {
		ev.arrays[n.Array] = b.prev
	} else {
		delete(ev.arrays, n.Array)
	}
}

// origin computes an Alloc's origin (nil when it has none).
func (fs *fnState) origin(ev *env, n *ast.Alloc) []value.Value {
	if n.Origin == nil {
		return nil
	}
	if len(n.Origin) != len(n.Shape) {
		fail("buffer %s has %d extents and %d origins", n.Array, len(n.Shape), len(n.Origin))
	}
	out := make([]value.Value, len(n.Origin))
	for i, o := range n.Origin {
		out[i] = fs.aexpr(ev, o)
	}
	return out
}

// maxStackBuffers bounds the tile-local buffers kept in one stack frame
// (the threads' stacks are 8 MiB where the system's default is); the
// others are allocated where they appear.
const maxStackBuffers = 2 << 20

// constCount returns the number of elements of a constant shape.
func constCount(shape []ast.Expr) (int64, bool) {
	n := int64(1)
	for _, s := range shape {
		if s.Op != ast.OpInt || s.Val < 0 || s.Val > 1<<31 {
			return 0, false
		}
		n *= s.Val
	}
	return n, n < 1<<40
}
