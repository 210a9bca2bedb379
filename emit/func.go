package emit

import (
	"fmt"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/metadata"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/tilefuse/tilefuse/scop"
)

// fnState is the function being generated: where code goes, and the
// metadata its memory accesses carry.
type fnState struct {
	e *emitter
	f *ir.Func
	// allocas is the entry block: stack slots only, so that they are
	// allocated once per call whatever loop asks for them.
	allocas *ir.Block
	// stackBytes are the bytes of the tile-local buffers in the frame.
	stackBytes int64
	// once are the tile-local buffers allocated in the entry block,
	// freed by freeOnce before the function returns.
	once []value.Value
	// grownBlocks hold the blocks of buffers sized at run time (grown),
	// freed with once.
	grownBlocks []*ir.InstAlloca
	freed       bool
	cur         *ir.Block
	names       map[string]int
	// groups are the access groups of the enclosing parallel loops.
	groups    []*metadata.Tuple
	groupNode *metadata.Tuple
	// scoped are the bindings accessed so far, each with its alias scope.
	scoped []*binding
	domain *metadata.Tuple
	// nests calls the loop nests inside its loops as functions of their
	// own (outline.go).
	nests bool
	// parallel is set in the functions threads run (a parallel loop's or
	// a team's): they open no parallel region of their own.
	parallel bool
	// keptResets are, per kept table of the top-level function, the
	// flags a fresh allocation of its workspace clears (kept.go).
	keptResets map[string][]*ir.Global
}

func newFnState(e *emitter, f *ir.Func) *fnState {
	fs := &fnState{e: e, f: f, names: map[string]int{}}
	for _, p := range f.Params {
		fs.names[p.Name()] = 1
	}
	fs.allocas = fs.newBlock("entry")
	fs.start(fs.allocas)
	body := fs.newBlock("start")
	fs.start(body)
	return fs
}

// uniq makes a local name unique in the function (LLVM rejects
// duplicates; iterators reappear in sibling loops).
func (fs *fnState) uniq(name string) string {
	for {
		k := fs.names[name]
		fs.names[name] = k + 1
		if k == 0 {
			return name
		}
		// name.k may itself be taken (an iterator called so): try on.
		if cand := fmt.Sprintf("%s.%d", name, k); fs.names[cand] == 0 {
			fs.names[cand] = 1
			return cand
		}
	}
}

// newBlock makes a block that is not yet placed in the function.
func (fs *fnState) newBlock(name string) *ir.Block {
	return ir.NewBlock(fs.uniq(name))
}

// start appends b to the function and continues the code there; blocks
// are placed in the order the code reaches them, which keeps the text
// readable.
func (fs *fnState) start(b *ir.Block) {
	b.Parent = fs.f
	fs.f.Blocks = append(fs.f.Blocks, b)
	fs.cur = b
}

// alloca reserves a stack slot in the entry block.
func (fs *fnState) alloca(t types.Type, name string) *ir.InstAlloca {
	a := ir.NewAlloca(t)
	a.SetName(fs.uniq(name))
	fs.allocas.Insts = append(fs.allocas.Insts, a)
	return a
}

// freeOnce frees the buffers allocated in the entry block; the
// function's return comes next.
func (fs *fnState) freeOnce() {
	for _, raw := range fs.once {
		fs.cur.NewCall(fs.e.declare("free", types.Void, types.I8Ptr), raw)
	}
	for _, slot := range fs.grownBlocks {
		fs.cur.NewCall(fs.e.declare("free", types.Void, types.I8Ptr), fs.cur.NewLoad(types.I8Ptr, slot))
	}
	fs.freed = true
}

// finish closes the entry block and fills in the alias scopes.
func (fs *fnState) finish() {
	if len(fs.once)+len(fs.grownBlocks) > 0 && !fs.freed {
		fail("function %s returns without freeing its %d tile-local buffers", fs.f.Name(), len(fs.once)+len(fs.grownBlocks))
	}
	fs.allocas.NewBr(fs.f.Blocks[1])
	for _, b := range fs.scoped {
		for _, o := range fs.scoped {
			if o != b {
				b.noalias.Fields = append(b.noalias.Fields, o.scope)
			}
		}
	}
}

// env maps the names the AST and the statements use to values.
type env struct {
	iters  map[string]value.Value // loop iterators, i64
	params map[string]value.Value // size parameters, i64
	arrays map[string]*binding
	// strip, inside a strip-mined loop's body copy, is that loop.
	strip *strip
	// acc, inside a loop that keeps its statement's element in a stack
	// slot (accumulate.go), is that slot.
	acc *accumulator
}

// clone copies the maps: a loop body or branch binds names of its own.
func (v *env) clone() *env {
	c := &env{iters: map[string]value.Value{}, params: v.params, arrays: map[string]*binding{}, strip: v.strip, acc: v.acc}
	for k, x := range v.iters {
		c.iters[k] = x
	}
	for k, x := range v.arrays {
		c.arrays[k] = x
	}
	return c
}

// binding is the storage of an array: a pointer to its first element
// (a stack slot for a scalar) and its extents.
type binding struct {
	name string
	elem scop.ElemType
	ptr  value.Value   // pointer to memType(elem)
	dims []value.Value // i64 extents, none for a scalar
	// origin, for a tile-local buffer with one, is subtracted from the
	// subscripts (ast.Alloc.Origin); fold then folds them into rings
	// (ast.Alloc.Fold).
	origin []value.Value
	fold   []int64
	// heap buffers come from an ast.Alloc; prev is the binding they
	// shadow until the matching Free.
	heap bool
	prev *binding
	raw  value.Value // the malloc result to free, for a heap buffer with extents
	// slot marks a scalar buffer's stack slot: the function reuses it
	// in every iteration of a loop around the Alloc, so its accesses
	// are kept out of the access groups (SROA makes it a register).
	slot bool
	// scope and noalias are the alias metadata of the binding's accesses
	// (every binding is distinct memory), made on first access.
	scope, scopes, noalias *metadata.Tuple
}

// access attaches the metadata of a load or store through b.
func (fs *fnState) access(md *ir.Metadata, b *binding) {
	if b.scope == nil {
		if fs.domain == nil {
			fs.domain = fs.e.def(true)
			fs.domain.Fields = []metadata.Field{fs.domain, &metadata.String{Value: fs.f.Name() + " arrays"}}
		}
		b.scope = fs.e.def(true)
		b.scope.Fields = []metadata.Field{b.scope, fs.domain, &metadata.String{Value: b.name}}
		b.scopes = fs.e.def(false, b.scope)
		b.noalias = fs.e.def(false)
		fs.scoped = append(fs.scoped, b)
	}
	*md = append(*md,
		&metadata.Attachment{Name: "alias.scope", Node: b.scopes},
		&metadata.Attachment{Name: "noalias", Node: b.noalias})
	if fs.groupNode != nil && !b.slot {
		*md = append(*md, &metadata.Attachment{Name: "llvm.access.group", Node: fs.groupNode})
	}
}

// pushGroup makes the accesses generated until popGroup members of g too.
func (fs *fnState) pushGroup(g *metadata.Tuple) {
	fs.groups = append(fs.groups, g)
	fs.setGroupNode()
}

func (fs *fnState) popGroup() {
	fs.groups = fs.groups[:len(fs.groups)-1]
	fs.setGroupNode()
}

// setGroupNode makes the llvm.access.group attachment: the group itself,
// or the list of the groups when loops nest.
func (fs *fnState) setGroupNode() {
	switch len(fs.groups) {
	case 0:
		fs.groupNode = nil
	case 1:
		fs.groupNode = fs.groups[0]
	default:
		fields := make([]metadata.Field, len(fs.groups))
		for i, g := range fs.groups {
			fields[i] = g
		}
		fs.groupNode = fs.e.def(false, fields...)
	}
}

// i64 is the constant v of type i64.
func i64(v int64) *constant.Int { return constant.NewInt(types.I64, v) }
