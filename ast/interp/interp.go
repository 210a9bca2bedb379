package interp

import (
	"encoding/binary"
	"fmt"
	"sort"

	"tilefuse/ast"
	"tilefuse/scop"
	"tilefuse/scop/refexec"
)

// Stats is what a run executed.
type Stats struct {
	// Stmts holds the counts of every statement of the program (zero for
	// those the AST never runs).
	Stmts map[string]refexec.StmtCounts
	// Calls is the number of calls of each math function executed (zero
	// for one the program has but the run never reached).
	Calls map[string]int64
	// Loads and Stores are the totals over the statements.
	Loads, Stores int64
	// Allocs is the number of tile-local buffers allocated, AllocBytes
	// their total size, PeakLocalBytes the peak of the bytes of the
	// buffers live at once.
	Allocs, AllocBytes, PeakLocalBytes int64
}

// Run executes the AST n of program p at the given parameter values on
// bufs. Arrays without a buffer in bufs get a zeroed one, added to bufs
// when bufs is not nil (as refexec.Run). A statement instance that fails
// (an access out of bounds, say) stops the run with an
// *refexec.InstanceError; the buffers then hold the effects of the
// instances before it.
func Run(p *scop.Program, n ast.Node, params map[string]int64, bufs map[string]*scop.Buffer) (st *Stats, err error) {
	defer func() {
		// A hand-built AST can still make ast.Run panic (a division by a
		// zero constant, say): report it as an error.
		if r := recover(); r != nil {
			st, err = nil, fmt.Errorf("panic: %v", r)
		}
		if err != nil {
			err = fmt.Errorf("interp: %w", err)
		}
	}()
	locals := allocated(n)
	counts := &refexec.Counts{}
	code, err := refexec.Compile(p, params, bufs, refexec.Options{Counts: counts, Rebind: locals})
	if err != nil {
		return nil, err
	}
	r := &runner{p: p, code: code, shadowed: map[string][]*scop.Buffer{}}
	if err := ast.Run(n, params, ast.Visitor{User: code.Exec, Alloc: r.alloc, Free: r.free}); err != nil {
		return nil, err
	}
	for _, name := range locals {
		if len(r.shadowed[name]) > 0 {
			return nil, fmt.Errorf("tile-local buffer %s is allocated and never freed", name)
		}
	}
	st = &Stats{Stmts: counts.Stmts(), Calls: counts.Calls(), Allocs: r.allocs, AllocBytes: r.allocBytes, PeakLocalBytes: r.peak}
	for _, s := range st.Stmts {
		st.Loads += s.Loads
		st.Stores += s.Stores
	}
	return st, nil
}

// allocated lists the arrays that n allocates, sorted.
func allocated(n ast.Node) []string {
	seen := map[string]bool{}
	ast.Walk(n, func(x ast.Node) bool {
		if a, ok := x.(*ast.Alloc); ok {
			seen[a.Array] = true
		}
		return true
	})
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// runner holds the tile-local buffers of a run.
type runner struct {
	p    *scop.Program
	code *refexec.Code
	// shadowed holds, per array, the buffers its live allocations
	// replaced, innermost last: Free binds the last one again.
	shadowed           map[string][]*scop.Buffer
	live, peak         int64
	allocs, allocBytes int64
}

func (r *runner) alloc(a *ast.Alloc, shape, origin []int64) error {
	if a.Elem.Size() == 0 || a.Elem == scop.Bool {
		return fmt.Errorf("tile-local buffer %s has element type %s", a.Array, a.Elem)
	}
	if g := r.p.Array(a.Array); g != nil && g.Type != a.Elem {
		return fmt.Errorf("tile-local buffer %s of %s shadows the program's %s array", a.Array, a.Elem, g.Type)
	}
	b, err := scop.NewBuffer(a.Elem, shape)
	if err != nil {
		return fmt.Errorf("tile-local buffer %s: %v", a.Array, err)
	}
	b.Origin = origin
	Poison(b)
	prev, err := r.code.Bind(a.Array, b)
	if err != nil {
		return fmt.Errorf("tile-local buffer %s%v: %v", a.Array, shape, err)
	}
	r.shadowed[a.Array] = append(r.shadowed[a.Array], prev)
	size := int64(len(b.Data))
	r.allocs++
	r.allocBytes += size
	r.live += size
	r.peak = max(r.peak, r.live)
	return nil
}

func (r *runner) free(f *ast.Free) error {
	stack := r.shadowed[f.Array]
	if len(stack) == 0 {
		return fmt.Errorf("free of %s, which has no live tile-local buffer", f.Array)
	}
	b, err := r.code.Bind(f.Array, stack[len(stack)-1])
	if err != nil {
		return fmt.Errorf("free of %s: %v", f.Array, err)
	}
	r.shadowed[f.Array] = stack[:len(stack)-1]
	r.live -= int64(len(b.Data))
	return nil
}

// The poison patterns: every byte 0xA5 for integers (odd at every
// width), quiet NaNs with a payload for floats.
const (
	poisonByte = 0xA5
	poisonF32  = 0x7FC5A5A5
	poisonF64  = 0x7FF8A5A5A5A5A5A5
)

// Poison fills b with the pattern of fresh tile-local buffers: NaN for
// floats, the bytes 0xA5 for integers.
func Poison(b *scop.Buffer) {
	switch b.Type {
	case scop.F32:
		for i := 0; i+4 <= len(b.Data); i += 4 {
			binary.LittleEndian.PutUint32(b.Data[i:], poisonF32)
		}
	case scop.F64:
		for i := 0; i+8 <= len(b.Data); i += 8 {
			binary.LittleEndian.PutUint64(b.Data[i:], poisonF64)
		}
	default:
		for i := range b.Data {
			b.Data[i] = poisonByte
		}
	}
}
