package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file keeps the element a loop's one statement updates at every
// iteration in a stack slot, which SROA makes a register: loaded before
// the loop, stored after it (Options.Accumulators says where that is
// exact). LLVM would keep it in memory, a store and a load per iteration
// in the chain of the update, wherever the statement also reads other
// elements of the same array (nussinov's max over table[i][k] +
// table[k+1][j] into table[i][j], lu's and cholesky's updates where the
// reduction loop is innermost, the triangular solves).

// accumulator is the slot a loop keeps its statement's element in: reads
// and the write of the reference ref of array use the slot instead.
type accumulator struct {
	array, ref string
	slot       *binding
}

// accumulates returns the statement of sequential loop n when n runs it
// alone, over one of its iterators with the others fixed, and
// Options.Accumulators allows keeping its element in a register there.
func (fs *fnState) accumulates(ev *env, n *ast.For) (*ast.User, bool) {
	if n.Vector || ev.strip != nil || ev.acc != nil || len(fs.e.opts.Accumulators) == 0 {
		return nil, false
	}
	u, ok := n.Body.(*ast.User)
	if b, isBlock := n.Body.(*ast.Block); isBlock && len(b.Children) == 1 {
		u, ok = b.Children[0].(*ast.User)
	}
	if !ok {
		return nil, false
	}
	ks := fs.e.opts.Accumulators[u.Stmt]
	k := -1
	for i, a := range u.Args {
		if mentions(a, n.Iter) {
			if k >= 0 {
				return nil, false // two iterators move with the loop
			}
			k = i
		}
	}
	return u, k >= 0 && k < len(ks) && ks[k]
}

// accumulatedLoop generates loop n, which runs statement u alone, with
// u's element in a stack slot: copied in before the first iteration and
// out after the last, both only when the loop runs.
func (fs *fnState) accumulatedLoop(ev *env, n *ast.For, u *ast.User, lo, hi value.Value, group *metadata.Tuple, hint loopHint) {
	s := fs.e.p.Stmt(u.Stmt)
	pre := fs.cur
	run, done := fs.newBlock(n.Iter+".acc"), fs.newBlock(n.Iter+".acc.done")
	pre.NewCondBr(pre.NewICmp(enum.IPredSLE, lo, hi), run, done)
	fs.start(run)
	// The element's address, at any iteration (the write does not move
	// with the loop): the first.
	first := ev.clone()
	first.iters[n.Iter] = lo
	c := &stmtCtx{fs: fs, env: first, what: "statement " + s.Name}
	for _, a := range u.Args {
		c.args = append(c.args, fs.aexpr(first, a))
	}
	b, addr := c.addr(s.Write)
	slot := &binding{name: b.name + ".acc", elem: b.elem, ptr: fs.alloca(memType(b.elem), b.name+".acc"), slot: true}
	fs.copyElem(b, addr, slot, slot.ptr)
	inner := ev.clone()
	inner.acc = &accumulator{array: s.Write.Array, ref: s.Write.String(), slot: slot}
	fs.loop(inner, n.Iter, lo, hi, n.Stride, group, hint, func(body *env) { fs.node(body, n.Body) })
	fs.copyElem(slot, slot.ptr, b, addr)
	fs.cur.NewBr(done)
	fs.start(done)
}

// copyElem copies one element from src's address from to dst's to, as
// memory holds it.
func (fs *fnState) copyElem(src *binding, from value.Value, dst *binding, to value.Value) {
	t := memType(src.elem)
	ld := fs.cur.NewLoad(t, from)
	ld.Align = ir.Align(src.elem.Size())
	fs.access(&ld.Metadata, src)
	st := fs.cur.NewStore(ld, to)
	st.Align = ir.Align(dst.elem.Size())
	fs.access(&st.Metadata, dst)
}
