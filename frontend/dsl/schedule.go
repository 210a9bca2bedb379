package dsl

import (
	"slices"

	"github.com/tilefuse/tilefuse/scop"
)

// The schedule calls, as Halide's: they record where a function is
// computed and stored and how its loops run, and Build attaches them to
// the program (scop.Program.Calls) for `--fuse schedule`. They never
// change what the pipeline computes. Unlike Halide, loops are listed
// outermost first, as the DSL lists a function's dimensions: Reorder(y,
// x) runs y outside x, and Tile(y, x, ...) gives the tile loops of y and
// x, then the point loops of y and x.
//
// Without calls, a pure function that is not an output is inlined, and
// any other is computed at the root.

// schedule is a function's recorded schedule.
type schedule struct {
	compute, store scop.Level
	loops          []scop.LoopStep
	folds          []scop.Fold
}

// ComputeRoot computes the whole function before its consumers run,
// outside every loop.
func (f *Func) ComputeRoot() *Func {
	f.sched.compute = scop.Level{Kind: scop.LevelRoot, At: here()}
	return f
}

// ComputeInline substitutes the function's definition into its
// consumers.
func (f *Func) ComputeInline() *Func {
	f.sched.compute = scop.Level{Kind: scop.LevelInline, At: here()}
	return f
}

// ComputeAt computes, in each iteration of consumer g's loop of variable
// v, the part of the function that the iteration needs.
func (f *Func) ComputeAt(g *Func, v Var) *Func {
	f.sched.compute = f.level(g, v, "ComputeAt")
	return f
}

// StoreRoot keeps the function's storage outside every loop, so that a
// computation inside a loop (ComputeAt) can reuse what earlier
// iterations computed: the sliding window.
func (f *Func) StoreRoot() *Func {
	f.sched.store = scop.Level{Kind: scop.LevelRoot, At: here()}
	return f
}

// StoreAt keeps the function's storage in each iteration of g's loop of
// variable v.
func (f *Func) StoreAt(g *Func, v Var) *Func {
	f.sched.store = f.level(g, v, "StoreAt")
	return f
}

func (f *Func) level(g *Func, v Var, call string) scop.Level {
	at := here()
	switch {
	case g == nil:
		f.p.fail(scop.Errorf(at, "%s of %s names no function", call, f.name))
	case v.d == nil:
		f.p.fail(scop.Errorf(at, "%s of %s names no variable", call, f.name))
	case g == f:
		f.p.fail(scop.Errorf(at, "%s of %s names %s itself", call, f.name, f.name))
	default:
		f.p.own(g.p, "function", g.name, at)
		return scop.Level{Kind: scop.LevelAt, Func: g.name, Var: v.d.name, At: at}
	}
	return scop.Level{}
}

// Split splits the loop of v into an outer loop over blocks of factor
// iterations and an inner loop within a block.
func (f *Func) Split(v, outer, inner Var, factor int) *Func {
	f.split(v, outer, inner, factor, here())
	return f
}

func (f *Func) split(v, outer, inner Var, factor int, at scop.Pos) {
	if !f.varsOK(at, "Split", v, outer, inner) {
		return
	}
	if factor < 1 {
		f.p.fail(scop.Errorf(at, "Split of %s.%s by %d: the factor must be positive", f.name, v.d.name, factor))
		return
	}
	f.sched.loops = append(f.sched.loops, scop.LoopStep{Op: scop.LoopSplit, Var: v.d.name,
		Outer: outer.d.name, Inner: inner.d.name, Factor: int64(factor), At: at})
}

// Tile splits the loops of x and y by fx and fy and orders the loops
// xo, yo, xi, yi (outermost first).
func (f *Func) Tile(x, y, xo, yo, xi, yi Var, fx, fy int) *Func {
	at := here()
	f.split(x, xo, xi, fx, at)
	f.split(y, yo, yi, fy, at)
	f.reorder(at, xo, yo, xi, yi)
	return f
}

// Reorder orders the loops of vars, outermost first; the other loops
// keep their places.
func (f *Func) Reorder(vars ...Var) *Func {
	f.reorder(here(), vars...)
	return f
}

func (f *Func) reorder(at scop.Pos, vars ...Var) {
	if !f.varsOK(at, "Reorder", vars...) {
		return
	}
	st := scop.LoopStep{Op: scop.LoopReorder, At: at}
	for _, v := range vars {
		if slices.Contains(st.Order, v.d.name) {
			f.p.fail(scop.Errorf(at, "Reorder of %s names %s twice", f.name, v.d.name))
			return
		}
		st.Order = append(st.Order, v.d.name)
	}
	f.sched.loops = append(f.sched.loops, st)
}

// Parallel runs the iterations of v's loop in parallel.
func (f *Func) Parallel(v Var) *Func {
	f.flag(scop.LoopParallel, "Parallel", v, nil, here())
	return f
}

// Vectorize vectorises v's loop, which must be innermost; with a factor,
// v is first split by it and the inner loop vectorised.
func (f *Func) Vectorize(v Var, factor ...int) *Func {
	f.flag(scop.LoopVectorize, "Vectorize", v, factor, here())
	return f
}

// Unroll unrolls v's loop; with a factor, v is first split by it and the
// inner loop unrolled.
func (f *Func) Unroll(v Var, factor ...int) *Func {
	f.flag(scop.LoopUnroll, "Unroll", v, factor, here())
	return f
}

func (f *Func) flag(op scop.LoopOp, call string, v Var, factor []int, at scop.Pos) {
	if !f.varsOK(at, call, v) {
		return
	}
	st := scop.LoopStep{Op: op, Var: v.d.name, At: at}
	switch {
	case len(factor) > 1:
		f.p.fail(scop.Errorf(at, "%s of %s.%s takes one factor", call, f.name, v.d.name))
		return
	case len(factor) == 1 && factor[0] < 1:
		f.p.fail(scop.Errorf(at, "%s of %s.%s by %d: the factor must be positive", call, f.name, v.d.name, factor[0]))
		return
	case len(factor) == 1:
		st.Factor = int64(factor[0])
	}
	f.sched.loops = append(f.sched.loops, st)
}

// FoldStorage keeps only extent elements of the function's dimension v
// at a time, in a ring: element i lives at i mod extent. The compiler
// checks that no element still needed is overwritten.
func (f *Func) FoldStorage(v Var, extent int) *Func {
	at := here()
	if !f.varsOK(at, "FoldStorage", v) {
		return f
	}
	if extent < 1 {
		f.p.fail(scop.Errorf(at, "FoldStorage of %s.%s to %d: the extent must be positive", f.name, v.d.name, extent))
		return f
	}
	f.sched.folds = append(f.sched.folds, scop.Fold{Var: v.d.name, Extent: int64(extent), At: at})
	return f
}

func (f *Func) varsOK(at scop.Pos, call string, vars ...Var) bool {
	for _, v := range vars {
		if v.d == nil {
			f.p.fail(scop.Errorf(at, "%s of %s names no variable", call, f.name))
			return false
		}
		if !f.p.own(v.d.p, "variable", v.d.name, at) {
			return false
		}
	}
	return true
}

// callSchedule is the schedule of the functions in order.
func callSchedule(order []*Func, stages []*stage) *scop.CallSchedule {
	cs := &scop.CallSchedule{}
	for _, f := range order {
		fs := &scop.FuncSchedule{Name: f.name, Compute: f.sched.compute, Store: f.sched.store,
			Loops: f.sched.loops, Folds: f.sched.folds, Output: f.output, At: f.at}
		for _, d := range f.dims {
			lo, _ := affText(d.iv.lo, nil) // checked where declared
			fs.Vars, fs.Mins = append(fs.Vars, d.v.d.name), append(fs.Mins, lo)
		}
		for _, st := range stages {
			if st.f == f {
				fs.Stmts = append(fs.Stmts, st.name)
				if st.coords == nil {
					fs.Pure++
				}
			}
		}
		cs.Funcs = append(cs.Funcs, fs)
		cs.Written = cs.Written || f.sched.compute.Kind != scop.LevelDefault || f.sched.store.Kind != scop.LevelDefault ||
			len(f.sched.loops) > 0 || len(f.sched.folds) > 0
	}
	return cs
}
