package fusion

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/tilefuse/tilefuse/presburger"
	"github.com/tilefuse/tilefuse/scop"
)

// buffers gives each function stored inside a loop a tile-local buffer
// (the box each iteration of the store loop writes) and folds the
// storage where asked or where a sliding window allows it.
func (b *callBuilder) buffers() ([]Buffer, error) {
	var out []Buffer
	for _, f := range b.funcs {
		a := b.p.Array(f.fs.Name)
		if a == nil || a.LiveOut || a.LiveIn || a.Rank() == 0 {
			if len(f.fs.Folds) > 0 {
				return nil, scop.Errorf(f.fs.Folds[0].At, "FoldStorage of %s: only a temporary function's storage folds", f.fs.Name)
			}
			continue
		}
		fold, err := b.folds(f, a)
		if err != nil {
			return nil, err
		}
		f.fold = fold
		if f.storeDepth == 0 && fold == nil {
			continue // the program's own array
		}
		buf := Buffer{Array: a.Name, Elem: a.Type, Group: f.index, Fold: fold}
		if f.storeDepth == 0 {
			for d, e := range a.Extent {
				aff, ok := paramAffine(e)
				if !ok {
					return nil, fmt.Errorf("fusion: extent %d of %s is not affine in the parameters", d, a.Name)
				}
				if fold[d] > 0 {
					aff = Affine{Const: fold[d]}
				}
				buf.Size = append(buf.Size, aff)
				buf.Origin = append(buf.Origin, Affine{})
			}
			out = append(out, buf)
			continue
		}
		fp, err := b.footprint(f, f.storeDepth)
		if err != nil {
			return nil, err
		}
		origin, size, ok := paramBox(fp, a.Rank())
		if !ok {
			at := f.fs.Store.At
			if f.fs.Store.Kind == scop.LevelDefault {
				at = f.fs.Compute.At
			}
			return nil, scop.Errorf(at, "the part of %s that each iteration of %s.%s writes has no box of constant size; store %s further out (StoreRoot)",
				f.fs.Name, f.storeHost.fs.Name, f.storeHost.loops[f.storeLevel].name, f.fs.Name)
		}
		constant := true
		for d := range size {
			if fold != nil && fold[d] > 0 {
				if len(size[d].Params) == 0 && size[d].Const <= fold[d] {
					fold[d] = 0 // the box is no larger than the ring
				} else {
					size[d] = Affine{Const: fold[d]}
				}
			}
			constant = constant && len(size[d].Params) == 0
		}
		buf.Origin = origin
		if constant {
			for _, sz := range size {
				buf.Extent = append(buf.Extent, sz.Const)
			}
		} else {
			buf.Size = size
		}
		out = append(out, buf)
	}
	return out, nil
}

// footprint maps the first d loops around f to the elements f's
// statements write there.
func (b *callBuilder) footprint(f *callFunc, d int) (presburger.Map, error) {
	var all presburger.Map
	for i, s := range f.stmts {
		m, err := b.accessAt(f.full[s.Name], d, s.Writes, f.fs.Name)
		if err != nil {
			return all, err
		}
		if i == 0 {
			all = m
		} else if all, err = all.Union(m); err != nil {
			return all, err
		}
	}
	return all.Coalesce()
}

// accessAt maps the first d dimensions of full (loops -> instances) to
// the elements of array the accesses touch.
func (b *callBuilder) accessAt(full presburger.Map, d int, accs []scop.Access, array string) (presburger.Map, error) {
	exec, err := full.ProjectOut(presburger.DimIn, d, full.Space().NIn()-d)
	if err != nil {
		return exec, err
	}
	var out presburger.Map
	first := true
	for _, a := range accs {
		if a.Array != array {
			continue
		}
		m, err := exec.ApplyRange(a.Rel)
		if err != nil {
			return out, err
		}
		if first {
			out, first = m, false
		} else if out, err = out.Union(m); err != nil {
			return out, err
		}
	}
	if first {
		return out, fmt.Errorf("fusion: no access to %s", array)
	}
	return out, nil
}

// folds returns f's storage folds per dimension (nil: none): the
// explicit ones, checked, and, for a sliding window, each dimension
// whose window has a constant extent and moves forward, folded to the
// next power of two (a mask instead of a division, as Halide does).
func (b *callBuilder) folds(f *callFunc, a *scop.Array) ([]int64, error) {
	if len(f.fs.Folds) == 0 && !f.sliding {
		return nil, nil
	}
	win, err := b.window(f)
	if err != nil {
		return nil, err
	}
	fold := make([]int64, a.Rank())
	any := false
	for _, fd := range f.fs.Folds {
		d := slices.Index(f.fs.Vars, fd.Var)
		if d < 0 {
			return nil, scop.Errorf(fd.At, "FoldStorage of %s: %s is not one of its variables (%v)", f.fs.Name, fd.Var, f.fs.Vars)
		}
		span, ok, err := windowSpan(win, d)
		if err != nil {
			return nil, err
		}
		switch {
		case ok && span > fd.Extent:
			return nil, scop.Errorf(fd.At, "FoldStorage of %s.%s to %d: an iteration of the loop %s is computed in touches %d elements of %s at once",
				f.fs.Name, fd.Var, fd.Extent, f.fs.Name, span, fd.Var)
		case !ok:
			return nil, scop.Errorf(fd.At, "FoldStorage of %s.%s to %d: the elements of %s an iteration touches are not within a constant window", f.fs.Name, fd.Var, fd.Extent, fd.Var)
		}
		fwd, err := b.forward(f, win, d)
		if err != nil {
			return nil, err
		}
		if !fwd {
			return nil, scop.Errorf(fd.At, "FoldStorage of %s.%s: the window of %s does not only move forward over the loops between %s's storage and its computation", f.fs.Name, fd.Var, fd.Var, f.fs.Name)
		}
		fold[d], any = fd.Extent, true
	}
	if f.sliding {
		for d := range fold {
			if fold[d] > 0 {
				continue
			}
			span, ok, err := windowSpan(win, d)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if whole, isConst := scop.ConstInt(a.Extent[d]); isConst && whole <= span {
				continue
			}
			if fwd, err := b.forward(f, win, d); err != nil {
				return nil, err
			} else if fwd {
				fold[d], any = int64(1)<<bits.Len64(uint64(span-1)), true
			}
		}
	}
	if !any {
		return nil, nil
	}
	return fold, nil
}

// window maps each prefix of the loop f is computed in to the elements
// of f's array that the executions under it write or read.
func (b *callBuilder) window(f *callFunc) (presburger.Map, error) {
	d := f.depth
	w, err := b.footprint(f, d)
	if err != nil {
		return w, err
	}
	for _, c := range b.funcs {
		for _, t := range c.stmts {
			if !slices.ContainsFunc(t.Reads, func(r scop.Access) bool { return r.Array == f.fs.Name }) {
				continue
			}
			m, err := b.accessAt(c.full[t.Name], d, t.Reads, f.fs.Name)
			if err != nil {
				return w, err
			}
			if w, err = w.Union(m); err != nil {
				return w, err
			}
		}
	}
	return w.Coalesce()
}

// windowSpan is the largest number of consecutive elements of dimension
// d an iteration's window spans (ok false: unbounded).
func windowSpan(win presburger.Map, d int) (span int64, ok bool, err error) {
	n := win.Space().NOut()
	one, err := win.ProjectOut(presburger.DimOut, d+1, n-d-1)
	if err == nil {
		one, err = one.ProjectOut(presburger.DimOut, 0, d)
	}
	if err != nil {
		return 0, false, err
	}
	_, extent, ok := box(one, 1)
	if !ok {
		return 0, false, nil
	}
	return extent[0], true, nil
}

// forward reports whether the lowest element of dimension d that an
// iteration touches never decreases from one iteration to a later one
// of the loops between f's storage and its computation.
func (b *callBuilder) forward(f *callFunc, win presburger.Map, d int) (bool, error) {
	if f.storeDepth >= f.depth {
		return true, nil
	}
	n := win.Space().NOut()
	one, err := win.ProjectOut(presburger.DimOut, d+1, n-d-1)
	if err == nil {
		one, err = one.ProjectOut(presburger.DimOut, 0, d)
	}
	if err != nil {
		return false, err
	}
	low, err := one.LexMin()
	if err != nil {
		return false, err
	}
	dom, err := low.Domain()
	if err != nil {
		return false, err
	}
	var later presburger.Map
	for level := f.storeDepth; level < f.depth; level++ {
		m := presburger.LexLTAt(dom.Space(), level)
		if level == f.storeDepth {
			later = m
		} else if later, err = later.Union(m); err != nil {
			return false, err
		}
	}
	lowLater, err := later.ApplyRange(low) // q -> low(q') for q' after q
	if err != nil {
		return false, err
	}
	rev, err := low.Reverse()
	if err != nil {
		return false, err
	}
	pairs, err := rev.ApplyRange(lowLater) // low(q) -> low(q')
	if err != nil {
		return false, err
	}
	deltas, err := pairs.Deltas()
	if err != nil {
		return false, err
	}
	back, err := deltas.UpperBound(0, -1)
	if err != nil {
		return false, err
	}
	return back.IsEmpty()
}

// paramAffine reads an array extent as an affine function of the
// parameters.
func paramAffine(e scop.Expr) (Affine, bool) {
	switch x := e.(type) {
	case *scop.Const:
		return Affine{Const: x.I}, true
	case *scop.Param:
		return Affine{Params: map[string]int64{x.Name: 1}}, true
	case *scop.Binary:
		l, ok1 := paramAffine(x.X)
		r, ok2 := paramAffine(x.Y)
		if !ok1 || !ok2 {
			return Affine{}, false
		}
		switch {
		case x.Op == scop.Add:
			return l.plus(r, 1), true
		case x.Op == scop.Sub:
			return l.plus(r, -1), true
		case x.Op == scop.Mul && len(l.Params) == 0:
			return r.times(l.Const), true
		case x.Op == scop.Mul && len(r.Params) == 0:
			return l.times(r.Const), true
		}
	}
	return Affine{}, false
}

func (a Affine) plus(b Affine, k int64) Affine {
	out := Affine{Const: a.Const + k*b.Const, Params: map[string]int64{}}
	for n, v := range a.Params {
		out.Params[n] += v
	}
	for n, v := range b.Params {
		out.Params[n] += k * v
	}
	return out
}

// paramBox is box with extents that may be affine in the parameters (a
// row of an image of C columns): the origin is a lower bound and the
// extent an upper bound minus it, plus one, where the two move with the
// loops alike. Constant extents are preferred.
func paramBox(fp presburger.Map, rank int) (origin, size []Affine, ok bool) {
	if origin, extent, ok := box(fp, rank); ok {
		for _, e := range extent {
			size = append(size, Affine{Const: e})
		}
		return origin, size, true
	}
	h, err := fp.SimpleHull()
	if err != nil {
		return nil, nil, false
	}
	cs := h.Constraints()
	if len(cs) != 1 || cs[0].NLocal > 0 {
		ch, err := fp.ConvexHullWithin(hullEntries)
		if err != nil {
			return nil, nil, false
		}
		cs = ch.Constraints()
	}
	if len(cs) != 1 {
		return nil, nil, false
	}
	c, params := cs[0], fp.Space().Params
	first := 1 + c.NParam + c.NIn
	for _, b := range dimBounds(c, rank) {
		found := false
		for _, l := range b.lower {
			for _, u := range b.upper {
				if found || !slices.Equal(l[1+c.NParam:first], u[1+c.NParam:first]) {
					continue
				}
				diff := make([]int64, first)
				for i := range diff {
					diff[i] = u[i] - l[i]
				}
				diff[0]++
				sz := boundAffine(diff, params, first)
				sz.Tile = nil
				origin, size, found = append(origin, boundAffine(l, params, first)), append(size, sz), true
			}
		}
		if !found {
			return nil, nil, false
		}
	}
	return origin, size, true
}

func (a Affine) times(k int64) Affine {
	out := Affine{Const: a.Const * k, Params: map[string]int64{}}
	for n, v := range a.Params {
		out.Params[n] = v * k
	}
	return out
}
