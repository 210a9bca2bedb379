package emit

import (
	"fmt"
	"sort"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/ast"
)

// This file marshals what an outlined region (a parallel loop's thread
// function, an emulated kernel's team function, a CUDA kernel) uses from
// the function around it. captures lists those values as slots, in the
// one order both sides use: the caller passes values(), in a context
// struct (pack) or as a CUDA kernel's arguments, and the outlined
// function rebuilds its environment from them with load (reading the
// struct with ctxLoader, or taking its parameters).

// capture is what the body of an outlined region uses from the caller's
// environment, in the order it travels: parameters, iterators, then each
// array's pointer and extents.
type capture struct {
	slots []slot
}

// slot is one captured value.
type slot struct {
	kind slotKind
	// name is the parameter's, iterator's or array's name ("A.dim" for
	// an extent of A); the outlined function names its copy after it.
	name string
	val  value.Value // the caller's value
	b    *binding    // the caller's array, for slotArray, slotDim and slotOrigin
	// inline marks a constant: it does not travel, the outlined function
	// uses the constant itself (a tile-local buffer's extents stay
	// constants for LLVM's address arithmetic).
	inline bool
}

type slotKind int

const (
	slotParam slotKind = iota
	slotIter
	slotArray // an array's pointer: the only pointers captured
	slotDim
	slotOrigin // a tile-local buffer's origin, subtracted from subscripts
)

// params makes a parameter for each slot that travels, named after it
// (made unique: an array's extents share one name), for an outlined
// function that takes its captures as arguments; slots are those slots.
func (c capture) params() (params []*ir.Param, slots []slot) {
	used := map[string]bool{}
	for _, s := range c.slots {
		if s.inline {
			continue
		}
		name := s.name
		for i := 1; used[name]; i++ {
			name = fmt.Sprintf("%s.%d", s.name, i)
		}
		used[name] = true
		params = append(params, ir.NewParam(name, s.val.Type()))
		slots = append(slots, s)
	}
	return params, slots
}

// inlineConstants marks the constant slots inline.
func (c capture) inlineConstants() capture {
	out := capture{slots: make([]slot, len(c.slots))}
	for i, s := range c.slots {
		_, s.inline = s.val.(constant.Constant)
		out.slots[i] = s
	}
	return out
}

// values are the caller's captured values that travel.
func (c capture) values() []value.Value {
	var vals []value.Value
	for _, s := range c.slots {
		if !s.inline {
			vals = append(vals, s.val)
		}
	}
	return vals
}

// fields are the types of the captured values that travel.
func (c capture) fields() []types.Type {
	var f []types.Type
	for _, s := range c.slots {
		if !s.inline {
			f = append(f, s.val.Type())
		}
	}
	return f
}

// load rebuilds the captured values inside an outlined function, calling
// load for each slot that travels, in order, with the slot's name.
func (c capture) load(load func(name string) value.Value) *env {
	ev := &env{iters: map[string]value.Value{}, params: map[string]value.Value{}, arrays: map[string]*binding{}}
	for _, s := range c.slots {
		v := s.val
		if !s.inline {
			v = load(s.name)
		}
		switch s.kind {
		case slotParam:
			ev.params[s.name] = v
		case slotIter:
			ev.iters[s.name] = v
		case slotArray:
			ev.arrays[s.name] = &binding{name: s.b.name, elem: s.b.elem, ptr: v, fold: s.b.fold}
		case slotDim:
			nb := ev.arrays[s.b.name]
			nb.dims = append(nb.dims, v)
		case slotOrigin:
			nb := ev.arrays[s.b.name]
			nb.origin = append(nb.origin, v)
		}
	}
	return ev
}

// pack allocates the context struct st (named name) on the stack and
// stores vals in its first fields; it returns the struct's address.
func (fs *fnState) pack(st *types.StructType, name string, vals []value.Value) value.Value {
	ctx := fs.alloca(st, name)
	for i, v := range vals {
		fs.cur.NewStore(v, fs.field(st, ctx, i))
	}
	return ctx
}

// ctxLoader returns a function that loads the fields of the context
// struct st behind ctxParam one after the other, naming each: the
// outlined function's side of pack.
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

// field is the address of field i of the context.
func (fs *fnState) field(st *types.StructType, ctx value.Value, i int) value.Value {
	gep := fs.cur.NewGetElementPtr(st, ctx, constant.NewInt(types.I32, 0), constant.NewInt(types.I32, int64(i)))
	gep.InBounds = true
	return gep
}

// captures lists what the body of the loop n uses from ev.
func (fs *fnState) captures(ev *env, n *ast.For) capture {
	return fs.capturesOf(ev, n.Body, n.Iter)
}

// capturesOf lists what root uses from ev, bound aside (the iterator of
// a loop the outlined function runs itself): every parameter, and the
// outer iterators and arrays its bounds, conditions, allocations and
// statements name, with the arrays' extents and origins.
func (fs *fnState) capturesOf(ev *env, root ast.Node, bound string) capture {
	var params, iters []string
	var arrays []*binding
	// Every parameter: statements read them, and there are few.
	for name := range ev.params {
		params = append(params, name)
	}
	sort.Strings(params)
	seenIter := map[string]bool{bound: true}
	seenArray := map[string]bool{}
	useExpr := func(e ast.Expr) {
		for _, name := range e.Vars() {
			if !seenIter[name] && ev.iters[name] != nil {
				seenIter[name] = true
				iters = append(iters, name)
			}
		}
	}
	useArray := func(name string) {
		if b := ev.arrays[name]; b != nil && !seenArray[name] {
			seenArray[name] = true
			arrays = append(arrays, b)
		}
	}
	ast.Walk(root, func(x ast.Node) bool {
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
			for _, s := range x.Origin {
				useExpr(s)
			}
		case *ast.Free:
			useArray(x.Array)
		case *ast.User:
			for _, a := range x.Args {
				useExpr(a)
			}
			if s := fs.e.p.Stmt(x.Stmt); s != nil {
				stmtArrays(s, useArray)
			}
		}
		return true
	})
	var c capture
	for _, name := range params {
		c.slots = append(c.slots, slot{kind: slotParam, name: name, val: ev.params[name]})
	}
	for _, name := range iters {
		c.slots = append(c.slots, slot{kind: slotIter, name: name, val: ev.iters[name]})
	}
	for _, b := range arrays {
		c.slots = append(c.slots, slot{kind: slotArray, name: b.name, val: b.ptr, b: b})
		for _, d := range b.dims {
			c.slots = append(c.slots, slot{kind: slotDim, name: b.name + ".dim", val: d, b: b})
		}
		for _, o := range b.origin {
			c.slots = append(c.slots, slot{kind: slotOrigin, name: b.name + ".origin", val: o, b: b})
		}
	}
	return c
}
