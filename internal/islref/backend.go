//go:build isl && cgo

package islref

// #include <isl/set.h>
// #include <isl/map.h>
// #include <isl/union_set.h>
// #include <isl/union_map.h>
import "C"

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

// backend evaluates calculator operations with isl union sets and maps.
type backend struct{ c *ctx }

// Literal reads a literal's raw text as isl does.
func (b backend) Literal(src string) (calc.Value, error) {
	b.c.resetQuota()
	o, err := b.c.read(src, 0)
	if err != nil {
		return calc.Value{}, err
	}
	return calc.Value{Kind: o.kind, X: o}, nil
}

func (b backend) Format(v calc.Value) string { return v.X.(*obj).String() }

func (b backend) Do(op calc.Op, args []calc.Value) (calc.Value, error) {
	b.c.resetQuota()
	c := b.c
	x := args[0].X.(*obj)
	var y *obj
	if len(args) > 1 {
		y = args[1].X.(*obj)
	}
	val := func(o *obj, err error) (calc.Value, error) {
		if err != nil {
			return calc.Value{}, err
		}
		return calc.Value{Kind: o.kind, X: o}, nil
	}
	boolean := func(r C.isl_bool) (calc.Value, error) {
		t, err := c.boolean(r, op.String())
		return calc.Value{Kind: calc.BoolKind, Bool: t}, err
	}
	name := op.String()
	isMap := x.kind == calc.MapKind
	switch op {
	case calc.OpUnion:
		if isMap {
			return val(c.umap(C.isl_union_map_union(x.copyMap(), y.copyMap()), name))
		}
		return val(c.uset(C.isl_union_set_union(x.copySet(), y.copySet()), name))
	case calc.OpSubtract:
		if isMap {
			return val(c.umap(C.isl_union_map_subtract(x.copyMap(), y.copyMap()), name))
		}
		return val(c.uset(C.isl_union_set_subtract(x.copySet(), y.copySet()), name))
	case calc.OpIntersect:
		if isMap {
			return val(c.umap(C.isl_union_map_intersect(x.copyMap(), y.copyMap()), name))
		}
		return val(c.uset(C.isl_union_set_intersect(x.copySet(), y.copySet()), name))
	case calc.OpGist:
		var o *obj
		var err error
		if isMap {
			o, err = c.umap(C.isl_union_map_gist(x.copyMap(), y.copyMap()), name)
		} else {
			o, err = c.uset(C.isl_union_set_gist(x.copySet(), y.copySet()), name)
		}
		if err == nil {
			o.gistOf = [2]*obj{x, y}
		}
		return val(o, err)
	case calc.OpIntersectDomain:
		return val(c.umap(C.isl_union_map_intersect_domain_union_set(x.copyMap(), y.copySet()), name))
	case calc.OpApplyRange:
		return val(c.umap(C.isl_union_map_apply_range(x.copyMap(), y.copyMap()), name))
	case calc.OpApply:
		return val(c.uset(C.isl_union_set_apply(x.copySet(), y.copyMap()), name))
	case calc.OpIsEqual:
		if isMap {
			return boolean(C.isl_union_map_is_equal(x.um, y.um))
		}
		return boolean(C.isl_union_set_is_equal(x.us, y.us))
	case calc.OpIsSubset:
		if isMap {
			return boolean(C.isl_union_map_is_subset(x.um, y.um))
		}
		return boolean(C.isl_union_set_is_subset(x.us, y.us))
	case calc.OpReverse:
		return val(c.umap(C.isl_union_map_reverse(x.copyMap()), name))
	case calc.OpDomain:
		return val(c.uset(C.isl_union_map_domain(x.copyMap()), name))
	case calc.OpRange:
		return val(c.uset(C.isl_union_map_range(x.copyMap()), name))
	case calc.OpDeltas:
		return val(c.uset(C.isl_union_map_deltas(x.copyMap()), name))
	case calc.OpLexMin:
		if isMap {
			return val(c.umap(C.isl_union_map_lexmin(x.copyMap()), name))
		}
		return val(c.uset(C.isl_union_set_lexmin(x.copySet()), name))
	case calc.OpLexMax:
		if isMap {
			return val(c.umap(C.isl_union_map_lexmax(x.copyMap()), name))
		}
		return val(c.uset(C.isl_union_set_lexmax(x.copySet()), name))
	case calc.OpCoalesce:
		// Coalescing must not change the set, so the reference is the
		// operand itself: isl 0.25's own coalesce is wrong on some inputs,
		// e.g. it turns { A[i] : -3 <= i < -1; A[i] : -3 <= i <= 1 and
		// not (exists (e : i = 2e and 0 <= e <= 2)) } into -3 <= i <= 2.
		if isMap {
			return val(c.umap(C.isl_union_map_copy(x.um), name))
		}
		return val(c.uset(C.isl_union_set_copy(x.us), name))
	case calc.OpSample:
		o, err := b.c.sample(x)
		if err == nil {
			o.sampleOf = x
		}
		return val(o, err)
	case calc.OpParams:
		if isMap {
			return val(c.uset(C.isl_union_set_from_set(C.isl_union_map_params(x.copyMap())), name))
		}
		return val(c.uset(C.isl_union_set_from_set(C.isl_union_set_params(x.copySet())), name))
	case calc.OpCard:
		n, err := c.count(x)
		return calc.Value{Kind: calc.IntKind, Int: n}, err
	}
	return calc.Value{}, fmt.Errorf("isl backend: unknown operation %v", op)
}

func (c *ctx) isEmpty(x *obj) (bool, error) {
	if x.kind == calc.MapKind {
		return c.boolean(C.isl_union_map_is_empty(x.um), "is_empty")
	}
	return c.boolean(C.isl_union_set_is_empty(x.us), "is_empty")
}
