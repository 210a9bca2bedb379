package emit

import (
	"slices"
	"sort"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

// A kept node is a top-level child of the function's AST that computes
// constant tables only (scop.Program.ConstantArrays: no input, no
// parameter): on the CPU it runs on a thread's first call, and later calls
// find its arrays in the workspace as that call left them (camera_pipe's
// tone curve: 65,536 powf calls, a tenth of the pipeline's time).
type keptNode struct {
	arrays []string   // the workspace arrays it writes, sorted
	flag   *ir.Global // thread-local: set once the node ran into them
}

// KeptTables lists the arrays that Emit, with Options.KeepTables on the
// CPU, computes on a thread's first call only (see keptNodes), sorted.
func KeptTables(p *scop.Program, n ast.Node) []string {
	var out []string
	for _, arrays := range keptNodes(p, n, globalAccesses(p, n)) {
		out = append(out, arrays...)
	}
	sort.Strings(out)
	return out
}

// keptNodes finds the top-level children of n (the children of a root
// Block, else n itself) that qualify, with the arrays each writes: every
// statement in the child writes a constant array that lives in the
// workspace (used: accessed outside tile-local buffers), the child holds
// every writer of those arrays, and no statement of an earlier child reads
// them (it would see zeros on the first call and the table later).
func keptNodes(p *scop.Program, n ast.Node, used map[string]bool) map[ast.Node][]string {
	constant := map[string]bool{}
	for _, a := range p.ConstantArrays() {
		if used[a] {
			constant[a] = true
		}
	}
	if len(constant) == 0 || n == nil {
		return nil
	}
	children := []ast.Node{n}
	if b, ok := n.(*ast.Block); ok {
		children = b.Children
	}
	stmts := make([][]*scop.Stmt, len(children))
	writerChild := map[string]int{} // array -> the child writing it; -1 if several
	for i, c := range children {
		ast.Walk(c, func(x ast.Node) bool {
			if u, ok := x.(*ast.User); ok {
				if s := p.Stmt(u.Stmt); s != nil {
					stmts[i] = append(stmts[i], s)
				}
			}
			return true
		})
		for _, s := range stmts[i] {
			a := s.Write.Array
			if k, ok := writerChild[a]; ok && k != i {
				writerChild[a] = -1
			} else if !ok {
				writerChild[a] = i
			}
		}
	}
	out := map[ast.Node][]string{}
	for i, c := range children {
		arrays := keptArrays(stmts[i], constant, writerChild, i)
		if arrays == nil || readEarlier(stmts[:i], arrays) {
			continue
		}
		out[c] = arrays
	}
	return out
}

// keptArrays returns the arrays child i's statements write when all of
// them write constant arrays that only child i writes; nil otherwise.
func keptArrays(stmts []*scop.Stmt, constant map[string]bool, writerChild map[string]int, i int) []string {
	if len(stmts) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, s := range stmts {
		a := s.Write.Array
		if !constant[a] || writerChild[a] != i {
			return nil
		}
		set[a] = true
	}
	arrays := make([]string, 0, len(set))
	for a := range set {
		arrays = append(arrays, a)
	}
	sort.Strings(arrays)
	return arrays
}

// readEarlier reports whether a statement of an earlier child reads one of
// arrays.
func readEarlier(earlier [][]*scop.Stmt, arrays []string) bool {
	for _, stmts := range earlier {
		for _, s := range stmts {
			for _, r := range s.Reads {
				if slices.Contains(arrays, r.Array) {
					return true
				}
			}
		}
	}
	return false
}

// keptFlags gives each kept node its thread-local flag and says per array
// which flags a fresh allocation of its workspace resets.
func (e *emitter) keptFlags(nodes map[ast.Node][]string) (map[ast.Node]*keptNode, map[string][]*ir.Global) {
	kept := map[ast.Node]*keptNode{}
	resets := map[string][]*ir.Global{}
	// Number the flags in the order of the arrays they cover, so the
	// module text does not depend on map order.
	type entry struct {
		n      ast.Node
		arrays []string
	}
	var list []entry
	for n, arrays := range nodes {
		list = append(list, entry{n, arrays})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].arrays[0] < list[j].arrays[0] })
	for _, en := range list {
		g := e.m.NewGlobalDef(e.fn+".kept."+en.arrays[0], constant.NewInt(types.I8, 0))
		g.Linkage = enum.LinkageInternal
		g.TLSModel = enum.TLSModelGeneric
		kept[en.n] = &keptNode{arrays: en.arrays, flag: g}
		for _, a := range en.arrays {
			resets[a] = append(resets[a], g)
		}
	}
	return kept, resets
}

// keptChild runs the kept node c unless its flag says this thread ran it
// since its arrays were allocated; before running it, it zeroes those of
// its arrays that the other temporaries' rule zeroes (a reused buffer
// holds the last values, not zeros), and after it sets the flag.
func (fs *fnState) keptChild(ev *env, c ast.Node, k *keptNode) {
	e := fs.e
	done := fs.cur.NewICmp(enum.IPredNE, fs.cur.NewLoad(types.I8, k.flag), constant.NewInt(types.I8, 0))
	run, end := fs.newBlock("kept.run"), fs.newBlock("kept.end")
	fs.cur.NewCondBr(done, end, run)
	fs.start(run)
	for _, a := range k.arrays {
		if e.opts.Initialized[a] {
			continue
		}
		b := ev.arrays[a]
		bytes := mulNSW(fs.cur, fs.elements(b), i64(int64(b.elem.Size())))
		fs.zeroBytes(fs.cur.NewBitCast(b.ptr, types.I8Ptr), bytes)
	}
	fs.child(ev, c)
	fs.cur.NewStore(constant.NewInt(types.I8, 1), k.flag)
	fs.cur.NewBr(end)
	fs.start(end)
}
