package emit

import (
	"github.com/llir/llvm/ir"

	"github.com/tilefuse/tilefuse/ast"
	"github.com/tilefuse/tilefuse/scop"
)

// narrowWidthAttr is what clang puts on every C function: no vector type
// in the function needs registers wider than the preferred width (256
// bits on AVX-512 cores), so the backend's 512-bit types stay illegal.
// tilefuse's functions do not carry it (measured: with it on every
// function, bilateral_grid, local_laplacian and pyramid_blending ran
// 11-19% slower), except outlined nests that read a narrow array at a
// small stride (strided8or16): there, with 512-bit types legal, LLVM 14's
// cost model loads every second 16-bit lane one by one (vpextrq, vpinsrw)
// where with them illegal it uses two-source permutes (vpermt2w):
// camera_pipe's deinterleave, 6.73 -> 6.14 ms for the pipeline.
var narrowWidthAttr = ir.AttrPair{Key: "min-legal-vector-width", Value: "0"}

// strided8or16 reports whether an innermost loop of n runs a statement
// that reads an array of 8- or 16-bit elements at a constant stride of 2
// to 4 elements along the loop (the last subscript moving by that much
// per iteration; affine subscripts only), on an x86-64 CPU.
func (e *emitter) strided8or16(n ast.Node) bool {
	if e.opts.Target != CPU || !e.hostLibm() {
		return false
	}
	found := false
	ast.Walk(n, func(x ast.Node) bool {
		f, ok := x.(*ast.For)
		if !ok || found {
			return !found
		}
		if innermost(f) {
			found = e.readsStrided(f)
			return false
		}
		return true
	})
	return found
}

// innermost reports whether f has no loop inside.
func innermost(f *ast.For) bool {
	inner := false
	ast.Walk(f.Body, func(x ast.Node) bool {
		_, isFor := x.(*ast.For)
		inner = inner || isFor
		return !inner
	})
	return !inner
}

// readsStrided is strided8or16 for the statements of the innermost loop f.
func (e *emitter) readsStrided(f *ast.For) bool {
	found := false
	ast.Walk(f.Body, func(x ast.Node) bool {
		u, ok := x.(*ast.User)
		if !ok || found {
			return !found
		}
		s := e.p.Stmt(u.Stmt)
		if s == nil || len(u.Args) != len(s.Iters) {
			return true
		}
		// The statement's iterators at the loop's iteration 0 and 1,
		// every other name 0: their difference is each one's step.
		step := make([]int64, len(u.Args))
		for k, a := range u.Args {
			at := func(v int64) (int64, bool) {
				env := map[string]int64{}
				for _, name := range a.Vars() {
					env[name] = 0
				}
				env[f.Iter] = v
				r, err := a.Eval(env)
				return r, err == nil
			}
			x0, ok0 := at(0)
			x1, ok1 := at(1)
			if !ok0 || !ok1 {
				return true
			}
			step[k] = (x1 - x0) * f.Stride
		}
		for _, r := range scop.Reads(s.Value) {
			a := e.p.Array(r.Array)
			if a == nil || a.Type.Size() > 2 || len(r.Index) == 0 {
				continue
			}
			last := r.Index[len(r.Index)-1]
			d, ok1 := affineAt(last, step)
			z, ok0 := affineAt(last, make([]int64, len(step)))
			if stride := abs64(d - z); ok0 && ok1 && stride >= 2 && stride <= 4 {
				found = true
			}
		}
		return !found
	})
	return found
}

// affineAt evaluates the affine integer expression e with the statement's
// iterators at iters and every parameter 0; false for anything else.
func affineAt(e scop.Expr, iters []int64) (int64, bool) {
	switch e := e.(type) {
	case *scop.Const:
		return e.I, !e.T.IsFloat()
	case *scop.Iter:
		if e.Index < 0 || e.Index >= len(iters) {
			return 0, false
		}
		return iters[e.Index], true
	case *scop.Param:
		return 0, true
	case *scop.Cast:
		if !e.T.IsInt() {
			return 0, false
		}
		return affineAt(e.X, iters)
	case *scop.Unary:
		x, ok := affineAt(e.X, iters)
		return -x, ok && e.Op == scop.Neg
	case *scop.Binary:
		x, okx := affineAt(e.X, iters)
		y, oky := affineAt(e.Y, iters)
		if !okx || !oky {
			return 0, false
		}
		switch e.Op {
		case scop.Add:
			return x + y, true
		case scop.Sub:
			return x - y, true
		case scop.Mul:
			// Affine: one side constant.
			_, xc := e.X.(*scop.Const)
			_, yc := e.Y.(*scop.Const)
			return x * y, xc || yc
		}
	}
	return 0, false
}
