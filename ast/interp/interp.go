package interp

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
	"github.com/tilefuse/tilefuse/scop/refexec"
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
	// Forwarded counts the loads that read the element the most recent
	// store to the same array wrote, with no loop iteration begun in
	// between (leaving a loop or an if does not count): a value still in
	// a register. Loads counts them too; Loads - Forwarded is Halide's
	// count of loads. Counted only with Options.Forwarding.
	Forwarded int64
	// TempPeakBytes is the peak of the bytes temporaries hold: the
	// tile-local buffers live at once (PeakLocalBytes) plus the whole of
	// every array neither LiveIn nor LiveOut that the run accessed
	// through its own buffer, held for the whole run (Halide's
	// store_root).
	TempPeakBytes int64
}

// Options configure RunWith.
type Options struct {
	// Forwarding counts Stats.Forwarded, observing every access.
	Forwarding bool
}

// Run executes the AST n of program p at the given parameter values on
// bufs. Arrays without a buffer in bufs get a zeroed one, added to bufs
// when bufs is not nil (as refexec.Run). A statement instance that fails
// (an access out of bounds, say) stops the run with an
// *refexec.InstanceError; the buffers then hold the effects of the
// instances before it.
func Run(p *scop.Program, n ast.Node, params map[string]int64, bufs map[string]*scop.Buffer) (*Stats, error) {
	return RunWith(p, n, params, bufs, Options{})
}

// RunWith is Run with options.
func RunWith(p *scop.Program, n ast.Node, params map[string]int64, bufs map[string]*scop.Buffer, opts Options) (st *Stats, err error) {
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
	ropts := refexec.Options{Counts: counts, Rebind: locals}
	v := ast.Visitor{}
	var fw *forwarder
	if opts.Forwarding {
		fw = &forwarder{last: map[string]store{}}
		ropts.Observe, v.Iteration = fw, fw.iteration
	}
	code, err := refexec.Compile(p, params, bufs, ropts)
	if err != nil {
		return nil, err
	}
	r := &runner{p: p, code: code, counts: counts, shadowed: map[string][]*scop.Buffer{}, temps: map[string]*temp{}}
	if err := r.findTemps(params); err != nil {
		return nil, err
	}
	v.User, v.Alloc, v.Free = code.Exec, r.alloc, r.free
	if err := ast.Run(n, params, v); err != nil {
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
	if fw != nil {
		st.Forwarded = fw.n
	}
	st.TempPeakBytes = r.peak + r.globalTemps()
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
	p      *scop.Program
	code   *refexec.Code
	counts *refexec.Counts
	// shadowed holds, per array, the buffers its live allocations
	// replaced, innermost last: Free binds the last one again.
	shadowed           map[string][]*scop.Buffer
	live, peak         int64
	allocs, allocBytes int64
	// temps are the program's arrays neither live-in nor live-out.
	temps map[string]*temp
}

// temp tracks the accesses of a temporary array through its own buffer:
// those counted while no tile-local buffer shadows it, found from the
// counts at each Alloc and Free that uncovers or covers it.
type temp struct {
	bytes   int64
	global  int64 // accesses through its own buffer so far
	uncover int64 // the array's accesses when it was last uncovered
}

func (r *runner) findTemps(params map[string]int64) error {
	for _, a := range r.p.Arrays {
		if a.LiveIn || a.LiveOut {
			continue
		}
		shape, err := a.Shape(params)
		if err != nil {
			return err
		}
		n := int64(a.Type.Size())
		for _, d := range shape {
			n *= d
		}
		r.temps[a.Name] = &temp{bytes: n}
	}
	return nil
}

// cover records that a tile-local buffer is about to shadow array.
func (r *runner) cover(array string) {
	if t := r.temps[array]; t != nil && len(r.shadowed[array]) == 0 {
		t.global += r.counts.Accesses(array) - t.uncover
	}
}

// uncover records that array's own buffer is bound again.
func (r *runner) uncover(array string) {
	if t := r.temps[array]; t != nil && len(r.shadowed[array]) == 0 {
		t.uncover = r.counts.Accesses(array)
	}
}

// globalTemps is the size of the temporaries accessed through their own
// buffers, at the end of the run.
func (r *runner) globalTemps() int64 {
	var n int64
	for name, t := range r.temps {
		r.cover(name)
		if t.global > 0 {
			n += t.bytes
		}
	}
	return n
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
	if a.Fold != nil {
		if err := checkFold(a, shape); err != nil {
			return err
		}
		b.Fold = a.Fold
	}
	Poison(b)
	prev, err := r.code.Bind(a.Array, b)
	if err != nil {
		return fmt.Errorf("tile-local buffer %s%v: %v", a.Array, shape, err)
	}
	r.cover(a.Array)
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
	r.uncover(f.Array)
	r.live -= int64(len(b.Data))
	return nil
}

// checkFold checks that a's fold has an entry per dimension, each 0 or
// the extent of a ring.
func checkFold(a *ast.Alloc, shape []int64) error {
	if len(a.Fold) != len(shape) {
		return fmt.Errorf("tile-local buffer %s has %d extents and %d folds", a.Array, len(shape), len(a.Fold))
	}
	for d, f := range a.Fold {
		if f < 0 || f > 0 && shape[d] != f {
			return fmt.Errorf("tile-local buffer %s%v: dimension %d folded by %d", a.Array, shape, d, f)
		}
	}
	return nil
}

// forwarder counts the loads served by the store just before
// (Stats.Forwarded): per array its last store, and the loop iterations
// begun so far.
type forwarder struct {
	epoch int64
	last  map[string]store
	n     int64
}

type store struct {
	b          *scop.Buffer
	off, epoch int64
}

func (f *forwarder) Load(array string, b *scop.Buffer, off int64) {
	if s, ok := f.last[array]; ok && s.b == b && s.off == off && s.epoch == f.epoch {
		f.n++
	}
}

func (f *forwarder) Store(array string, b *scop.Buffer, off int64) {
	f.last[array] = store{b, off, f.epoch}
}

func (f *forwarder) iteration(*ast.For, int64) error {
	f.epoch++
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
