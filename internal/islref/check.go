//go:build isl && cgo

package islref

// #include <isl/set.h>
// #include <isl/union_set.h>
// #include <isl/union_map.h>
import "C"

import (
	"fmt"

	"github.com/tilefuse/tilefuse/presburger/calc"
)

// Run is a program evaluated by isl. It owns isl objects: call Free.
type Run struct {
	c *ctx
	// Outputs are the printed statements up to Err; Text is isl's printing.
	Outputs []calc.Output
	// Err is the error that stopped the evaluation, if any.
	Err error
}

// Eval evaluates prog with isl.
func Eval(prog *calc.Program) *Run {
	r := &Run{c: newCtx()}
	r.Err = calc.Run(prog, backend{r.c}, func(o calc.Output) error {
		r.Outputs = append(r.Outputs, o)
		return nil
	})
	return r
}

// Free releases the isl objects and context of the run.
func (r *Run) Free() {
	if r.c != nil {
		r.c.free()
		r.c = nil
	}
}

// Check reports whether text, what tilefuse printed for output i, agrees
// with isl: booleans must be identical; isl must read a set or map and find
// it equal to its own result, except for sample (any single element of the
// operand, empty exactly when the operand is) and gist (equal to isl's
// result within the context). A nil error means agreement.
func (r *Run) Check(i int, text string) error {
	v := r.Outputs[i].Value
	if v.Kind == calc.BoolKind || v.Kind == calc.IntKind {
		if want := r.Outputs[i].Text; text != want {
			return fmt.Errorf("isl says %s, tilefuse says %s", want, text)
		}
		return nil
	}
	c := r.c
	c.resetQuota()
	defer c.release(len(c.objs))
	want := v.X.(*obj)
	got, err := c.read(text, want.kind)
	if err != nil {
		return fmt.Errorf("isl cannot read tilefuse's output: %w", err)
	}
	switch {
	case want.sampleOf != nil:
		return c.checkSample(want.sampleOf, got)
	case want.gistOf[0] != nil:
		// gist(A, B) may be any X with X * B = A * B.
		a, b := want.gistOf[0], want.gistOf[1]
		x, err := backend{c}.Do(calc.OpIntersect, []calc.Value{{Kind: got.kind, X: got}, {Kind: b.kind, X: b}})
		if err != nil {
			return err
		}
		y, err := backend{c}.Do(calc.OpIntersect, []calc.Value{{Kind: a.kind, X: a}, {Kind: b.kind, X: b}})
		if err != nil {
			return err
		}
		eq, err := c.equal(x.X.(*obj), y.X.(*obj))
		if err != nil || eq {
			return err
		}
		return fmt.Errorf("gist differs within the context: isl says %s", want)
	}
	eq, err := c.equal(want, got)
	if err != nil || eq {
		return err
	}
	return fmt.Errorf("not equal to isl's %s", want)
}

func (c *ctx) equal(a, b *obj) (bool, error) {
	if a.kind == calc.MapKind {
		return c.boolean(C.isl_union_map_is_equal(a.um, b.um), "is_equal")
	}
	return c.boolean(C.isl_union_set_is_equal(a.us, b.us), "is_equal")
}

func (c *ctx) subset(a, b *obj) (bool, error) {
	if a.kind == calc.MapKind {
		return c.boolean(C.isl_union_map_is_subset(a.um, b.um), "is_subset")
	}
	return c.boolean(C.isl_union_set_is_subset(a.us, b.us), "is_subset")
}

// checkSample checks that got is one element of x, or empty when x is.
func (c *ctx) checkSample(x, got *obj) error {
	xEmpty, err := c.isEmpty(x)
	if err != nil {
		return err
	}
	gotEmpty, err := c.isEmpty(got)
	if err != nil {
		return err
	}
	switch {
	case xEmpty && !gotEmpty:
		return fmt.Errorf("sample of an empty operand is not empty")
	case !xEmpty && gotEmpty:
		return fmt.Errorf("sample is empty but the operand is not, e.g. isl samples %s", mustSample(c, x))
	case xEmpty:
		return nil
	}
	sub, err := c.subset(got, x)
	if err != nil {
		return err
	}
	if !sub {
		return fmt.Errorf("sample is not in the operand %s", x)
	}
	one, err := c.isSinglePoint(got)
	if err != nil {
		return err
	}
	if !one {
		return fmt.Errorf("sample is not a single point (parameters included)")
	}
	return nil
}

func mustSample(c *ctx, x *obj) string {
	s, err := c.sample(x)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return s.String()
}

// isSinglePoint reports whether t holds exactly one element, counting the
// parameters as coordinates as isl's sample points do.
func (c *ctx) isSinglePoint(t *obj) (bool, error) {
	var us *C.isl_union_set
	if t.kind == calc.MapKind {
		us = C.isl_union_map_wrap(t.copyMap())
	} else {
		us = t.copySet()
	}
	if n := C.isl_union_set_n_set(us); n != 1 {
		C.isl_union_set_free(us)
		if n < 0 {
			return false, c.err("n_set")
		}
		return false, nil
	}
	set := C.isl_set_from_union_set(us)
	np := C.isl_set_dim(set, C.isl_dim_param)
	set = C.isl_set_move_dims(set, C.isl_dim_set, 0, C.isl_dim_param, 0, C.uint(np))
	defer C.isl_set_free(set)
	return c.boolean(C.isl_set_is_singleton(set), "is_singleton")
}

// Equal reports whether isl reads a and b as equal sets (kind SetKind) or
// maps (MapKind), e.g. a golden text and what tilefuse printed now.
func Equal(kind calc.Kind, a, b string) (bool, error) {
	c := newCtx()
	defer c.free()
	x, err := c.read(a, kind)
	if err != nil {
		return false, err
	}
	y, err := c.read(b, kind)
	if err != nil {
		return false, err
	}
	return c.equal(x, y)
}
