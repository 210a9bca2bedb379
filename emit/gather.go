package emit

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"tilefuse/ast"
	"tilefuse/scop"
)

// This file lowers table lookups of narrow elements. x86 gathers 32-bit
// elements (vpgatherdd) but no 8- or 16-bit ones, so LLVM turns a
// vectorized lookup of bytes, such as camera_pipe's tone curve read at
// each pixel's value, into one load and one insertion per lane. A lookup
// in a buffer with slack past its end instead loads the 4 bytes that
// start at the element and keeps the low ones, which the vectorizer
// makes a dword gather.

// gatherWide reports whether the read r of b loads 4 bytes: an 8- or
// 16-bit integer element at a subscript that reads memory (a lookup,
// not an affine access, which vectorizes as consecutive loads), from a
// buffer readable far enough past its end that no other thread may
// write meanwhile (the extra bytes, whose values are dropped, then never
// race with a store).
func (c *stmtCtx) gatherWide(b *binding, r *scop.Read) bool {
	t := r.T
	if !t.IsInt() || t == scop.Bool || t.Size() >= 4 || b.slack < int64(4-t.Size()) || c.fs.written == nil || c.fs.written[b.name] {
		return false
	}
	for _, x := range r.Ref.Index {
		if len(scop.Reads(x)) > 0 {
			return true
		}
	}
	return false
}

// wideLoad loads the 4 bytes at addr and keeps the low t.
func (c *stmtCtx) wideLoad(b *binding, addr value.Value, t scop.ElemType) value.Value {
	blk := c.b()
	ld := blk.NewLoad(types.I32, blk.NewBitCast(addr, types.NewPointer(types.I32)))
	ld.Align = ir.Align(1)
	c.fs.access(&ld.Metadata, b)
	return blk.NewTrunc(ld, memType(t))
}

// writtenIn lists the arrays the statements of region write.
func (e *emitter) writtenIn(region ast.Node) map[string]bool {
	w := map[string]bool{}
	ast.Walk(region, func(x ast.Node) bool {
		if u, ok := x.(*ast.User); ok {
			if s := e.p.Stmt(u.Stmt); s != nil {
				w[s.Write.Array] = true
			}
		}
		return true
	})
	return w
}
