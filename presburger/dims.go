package presburger

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/internal/arith"
)

// DimKind selects a kind of variable: parameters, input or output dimensions
// (a set's dimensions are output dimensions).
type DimKind int

// The dimension kinds.
const (
	DimParam DimKind = iota
	DimIn
	DimOut
)

const dimOut = DimOut

// kindRange returns the first variable index and count of kind k.
func (r rel) kindRange(k DimKind) (off, n int) {
	np, ni, no := r.dims()
	switch k {
	case DimParam:
		return 0, np
	case DimIn:
		return np, ni
	default:
		return np + ni, no
	}
}

func (r rel) checkRange(op string, k DimKind, first, n int) int {
	off, cnt := r.kindRange(k)
	if first < 0 || n < 0 || first+n > cnt {
		panic(internalError{fmt.Errorf("presburger: %s: dimensions [%d, %d) out of range (%d)", op, first, first+n, cnt)})
	}
	return off
}

// reshape returns sp with the names of kind k replaced; tuples whose dims
// change lose their name and nesting, as in isl.
func reshape(sp Space, k DimKind, names []string) Space {
	switch k {
	case DimParam:
		sp.Params = names
	case DimIn:
		sp.In = Tuple{Dims: names}
	default:
		sp.Out = Tuple{Dims: names}
	}
	return sp
}

func (r rel) kindNames(k DimKind) []string {
	switch k {
	case DimParam:
		return append([]string(nil), r.space.Params...)
	case DimIn:
		return append([]string(nil), r.space.In.flatNames()...)
	default:
		return append([]string(nil), r.space.Out.flatNames()...)
	}
}

// projectOut existentially quantifies n variables of kind k from first.
func (r rel) projectOut(k DimKind, first, n int) rel {
	off := r.checkRange("project_out", k, first, n)
	if n == 0 {
		return r
	}
	nv := r.space.NParam() + r.space.NIn() + r.space.NOut()
	vm := make([]int, nv)
	for i := range vm {
		switch {
		case i < off+first:
			vm[i] = i
		case i < off+first+n:
			vm[i] = -1
		default:
			vm[i] = i - n
		}
	}
	names := r.kindNames(k)
	names = append(names[:first], names[first+n:]...)
	return r.transform(reshape(r.space, k, names), vm)
}

// eliminate drops all constraints on the given variables, keeping them.
func (r rel) eliminate(k DimKind, first, n int) rel {
	p := r.projectOut(k, first, n)
	return p.insertDims(k, first, n).withSpace(r.space)
}

func (r rel) withSpace(sp Space) rel {
	r.space = sp
	return r
}

// insertDims inserts n free variables of kind k at pos.
func (r rel) insertDims(k DimKind, pos, n int) rel {
	off := r.checkRange("insert_dims", k, pos, 0)
	if n == 0 {
		return r
	}
	nv := r.space.NParam() + r.space.NIn() + r.space.NOut()
	vm := make([]int, nv)
	for i := range vm {
		vm[i] = i
		if i >= off+pos {
			vm[i] = i + n
		}
	}
	names := r.kindNames(k)
	names = append(names[:pos], append(make([]string, n), names[pos:]...)...)
	if k == DimParam {
		for i := pos; i < pos+n; i++ {
			names[i] = fmt.Sprintf("p%d", i)
		}
	}
	return r.transform(reshape(r.space, k, names), vm)
}

// moveDims moves n variables of kind k from src to dst (indices within the
// kind, dst counted after removal).
func (r rel) moveDims(k DimKind, dst, src, n int) rel {
	off := r.checkRange("move_dims", k, src, n)
	_, cnt := r.kindRange(k)
	if dst < 0 || dst+n > cnt {
		r.checkRange("move_dims", k, dst, n)
	}
	order := seq(0, cnt)
	moved := append([]int(nil), order[src:src+n]...)
	rest := append(append([]int(nil), order[:src]...), order[src+n:]...)
	perm := append(append(append([]int(nil), rest[:dst]...), moved...), rest[dst:]...)
	nv := r.space.NParam() + r.space.NIn() + r.space.NOut()
	vm := seq(0, nv)
	oldNames := r.kindNames(k)
	names := make([]string, cnt)
	for newPos, oldPos := range perm {
		vm[off+oldPos] = off + newPos
		names[newPos] = oldNames[oldPos]
	}
	return r.transform(reshape(r.space, k, names), vm)
}

func (r rel) fixDim(k DimKind, pos int, val int64) rel {
	off := r.checkRange("fix", k, pos, 1)
	return r.boundVar(off+pos, 1, arith.Neg(val), true)
}

func (r rel) lowerBound(k DimKind, pos int, val int64) rel {
	off := r.checkRange("lower_bound", k, pos, 1)
	return r.boundVar(off+pos, 1, arith.Neg(val), false)
}

func (r rel) upperBound(k DimKind, pos int, val int64) rel {
	off := r.checkRange("upper_bound", k, pos, 1)
	return r.boundVar(off+pos, -1, val, false)
}

// contains reports whether the variable vector pt lies in r.
func (r rel) contains(pt []int64) bool {
	np, ni, no := r.dims()
	if len(pt) != np+ni+no {
		panic(internalError{fmt.Errorf("presburger: point has %d coordinates, space has %d", len(pt), np+ni+no)})
	}
	vals := append([]int64{1}, pt...)
	for _, b := range r.parts {
		if b.empty {
			continue
		}
		if full, ok := b.evalDivs(vals); ok {
			if b.holds(full) {
				return true
			}
			continue
		}
		fixed := b.clone()
		for j := range pt {
			row := make([]int64, fixed.nCol())
			row[0], row[1+j] = arith.Neg(pt[j]), 1
			fixed.eqs = append(fixed.eqs, row)
		}
		if !fixed.simplify().isEmpty() {
			return true
		}
	}
	return false
}

// reduceAll runs the simplex-based simplification on every piece.
func (r rel) reduceAll() rel {
	out := rel{space: r.space}
	for _, b := range r.parts {
		if c := b.clone().reduce(); !c.empty {
			out.parts = append(out.parts, c)
		}
	}
	return out
}
