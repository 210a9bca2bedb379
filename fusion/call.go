package fusion

import (
	"fmt"
	"slices"

	"github.com/tilefuse/tilefuse/deps"
	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// Scheduled builds the schedule tree of p's call schedule (p.Calls, a
// Halide-style schedule written with the Go DSL) with the machinery of
// post-tiling fusion; the functions to inline must already be inlined
// (inline.Program with Options.Only), and flow is p's dataflow.
//
//   - A function computed at the root is a child of the outermost
//     sequence with its own loops.
//   - A function computed at consumer g's loop v is an extension under
//     g's band at v's member: it maps the loop prefix to the instances
//     the iteration needs, followed transitively through the functions
//     computed inside that loop, as post-tiling fusion's E_S; its
//     original subtree is hidden under a "skipped" mark.
//   - Storage outside the computation (StoreRoot, StoreAt) over serial
//     loops is a sliding window: instances computed by earlier
//     iterations of the loops between the two levels are subtracted.
//     Storage inside a loop is a tile-local buffer ("promote[A]" at the
//     store level), holding the constant box each iteration writes.
//   - Storage folds to a ring where the elements an iteration touches
//     lie in a window of constant size moving forward (checked exactly:
//     see fold.go); Halide folds the sliding dimension by itself, so
//     does Scheduled.
//   - Parallel and Vectorize mark members coincident under "parallel"
//     and "vector" marks, once checked; Unroll sets the member's option.
//
// Problems with the schedule (an unknown function or loop, a consumer
// outside the loop its producer is computed in, a parallel loop
// iterations of which share storage) are *scop.Error at the call.
func Scheduled(p *scop.Program, flow *deps.Flow) (*Result, error) {
	if p.Calls == nil {
		return nil, fmt.Errorf("fusion: program %s has no call schedule (write the pipeline with the Go DSL)", p.Name)
	}
	b := &callBuilder{p: p, flow: flow, byName: map[string]*callFunc{}, byStmt: map[string]*callFunc{}}
	if err := b.resolve(); err != nil {
		return nil, err
	}
	for i := len(b.funcs) - 1; i >= 0; i-- {
		if err := b.place(b.funcs[i]); err != nil {
			return nil, err
		}
	}
	if err := b.checkParallel(); err != nil {
		return nil, err
	}
	bufs, err := b.buffers()
	if err != nil {
		return nil, err
	}
	t, err := b.tree()
	if err != nil {
		return nil, err
	}
	return &Result{Tree: t, Buffers: bufs}, nil
}

// callFunc is one function of the schedule that the program still has.
type callFunc struct {
	fs    *scop.FuncSchedule
	stmts []*scop.Stmt
	pure  bool // no updates: the loops apply
	loops []loop
	// host and level: computed in host's loop level (host nil: at the
	// root); depth is the number of loops outside it.
	host  *callFunc
	level int
	depth int
	// store: the function and loop of its storage (storeHost nil and
	// storeRoot: the root); storeDepth the loops outside the storage.
	storeHost  *callFunc
	storeLevel int
	storeDepth int
	// ext maps each statement's loop prefix (depth loops) to the
	// instances computed there; full adds the function's own loops.
	ext, full map[string]presburger.Map
	// sliding says that earlier iterations' instances were subtracted.
	sliding  bool
	fold     []int64
	index    int
	resolved bool
}

type callBuilder struct {
	p      *scop.Program
	flow   *deps.Flow
	funcs  []*callFunc
	byName map[string]*callFunc
	byStmt map[string]*callFunc
}

// resolve finds the functions the program has and where each is
// computed and stored.
func (b *callBuilder) resolve() error {
	for _, fs := range b.p.Calls.Funcs {
		f := &callFunc{fs: fs, pure: fs.Pure == len(fs.Stmts), ext: map[string]presburger.Map{}, full: map[string]presburger.Map{}}
		for _, name := range fs.Stmts {
			if s := b.p.Stmt(name); s != nil {
				f.stmts = append(f.stmts, s)
				b.byStmt[name] = f
			}
		}
		if len(f.stmts) == 0 {
			if fs.Compute.Kind == scop.LevelAt || fs.Compute.Kind == scop.LevelRoot {
				return fmt.Errorf("fusion: %s is scheduled but was inlined", fs.Name)
			}
			continue // inlined
		}
		if fs.Compute.Kind == scop.LevelInline {
			return scop.Errorf(fs.Compute.At, "ComputeInline of %s: it cannot be inlined (it has several definitions or updates, or a consumer reads it at a computed subscript)", fs.Name)
		}
		ls, err := loops(fs)
		if err != nil {
			return err
		}
		if !f.pure && len(fs.Loops) > 0 {
			return scop.Errorf(fs.Loops[0].At, "%s has update definitions: its loops keep their original order (schedule the function's pure definition only)", fs.Name)
		}
		if !f.pure {
			ls = nil
		}
		f.loops, f.index = ls, len(b.funcs)
		b.funcs = append(b.funcs, f)
		b.byName[fs.Name] = f
	}
	for _, s := range b.p.Stmts {
		if b.byStmt[s.Name] == nil {
			return fmt.Errorf("fusion: statement %s belongs to no scheduled function", s.Name)
		}
	}
	for _, f := range b.funcs {
		if err := b.levels(f, nil); err != nil {
			return err
		}
	}
	return nil
}

// levels resolves f's compute and store levels (and its hosts' first).
func (b *callBuilder) levels(f *callFunc, visiting []*callFunc) error {
	if f.resolved {
		return nil
	}
	if slices.Contains(visiting, f) {
		return scop.Errorf(f.fs.Compute.At, "ComputeAt of %s: the functions are computed inside each other's loops in a cycle", f.fs.Name)
	}
	visiting = append(visiting, f)
	c := f.fs.Compute
	if c.Kind == scop.LevelAt {
		if f.fs.Output {
			return scop.Errorf(c.At, "ComputeAt of %s: an output is computed at the root", f.fs.Name)
		}
		g, k, err := b.loopOf(c, "ComputeAt", f)
		if err != nil {
			return err
		}
		if err := b.levels(g, visiting); err != nil {
			return err
		}
		f.host, f.level, f.depth = g, k, g.depth+k+1
	}
	s := f.fs.Store
	switch s.Kind {
	case scop.LevelDefault:
		f.storeHost, f.storeLevel, f.storeDepth = f.host, f.level, f.depth
	case scop.LevelRoot:
		f.storeHost, f.storeDepth = nil, 0
	case scop.LevelAt:
		g, k, err := b.loopOf(s, "StoreAt", f)
		if err != nil {
			return err
		}
		if err := b.levels(g, visiting); err != nil {
			return err
		}
		if !b.encloses(g, k, f) {
			return scop.Errorf(s.At, "StoreAt of %s: the loop %s.%s does not enclose where %s is computed", f.fs.Name, s.Func, s.Var, f.fs.Name)
		}
		f.storeHost, f.storeLevel, f.storeDepth = g, k, g.depth+k+1
	}
	f.resolved = true
	return nil
}

// loopOf finds the function and loop a level names.
func (b *callBuilder) loopOf(l scop.Level, call string, f *callFunc) (*callFunc, int, error) {
	g := b.byName[l.Func]
	switch {
	case g == nil && b.p.Calls.Func(l.Func) != nil:
		return nil, 0, scop.Errorf(l.At, "%s of %s: %s is inlined, it has no loops", call, f.fs.Name, l.Func)
	case g == nil:
		return nil, 0, scop.Errorf(l.At, "%s of %s: the pipeline has no function %s", call, f.fs.Name, l.Func)
	case !g.pure:
		return nil, 0, scop.Errorf(l.At, "%s of %s: %s has update definitions; compute inside a pure function's loops", call, f.fs.Name, l.Func)
	}
	k := slices.IndexFunc(g.loops, func(x loop) bool { return x.name == l.Var })
	if k < 0 {
		return nil, 0, scop.Errorf(l.At, "%s of %s: %s has no loop %s (its loops: %s)", call, f.fs.Name, l.Func, l.Var, loopNames(g.loops))
	}
	return g, k, nil
}

// encloses reports whether g's loop k is outside the place where c runs
// (c itself, or c's loops when c is g).
func (b *callBuilder) encloses(g *callFunc, k int, c *callFunc) bool {
	if c == g {
		return true
	}
	for x := c; x.host != nil; x = x.host {
		if x.host == g {
			return x.level >= k
		}
	}
	return false
}

// prefixLen is the number of loops around c's statements that a
// function computed at g's loop k sees: g's loops up to k and those
// outside g.
func prefixLen(g *callFunc, k int) int { return g.depth + k + 1 }
